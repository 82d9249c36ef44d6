// Loading an asset whatever its format: what `sinew info`, `bake` and `bench` accept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "sinew/core/error.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/loaded_asset.h"
#include "sinew/loader/usd.h"

namespace sinew::loader {

enum class AssetFormat : uint8_t { kGltf, kG4mf, kUsda, kUsdc, kUsdz };

// "glTF 2.0", "G4MF (3D)", "USD (.usda)", "USD (.usdc)" or "USD (.usdz)".
const char* ToString(AssetFormat format);

// Whether the format is one of USD's three encodings.
constexpr bool IsUsd(AssetFormat format) noexcept {
  return format == AssetFormat::kUsda || format == AssetFormat::kUsdc ||
         format == AssetFormat::kUsdz;
}

// By content first (the GLB magic "glTF", the .g4b magic "G4MF", the "#usda" header, the crate
// magic "PXR-USDC", a zip archive's "PK\3\4" for .usdz), then by extension, whatever its case
// (.g4tf and .g4b are G4MF; .usda, .usdc, .usdz and .usd USD, .usd as text); anything else is
// taken for glTF JSON.
AssetFormat DetectAssetFormat(const std::filesystem::path& path, std::span<const uint8_t> bytes);

struct LoadedFile {
  AssetFormat format = AssetFormat::kGltf;
  LoadedAsset loaded;
};

// The options of each format's loader; the one the file turns out to be in applies.
struct AssetOptions {
  GltfOptions gltf;
  G4mfOptions g4mf;
  UsdOptions usd;  // for .usda, .usdc and .usdz alike
  // Reads the file LoadAsset is given, and the files beside it for a format whose own read_file
  // is empty (sinew/loader/file.h). Empty: the file LoadAsset is given is read by the read_file
  // of the format its extension names (the file system where that is empty too).
  FileReader read_file;
};

// Reads the file (through options.read_file, or its extension's format's read_file, where given),
// detects its format and loads it with that format's options (its defaults unless given).
Result<LoadedFile> LoadAsset(const std::filesystem::path& path, const AssetOptions& options = {});

// The same for a file already read: `bytes` are its contents, followed by ReadPadding() readable
// bytes for glTF and G4MF (as FileBytes are); `path` where it came from (its extension helps
// detect the format; the files beside it are resolved against it).
Result<LoadedFile> LoadAssetFromMemory(const std::filesystem::path& path,
                                       std::span<const uint8_t> bytes,
                                       const AssetOptions& options = {});

}  // namespace sinew::loader
