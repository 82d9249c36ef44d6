#include "sinew/loader/load_asset.h"

#include <cctype>
#include <cstring>
#include <string>
#include <utility>

#include "common/load_status.h"
#include "load_asset_stage.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/usd.h"
#include "usd/usd_asset.h"

namespace sinew::loader {

const char* ToString(AssetFormat format) {
  switch (format) {
    case AssetFormat::kG4mf:
      return "G4MF (3D)";
    case AssetFormat::kUsda:
      return "USD (.usda)";
    case AssetFormat::kUsdc:
      return "USD (.usdc)";
    case AssetFormat::kUsdz:
      return "USD (.usdz)";
    case AssetFormat::kGltf:
      break;
  }
  return "glTF 2.0";
}

namespace {

// The path's extension in lower case: exporters on case-insensitive file systems write ".GLB" and
// ".Usda" as often as ".glb".
std::string LowerCaseExtension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& ch : extension) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return extension;
}

}  // namespace

AssetFormat DetectAssetFormat(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return AssetFormat::kGltf;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "G4MF", 4) == 0) return AssetFormat::kG4mf;
  if (bytes.size() >= 5 && std::memcmp(bytes.data(), "#usda", 5) == 0) return AssetFormat::kUsda;
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), "PXR-USDC", 8) == 0) return AssetFormat::kUsdc;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0)
    return AssetFormat::kUsdz;
  const std::string extension = LowerCaseExtension(path);
  if (extension == ".usdz") return AssetFormat::kUsdz;
  if (extension == ".usdc") return AssetFormat::kUsdc;
  // (.usd is either encoding: a crate file has its magic, so without one it is text.)
  if (extension == ".usda" || extension == ".usd") return AssetFormat::kUsda;
  return extension == ".g4tf" || extension == ".g4b" ? AssetFormat::kG4mf : AssetFormat::kGltf;
}

Result<LoadedFile> LoadAsset(const std::filesystem::path& path, const AssetOptions& options) {
  // The reader for every format, else that of the format the extension names (the content,
  // which decides, is not read yet).
  const FileReader* read = &options.read_file;
  if (!*read) {
    const AssetFormat format = DetectAssetFormat(path, {});
    read = IsUsd(format)                  ? &options.usd.read_file
           : format == AssetFormat::kG4mf ? &options.g4mf.read_file
                                          : &options.gltf.read_file;
  }
  SINEW_TRY_ASSIGN(const FileBytes file, ReadFileWith(*read, path));
  return LoadAssetFromMemory(path, std::span<const uint8_t>(file.data(), file.size), options);
}

Result<LoadedFile> LoadAssetFromMemory(const std::filesystem::path& path,
                                       std::span<const uint8_t> bytes,
                                       const AssetOptions& options) {
  return LoadAssetAndStage(path, bytes, options, nullptr);
}

Result<LoadedFile> LoadAssetAndStage(const std::filesystem::path& path,
                                     std::span<const uint8_t> bytes, const AssetOptions& options,
                                     usd::Layer* stage) {
  LoadedFile out;
  out.format = DetectAssetFormat(path, bytes);
  if (bytes.empty()) {
    // No header or text to read: said in the terms of the format the name gives.
    const std::string extension = LowerCaseExtension(path);
    const Error code = out.format == AssetFormat::kUsdc || out.format == AssetFormat::kUsdz
                           ? Error::kInvalidUsdc
                       : out.format == AssetFormat::kUsda ? Error::kUsdaSyntax
                       : extension == ".g4b"              ? Error::kInvalidG4b
                       : extension == ".glb"              ? Error::kInvalidGlb
                                                          : Error::kJsonSyntax;
    return ErrorInfo{code, "the file is empty (0 bytes)", path.string(), 0};
  }
  // A .usdz is a zip archive: named so but without the zip signature, it is no package (read on,
  // it would be taken for .usda text and its bytes shown as a header).
  if (out.format == AssetFormat::kUsdz && !(bytes.size() >= 4 && bytes[0] == 'P' &&
                                            bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4)) {
    return ErrorInfo{Error::kInvalidUsdc,
                     "not a zip archive: a .usdz package starts with the signature PK\\3\\4",
                     "byte 0", 0};
  }
  // The format's own reader, else the one given for every format.
  const auto with_reader = [&](auto format) {
    if (!format.read_file) format.read_file = options.read_file;
    return format;
  };
  const auto load = [&]() -> Result<LoadedAsset> {
    switch (out.format) {
      case AssetFormat::kG4mf:
        return LoadG4mfFromMemory(bytes, path.parent_path(), with_reader(options.g4mf));
      case AssetFormat::kUsda:
        return usd::LoadUsdaStage(bytes, path, with_reader(options.usd), stage);
      case AssetFormat::kUsdc:
      case AssetFormat::kUsdz:
        return usd::LoadUsdStage(bytes, path, with_reader(options.usd), stage);
      case AssetFormat::kGltf:
        break;
    }
    return LoadGltfFromMemory(bytes, path.parent_path(), with_reader(options.gltf));
  };
  SINEW_TRY_ASSIGN(out.loaded, load());
  return out;
}

}  // namespace sinew::loader
