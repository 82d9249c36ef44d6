// The CPU job that places a rigidly bound prim (Asset::rigid_bindings; docs/semantics.md, "Rigid
// bindings"): UsdSkel's skinned transform of a prim whose influences are one run for the whole
// prim. The transform is a handful of numbers per prim, computed where palettes are.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

// X = the prim's scene matrix, from the binding's palette P (SkinInstancePaletteJob's, in scene
// space) and its geom_bind G:
// - one influence of weight 1 (within 1e-6): X = P[j] · G;
// - otherwise the frame of G — its translation t and t plus each of its first three columns — is
//   skinned as four vertices with the binding's influences (SkinDenseJob: linear or dual
//   quaternions, as the binding says), and X has the skinned t as its translation and each skinned
//   tip minus it as a column. For linear blending that is (Σ w · P[j]) · G.
struct RigidTransformJob {
  // Validate() checks: binding and output given (kInvalidArgument); joints and weights one each,
  // at least one (kSizeMismatch, "weights"); every joint below the palette size
  // (kJointIndexOutOfRange, "joints/<i>"); finite weights (kNonFiniteValue, "weights/<i>").
  Status Validate() const;
  Status Run() const;

  const RigidBinding* binding = nullptr;
  std::span<const Float3x4> palette;
  Float4x4* output = nullptr;
};

// Every rigid binding's scene matrix for the node matrices `world` (SceneTransformsJob's output):
// its skin's palette (SkinInstancePaletteJob), then RigidTransformJob. One per
// Asset::rigid_bindings entry.
Result<std::vector<Float4x4>> RigidTransforms(const Asset& asset, std::span<const Float4x4> world);

// The transform of rigid binding `binding` relative to its node's parent (the identity for a root):
// inverse(world(parent)) · X, what UsdSkel bakes as the prim's xformOp:transform. A singular parent
// matrix is kInvalidValue.
Result<Float4x4> RigidLocalTransform(const Asset& asset, size_t binding, const Float4x4& x,
                                     std::span<const Float4x4> world);

}  // namespace sinew::cpu
