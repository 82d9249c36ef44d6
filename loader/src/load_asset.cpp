#include "sinew/loader/load_asset.h"

#include <cstring>
#include <utility>

#include "common/load_status.h"
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
  SINEW_TRY_ASSIGN(const FileBytes file, ReadFile(path));
  const std::span<const uint8_t> bytes(file.data(), file.size);
  LoadedFile out;
  out.format = DetectAssetFormat(path, bytes);
  SINEW_TRY_ASSIGN(out.loaded, out.format == AssetFormat::kG4mf
                                   ? LoadG4mfFromMemory(bytes, path.parent_path())
                                   : LoadGltfFromMemory(bytes, path.parent_path()));
  return out;
}

}  // namespace sinew::loader
