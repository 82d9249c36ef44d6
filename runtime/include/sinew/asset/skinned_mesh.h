// A packed skinned mesh with dense (glTF-style) influences, ready to upload.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/skeleton.h"
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

// Rest attributes in bind (scene) space plus influences. Streams are tightly packed float arrays.
struct SkinnedMesh {
  // xyz per vertex; required.
  std::vector<float> positions;
  // xyz per vertex, unit length; optional (empty, or 3 floats per vertex).
  std::vector<float> normals;
  // xyzw per vertex, xyz unit length, w = ±1 handedness; optional (empty, or 4 floats per vertex).
  std::vector<float> tangents;
  DenseInfluences influences;
  Skeleton skeleton;

  size_t vertex_count() const { return positions.size() / 3; }

  // Checks the skeleton (Skeleton::Validate), then:
  // - positions hold whole xyz triples; normals/tangents are empty or match the vertex count;
  //   joints and weights hold K entries per vertex (kSizeMismatch);
  // - K is a positive multiple of 4 (kInvalidInfluenceCount);
  // - every joint index < skeleton joint count (kJointIndexOutOfRange), a skeleton with no joints
  //   (kEmptyPalette);
  // - weights are finite (kNonFiniteValue) and >= 0 (kNegativeWeight); positions are finite.
  Status Validate() const;
};

// One rule set for the mesh, the CPU job and the GPU upload: checks a dense influence stream
// against a vertex count and a palette size (kInvalidInfluenceCount, kSizeMismatch, kEmptyPalette,
// kJointIndexOutOfRange, kNonFiniteValue, kNegativeWeight, in that order).
Status ValidateDenseInfluences(size_t vertex_count, uint32_t influences_per_vertex,
                               std::span<const uint16_t> joints, std::span<const float> weights,
                               size_t palette_size);

}  // namespace sinew
