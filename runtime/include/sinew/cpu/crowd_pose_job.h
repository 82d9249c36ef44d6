// Posing at crowd scale: what is the same for every character of an asset (its
// hierarchy in parents-first order, its clips' channels, its drawn meshes and skins) is checked
// once by PosePlan::Create; CrowdPoseJob then poses a range of characters, each at its own clip
// time, with no allocation or string per character (but for a blend shape with more than 14
// in-betweens, which SubShapeWeightsJob sorts on the heap): clip sampling (each distinct key-time
// track searched once per character), scene matrices, and every drawn mesh's palette written where
// the caller says (e.g. straight into SkinCache::palette() memory). Split a crowd into ranges, one
// job per range, to spread it over an engine's job system; each thread needs its own PoseScratch.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"

namespace sinew::cpu {

class PosePlan;

// One thread's working memory for CrowdPoseJob (PosePlan::MakeScratch). Reused for every
// character; not shared between threads running at once.
class PoseScratch {
 public:
  PoseScratch() = default;

 private:
  friend class PosePlan;
  friend struct CrowdPoseJob;
  const PosePlan* plan_ = nullptr;
  int32_t clip_ = -2;  // the clip the pose last held (-1: rest, -2: none yet)
  ScenePose pose_;
  std::vector<Float4x4> world_;
  std::vector<detail::KeyPoint> keys_;  // per key-time track of the clip, this character
};

class PosePlan {
 public:
  // Checks `asset` once, as the per-character jobs would on every call: the hierarchy
  // (ValidatePose), every clip (SampleAnimationJob::Validate), every drawn skinned mesh's skin
  // (SkinInstancePaletteJob::Validate) and in-between shapes (SubShapeWeightsJob::Validate).
  // Errors are theirs, prefixed "animations/<a>" or "nodes/<n>". `asset` must outlive the plan
  // and stay unchanged.
  static Result<PosePlan> Create(const Asset& asset);

  const Asset& asset() const { return *asset_; }
  // The drawn meshes (DrawnMeshes), in the order CrowdPoseJob writes their palettes.
  const std::vector<DrawnMesh>& drawn() const { return drawn_; }
  // Per character: the morph weights CrowdPoseJob writes (each drawn mesh with morph targets,
  // resolved over its in-betweens, one per target), and where drawn mesh d's start (UINT32_MAX:
  // it has no targets).
  uint32_t weight_count() const { return weight_count_; }
  uint32_t weight_offset(size_t drawn) const { return weight_offsets_[drawn]; }

  // Working memory for one thread.
  PoseScratch MakeScratch() const;

 private:
  friend struct CrowdPoseJob;
  struct Channel {
    uint32_t track;  // index into the clip's tracks
    uint32_t channel;
    // A LINEAR or STEP rotation: its first key in Clip::unit_rotations; else UINT32_MAX.
    uint32_t unit_keys = UINT32_MAX;
  };
  struct Clip {
    float start = 0, end = 0;
    std::vector<std::span<const float>> tracks;  // distinct key-time ranges
    std::vector<Channel> channels;               // those with a node
    std::vector<Quat> unit_rotations;            // rotation keys, normalized once
  };

  const Asset* asset_ = nullptr;
  ScenePose rest_;
  std::vector<uint32_t> order_;  // parents first
  std::vector<DrawnMesh> drawn_;
  std::vector<Clip> clips_;
  size_t max_tracks_ = 0;
  bool affine_ = true;  // every node's local matrix is affine (T·R·S, or a matrix that is)
  std::vector<bool> affine_binds_;  // per drawn mesh: a glTF skin with affine inverse binds
  uint32_t weight_count_ = 0;
  std::vector<uint32_t> weight_offsets_;
};

struct CrowdPoseJob {
  // Validate() checks: plan and scratch given, the scratch made by this plan (kInvalidArgument);
  // animation -1 or a clip of the asset (kInvalidArgument, "animation"); times finite
  // (kNonFiniteValue, "times/<i>"); palettes holding drawn().size() spans per character, each of
  // its drawn mesh's palette_size (kSizeMismatch, "palettes/<i>"); weights empty or
  // weight_count() per character (kSizeMismatch, "weights"). Nothing per channel or node: the plan
  // checked those.
  Status Validate() const;
  // Validates, then poses each character: the rest pose, the clip at times[i] (clamped, or
  // wrapped when `loop`), the scene matrices, then each drawn mesh's palette
  // (SkinInstancePaletteJob; a rigid node: its world matrix) and resolved morph weights.
  // The same as SampleAnimationJob, SceneTransformsJob, SkinInstancePaletteJob and
  // SubShapeWeightsJob run one after the other, within float rounding (its interpolation is
  // arranged differently: palettes agree to about 1e-6 of their largest entry between keys, and
  // exactly at keys and clamped times), not bit for bit; tests/cpu/crowd_pose_job_test.cpp holds
  // them to 1e-5.
  Status Run() const;

  const PosePlan* plan = nullptr;
  PoseScratch* scratch = nullptr;
  // The clip every character of the range plays; -1: the rest pose.
  int32_t animation = -1;
  bool loop = false;
  // One clip time per character, seconds.
  std::span<const float> times;
  // Output: per character, one span per drawn mesh (PosePlan::drawn() order).
  std::span<const std::span<Float3x4>> palettes;
  // Output (optional): per character, weight_count() floats.
  std::span<float> weights;
};

}  // namespace sinew::cpu
