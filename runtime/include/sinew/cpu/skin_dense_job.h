// The CPU reference of dense linear blend skinning (docs/semantics.md, "Dense skinning" and
// "Normals and tangents").
// The GPU kernel shaders/skin_dense.comp implements exactly these semantics.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/influence_check.h"
#include "sinew/cpu/skin_run.h"

namespace sinew::cpu {

// Per vertex: M = Σ_k weights[k] · palette[joints[k]] (M = identity when every weight is 0);
// position' = M · p; normal' = normalize(inverse-transpose(M₃ₓ₃) · n), computed as
// sign(det)·cofactor(M₃ₓ₃) · n; tangent'.xyz = normalize(M₃ₓ₃ · t.xyz), tangent'.w = t.w.
// Normalizing a zero vector leaves it zero.
struct SkinDenseJob {
  // Validate() checks (exact errors asserted by the tests):
  // - positions hold whole triples, outputs match their inputs in size, normals/tangents either
  // both
  //   absent in input and output or sized to the vertex count (kSizeMismatch);
  // - the influence stream (ValidateDenseInfluences): K a positive multiple of 4, K entries per
  //   vertex, non-empty palette, every joint < palette size, weights finite and >= 0.
  // The per-slot checks run on `run`'s threads (the same error on any number of them).
  // The palette's entries are not checked for NaN or infinity (the palette jobs build them from
  // a validated asset): an entry that is not finite is skipped where its weight is 0, as every
  // zero-weight slot is, and makes its vertex NaN where a nonzero weight reads it. The
  // dual-quaternion path refuses one (DualQuaternionPaletteJob converts every entry).
  Status Validate() const;
  // Validates, then skins every vertex.
  Status Run() const;

  // Slots per vertex, K = 4·n.
  uint32_t influences_per_vertex = 4;
  // Rest positions, xyz per vertex. Required.
  std::span<const float> positions;
  // Rest normals, xyz per vertex. Optional (empty).
  std::span<const float> normals;
  // Rest tangents, xyzw per vertex. Optional (empty).
  std::span<const float> tangents;
  // K joint indices per vertex, into palette. Required.
  std::span<const uint16_t> joints;
  // K weights per vertex. Required.
  std::span<const float> weights;
  // Skinning matrices (SkinningPaletteJob's output). Required, non-empty.
  std::span<const Float3x4> palette;
  // Optional: an InfluenceCheck of `joints` and `weights` made once (InfluenceCheck::Dense or Of).
  // Validate() and Run() then check only that it is of these streams (kInvalidArgument, where
  // "checked", when it is not) and that `palette` has palette_size_needed() entries (or, when it
  // has fewer, the first joint beyond it, as without a check), instead of reading every slot.
  // The streams must not change while it is in use.
  const InfluenceCheck* checked = nullptr;
  // Dual-quaternion skinning instead of linear blending (docs/semantics.md, "Dual-quaternion
  // skinning"): `palette` converted by DualQuaternionPaletteJob, entry for entry. Empty: linear.
  std::span<const DualQuaternion> dual_quaternions;
  // The normal rule of linear skinning (NormalBlend::kPerJoint: normal' = normalize(Σ w ·
  // inverse-transpose(palette entry₃ₓ₃) · n), UsdSkel's). Dual quaternions ignore it.
  NormalBlend normal_blend = NormalBlend::kBlendedMatrix;
  // Threads, and eight, four or one vertex at a time (sinew/cpu/skin_run.h): the same outputs
  // either way.
  SkinRun run;

  // Outputs sized like their inputs; out_normals/out_tangents empty when the inputs are.
  std::span<float> out_positions;
  std::span<float> out_normals;
  std::span<float> out_tangents;
};

// A job over `mesh`'s rest attributes and influences with `palette`; the caller sets the outputs
// (out_normals/out_tangents only when the mesh has normals/tangents).
SkinDenseJob SkinDenseJobFor(const Primitive& mesh, std::span<const Float3x4> palette);

}  // namespace sinew::cpu
