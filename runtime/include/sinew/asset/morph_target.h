// One morph target (blend shape): offsets dense over a mesh's vertices (docs/semantics.md,
// "Blend shapes").
#pragma once

#include <vector>

namespace sinew {

// xyz offsets per vertex for each stream; a stream is empty when the target does not displace it.
struct MorphTarget {
  std::vector<float> positions;
  std::vector<float> normals;
  std::vector<float> tangents;  // xyz offsets; handedness is never morphed.
};

}  // namespace sinew
