// A packed skinned mesh with dense (glTF-style) influences, ready to upload.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/dense_influences.h"
#include "sinew/asset/morph_target.h"
#include "sinew/asset/skeleton.h"
#include "sinew/asset/sparse_influences.h"
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
  // Influences in exactly one layout: dense (`influences`, palette indexed by joint) or sparse
  // (`sparse_influences`, palette indexed by group; docs/semantics.md, "Sparse skinning"). The mesh
  // is sparse when sparse_influences.offsets is not empty; `influences` must then have no joints or
  // weights.
  DenseInfluences influences;
  SparseInfluences sparse_influences;
  Skeleton skeleton;
  // Morph targets applied before skinning (docs/semantics.md, "Order of operations"); each stream
  // empty or one xyz offset per vertex. The GPU packs them sparse (MorphDeltas); weights are per
  // instance.
  std::vector<MorphTarget> morph_targets;

  size_t vertex_count() const { return positions.size() / 3; }
  bool sparse() const { return !sparse_influences.offsets.empty(); }
  // Entries of one instance's skinning palette: joints (dense) or groups (sparse).
  size_t palette_size() const {
    return sparse() ? sparse_influences.group_count : skeleton.joint_count();
  }

  // Checks the skeleton (Skeleton::Validate), then:
  // - positions hold whole xyz triples; normals/tangents are empty or match the vertex count;
  //   joints and weights hold K entries per vertex (kSizeMismatch);
  // - K is a positive multiple of 4 (kInvalidInfluenceCount);
  // - every joint index < skeleton joint count (kJointIndexOutOfRange), a skeleton with no joints
  //   (kEmptyPalette);
  // - weights are finite (kNonFiniteValue) and >= 0 (kNegativeWeight); positions are finite.
  // A sparse mesh checks ValidateSparseInfluences instead of the dense rules, and has no dense
  // joints or weights (kInvalidArgument, where "influences"). Each morph target's streams are
  // empty or one xyz per vertex (kSizeMismatch, "morph_targets/<t>/positions" etc.) and finite.
  Status Validate() const;
};

}  // namespace sinew
