#include "sinew/cpu/bind_pose_job.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "bind_pose_internal.h"

namespace sinew::cpu {

const char* PoseTypeName(PoseType type) noexcept {
  switch (type) {
    case PoseType::kTPose:
      return "TPose";
    case PoseType::kAPose:
      return "APose";
    case PoseType::kIPose:
      return "IPose";
    case PoseType::kCustom:
      return "Custom";
  }
  return "unknown";
}

const BindPose* FindBindPose(const Skin& skin, PoseType type) noexcept {
  for (const BindPose& pose : skin.bind_poses) {
    if (pose.type == type) return &pose;
  }
  return nullptr;
}

Result<BindPose> InverseBindPose(const Skin& skin, PoseType type) {
  if (skin.inverse_binds.size() != skin.joints.size()) {
    return Status(Error::kSizeMismatch,
                  std::to_string(skin.inverse_binds.size()) + " inverse bind matrices for " +
                      std::to_string(skin.joints.size()) + " joints",
                  "inverse_binds");
  }
  BindPose pose{type, std::vector<Float4x4>(skin.joints.size())};
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    if (!Invert(skin.inverse_binds[j], &pose.matrices[j])) {
      return Status(Error::kInvalidArgument, "the inverse bind matrix is singular",
                    "inverse_binds/" + std::to_string(j));
    }
  }
  return pose;
}

size_t MatrixNodesToTrs(std::span<Node> nodes, ScenePose* pose) {
  size_t left = 0;
  for (size_t n = 0; n < nodes.size() && n < pose->node_count(); ++n) {
    Node& node = nodes[n];
    if (!node.has_matrix) continue;
    Float3 t, s;
    Quat r;
    if (!DecomposeTrs(node.matrix, &t, &r, &s)) {
      ++left;
      continue;
    }
    node.has_matrix = false;
    node.translation = pose->translations[n] = t;
    node.rotation = pose->rotations[n] = r;
    node.scale = pose->scales[n] = s;
  }
  return left;
}

namespace internal {

Status ValidateSkinInPose(std::span<const Node> nodes, const Skin* skin, const ScenePose* pose,
                          PoseType type, bool allow_matrix_joints, const BindPose** bind_pose) {
  if (!skin) return Status(Error::kInvalidArgument, "skin is required", "skin");
  if (!pose) return Status(Error::kInvalidArgument, "pose is required", "pose");
  if (Status s = ValidatePose(nodes, pose); !s) return s;
  for (size_t j = 0; j < skin->joints.size(); ++j) {
    const std::string where = "joints/" + std::to_string(j);
    if (skin->joints[j] >= nodes.size()) {
      return Status(Error::kJointIndexOutOfRange,
                    "joint node " + std::to_string(skin->joints[j]) + " is not a node", where);
    }
    if (!allow_matrix_joints && nodes[skin->joints[j]].has_matrix) {
      return Status(
          Error::kUnsupportedFeature,
          "joint node " + std::to_string(skin->joints[j]) + " has a matrix: a pose cannot move it",
          where);
    }
  }
  const BindPose* found = FindBindPose(*skin, type);
  if (!found) {
    return Status(Error::kInvalidArgument,
                  std::string("the skin has no ") + PoseTypeName(type) + " bind pose",
                  "bind_poses");
  }
  if (found->matrices.size() != skin->joints.size()) {
    return Status(Error::kSizeMismatch,
                  std::to_string(found->matrices.size()) + " " + PoseTypeName(type) +
                      " matrices for " + std::to_string(skin->joints.size()) + " joints",
                  "matrices");
  }
  for (size_t j = 0; j < found->matrices.size(); ++j) {
    const std::string where = "matrices/" + std::to_string(j);
    for (const auto& column : found->matrices[j].m) {
      for (float v : column) {
        if (!std::isfinite(v)) return Status(Error::kNonFiniteValue, "not finite", where);
      }
    }
    if (!DecomposeTrs(found->matrices[j], nullptr, nullptr, nullptr)) {
      return Status(Error::kUnsupportedFeature,
                    "not translation, rotation and scale (shear, singular or not affine)", where);
    }
  }
  *bind_pose = found;
  return {};
}

Float4x4 LocalMatrix(std::span<const Node> nodes, const ScenePose& pose, size_t node) {
  if (nodes[node].has_matrix) return nodes[node].matrix;
  return ComposeTrs(pose.translations[node], pose.rotations[node], pose.scales[node]);
}

Float4x4 SceneMatrix(std::span<const Node> nodes, const ScenePose& pose, int32_t node) {
  Float4x4 world;
  for (int32_t n = node; n >= 0; n = nodes[size_t(n)].parent) {
    world = Multiply(LocalMatrix(nodes, pose, size_t(n)), world);
  }
  return world;
}

void ParentsFirst(std::span<const Node> nodes, const Skin& skin, std::vector<uint32_t>* order) {
  std::vector<std::pair<size_t, uint32_t>> by_depth(skin.joints.size());
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    size_t depth = 0;
    for (int32_t p = nodes[skin.joints[j]].parent; p >= 0; p = nodes[size_t(p)].parent) ++depth;
    by_depth[j] = {depth, uint32_t(j)};
  }
  std::stable_sort(by_depth.begin(), by_depth.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  order->resize(by_depth.size());
  for (size_t i = 0; i < by_depth.size(); ++i) (*order)[i] = by_depth[i].second;
}

}  // namespace internal

Status BindPoseJob::Validate() const {
  const BindPose* bind_pose = nullptr;
  return internal::ValidateSkinInPose(nodes, skin, pose, type, false, &bind_pose);
}

Status BindPoseJob::Run() const {
  const BindPose* bind_pose = nullptr;
  if (Status s = internal::ValidateSkinInPose(nodes, skin, pose, type, false, &bind_pose); !s) {
    return s;
  }
  std::vector<uint32_t> order;
  internal::ParentsFirst(nodes, *skin, &order);
  for (uint32_t j : order) {
    const uint32_t node = skin->joints[j];
    const int32_t parent = nodes[node].parent;
    Float4x4 local = bind_pose->matrices[j];
    if (parent >= 0) {
      // The parent is final: a joint solved earlier (its depth is smaller) or a non-joint node.
      Float4x4 parent_inverse;
      if (!Invert(internal::SceneMatrix(nodes, *pose, parent), &parent_inverse)) {
        return Status(Error::kUnsupportedFeature,
                      "the scene matrix is singular: the local transform of joint " +
                          std::to_string(j) + " is undefined",
                      "nodes/" + std::to_string(parent));
      }
      local = Multiply(parent_inverse, local);
    }
    Float3 t, s;
    Quat r;
    if (!DecomposeTrs(local, &t, &r, &s)) {
      return Status(Error::kUnsupportedFeature,
                    "the local matrix relative to the parent (node " + std::to_string(parent) +
                        ") has shear: a rotated joint under a non-uniform scale",
                    "matrices/" + std::to_string(j));
    }
    pose->translations[node] = t;
    pose->rotations[node] = r;
    pose->scales[node] = s;
  }
  return {};
}

}  // namespace sinew::cpu
