// The palette of dual-quaternion skinning (docs/semantics.md, "Dual-quaternion skinning"): each
// skinning matrix split into the rigid motion that dual quaternions blend and the scale/shear they
// cannot, which is blended linearly in bind space first.
#pragma once

#include <span>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

// One palette entry M = T(t) · R · K (column vectors: K first, then the rotation R, then the
// translation t). 128 bytes, the layout a GPU kernel reads.
struct DualQuaternion {
  // R as a unit quaternion with w >= 0; all zero for a singular M (|det| < 1e-10), which then
  // adds nothing to a blend.
  Quat real;
  // ½ · (t, 0) ⊗ real: with `real`, the unit dual quaternion of the rigid motion T(t) · R.
  Quat dual{0, 0, 0, 0};
  // K (rows; w unused): the scale and shear left once the rotation is taken out (R · K is the
  // polar decomposition of M's 3x3 part, K symmetric); the identity for a singular M.
  Float4 scale[3]{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
  // K's inverse-transpose (rows): what K does to normals.
  Float4 normal_scale[3]{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
};
static_assert(sizeof(DualQuaternion) == 128, "dual-quaternion palette entries are 128 bytes");

// Converts skinning matrices into DualQuaternion entries, in double, rounded once to float. A
// mirror (det < 0) keeps a proper rotation: its reflection stays in K (K = −P for the polar
// decomposition M₃ₓ₃ = U·P with det U = −1, R = −U).
struct DualQuaternionPaletteJob {
  // kSizeMismatch ("output") unless output has palette.size() entries; kNonFiniteValue
  // ("palette/<i>") for a matrix with a NaN or infinite entry.
  Status Validate() const;
  Status Run() const;

  std::span<const Float3x4> palette;
  std::span<DualQuaternion> output;
};

// True when some entry's K differs from the identity by 1e-6 or more in any element: then the
// blend applies the blended K to every vertex (the weights scale it); otherwise K is skipped.
bool HasScale(std::span<const DualQuaternion> palette);

}  // namespace sinew::cpu
