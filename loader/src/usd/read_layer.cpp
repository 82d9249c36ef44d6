#include "usd/read_layer.h"

#include <cstring>
#include <string_view>
#include <utility>

#include "usd/crate_reader.h"
#include "usd/usda_parser.h"
#include "usd/usdz_package.h"

namespace sinew::loader::usd {

LayerEncoding DetectLayerEncoding(std::span<const uint8_t> bytes) noexcept {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0) {
    return LayerEncoding::kUsdz;
  }
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), "PXR-USDC", 8) == 0) {
    return LayerEncoding::kUsdc;
  }
  return LayerEncoding::kUsda;
}

namespace {

// A layer file's bytes, .usda or .usdc (not a package).
Result<Layer> ReadLayerFile(std::span<const uint8_t> bytes, const UsdcOptions& options) {
  if (DetectLayerEncoding(bytes) == LayerEncoding::kUsdc) return ReadUsdc(bytes, options);
  return ReadUsda(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace

Result<Layer> ReadLayer(std::span<const uint8_t> bytes, const UsdcOptions& options) {
  if (DetectLayerEncoding(bytes) != LayerEncoding::kUsdz) return ReadLayerFile(bytes, options);
  auto root = UsdzRootLayer(bytes);
  if (!root.ok()) return root.status();
  const PackagedFile& file = root.value();
  if (DetectLayerEncoding(file.bytes) == LayerEncoding::kUsdz) {
    return Status(Error::kUnsupportedFeature, "a package whose root layer is a package", file.name);
  }
  auto layer = ReadLayerFile(file.bytes, options);
  if (layer.ok()) return layer;
  ErrorInfo error = layer.error();
  error.where = file.name + (error.where.empty() ? "" : ": ") + error.where;
  return Status(std::move(error));
}

}  // namespace sinew::loader::usd
