#include "sinew/asset/dense_influences.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace sinew {
namespace {

constexpr float kMaxFinite = std::numeric_limits<float>::max();

}  // namespace

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
  // Skinning jobs validate on every run, so the common case, nothing wrong, is one branch-free
  // pass the compiler vectorizes; the loop below names the first fault only when there is one.
  uint16_t largest = 0;
  for (uint16_t j : joints) largest = std::max(largest, j);
  int in_range = 1;  // every weight finite and non-negative (NaN fails both comparisons)
  for (float w : weights) in_range &= int(w >= 0.0f) & int(w <= kMaxFinite);
  if (largest < palette_size && in_range) return {};
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
