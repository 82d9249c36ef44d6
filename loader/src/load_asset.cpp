#include "sinew/loader/load_asset.h"

#include <cstring>
#include <utility>

#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/gltf.h"

namespace sinew::loader {

const char* ToString(AssetFormat format) {
  return format == AssetFormat::kG4mf ? "G4MF (3D)" : "glTF 2.0";
}

AssetFormat DetectAssetFormat(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return AssetFormat::kGltf;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "G4MF", 4) == 0) return AssetFormat::kG4mf;
  const std::filesystem::path extension = path.extension();
  return extension == ".g4tf" || extension == ".g4b" ? AssetFormat::kG4mf : AssetFormat::kGltf;
}

Result<LoadedFile> LoadAsset(const std::filesystem::path& path) {
  auto file = ReadFile(path);
  if (!file) return file.status();
  const std::span<const uint8_t> bytes(file->data(), file->size);
  LoadedFile out;
  out.format = DetectAssetFormat(path, bytes);
  auto loaded = out.format == AssetFormat::kG4mf ? LoadG4mfFromMemory(bytes, path.parent_path())
                                                 : LoadGltfFromMemory(bytes, path.parent_path());
  if (!loaded) return loaded.status();
  out.loaded = std::move(loaded.value());
  return out;
}

}  // namespace sinew::loader
