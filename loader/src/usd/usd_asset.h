// The UsdSkel loader's entry points (sinew/loader/usd.h) that also hand back the composed stage
// they loaded the asset from, for a caller inside the project that reads more of it (`sinew info`
// outlines the stage's SkelRoots, Skeletons and SkelAnimations) without composing it again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "sinew/core/error.h"
#include "sinew/loader/loaded_asset.h"
#include "sinew/loader/usd.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

// LoadUsdaFromMemory (the layer read as text) and LoadUsdFromMemory (any of the three encodings),
// the composed stage moved into *stage where given (on success).
Result<LoadedAsset> LoadUsdaStage(std::span<const uint8_t> bytes, const std::filesystem::path& path,
                                  const UsdOptions& options, Layer* stage);
Result<LoadedAsset> LoadUsdStage(std::span<const uint8_t> bytes, const std::filesystem::path& path,
                                 const UsdOptions& options, Layer* stage);

}  // namespace sinew::loader::usd
