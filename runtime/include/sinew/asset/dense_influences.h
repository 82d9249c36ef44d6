// Dense (glTF-style) skin influences: K slots per vertex.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/core/error.h"

namespace sinew {

// Dense influences: K = influences_per_vertex slots per vertex, K = 4·n with n >= 1 (one glTF
// JOINTS_n/WEIGHTS_n pair per 4 slots). Slot k of vertex v is at index v*K + k in both arrays.
struct DenseInfluences {
  // K; must be a positive multiple of 4.
  uint32_t influences_per_vertex = 4;
  // Joint index of each slot, an index into the skinning palette (the skin's joint order).
  std::vector<uint16_t> joints;
  // Weight of each slot, >= 0. Used as stored: normalization is a load-time option.
  // A vertex whose weights are all 0 keeps its rest position.
  std::vector<float> weights;
};

// One rule set for the mesh, the CPU job and the GPU upload: checks a dense influence stream
// against a vertex count and a palette size (kInvalidInfluenceCount, kSizeMismatch, kEmptyPalette,
// kJointIndexOutOfRange, kNonFiniteValue, kNegativeWeight, in that order).
Status ValidateDenseInfluences(size_t vertex_count, uint32_t influences_per_vertex,
                               std::span<const uint16_t> joints, std::span<const float> weights,
                               size_t palette_size);
// The first of those checks, on the sizes alone (kInvalidInfluenceCount, kSizeMismatch,
// kEmptyPalette): what must hold before the streams' contents can be read per vertex.
Status ValidateDenseInfluenceSizes(size_t vertex_count, uint32_t influences_per_vertex,
                                   size_t joint_count, size_t weight_count, size_t palette_size);

}  // namespace sinew
