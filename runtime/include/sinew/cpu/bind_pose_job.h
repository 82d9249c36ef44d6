// Poses a skin's joints into one of its named bind poses (KHR_character_skeleton_bindpose,
// docs/semantics.md "Bind poses", docs/retargeting.md §2): writes each joint's local T/R/S into a
// ScenePose such that the joint's scene matrix, as SceneTransformsJob computes it from that pose,
// equals the bind pose's model-space matrix B_j. Nodes that are not joints of the skin (an armature
// above the root joint, the skinned node) keep what the pose holds, and the joints are solved
// against them:
// local_j = W(parent_j)⁻¹ · B_j, split into T·R·S.
#pragma once

#include <span>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

// "TPose", "APose", "IPose" or "Custom" (the spelling of the file's poseType). Never null.
const char* PoseTypeName(PoseType type) noexcept;

// The skin's bind pose of `type`, or null when it has none.
const BindPose* FindBindPose(const Skin& skin, PoseType type) noexcept;

// The pose the skin's mesh was bound in, as a bind pose of type `type` (default Custom): each
// joint's matrix is the inverse of its inverse bind matrix. Add it to a copy of the skin (in place
// of any pose of that type) and BindPoseJob poses the skeleton as bound, so that the palette is
// identity and skinning returns the mesh as authored. kSizeMismatch ("inverse_binds") without one
// inverse bind per joint; kInvalidArgument ("inverse_binds/<j>") for a singular one.
Result<BindPose> InverseBindPose(const Skin& skin, PoseType type = PoseType::kCustom);

// A pose cannot move a node the file gives as a matrix (glTF animates only T/R/S nodes), so
// BindPoseJob rejects such joints. A tool that poses them anyway first calls this: every
// Node::has_matrix node whose matrix splits into T·R·S (DecomposeTrs) becomes a T/R/S node, in
// `nodes` (a copy of the asset's) and in `pose` (one entry per node), with the same scene matrix.
// Returns how many matrix nodes are left (shear or not affine). Size precondition: pose sized
// like nodes.
size_t MatrixNodesToTrs(std::span<Node> nodes, ScenePose* pose);

struct BindPoseJob {
  // Validate() checks, in order:
  // - skin and pose given (kInvalidArgument, where "skin" / "pose");
  // - the pose has one entry per node (kSizeMismatch, "pose");
  // - every parent in range and no cycle (kInvalidHierarchy, "nodes/<i>");
  // - every joint a node (kJointIndexOutOfRange, "joints/<j>") that is not a matrix node
  //   (kUnsupportedFeature, "joints/<j>": a ScenePose cannot move a Node::has_matrix node);
  // - the skin has a bind pose of `type` (kInvalidArgument, "bind_poses"; the message names the
  //   type) with one matrix per joint (kSizeMismatch, "matrices"), each finite (kNonFiniteValue,
  //   "matrices/<j>") and TRS-decomposable, see DecomposeTrs (kUnsupportedFeature,
  //   "matrices/<j>"). j is the index in the skin's joint order.
  Status Validate() const;
  // Validates, then solves the joints parents first, whatever their order in the skin (a joint's
  // parent may be another joint or any other node). Fails with kUnsupportedFeature when a joint's
  // local matrix W(parent)⁻¹ · B_j has shear (a rotated joint under a non-uniformly scaled parent;
  // "matrices/<j>") or its parent's scene matrix is singular ("nodes/<parent>"); the joints solved
  // before it have then been written.
  Status Run() const;

  // The asset's nodes. Required.
  std::span<const Node> nodes;
  // The skin to pose. Required.
  const Skin* skin = nullptr;
  // Which of the skin's bind poses. Default TPose.
  PoseType type = PoseType::kTPose;
  // In: the pose of the nodes that are not joints of the skin (e.g. RestPose(asset)). Out: the
  // local translation, rotation (normalized) and scale of every joint of the skin; nothing else
  // is written. Required, one entry per node.
  ScenePose* pose = nullptr;
};

}  // namespace sinew::cpu
