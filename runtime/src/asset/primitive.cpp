#include "sinew/asset/primitive.h"

#include <cmath>
#include <string>
#include <utility>

namespace sinew {

Status Primitive::ValidateInfluenceKind() const {
  if (influences.joints.empty() && !influences.weights.empty()) {
    return {Error::kSizeMismatch, "dense weights without joint indices", "influences/joints"};
  }
  if (!sparse() && (!sparse_influences.groups.empty() || !sparse_influences.weights.empty())) {
    return {Error::kSizeMismatch, "sparse groups or weights without offsets",
            "sparse_influences/offsets"};
  }
  if (sparse() && (!influences.joints.empty() || !influences.weights.empty())) {
    return {Error::kInvalidArgument, "a sparse mesh must not also have dense influences",
            "influences"};
  }
  return {};
}

Status Primitive::Validate(size_t joints) const {
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
  for (size_t t = 0; t < targets.size(); ++t) {
    const MorphTarget& m = targets[t];
    for (const auto& [stream, name] :
         {std::pair{&m.positions, "positions"}, std::pair{&m.normals, "normals"},
          std::pair{&m.tangents, "tangents"}}) {
      const std::string where = "targets/" + std::to_string(t) + "/" + name;
      if (!stream->empty() && stream->size() != v * 3) {
        return {Error::kSizeMismatch,
                std::to_string(stream->size()) + " floats, expected " + std::to_string(v * 3),
                where};
      }
      for (float f : *stream) {
        if (!std::isfinite(f)) return {Error::kNonFiniteValue, "offset is not finite", where};
      }
    }
  }
  if (Status s = ValidateInfluenceKind(); !s) return s;
  if (sparse()) return ValidateSparseInfluences(v, sparse_influences);
  if (!skinned()) return {};  // rigid
  return ValidateDenseInfluences(v, influences.influences_per_vertex, influences.joints,
                                 influences.weights, joints);
}

}  // namespace sinew
