// A large synthetic .usda stage for `sinew bench --usda`: one skeleton with an animation sampled
// over time, and as many skinned meshes (points, normals, faces, joint influences, time samples)
// as it takes to reach a size. Written as USD writes text: shortest float forms, one prim a block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "sinew/core/error.h"

namespace sinew::tool {

struct SyntheticUsdaOptions {
  size_t target_bytes = size_t(32) << 20;  // meshes are added until the text is this long
  uint32_t grid = 24;                      // each mesh: a grid of grid x grid points
  uint32_t joints = 20;
  uint32_t influences = 4;  // joint indices and weights per point (elementSize)
  uint32_t frames = 24;     // time samples of the animation and of each mesh's extent
};

// What the stage holds.
struct SyntheticUsdaCounts {
  size_t bytes = 0;
  uint32_t meshes = 0;
};

// The stage's text.
std::string SyntheticUsda(const SyntheticUsdaOptions& options, SyntheticUsdaCounts* counts);

// Writes the stage to `path`. kFileReadFailed (where = the path) when it cannot be written.
Result<SyntheticUsdaCounts> WriteSyntheticUsda(const std::filesystem::path& path,
                                               const SyntheticUsdaOptions& options);

}  // namespace sinew::tool
