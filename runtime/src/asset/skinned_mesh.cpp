#include "sinew/asset/skinned_mesh.h"

#include <cmath>

namespace sinew {

Status SkinnedMesh::Validate() const {
  if (Status s = skeleton.Validate(); !s) return s;
  if (positions.size() % 3 != 0) {
    return {Error::kSizeMismatch,
            "positions has " + std::to_string(positions.size()) + " floats, not whole xyz triples",
            "positions"};
  }
  const size_t v = vertex_count();
  if (!normals.empty() && normals.size() != v * 3) {
    return {Error::kSizeMismatch,
            "normals has " + std::to_string(normals.size()) + " floats, expected " +
                std::to_string(v * 3),
            "normals"};
  }
  if (!tangents.empty() && tangents.size() != v * 4) {
    return {Error::kSizeMismatch,
            "tangents has " + std::to_string(tangents.size()) + " floats, expected " +
                std::to_string(v * 4),
            "tangents"};
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) {
      return {Error::kNonFiniteValue, "position is not finite",
              "positions/" + std::to_string(i / 3)};
    }
  }
  if (sparse()) {
    if (!influences.joints.empty() || !influences.weights.empty()) {
      return {Error::kInvalidArgument, "a sparse mesh must not also have dense influences",
              "influences"};
    }
    return ValidateSparseInfluences(v, sparse_influences);
  }
  return ValidateDenseInfluences(v, influences.influences_per_vertex, influences.joints,
                                 influences.weights, skeleton.joint_count());
}

}  // namespace sinew
