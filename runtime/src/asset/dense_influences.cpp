#include "sinew/asset/dense_influences.h"

#include <cmath>
#include <string>

#include "influence_prepass.h"

namespace sinew {

Status ValidateDenseInfluenceSizes(size_t vertex_count, uint32_t k, size_t joint_count,
                                   size_t weight_count, size_t palette_size) {
  if (k == 0 || k % 4 != 0) {
    return {Error::kInvalidInfluenceCount,
            "influences per vertex is " + std::to_string(k) + ", must be a positive multiple of 4",
            "influences/influences_per_vertex"};
  }
  const size_t expected = vertex_count * k;
  if (joint_count != expected) {
    return {Error::kSizeMismatch,
            "joints has " + std::to_string(joint_count) + " entries, expected " +
                std::to_string(expected) + " (" + std::to_string(vertex_count) + " vertices x " +
                std::to_string(k) + ")",
            "influences/joints"};
  }
  if (weight_count != expected) {
    return {Error::kSizeMismatch,
            "weights has " + std::to_string(weight_count) + " entries, expected " +
                std::to_string(expected) + " (" + std::to_string(vertex_count) + " vertices x " +
                std::to_string(k) + ")",
            "influences/weights"};
  }
  if (palette_size == 0) {
    return {Error::kEmptyPalette, "the skinning palette has no joints", "palette"};
  }
  return {};
}

Status ValidateDenseInfluences(size_t vertex_count, uint32_t k, std::span<const uint16_t> joints,
                               std::span<const float> weights, size_t palette_size) {
  if (Status s =
          ValidateDenseInfluenceSizes(vertex_count, k, joints.size(), weights.size(), palette_size);
      !s) {
    return s;
  }
  const size_t expected = vertex_count * k;
  // Nothing wrong (influence_prepass.h): done; else the loop below names the first fault.
  if (detail::AllBelow(joints, palette_size) && detail::AllWeightsFiniteAndNonNegative(weights)) {
    return {};
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

}  // namespace sinew
