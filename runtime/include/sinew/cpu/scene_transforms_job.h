// Scene-space matrices of every node of an asset in a pose (docs/semantics.md, "Pose evaluation"):
// local = the node's matrix, or T·R·S from the pose; world = world(parent) · local, parents first
// whatever the node order in the file (joints outside the scene's node tree are evaluated the same
// way).
#pragma once

#include <span>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

struct SceneTransformsJob {
  // Validate() checks: pose given and sized like nodes, output sized like nodes (kSizeMismatch);
  // every parent in range, and no cycle (kInvalidHierarchy, where "nodes/<i>").
  Status Validate() const;
  // Validates, then writes output[i] = world matrix of node i.
  Status Run() const;

  std::span<const Node> nodes;
  const ScenePose* pose = nullptr;
  std::span<Float4x4> output;
};

}  // namespace sinew::cpu
