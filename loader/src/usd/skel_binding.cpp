#include "usd/skel_binding.h"

#include <algorithm>
#include <vector>

namespace sinew::loader::usd {
namespace {

bool HasBindingApi(const Prim& prim) {
  const std::vector<std::string> schemas = prim.api_schemas.Resolved();
  return std::find(schemas.begin(), schemas.end(), "SkelBindingAPI") != schemas.end();
}

bool Authored(const Attribute* a) {
  return a && (a->default_value.has_value() || !a->time_samples.empty());
}

}  // namespace

AnimationSourceBinding ResolveAnimationSource(const Layer& layer, const Prim& skeleton) {
  AnimationSourceBinding out;
  for (const Prim* p = &skeleton; p && !out.owner;
       p = p->parent < 0 ? nullptr : &layer.prims[size_t(p->parent)]) {
    const Relationship* r = p->FindRelationship("skel:animationSource");
    if (!r) continue;
    out.owner = p;
    const std::vector<std::string> targets = r->targets.Resolved();
    if (!targets.empty()) out.target = targets.front();
  }
  if (out.target.empty()) return out;
  const Prim* animation = layer.FindPrim(out.target);
  if (animation && animation->type_name == "SkelAnimation") out.animation = animation;
  return out;
}

Result<SkelBinding> ResolveBinding(const Layer& layer, const Prim& prim) {
  SkelBinding out;
  out.blend_shapes = prim.FindAttribute("skel:blendShapes");
  out.blend_shape_targets = prim.FindRelationship("skel:blendShapeTargets");
  const Relationship* skeleton = nullptr;
  const Attribute* method = nullptr;
  // From the prim up: the first authored value of each property wins.
  for (const Prim* p = &prim; p; p = p->parent < 0 ? nullptr : &layer.prims[size_t(p->parent)]) {
    const bool unapplied = p != &prim && !HasBindingApi(*p);
    const auto used = [&]() {
      if (unapplied && out.unapplied.empty()) out.unapplied = p->path;
    };
    const auto take = [&](const Attribute** slot, const char* name, std::string* at = nullptr) {
      if (*slot) return;
      if (const Attribute* a = p->FindAttribute(name); Authored(a)) {
        *slot = a;
        if (at) *at = p->path + "." + name;
        used();
      }
    };
    take(&out.joint_indices, "primvars:skel:jointIndices", &out.joint_indices_at);
    take(&out.joint_weights, "primvars:skel:jointWeights", &out.joint_weights_at);
    take(&out.geom_bind_transform, "primvars:skel:geomBindTransform", &out.geom_bind_transform_at);
    take(&out.joints, "skel:joints");
    take(&method, "primvars:skel:skinningMethod");
    if (!skeleton) {
      const Relationship* r = p->FindRelationship("skel:skeleton");
      if (r && !r->targets.Resolved().empty()) {
        skeleton = r;
        out.skeleton_at = p->path + ".skel:skeleton";
        used();
      }
    }
  }
  if (skeleton) {
    const std::string target = skeleton->targets.Resolved().front();
    out.skeleton = layer.FindPrim(target);
    if (!out.skeleton) out.missing_skeleton = target;
  }
  if (method && method->default_value) {
    const std::string_view token = method->default_value->AsString();
    if (token == "dualQuaternion") {
      out.skinning_method = SkinningMethodToken::kDualQuaternion;
    } else if (token != "classicLinear") {
      return Status(
          Error::kInvalidValue,
          "skinning method '" + std::string(token) + "' (classicLinear or dualQuaternion)",
          prim.path + ".primvars:skel:skinningMethod");
    }
  }
  if (out.joint_indices && out.joint_weights) {
    const int32_t ei = out.joint_indices->element_size.value_or(1);
    const int32_t ew = out.joint_weights->element_size.value_or(1);
    const std::string ii =
        out.joint_indices->interpolation.empty() ? "constant" : out.joint_indices->interpolation;
    const std::string iw =
        out.joint_weights->interpolation.empty() ? "constant" : out.joint_weights->interpolation;
    if (ei != ew) {
      out.ignored_influences = "jointIndices' elementSize " + std::to_string(ei) +
                               " and jointWeights' " + std::to_string(ew) + " differ";
    } else if (ei < 1) {
      out.ignored_influences = "elementSize " + std::to_string(ei) + " is below 1";
    } else if (ii != iw) {
      out.ignored_influences =
          "jointIndices' interpolation " + ii + " and jointWeights' " + iw + " differ";
    } else if (ii != "constant" && ii != "vertex") {
      out.ignored_influences = "interpolation " + ii + " (constant or vertex)";
    } else {
      out.has_influences = true;
      out.influences_per_point = ei;
      out.rigid = ii == "constant";
    }
  } else if (out.joint_indices || out.joint_weights) {
    out.ignored_influences = out.joint_indices ? "jointIndices without jointWeights"
                                               : "jointWeights without jointIndices";
  }
  return out;
}

}  // namespace sinew::loader::usd
