// Sampling one clip's channels, without validation: the steps SampleAnimationJob::Run and
// CrowdPoseJob share. Callers validate first (SampleAnimationJob::Validate, PosePlan::Create).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/cpu/sample_animation_job.h"

namespace sinew::cpu::detail {

// `time` clamped to the clip's range, or wrapped into it when `loop` (and the range is not empty).
float ClipTime(const ClipRange& range, float time, bool loop);

// Where `t` falls among the key times `in` (KeyPoint: sample_animation_job.h).
KeyPoint FindKey(std::span<const float> in, float t);

// Components a channel's values have: 3 (translation, scale), 4 (rotation), the sampler's count
// (weights).
size_t ComponentsOf(AnimationPath path, const AnimationSampler& s);

// Writes channel `ch` (a validated channel with a node) at key point `key` of its sampler into
// `pose`: rotations normalized; weights as many as both the sampler and the pose's node have.
void WriteChannel(const Animation& animation, const AnimationChannel& ch, const KeyPoint& key,
                  ScenePose* pose);

}  // namespace sinew::cpu::detail
