// Samples one animation clip at a time into a ScenePose (docs/semantics.md, "Animation sampling";
// glTF 2.0 §3.11 and Appendix C): LINEAR (slerp on the shorter arc for rotations), STEP,
// CUBICSPLINE (Hermite with tangents scaled by the key interval). Every rotation written is
// normalized (files round their keys, and a non-unit quaternion would scale the node). Channels
// without a node are ignored; nodes and weights no channel targets keep what the pose held.
#pragma once

#include <cstdint>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"

namespace sinew::cpu {

// The clip's time range: the earliest first key and the latest last key of its samplers (0, 0 for
// a clip without keys).
struct ClipRange {
  float start = 0, end = 0;
  float duration() const { return end - start; }
};
ClipRange RangeOf(const Animation& animation);

namespace detail {
// Where a time falls among a sampler's key times: before or at the first key (`clamp_first`),
// at or past the last (`clamp_last`), else between key k and k + 1 at fraction a. Internal to
// the sampling code (runtime/src/cpu/clip_sampling.h); public only for CrowdPoseJob's scratch.
struct KeyPoint {
  uint32_t k = 0;
  float a = 0;
  float dt = 0;  // in[k + 1] - in[k]
  bool clamp_first = false;
  bool clamp_last = false;
};
}  // namespace detail

struct SampleAnimationJob {
  // Validate() checks: animation and pose given (kInvalidArgument); every sampler's key ranges
  // within the clip's keys (kSizeMismatch, where "samplers/<s>"); every channel's sampler and
  // node in range, and its sampler's output holding the values its input and interpolation need
  // (kSizeMismatch, where "channels/<c>"); time finite (kNonFiniteValue).
  Status Validate() const;
  // Validates, then writes every channel's value at `time` into the pose. The time is clamped to
  // the clip's range, or wrapped into it when `loop`; each sampler then holds its first/last value
  // outside its own keys.
  Status Run() const;

  const Animation* animation = nullptr;
  float time = 0;
  bool loop = false;
  // Receives the sampled values; sized for the asset (RestPose). Weights channels write
  // min(components, pose weights of the node) values.
  ScenePose* pose = nullptr;
};

}  // namespace sinew::cpu
