// One USD layer in any of its three encodings, told apart by content: a zip archive is a .usdz
// package (its root layer is read), "PXR-USDC" starts a crate file (.usdc), anything else is read
// as .usda text.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/core/error.h"
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

}  // namespace sinew::loader::usd
