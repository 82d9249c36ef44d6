// UsdSkel's joint transforms in sinew's conventions (docs/usda.md, "UsdSkel building blocks").
// USD writes matrices for row vectors (p' = p · M, translation in the last row); sinew's are for
// column vectors (p' = M · p, column-major storage): the same numbers, so USD's row r is sinew's
// column r.
#pragma once

#include <span>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::loader::usd {

// A matrix4d as .usda writes it (16 numbers, row by row) as a sinew matrix.
Float4x4 FromUsdMatrix(std::span<const double, 16> rows);

// UsdSkelMakeTransform: scale, then rotate by the quaternion (real, i, j, k) — not normalized —
// then translate. Rotation entries are float products combined in double, as UsdSkel computes
// them.
Float4x4 MakeTransform(const float translation[3], const float rotation[4], const float scale[3]);

// Each joint's transform in skeleton space (its parent's, parents first, times its local one) and
// its skinning transform: skel_j · inverse(bind_j), bind_j the joint's world-space bind matrix.
// parents[j] < j (ValidateTopology). A singular bind matrix gives the inverse UsdSkel uses then: a
// scale by FLT_MAX. kSizeMismatch ("locals" / "binds") unless every array has one entry per joint.
Status SkinningTransforms(std::span<const int32_t> parents, std::span<const Float4x4> locals,
                          std::span<const Float4x4> binds, std::vector<Float4x4>* skel,
                          std::vector<Float4x4>* skinning);

}  // namespace sinew::loader::usd
