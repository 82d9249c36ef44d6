// Helpers shared by BindPoseJob and RetargetJob (not installed).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu::internal {

// BindPoseJob::Validate's checks (same codes and `where`s), on any skin of any asset. Matrix
// nodes among the joints are allowed when `allow_matrix_joints` (a source skin is only read).
// `*bind_pose` receives the pose of `type` on success.
Status ValidateSkinInPose(std::span<const Node> nodes, const Skin* skin, const ScenePose* pose,
                          PoseType type, bool allow_matrix_joints, const BindPose** bind_pose);

// The node's local matrix: Node::matrix, or T·R·S from the pose.
Float4x4 LocalMatrix(std::span<const Node> nodes, const ScenePose& pose, size_t node);

// The scene matrix of `node` in the pose (SceneTransformsJob's value), composed up its chain;
// identity for node -1. The hierarchy must have been validated.
Float4x4 SceneMatrix(std::span<const Node> nodes, const ScenePose& pose, int32_t node);

// Indices into skin.joints, ordered by the depth of their nodes: every joint after the joints
// among its ancestors. The hierarchy and joints must have been validated.
void ParentsFirst(std::span<const Node> nodes, const Skin& skin, std::vector<uint32_t>* order);

}  // namespace sinew::cpu::internal
