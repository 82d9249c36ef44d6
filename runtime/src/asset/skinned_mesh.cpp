#include "sinew/asset/skinned_mesh.h"

#include <cmath>

namespace sinew {

Status ValidateDenseInfluences(size_t vertex_count, uint32_t k, std::span<const uint16_t> joints,
                               std::span<const float> weights, size_t palette_size) {
  if (k == 0 || k % 4 != 0) {
    return {Error::kInvalidInfluenceCount,
            "influences per vertex is " + std::to_string(k) + ", must be a positive multiple of 4",
            "influences/influences_per_vertex"};
  }
  const size_t expected = vertex_count * k;
  if (joints.size() != expected) {
    return {Error::kSizeMismatch,
            "joints has " + std::to_string(joints.size()) + " entries, expected " +
                std::to_string(expected) + " (" + std::to_string(vertex_count) + " vertices x " +
                std::to_string(k) + ")",
            "influences/joints"};
  }
  if (weights.size() != expected) {
    return {Error::kSizeMismatch,
            "weights has " + std::to_string(weights.size()) + " entries, expected " +
                std::to_string(expected) + " (" + std::to_string(vertex_count) + " vertices x " +
                std::to_string(k) + ")",
            "influences/weights"};
  }
  if (palette_size == 0) {
    return {Error::kEmptyPalette, "the skinning palette has no joints", "palette"};
  }
  for (size_t i = 0; i < expected; ++i) {
    if (joints[i] >= palette_size) {
      return {Error::kJointIndexOutOfRange,
              "vertex " + std::to_string(i / k) + " slot " + std::to_string(i % k) +
                  " names joint " + std::to_string(joints[i]) + " but the palette has " +
                  std::to_string(palette_size),
              "influences/joints/" + std::to_string(i)};
    }
    if (!std::isfinite(weights[i])) {
      return {Error::kNonFiniteValue, "weight is not finite",
              "influences/weights/" + std::to_string(i)};
    }
    if (weights[i] < 0.0f) {
      return {Error::kNegativeWeight, "weight " + std::to_string(weights[i]) + " is negative",
              "influences/weights/" + std::to_string(i)};
    }
  }
  return {};
}

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
  return ValidateDenseInfluences(v, influences.influences_per_vertex, influences.joints,
                                 influences.weights, skeleton.joint_count());
}

}  // namespace sinew
