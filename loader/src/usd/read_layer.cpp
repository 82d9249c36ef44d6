#include "usd/read_layer.h"

#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/load_status.h"
#include "sinew/loader/file.h"
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

// A packaged layer file, its errors naming it.
Result<Layer> ReadPackagedLayer(const PackagedFile& file, const UsdcOptions& options) {
  if (DetectLayerEncoding(file.bytes) == LayerEncoding::kUsdz) {
    return Status(Error::kUnsupportedFeature, "a package inside a package", file.name);
  }
  auto layer = ReadLayerFile(file.bytes, options);
  if (layer.ok()) return layer;
  ErrorInfo error = layer.error();
  error.where = file.name + (error.where.empty() ? "" : ": ") + error.where;
  return Status(std::move(error));
}

}  // namespace

Result<OpenedLayer> ReadNamedLayer(std::span<const uint8_t> bytes, std::string name,
                                   const UsdcOptions& options) {
  if (DetectLayerEncoding(bytes) != LayerEncoding::kUsdz) {
    SINEW_TRY_ASSIGN(Layer layer, ReadLayerFile(bytes, options));
    return OpenedLayer{std::move(layer), std::move(name)};
  }
  SINEW_TRY_ASSIGN(const PackagedFile file, UsdzRootLayer(bytes));
  SINEW_TRY_ASSIGN(Layer layer, ReadPackagedLayer(file, options));
  return OpenedLayer{std::move(layer), file.name};
}

Result<Layer> ReadLayer(std::span<const uint8_t> bytes, const UsdcOptions& options) {
  SINEW_TRY_ASSIGN(OpenedLayer opened, ReadNamedLayer(bytes, std::string(), options));
  return std::move(opened.layer);
}

LayerOpener OpenerFor(std::span<const uint8_t> bytes, bool named, const UsdcOptions& options,
                      std::vector<std::filesystem::path>* files_read, const FileReader& read) {
  if (DetectLayerEncoding(bytes) == LayerEncoding::kUsdz) {
    // The package's files by name, walked (and their CRCs checked) once, on the first reference.
    auto files = std::make_shared<std::unordered_map<std::string, PackagedFile>>();
    return [bytes, options, files](const std::string& name) -> Result<OpenedLayer> {
      if (files->empty()) {
        SINEW_TRY_ASSIGN(std::vector<PackagedFile> all, UsdzFiles(bytes));
        for (PackagedFile& f : all) files->try_emplace(f.name, std::move(f));
      }
      const auto it = files->find(name);
      if (it == files->end()) {
        return Status(Error::kFileNotFound, "the package holds no file named " + name, "usdz");
      }
      SINEW_TRY_ASSIGN(Layer layer, ReadPackagedLayer(it->second, options));
      return OpenedLayer{std::move(layer), name};
    };
  }
  if (named) {
    return [options, files_read, read](const std::string& name) -> Result<OpenedLayer> {
      SINEW_TRY_ASSIGN(const FileBytes file, ReadFileWith(read, name));
      if (files_read != nullptr) files_read->emplace_back(name);  // (ComposeStage opens each once)
      const std::span<const uint8_t> contents(file.data(), file.size);
      if (DetectLayerEncoding(contents) == LayerEncoding::kUsdz) {
        // Its own references would be inside it, where this opener does not look.
        return Status(Error::kUnsupportedFeature, "a reference to a .usdz package", name);
      }
      return ReadNamedLayer(contents, name, options);
    };
  }
  return [](const std::string& name) -> Result<OpenedLayer> {
    return Status(Error::kFileNotFound,
                  "a layer read from memory cannot open another file (load it from its path)",
                  name);
  };
}

Result<Layer> ComposeLayer(OpenedLayer opened, std::span<const uint8_t> bytes, bool named,
                           const UsdOptions& usd, const UsdcOptions& options,
                           std::vector<std::filesystem::path>* files_read) {
  const std::filesystem::path root = std::filesystem::path(opened.name).lexically_normal();
  auto composed = ComposeStage(std::move(opened.layer), opened.name,
                               OpenerFor(bytes, named, options, files_read, usd.read_file), usd);
  // A layer that references the root layer's own file reads it again: that is no file beside it.
  // (On disk, by any spelling; through the engine's reader, whose files may not be on disk at
  // all, by its path.)
  if (files_read != nullptr) {
    std::erase_if(*files_read, [&](const std::filesystem::path& p) {
      std::error_code ec;  // (a file that is not there is no root layer)
      return p.lexically_normal() == root ||
             (!usd.read_file && std::filesystem::equivalent(p, root, ec));
    });
  }
  return composed;
}

Result<Layer> ReadComposedLayer(std::span<const uint8_t> bytes, std::string name,
                                const UsdOptions& usd, const UsdcOptions& options,
                                std::vector<std::filesystem::path>* files_read) {
  const bool named = !name.empty();
  SINEW_TRY_ASSIGN(OpenedLayer opened, ReadNamedLayer(bytes, std::move(name), options));
  return ComposeLayer(std::move(opened), bytes, named, usd, options, files_read);
}

}  // namespace sinew::loader::usd
