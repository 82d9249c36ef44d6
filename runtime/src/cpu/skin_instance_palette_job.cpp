#include "sinew/cpu/skin_instance_palette_job.h"

#include <algorithm>
#include <string>

#include "skin_palette.h"

namespace sinew::cpu {

size_t PaletteSizeFor(const Skin& skin, size_t group_count) {
  if (skin.group_joints.empty()) return skin.joints.size();
  return std::max<size_t>({group_count, skin.group_joints.size(), 1});
}

Status SkinInstancePaletteJob::Validate() const {
  if (!skin) return Status(Error::kInvalidArgument, "skin is required", "skin");
  if (node >= world.size()) {
    return Status(Error::kJointIndexOutOfRange,
                  "world has " + std::to_string(world.size()) +
                      " matrices, none for the skinned node " + std::to_string(node) +
                      " (world holds one per node of the skin's asset)",
                  "node");
  }
  for (size_t i = 0; i < skin->joints.size(); ++i) {
    if (skin->joints[i] >= world.size()) {
      return Status(Error::kJointIndexOutOfRange, "joint node not in world",
                    "joints/" + std::to_string(i));
    }
  }
  if (skin->inverse_binds.size() != skin->joints.size()) {
    return Status(Error::kSizeMismatch, "one inverse bind matrix per joint", "inverse_binds");
  }
  if (output.empty()) return Status(Error::kSizeMismatch, "output is empty", "output");
  if (skin->group_joints.empty() && output.size() != skin->joints.size()) {
    return Status(Error::kSizeMismatch,
                  "output has " + std::to_string(output.size()) + " entries for " +
                      std::to_string(skin->joints.size()) + " joints",
                  "output");
  }
  for (size_t g = 0; g < skin->group_joints.size(); ++g) {
    if (skin->group_joints[g] >= int32_t(skin->joints.size())) {
      return Status(Error::kJointIndexOutOfRange, "group maps past the joints",
                    "group_joints/" + std::to_string(g));
    }
  }
  return {};
}

namespace detail {

void WriteSkinPalette(const Skin& skin, std::span<const Float4x4> world, uint32_t node,
                      std::span<Float3x4> output) {
  const auto joint = [&](size_t j) {
    return MultiplyTo3x4(world[skin.joints[j]], skin.inverse_binds[j]);
  };
  if (skin.group_joints.empty()) {
    for (size_t j = 0; j < output.size(); ++j) output[j] = joint(j);
    return;
  }
  const Float3x4 untransformed = ToFloat3x4(world[node]);
  for (size_t g = 0; g < output.size(); ++g) {
    const int32_t j = skin.JointOfInfluence(g);
    output[g] = j < 0 ? untransformed : joint(size_t(j));
  }
}

}  // namespace detail

Status SkinInstancePaletteJob::Run() const {
  if (Status s = Validate(); !s) return s;
  detail::WriteSkinPalette(*skin, world, node, output);
  return {};
}

}  // namespace sinew::cpu
