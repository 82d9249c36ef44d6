// Retargets a pose from skeleton A (the source) to skeleton B (the target) whose joints share
// names (docs/semantics.md, "Bind poses"; the math, its choices and its limits in
// docs/retargeting.md). Each skin's bind pose of the same type is the common reference: a joint
// takes over the source joint's scene-space rotation away from A's reference, applied to B's
// reference; B keeps its own bone lengths (its reference-pose local translations and scales); the
// topmost matched joints move by the source's displacement from its reference position, scaled by
// the ratio of the two heights.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

// How the target's translation roots move (docs/retargeting.md §4).
enum class RootTranslation : uint8_t {
  // By the source's displacement from its reference position times h_B / h_A, the ratio of the
  // two joints' reference heights above the scene origin (their scene-space y; 1 when either is
  // not above 1e-6).
  kScaledByHeight,
  // By the source's displacement as is (ratio 1).
  kUnscaled,
  // Not at all: they keep their reference positions (the clip plays in place).
  kReference,
};

struct RetargetJob {
  // Validate() checks, in order:
  // - the source: BindPoseJob's checks of source_nodes, source_skin and source_pose for the
  //   `reference` type, each `where` prefixed with "source/" ("source/skin", "source/pose",
  //   "source/nodes/<i>", "source/joints/<j>", "source/bind_poses", "source/matrices",
  //   "source/matrices/<j>"), except that source joints may be matrix nodes (they are only read);
  // - the target: the same with "target/" (target joints may not be matrix nodes);
  // - no two source joints share a non-empty name (kInvalidArgument, "source/joints/<j>" of the
  //   later one): a target joint must match one source joint or none;
  // - root_translation one of the enum's values (kInvalidArgument, "root_translation").
  Status Validate() const;
  // Validates, then writes the local T/R/S of every target joint into target_pose (other nodes
  // are left as they are and the joints are solved against them). Fails with kUnsupportedFeature
  // when a scene matrix it takes a rotation from has shear or is singular: a matched source
  // joint's in source_pose ("source/nodes/<n>"), a target joint's parent's ("target/nodes/<n>"),
  // or a target reference local (BindPoseJob's "target/matrices/<j>"); target_pose is then
  // partly written.
  Status Run() const;

  // Skeleton A: its nodes, the skin whose joints are matched, and the pose to retarget (e.g. a
  // clip sampled into RestPose(asset A) by SampleAnimationJob). Required; one pose entry per node.
  std::span<const Node> source_nodes;
  const Skin* source_skin = nullptr;
  const ScenePose* source_pose = nullptr;
  // Skeleton B. target_pose: in, the pose of B's nodes that are not joints of target_skin (e.g.
  // RestPose(asset B)); out, every joint's retargeted local T/R/S. Required; one entry per node.
  std::span<const Node> target_nodes;
  const Skin* target_skin = nullptr;
  ScenePose* target_pose = nullptr;
  // The bind pose type both skins must have: the common reference. Default TPose.
  PoseType reference = PoseType::kTPose;
  // Default kScaledByHeight.
  RootTranslation root_translation = RootTranslation::kScaledByHeight;
};

}  // namespace sinew::cpu
