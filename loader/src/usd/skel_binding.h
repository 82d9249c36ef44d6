// What a prim's SkelBindingAPI says, with UsdSkel's inheritance (docs/usda.md, "UsdSkel
// building blocks"): the binding properties a prim does not author come from its nearest
// ancestor that does. Like UsdSkel's cache, an ancestor counts even without SkelBindingAPI
// applied (UsdSkel warns that this is deprecated; exporters still write it), and the binding
// names it so that the loader can warn too.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "sinew/core/error.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

enum class SkinningMethodToken : uint8_t { kClassicLinear, kDualQuaternion };

struct SkelBinding {
  // Inherited: skel:skeleton's target, the influences, the skinning method, geomBindTransform and
  // skel:joints; null (or the fallback) where no prim on the way up authors them.
  const Prim* skeleton = nullptr;
  const Attribute* joint_indices = nullptr;  // primvars:skel:jointIndices
  const Attribute* joint_weights = nullptr;  // primvars:skel:jointWeights
  const Attribute* geom_bind_transform = nullptr;
  const Attribute* joints = nullptr;  // skel:joints: the prim's own joint order
  // Where each was found, "<prim>.<property>" (the prim itself or the ancestor that authors it),
  // for messages; empty where none was.
  std::string joint_indices_at, joint_weights_at, geom_bind_transform_at, skeleton_at;
  SkinningMethodToken skinning_method = SkinningMethodToken::kClassicLinear;
  // Not inherited: the prim's own skel:blendShapes and skel:blendShapeTargets.
  const Attribute* blend_shapes = nullptr;
  const Relationship* blend_shape_targets = nullptr;
  // The influences' layout, when both primvars are there and agree (has_influences): elementSize
  // (1 when unauthored) and interpolation (constant, the fallback, means rigid: one run for the
  // whole prim).
  bool has_influences = false;
  int32_t influences_per_point = 0;
  bool rigid = false;
  // Why influence primvars that are there are ignored (one without the other, or the cases
  // below), for a warning: "jointIndices' elementSize 2 and jointWeights' 4 differ"; empty when
  // none are there or they hold.
  std::string ignored_influences;
  // The first ancestor without SkelBindingAPI whose properties the binding took; empty if none.
  std::string unapplied;
  // skel:skeleton's target when it is not a prim of the layer (skeleton is then null, and the
  // prim is not skinned, as UsdSkel binds nothing there); empty otherwise.
  std::string missing_skeleton;
};

// The skel:animationSource that applies to a Skeleton: its own, else that of its nearest
// ancestor that authors one ("inherited down namespace, onto any Skeleton primitive
// beneath it"). One authored without targets stops the search: the skeleton has no animation.
struct AnimationSourceBinding {
  const Prim* owner = nullptr;      // the prim that authors it; null when none does
  std::string target;               // its first target; empty when it has none
  const Prim* animation = nullptr;  // the target when it is a SkelAnimation prim, else null
};

// Resolves the bindings of one layer's prims. A prim's binding looks at each of its ancestors,
// so what a prim contributes to its descendants (whether it applies SkelBindingAPI, the first
// target of a relationship, lists of any length) is worked out once per prim and kept: a file with
// long apiSchemas or target lists on an ancestor of very many meshes loads in time linear in its
// size. One resolver per load; it keeps pointers into `layer`, which must outlive it.
class BindingResolver {
 public:
  explicit BindingResolver(const Layer& layer);

  // The binding of `prim` (which need not have SkelBindingAPI itself). Influence primvars that
  // disagree (elementSize, interpolation), have an elementSize below 1 or an interpolation other
  // than constant or vertex leave has_influences false, as UsdSkel ignores them, and say so in
  // ignored_influences. Errors:
  // kInvalidValue at "<prim>.primvars:skel:skinningMethod" for a token other than classicLinear or
  // dualQuaternion. A skel:skeleton target that is not a prim of the layer binds no skeleton
  // (missing_skeleton names it).
  Result<SkelBinding> Resolve(const Prim& prim);

  // The skel:animationSource that applies to the Skeleton `skeleton`.
  AnimationSourceBinding Animation(const Prim& skeleton);

 private:
  const Prim* Parent(const Prim& prim) const;
  bool HasBindingApi(const Prim& prim);
  // `r`'s first target as the layer resolves its list edits; empty when it has none.
  const std::string& FirstTarget(const Relationship& r);

  const Layer* layer_;
  std::unordered_map<const Prim*, bool> binding_api_;
  std::unordered_map<const Relationship*, std::string> first_target_;
};

// BindingResolver(layer).Resolve(prim), for one prim.
Result<SkelBinding> ResolveBinding(const Layer& layer, const Prim& prim);

// BindingResolver(layer).Animation(skeleton), for one skeleton.
AnimationSourceBinding ResolveAnimationSource(const Layer& layer, const Prim& skeleton);

}  // namespace sinew::loader::usd
