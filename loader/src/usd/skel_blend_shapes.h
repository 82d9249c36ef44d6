// A mesh's UsdSkel blend shapes as sinew morph targets (docs/usda.md, "UsdSkel building blocks"):
// each BlendShape of skel:blendShapeTargets, its in-betweens as targets of their own, resolved by
// cpu::SubShapeWeightsJob with UsdSkel's rules.
#pragma once

#include <string>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/loader/loaded_asset.h"
#include "usd/layer.h"
#include "usd/skel_binding.h"

namespace sinew::loader::usd {

struct BlendShapeSet {
  std::vector<std::string> names;          // skel:blendShapes: weight i drives target i
  std::vector<MorphTarget> targets;        // one per name (the primary), then the in-betweens
  std::vector<InbetweenShape> inbetweens;  // the shapes with in-betweens
  // One per target: a primary's name from skel:blendShapes, an in-between's as
  // "<primary>:<in-between>" ("smile:half" for the attribute inbetweens:half of smile's target).
  std::vector<std::string> target_names;
  // What was skipped, for the loader's warnings: names and targets that do not pair up, a target
  // that is not a BlendShape prim, an in-between without weight or at 0 or 1 (UsdSkel warns about
  // those too).
  std::vector<Warning> skipped;
};

// The blend shapes `binding` names, dense over `vertex_count` points (offsets scattered by the
// shape's pointIndices, every point when it has none; offsets to one point add up). An in-between
// is an `inbetweens:<name>` attribute with `weight` metadata (without it, skipped; within 1e-6 of
// 0 or 1, skipped); its offsets use the shape's pointIndices. A target that is not a BlendShape
// contributes nothing. When skel:blendShapes names another number of shapes than
// skel:blendShapeTargets has targets, the set is empty, as UsdSkel applies none of them. Each
// skip is listed in `skipped`. Errors: kSizeMismatch
// at "<shape>.offsets" (or the in-between) for offsets that do not match pointIndices (or the point
// count); kInvalidReference at
// "<shape>.pointIndices" for an index past the points, kWrongType there for indices neither int[]
// nor the legacy uint[] (read as ints, as UsdSkel converts them).
Result<BlendShapeSet> ReadBlendShapes(const Layer& layer, const Prim& mesh,
                                      const SkelBinding& binding, size_t vertex_count);

}  // namespace sinew::loader::usd
