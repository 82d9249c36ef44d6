// LoadAssetFromMemory (sinew/loader/load_asset.h) that also hands back a USD file's composed stage
// (usd/usd_asset.h), for `sinew info`, which outlines the stage beyond the asset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "sinew/core/error.h"
#include "sinew/loader/load_asset.h"
#include "usd/layer.h"

namespace sinew::loader {

// LoadAssetFromMemory; for a USD file the composed stage is moved into *stage where given (it is
// left as it was for glTF and G4MF, and on errors).
Result<LoadedFile> LoadAssetAndStage(const std::filesystem::path& path,
                                     std::span<const uint8_t> bytes, const AssetOptions& options,
                                     usd::Layer* stage);

}  // namespace sinew::loader
