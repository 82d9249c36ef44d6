// The glTF 2.0 loader: .gltf (external files, data: URIs) and .glb into a validated sinew::Asset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/core/error.h"
#include "sinew/loader/file.h"
#include "sinew/loader/loaded_asset.h"

namespace sinew::loader {

// How skin weights are stored.
enum class WeightMode {
  kNormalize,   // Each vertex's weights are scaled to sum to 1 (the glTF default; warned about).
  kAsAuthored,  // Kept as in the file.
};

struct GltfOptions {
  WeightMode weights = WeightMode::kNormalize;
  // Layout of each skinned primitive's influences (sinew/asset/influence_layout.h): glTF's own
  // dense K slots, or sparse (dense -> sparse drops zero weights), or kAuto: whichever moves fewer
  // bytes.
  InfluenceLayout influences = InfluenceLayout::kDense;
  uint32_t dense_k = 0;  // unused by glTF (its influences are dense already)
  // Reads the file LoadGltf is given and the buffers a URI names (sinew/loader/file.h); empty:
  // the file system (ReadFile).
  FileReader read_file;
};

// A reusable loader: it keeps simdjson's parser (and its buffers) between loads, so loading many
// files costs no repeated allocation. Not thread-safe: use one per thread. No global state.
class GltfLoader {
 public:
  GltfLoader();
  ~GltfLoader();
  GltfLoader(GltfLoader&&) noexcept;
  GltfLoader& operator=(GltfLoader&&) noexcept;

  // As LoadGltf / LoadGltfFromMemory below.
  Result<LoadedAsset> Load(const std::filesystem::path& path, const GltfOptions& options = {});
  Result<LoadedAsset> LoadFromMemory(std::span<const uint8_t> bytes,
                                     const std::filesystem::path& base_dir,
                                     const GltfOptions& options = {});

  // For benchmarks: a bare simdjson DOM parse of the JSON (a .glb's JSON chunk) with this loader's
  // parser and nothing else. `bytes` must be followed by ReadPadding() readable bytes.
  // kJsonSyntax, kInvalidGlb.
  struct JsonParseStats {
    size_t json_bytes = 0;
    size_t values = 0;  // JSON values in the document (only when count_values).
  };
  Result<JsonParseStats> ParseJsonOnly(std::span<const uint8_t> bytes, bool count_values);

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
};

// One-shot loads (a GltfLoader for one file). Loads a .gltf or .glb file (detected by content: the
// GLB magic). External buffers are resolved
// relative to the file's folder. Errors carry a code, a message and where (a JSON pointer, a GLB
// byte offset, a path, or for kJsonSyntax the line and column of the fault: "line 3, column 13",
// "JSON chunk, line 3, column 13" in a GLB).
Result<LoadedAsset> LoadGltf(const std::filesystem::path& path, const GltfOptions& options = {});

// Loads from memory. `bytes` must be followed by at least ReadPadding() readable bytes (as
// ReadFile's FileBytes are). External buffer URIs are resolved against `base_dir`.
Result<LoadedAsset> LoadGltfFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& base_dir,
                                       const GltfOptions& options = {});

}  // namespace sinew::loader
