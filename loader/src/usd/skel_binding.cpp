#include "usd/skel_binding.h"

#include <algorithm>
#include <vector>

namespace sinew::loader::usd {
namespace {

// Whether `a` has an authored value (Attribute::HasAuthoredValue): one blocked with `= None`
// authors "no value", so the property is taken from further up.
bool Authored(const Attribute* a) { return a && a->HasAuthoredValue(); }

}  // namespace

BindingResolver::BindingResolver(const Layer& layer) : layer_(&layer) {}

bool BindingResolver::HasBindingApi(const Prim& prim) {
  auto [it, added] = binding_api_.try_emplace(&prim);
  if (added) {
    const std::vector<std::string> schemas = prim.api_schemas.Resolved();
    it->second = std::find(schemas.begin(), schemas.end(), "SkelBindingAPI") != schemas.end();
  }
  return it->second;
}

const std::string& BindingResolver::FirstTarget(const Relationship& r) {
  auto [it, added] = first_target_.try_emplace(&r);
  if (added) {
    const std::vector<std::string> targets = r.targets.Resolved();
    if (!targets.empty()) it->second = targets.front();
  }
  return it->second;
}

const Prim* BindingResolver::Parent(const Prim& prim) const {
  return prim.parent < 0 ? nullptr : &layer_->prims[size_t(prim.parent)];
}

AnimationSourceBinding BindingResolver::Animation(const Prim& skeleton) {
  AnimationSourceBinding out;
  for (const Prim* p = &skeleton; p && !out.owner; p = Parent(*p)) {
    const Relationship* r = p->FindRelationship("skel:animationSource");
    if (!r) continue;
    out.owner = p;
    out.target = FirstTarget(*r);
  }
  if (out.target.empty()) return out;
  const Prim* animation = layer_->FindPrim(out.target);
  if (animation && animation->type_name == "SkelAnimation") out.animation = animation;
  return out;
}

AnimationSourceBinding ResolveAnimationSource(const Layer& layer, const Prim& skeleton) {
  return BindingResolver(layer).Animation(skeleton);
}

Result<SkelBinding> ResolveBinding(const Layer& layer, const Prim& prim) {
  return BindingResolver(layer).Resolve(prim);
}

Result<SkelBinding> BindingResolver::Resolve(const Prim& prim) {
  const Layer& layer = *layer_;
  SkelBinding out;
  out.blend_shapes = prim.FindAttribute("skel:blendShapes");
  out.blend_shape_targets = prim.FindRelationship("skel:blendShapeTargets");
  const std::string* skeleton = nullptr;
  const Attribute* method = nullptr;
  // From the prim up: the first authored value of each property wins.
  for (const Prim* p = &prim; p; p = Parent(*p)) {
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
      if (r && !FirstTarget(*r).empty()) {
        skeleton = &FirstTarget(*r);
        out.skeleton_at = p->path + ".skel:skeleton";
        used();
      }
    }
  }
  if (skeleton) {
    out.skeleton = layer.FindPrim(*skeleton);
    if (!out.skeleton) out.missing_skeleton = *skeleton;
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
