// A large synthetic glTF for the loader benchmark: many skinned, animated characters.
#pragma once

#include <filesystem>
#include <string>

#include "sinew/core/error.h"

namespace sinew::tool {

struct SyntheticGltfOptions {
  uint32_t characters = 700;  // each: 1 mesh, 1 skin, 20 joint nodes, 1 clip of 20 channels
  uint32_t joints_per_character = 20;
  bool pretty = true;  // indented JSON (else minified)
};

// Writes `path` (.gltf) and `path` with extension .bin beside it. Returns the JSON size in bytes.
Result<size_t> WriteSyntheticGltf(const std::filesystem::path& path,
                                  const SyntheticGltfOptions& options);

}  // namespace sinew::tool
