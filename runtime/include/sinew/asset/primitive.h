// sinew's one mesh type: a drawable part of a mesh with its rest attributes, its skin influences
// (dense, sparse or none) and its morph targets. The loaders produce it, the procedural character
// builds it, the CPU jobs deform it and vk::SkinCache::AddMesh uploads it, all without a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sinew/asset/dense_influences.h"
#include "sinew/asset/morph_target.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/core/error.h"

namespace sinew {

// Every stream below is one contiguous allocation in the runtime's format (what
// vk::SkinCache::AddMesh copies into its upload memory stream by stream): tightly packed floats,
// u16 joint indices, CSR sparse influences, u32 indices. Aligned to at least 16 bytes (operator
// new's alignment), so SIMD loads and upload copies need no fix-up.
static_assert(__STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 16, "asset streams are 16-byte aligned");

// How a skinned primitive blends its influences (docs/semantics.md, "Dense skinning" and
// "Dual-quaternion skinning").
enum class SkinningMethod : uint8_t {
  kLinear,          // linear blend skinning: the weighted sum of the palette matrices
  kDualQuaternion,  // dual quaternions for the rigid part, scale and shear blended linearly first
};

// How a linearly skinned primitive's normals follow its joints (docs/semantics.md, "Normals and
// tangents"). The two agree where every influence of a vertex moves alike and differ where joints
// bend apart.
enum class NormalBlend : uint8_t {
  kBlendedMatrix,  // the inverse-transpose of the blended matrix (glTF and G4MF meshes)
  kPerJoint,       // the weighted sum of each joint's inverse-transpose (UsdSkel meshes)
};

struct Primitive {
  std::vector<float> positions;  // xyz per vertex, required
  std::vector<float> normals;    // xyz per vertex, unit length, or empty
  std::vector<float> tangents;   // xyzw per vertex (xyz unit, w = +-1 handedness), or empty
  // Influences in one of three layouts (the loaders' `influences` option picks between the first
  // two; docs/semantics.md, "Dense skinning" and "Sparse skinning"):
  // - dense: K = 4 · n slots per vertex (glTF's JOINTS_n/WEIGHTS_n), `sparse_influences` empty;
  // - sparse (CSR, G4MF's own): `sparse_influences.offsets` not empty, `influences` without
  //   joints or weights;
  // - rigid (unskinned): neither; every vertex moves with palette entry 0 (its node's world
  //   matrix).
  // The indices are entries of the palette of the skin that instantiates the mesh: its joints, or
  // its groups when Skin::group_joints is not empty (G4MF).
  DenseInfluences influences;
  SparseInfluences sparse_influences;
  std::vector<uint32_t> indices;  // Vertex indices, or empty (non-indexed).
  uint32_t mode = 4;              // glTF topology (4 = triangles).
  int32_t material = -1;
  // KHR_materials_variants: the material of each variant (index into Asset::variants), or -1
  // where the primitive keeps `material`. Empty when the asset has no variants. O(1) lookup.
  std::vector<int32_t> variant_materials;
  // Morph targets (blend shapes), applied before skinning; each stream empty or one xyz offset
  // per vertex. The GPU packs them sparse (MorphDeltas); weights are per instance.
  std::vector<MorphTarget> targets;
  // Linear unless chosen (UsdSkel's skel:skinningMethod; `sinew bake --skinning dqs`). The CPU
  // reference and the GPU kernels run both; a dual-quaternion primitive's SkinCache instances need
  // a dual-quaternion palette (SkinCache::AddPalette).
  SkinningMethod skinning = SkinningMethod::kLinear;
  // The normal rule of linear skinning (the UsdSkel loader chooses kPerJoint, UsdSkel's own);
  // dual-quaternion and rigid primitives ignore it.
  NormalBlend normal_blend = NormalBlend::kBlendedMatrix;

  // The material to draw with while `variant` (or -1 for none) is active.
  int32_t MaterialFor(int32_t variant) const {
    if (variant < 0 || size_t(variant) >= variant_materials.size()) return material;
    const int32_t m = variant_materials[size_t(variant)];
    return m >= 0 ? m : material;
  }

  size_t vertex_count() const { return positions.size() / 3; }
  bool sparse() const { return !sparse_influences.offsets.empty(); }
  bool skinned() const { return !influences.joints.empty() || sparse(); }
  // Skinned and blended with dual quaternions (a rigid primitive never is).
  bool dual_quaternion() const { return skinned() && skinning == SkinningMethod::kDualQuaternion; }

  // Entries of one instance's skinning palette: the groups of a sparse primitive
  // (sparse_influences.group_count), `joints` for a dense one (the joint count of the skin that
  // instantiates it), 1 for a rigid one.
  size_t palette_size(size_t joints) const {
    return sparse() ? sparse_influences.group_count : skinned() ? joints : 1;
  }

  // Checks, for a palette of palette_size(joints) entries:
  // - positions hold whole finite xyz triples; normals/tangents are empty or match the vertex
  //   count (kSizeMismatch, kNonFiniteValue);
  // - dense: ValidateDenseInfluences against `joints` (K a positive multiple of 4, every joint
  //   index below `joints`, kEmptyPalette for joints 0, finite non-negative weights);
  // - sparse: ValidateSparseInfluences, and no dense joints or weights (kInvalidArgument, where
  //   "influences");
  // - each morph target's streams are empty or one xyz per vertex (kSizeMismatch,
  //   "targets/<t>/positions" etc.) and finite.
  Status Validate(size_t joints) const;

  // The influences are of one kind or none (Validate checks it first; cpu::SkinMesh too): dense
  // weights need their joints (kSizeMismatch at "influences/joints"), sparse groups or weights
  // their offsets (kSizeMismatch at "sparse_influences/offsets"), and a sparse mesh has no dense
  // joints or weights (kInvalidArgument at "influences"). Half a stream would otherwise read as a
  // rigid mesh.
  Status ValidateInfluenceKind() const;
};

}  // namespace sinew
