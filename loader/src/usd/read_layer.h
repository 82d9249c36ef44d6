// One USD layer in any of its three encodings, told apart by content: a zip archive is a .usdz
// package (its root layer is read), "PXR-USDC" starts a crate file (.usdc), anything else is read
// as .usda text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "sinew/core/error.h"
#include "usd/compose_stage.h"
#include "usd/crate_reader.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

// The encodings, for callers that report which one a file was.
enum class LayerEncoding : uint8_t { kUsda, kUsdc, kUsdz };

LayerEncoding DetectLayerEncoding(std::span<const uint8_t> bytes) noexcept;

// The layer. A package's errors name the packaged file in front of their `where`
// ("Robot.usdc: SPECS at byte 812"); a package whose root layer is itself a package is refused
// (kUnsupportedFeature).
// `options` bound the crate reader (the fuzz target lowers its allocation limit).
Result<Layer> ReadLayer(std::span<const uint8_t> bytes, const UsdcOptions& options = {});

// ReadLayer's layer with its name for references to be relative to: a package's root layer is
// named as the archive names it ("Robot.usdc"), a layer file `name`.
Result<OpenedLayer> ReadNamedLayer(std::span<const uint8_t> bytes, std::string name,
                                   const UsdcOptions& options = {});

// What opens the layers that the layer in `bytes` references (compose_stage.h): in a
// package, the packaged layers, relative to the packaged layer that references each; for a layer
// file (`named`), the files beside it, read through `read` (ReadFile where empty), each file it
// reads appended to `files_read` where given (once: LoadedAsset::external_files); for a layer read
// from memory, none (kFileNotFound). `options` bound the crate reader for each layer opened.
LayerOpener OpenerFor(std::span<const uint8_t> bytes, bool named, const UsdcOptions& options = {},
                      std::vector<std::filesystem::path>* files_read = nullptr,
                      const FileReader& read = {});

// `opened`, read from `bytes` (the contents of a file when `named`), with its references composed
// through OpenerFor (`usd`: the bound on their expansion and the variant choices, ComposeStage's,
// and the reader of the files beside it; `files_read` as there).
Result<Layer> ComposeLayer(OpenedLayer opened, std::span<const uint8_t> bytes, bool named,
                           const UsdOptions& usd, const UsdcOptions& options = {},
                           std::vector<std::filesystem::path>* files_read = nullptr);

// ReadNamedLayer, then ComposeLayer: the stage a file (named by its path) or a
// package holds, as the UsdSkel loader reads it.
Result<Layer> ReadComposedLayer(std::span<const uint8_t> bytes, std::string name,
                                const UsdOptions& usd, const UsdcOptions& options = {},
                                std::vector<std::filesystem::path>* files_read = nullptr);

}  // namespace sinew::loader::usd
