// Blend-shape weights -> the weights each morph target is applied with (docs/semantics.md,
// "In-betweens"), exactly UsdSkel's UsdSkelBlendShapeQuery::ComputeSubShapeWeights: a shape with
// in-betweens brackets its weight w between the sorted sub-shapes {null at 0, primary at 1,
// in-betweens at theirs} (the top two or bottom two at the ends: unbounded extrapolation),
// a = (w - w_lo) / (w_hi - w_lo), the lower sub-shape gets 1 - a, the upper a, the null shape
// nothing; emitted weights within 1e-6 of 0 are dropped, a degenerate bracket (<= 1e-6 wide)
// contributes nothing. A shape without in-betweens passes its weight through unchanged.
#pragma once

#include <span>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"

namespace sinew::cpu {

struct SubShapeWeightsJob {
  // Validate() checks: output sized like weights (kSizeMismatch, "output"); every shape's primary
  // and in-between targets < weights.size() (kInvalidArgument, "shapes/<s>"); weights finite
  // (kNonFiniteValue, "weights/<t>").
  Status Validate() const;
  // Validates, then: output[t] = weights[t] for a target no shape names; for each shape, its
  // primary's weight resolved over its sub-shapes into output[primary] and output[in-between]
  // (0 where nothing is emitted; an in-between target's own weight is ignored).
  Status Run() const;

  // The mesh's shapes with in-betweens (Mesh::inbetween_shapes; malformed in-betweens were
  // already dropped at load).
  std::span<const InbetweenShape> shapes;
  // One weight per morph target (the node's, a clip's, or the API's).
  std::span<const float> weights;
  // One weight per morph target, to apply the target's offsets with.
  std::span<float> output;
};

}  // namespace sinew::cpu
