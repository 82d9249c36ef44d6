// A Skeleton's joint-local transforms at a time code, as UsdSkel computes them (docs/usda.md,
// "UsdSkel building blocks"): the rest transforms, with what the skeleton's animation source
// gives laid over them.
#pragma once

#include <vector>

#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

// The joint-local transforms of `skeleton` (a Skeleton prim) at `time`, one per joint of its
// `joints`: restTransforms, then, where its skel:animationSource (its own or inherited,
// ResolveAnimationSource) is a SkelAnimation whose
// translations, rotations and scales all have a value at `time` with one element per joint of the
// animation, MakeTransform of those, mapped onto the skeleton's joints by name (AnimMapper; joints
// the animation leaves out keep their rest transform). An animation that is not valid so is
// ignored, as UsdSkel ignores it, and so is a target that is not a SkelAnimation or not a prim.
// Errors: kMissingProperty / kSizeMismatch at "<skeleton>.restTransforms" when they are absent or
// not one per joint.
Result<std::vector<Float4x4>> JointLocalTransforms(const Layer& layer, const Prim& skeleton,
                                                   double time);

// The matrix4d array `name` of `prim` (its default), as sinew matrices (FromUsdMatrix); empty when
// the attribute has no value.
std::vector<Float4x4> MatricesOf(const Prim& prim, const char* name);

}  // namespace sinew::loader::usd
