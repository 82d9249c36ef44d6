#include "sinew/cpu/rigid_transform_job.h"

#include <cmath>
#include <string>
#include <vector>

#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/cpu/skin_instance_palette_job.h"

namespace sinew::cpu {

Status RigidTransformJob::Validate() const {
  if (!binding) return {Error::kInvalidArgument, "no rigid binding", "binding"};
  if (!output) return {Error::kInvalidArgument, "no output", "output"};
  const size_t n = binding->joints.size();
  if (n == 0 || binding->weights.size() != n) {
    return {Error::kSizeMismatch,
            std::to_string(n) + " joints and " + std::to_string(binding->weights.size()) +
                " weights (one each, at least one)",
            "weights"};
  }
  for (size_t i = 0; i < n; ++i) {
    if (binding->joints[i] >= palette.size()) {
      return {Error::kJointIndexOutOfRange,
              "joint " + std::to_string(binding->joints[i]) + " past the " +
                  std::to_string(palette.size()) + " palette entries",
              "joints/" + std::to_string(i)};
    }
    if (!std::isfinite(binding->weights[i])) {
      return {Error::kNonFiniteValue, "weight is not finite", "weights/" + std::to_string(i)};
    }
  }
  return {};
}

Status RigidTransformJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const RigidBinding& b = *binding;
  const Float4x4& g = b.geom_bind;
  if (b.joints.size() == 1 && std::fabs(b.weights[0] - 1.0f) < 1e-6f) {
    *output = Multiply(ToFloat4x4(palette[b.joints[0]]), g);
    return {};
  }
  // The frame: pivot, then pivot + each column, as four vertices sharing the influences.
  const Float3 pivot{g.m[3][0], g.m[3][1], g.m[3][2]};
  std::vector<float> frame = {pivot.x, pivot.y, pivot.z};
  for (size_t c = 0; c < 3; ++c) {
    frame.insert(frame.end(), {pivot.x + g.m[c][0], pivot.y + g.m[c][1], pivot.z + g.m[c][2]});
  }
  const size_t k = (b.joints.size() + 3) / 4 * 4;
  std::vector<uint16_t> joints(4 * k, 0);
  std::vector<float> weights(4 * k, 0.0f);
  for (size_t v = 0; v < 4; ++v) {
    for (size_t i = 0; i < b.joints.size(); ++i) {
      joints[v * k + i] = b.joints[i];
      weights[v * k + i] = b.weights[i];
    }
  }
  std::vector<DualQuaternion> dual_quaternions;
  if (b.skinning == SkinningMethod::kDualQuaternion) {
    dual_quaternions.resize(palette.size());
    DualQuaternionPaletteJob convert;
    convert.palette = palette;
    convert.output = dual_quaternions;
    if (Status s = convert.Run(); !s) return s;
  }
  std::vector<float> moved(frame.size());
  SkinDenseJob job;
  job.influences_per_vertex = uint32_t(k);
  job.positions = frame;
  job.joints = joints;
  job.weights = weights;
  job.palette = palette;
  job.dual_quaternions = dual_quaternions;
  job.out_positions = moved;
  if (Status s = job.Run(); !s) return s;
  Float4x4 x;
  for (size_t c = 0; c < 3; ++c) {
    const float* tip = &moved[(c + 1) * 3];
    x.m[c] = {tip[0] - moved[0], tip[1] - moved[1], tip[2] - moved[2], 0};
  }
  x.m[3] = {moved[0], moved[1], moved[2], 1};
  *output = x;
  return {};
}

Result<std::vector<Float4x4>> RigidTransforms(const Asset& asset, std::span<const Float4x4> world) {
  std::vector<Float4x4> out(asset.rigid_bindings.size());
  std::vector<Float3x4> palette;
  for (size_t i = 0; i < asset.rigid_bindings.size(); ++i) {
    const RigidBinding& b = asset.rigid_bindings[i];
    const std::string where = "rigid_bindings/" + std::to_string(i);
    if (b.skin >= asset.skins.size()) {
      return Status(Error::kInvalidReference, "skin " + std::to_string(b.skin) + " does not exist",
                    where + "/skin");
    }
    const Skin& skin = asset.skins[b.skin];
    palette.resize(skin.joints.size());
    SkinInstancePaletteJob palette_job;
    palette_job.skin = &skin;
    palette_job.world = world;
    palette_job.node = b.node;
    palette_job.output = palette;
    if (Status s = palette_job.Run(); !s) return Prefixed(s, where);
    RigidTransformJob job;
    job.binding = &b;
    job.palette = palette;
    job.output = &out[i];
    if (Status s = job.Run(); !s) return Prefixed(s, where);
  }
  return out;
}

Result<Float4x4> RigidLocalTransform(const Asset& asset, size_t binding, const Float4x4& x,
                                     std::span<const Float4x4> world) {
  const int32_t parent = binding < asset.rigid_bindings.size() &&
                                 asset.rigid_bindings[binding].node < asset.nodes.size()
                             ? asset.nodes[asset.rigid_bindings[binding].node].parent
                             : -1;
  if (parent < 0) return x;
  Float4x4 inverse;
  if (size_t(parent) >= world.size() || !Invert(world[size_t(parent)], &inverse)) {
    return Status(Error::kInvalidValue, "the parent's scene matrix has no inverse",
                  "rigid_bindings/" + std::to_string(binding));
  }
  return Multiply(inverse, x);
}

}  // namespace sinew::cpu
