#include "usd/skel_animation.h"

#include <optional>
#include <string>

#include "usd/anim_mapper.h"
#include "usd/skel_binding.h"
#include "usd/skel_transforms.h"
#include "usd/time_sampling.h"

namespace sinew::loader::usd {

std::vector<Float4x4> MatricesOf(const Prim& prim, const char* name) {
  std::vector<Float4x4> out;
  const Attribute* a = prim.FindAttribute(name);
  if (!a || !a->default_value) return out;
  const std::span<const double> d = a->default_value->doubles();
  for (size_t i = 0; i + 16 <= d.size(); i += 16) {
    out.push_back(FromUsdMatrix(std::span<const double, 16>(d.data() + i, 16)));
  }
  return out;
}

namespace {

std::vector<std::string> TokensOf(const Prim& prim, const char* name) {
  const Attribute* a = prim.FindAttribute(name);
  if (!a || !a->default_value) return {};
  const std::span<const std::string> s = a->default_value->strings();
  return {s.begin(), s.end()};
}

// The animation's local transforms at `time`, in its own joint order; nullopt when it is not
// valid at that time (a component without a value, or sizes that differ from its joints).
std::optional<std::vector<Float4x4>> AnimationTransforms(const Prim& animation, size_t joints,
                                                         double time) {
  const Attribute* t = animation.FindAttribute("translations");
  const Attribute* r = animation.FindAttribute("rotations");
  const Attribute* s = animation.FindAttribute("scales");
  if (!t || !r || !s) return {};
  const std::optional<Value> tv = ValueAt(*t, time), rv = ValueAt(*r, time), sv = ValueAt(*s, time);
  if (!tv || !rv || !sv || tv->blocked || rv->blocked || sv->blocked) return {};
  const std::span<const float> tf = tv->floats(), rf = rv->floats(), sf = sv->floats();
  if (joints == 0 || tf.size() != joints * 3 || rf.size() != joints * 4 ||
      sf.size() != joints * 3) {
    return {};
  }
  std::vector<Float4x4> out(joints);
  for (size_t j = 0; j < joints; ++j) out[j] = MakeTransform(&tf[j * 3], &rf[j * 4], &sf[j * 3]);
  return out;
}

}  // namespace

Result<std::vector<Float4x4>> JointLocalTransforms(const Layer& layer, const Prim& skeleton,
                                                   double time) {
  const std::vector<std::string> joints = TokensOf(skeleton, "joints");
  std::vector<Float4x4> locals = MatricesOf(skeleton, "restTransforms");
  const std::string rest_where = skeleton.path + ".restTransforms";
  if (locals.empty() && !joints.empty()) {
    return Status(Error::kMissingProperty, "a skeleton needs its rest transforms", rest_where);
  }
  if (locals.size() != joints.size()) {
    return Status(Error::kSizeMismatch,
                  std::to_string(locals.size()) + " rest transforms for " +
                      std::to_string(joints.size()) + " joints",
                  rest_where);
  }
  // A target that is no prim, or no SkelAnimation, animates nothing (the loader warns).
  const Prim* animation = ResolveAnimationSource(layer, skeleton).animation;
  if (!animation) return locals;
  const std::vector<std::string> animated = TokensOf(*animation, "joints");
  const std::optional<std::vector<Float4x4>> transforms =
      AnimationTransforms(*animation, animated.size(), time);
  if (!transforms) return locals;
  AnimMapper(animated, joints).Remap<Float4x4>(*transforms, 1, Float4x4{}, &locals);
  return locals;
}

}  // namespace sinew::loader::usd
