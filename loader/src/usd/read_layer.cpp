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

Result<Layer> ReadLayer(std::span<const uint8_t> bytes, const UsdcOptions& options) {
  switch (DetectLayerEncoding(bytes)) {
    case LayerEncoding::kUsdc:
      return ReadUsdc(bytes, options);
    case LayerEncoding::kUsda:
      return ReadUsda(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    case LayerEncoding::kUsdz:
      break;
  }
  auto root = UsdzRootLayer(bytes);
  if (!root.ok()) return root.status();
  const PackagedFile& file = root.value();
  if (DetectLayerEncoding(file.bytes) == LayerEncoding::kUsdz) {
    return Status(Error::kUnsupportedFeature, "a package whose root layer is a package", file.name);
  }
  auto layer = DetectLayerEncoding(file.bytes) == LayerEncoding::kUsdc
                   ? ReadUsdc(file.bytes, options)
                   : ReadUsda(std::string_view(reinterpret_cast<const char*>(file.bytes.data()),
                                               file.bytes.size()));
  if (layer.ok()) return layer;
  ErrorInfo error = layer.error();
  error.where = file.name + (error.where.empty() ? "" : ": ") + error.where;
  return Status(std::move(error));
}

}  // namespace sinew::loader::usd
