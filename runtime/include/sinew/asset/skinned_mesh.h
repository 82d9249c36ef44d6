// A packed skinned mesh with dense (glTF-style) influences, ready to upload.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/dense_influences.h"
#include "sinew/asset/skeleton.h"
#include "sinew/core/error.h"

namespace sinew {

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

}  // namespace sinew
