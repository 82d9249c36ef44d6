// The CPU reference of sparse (CSR) linear blend skinning (docs/semantics.md, "Sparse skinning" and
// "Normals and tangents"). The GPU kernel shaders/skin_sparse.comp implements exactly these
// semantics, as SkinDenseJob's for dense.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/influence_check.h"
#include "sinew/cpu/skin_run.h"

namespace sinew::cpu {

// Per vertex: M = Σ_e weights[e] · palette[groups[e]] over the vertex's entries (identity when it
// has none or their weights sum to 0); then positions, normals and tangents exactly as
// SkinDenseJob.
struct SkinSparseJob {
  // Validate() checks: positions whole triples, outputs sized like inputs, normals/tangents sized
  // to the vertex count when present (kSizeMismatch); the influences (ValidateSparseInfluences);
  // palette has at least influences.group_count entries (kSizeMismatch, where "palette");
  // dual_quaternions empty or one per palette entry (kSizeMismatch, "dual_quaternions"). The
  // per-entry checks run on `run`'s threads (the same error on any number of them). Palette
  // entries are not checked for NaN or infinity, as in SkinDenseJob.
  Status Validate() const;
  Status Run() const;

  std::span<const float> positions;              // xyz per vertex, required
  std::span<const float> normals;                // xyz per vertex, optional
  std::span<const float> tangents;               // xyzw per vertex, optional
  const SparseInfluences* influences = nullptr;  // required
  std::span<const Float3x4> palette;             // group palette (GroupPaletteJob), required
  // Optional: an InfluenceCheck of `influences` made once (InfluenceCheck::Sparse or Of).
  // Validate() and Run() then check only that it is of them and of this vertex count (the same
  // offsets, groups and weights in the same memory, offsets one more than the vertices, the same
  // group_count; kInvalidArgument, where "checked", when it is not), instead of the layout and
  // every entry. They must not change while it is in use.
  const InfluenceCheck* checked = nullptr;
  // As SkinDenseJob::dual_quaternions: `palette` converted, or empty for linear blending.
  std::span<const DualQuaternion> dual_quaternions;
  // The normal rule of linear skinning (NormalBlend::kPerJoint: normal' = normalize(Σ w ·
  // inverse-transpose(palette entry₃ₓ₃) · n), UsdSkel's). Dual quaternions ignore it.
  NormalBlend normal_blend = NormalBlend::kBlendedMatrix;
  // Threads, and eight, four or one vertex at a time (sinew/cpu/skin_run.h): the same outputs
  // either way.
  SkinRun run;
  std::span<float> out_positions;
  std::span<float> out_normals;
  std::span<float> out_tangents;
};

}  // namespace sinew::cpu
