// Morph targets (blend shapes) on the CPU (docs/semantics.md, "Blend shapes"): p' = p + Σ w·Δp;
// normals n + Σ w·Δn, renormalized; tangents xyz + Σ w·Δt, renormalized, w (handedness) kept.
// Weights apply as given (in-between resolution, UsdSkel's sub-shape weights, comes before this
// job).
// The reference for the fused GPU kernel, which follows the same rules:
// * targets are summed one by one in ascending order, a target whose weight is 0 skipped;
// * renormalization happens only when some weight is nonzero, and then for every vertex; with
//   every weight 0 (or no target) the outputs are exact copies of the inputs.
#pragma once

#include <span>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"

namespace sinew::cpu {

struct MorphTargetsJob {
  // Validate() checks: positions whole triples; normals/tangents empty or one per vertex; outputs
  // sized like their inputs; one weight per target; each target's streams empty or one entry per
  // vertex (xyz) (kSizeMismatch, where names the stream, "targets/<t>/positions" etc.); weights
  // finite (kNonFiniteValue).
  Status Validate() const;
  Status Run() const;
  // True when no weight is nonzero: Run then copies its inputs unchanged (callers may skip it).
  bool Inactive() const;

  std::span<const float> positions, normals, tangents;
  std::span<const MorphTarget> targets;
  std::span<const float> weights;
  std::span<float> out_positions, out_normals, out_tangents;
};

}  // namespace sinew::cpu
