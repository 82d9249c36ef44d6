#include "sinew/cpu/crowd_pose_job.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "clip_sampling.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/skin_instance_palette_job.h"
#include "sinew/cpu/sub_shape_weights_job.h"
#include "skin_palette.h"

namespace sinew::cpu {
namespace {

// a · b for affine a and b (bottom rows 0 0 0 1): Multiply without the terms that are 0.
Float4x4 MultiplyAffine(const Float4x4& a, const Float4x4& b) {
  Float4x4 out;
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) {
      out.m[c][r] = a.m[0][r] * b.m[c][0] + a.m[1][r] * b.m[c][1] + a.m[2][r] * b.m[c][2];
    }
    out.m[c][3] = 0;
  }
  for (int r = 0; r < 3; ++r) {
    out.m[3][r] = a.m[0][r] * b.m[3][0] + a.m[1][r] * b.m[3][1] + a.m[2][r] * b.m[3][2] + a.m[3][r];
  }
  out.m[3][3] = 1;
  return out;
}

// ToFloat3x4(MultiplyAffine(a, b)): a palette entry from an affine world matrix and bind.
Float3x4 MultiplyAffineTo3x4(const Float4x4& a, const Float4x4& b) {
  Float3x4 out;
  for (int r = 0; r < 3; ++r) {
    const auto at = [&](int c) {
      return a.m[0][r] * b.m[c][0] + a.m[1][r] * b.m[c][1] + a.m[2][r] * b.m[c][2];
    };
    out.row[r] = {at(0), at(1), at(2), at(3) + a.m[3][r]};
  }
  return out;
}

bool IsAffine(const Float4x4& m) {
  return m.m[0][3] == 0 && m.m[1][3] == 0 && m.m[2][3] == 0 && m.m[3][3] == 1;
}

}  // namespace

Result<PosePlan> PosePlan::Create(const Asset& asset) {
  PosePlan plan;
  plan.asset_ = &asset;
  plan.rest_ = RestPose(asset);
  if (Status s = ValidatePose(asset.nodes, &plan.rest_); !s) return s;

  // Parents first: nodes by depth (the hierarchy has no cycle, checked above), stable.
  const size_t n = asset.nodes.size();
  std::vector<uint32_t> depth(n, 0);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t p = asset.nodes[i].parent; p >= 0; p = asset.nodes[size_t(p)].parent) ++depth[i];
  }
  for (const Node& node : asset.nodes) plan.affine_ &= !node.has_matrix || IsAffine(node.matrix);
  plan.order_.resize(n);
  for (uint32_t i = 0; i < n; ++i) plan.order_[i] = i;
  std::stable_sort(plan.order_.begin(), plan.order_.end(),
                   [&](uint32_t a, uint32_t b) { return depth[a] < depth[b]; });

  // Drawn meshes: their skins and in-between shapes, checked as their jobs would.
  plan.drawn_ = DrawnMeshes(asset);
  const std::vector<Float4x4> world(n);
  for (const DrawnMesh& d : plan.drawn_) {
    const std::string where = "nodes/" + std::to_string(d.node);
    bool affine_binds = false;
    if (d.skin >= 0) {
      const Skin& skin = asset.skins[size_t(d.skin)];
      affine_binds = plan.affine_ && skin.group_joints.empty() &&
                     std::all_of(skin.inverse_binds.begin(), skin.inverse_binds.end(), IsAffine);
      std::vector<Float3x4> palette(d.palette_size);
      SkinInstancePaletteJob job;
      job.skin = &asset.skins[size_t(d.skin)];
      job.world = world;
      job.node = d.node;
      job.output = palette;
      if (Status s = job.Validate(); !s) return Prefixed(s, where);
    }
    plan.affine_binds_.push_back(affine_binds);
    const Mesh& mesh = asset.meshes[d.mesh];
    const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
    if (targets == 0) {
      plan.weight_offsets_.push_back(UINT32_MAX);
      continue;
    }
    std::vector<float> zeros(targets, 0.0f), out(targets);
    SubShapeWeightsJob job;
    job.shapes = mesh.inbetween_shapes;
    job.weights = zeros;
    job.output = out;
    if (Status s = job.Validate(); !s) return Prefixed(s, where);
    plan.weight_offsets_.push_back(plan.weight_count_);
    plan.weight_count_ += uint32_t(targets);
  }

  // Clips: checked once; channels grouped by their key-time track, searched once per character.
  for (size_t a = 0; a < asset.animations.size(); ++a) {
    const Animation& animation = asset.animations[a];
    SampleAnimationJob job;
    job.animation = &animation;
    job.pose = &plan.rest_;
    if (Status s = job.Validate(); !s) return Prefixed(s, "animations/" + std::to_string(a));
    Clip clip;
    const ClipRange range = RangeOf(animation);
    clip.start = range.start;
    clip.end = range.end;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> tracks;
    for (size_t c = 0; c < animation.channels.size(); ++c) {
      const AnimationChannel& ch = animation.channels[c];
      if (ch.node < 0) continue;
      const AnimationSampler& s = animation.samplers[ch.sampler];
      const auto key = std::make_pair(uint32_t(s.input.offset), uint32_t(s.input.count));
      auto [it, added] = tracks.emplace(key, uint32_t(clip.tracks.size()));
      if (added) clip.tracks.push_back(animation.Input(s));
      Channel planned{it->second, uint32_t(c)};
      if (ch.path == AnimationPath::kRotation && s.interpolation != Interpolation::kCubicSpline) {
        planned.unit_keys = uint32_t(clip.unit_rotations.size());
        const std::span<const float> keys = animation.Output(s);
        for (size_t k = 0; k + 3 < keys.size(); k += 4) {
          clip.unit_rotations.push_back(
              Normalize({keys[k], keys[k + 1], keys[k + 2], keys[k + 3]}));
        }
      }
      clip.channels.push_back(planned);
    }
    plan.max_tracks_ = std::max(plan.max_tracks_, clip.tracks.size());
    plan.clips_.push_back(std::move(clip));
  }
  return plan;
}

PoseScratch PosePlan::MakeScratch() const {
  PoseScratch s;
  s.plan_ = this;
  s.pose_ = rest_;
  s.clip_ = -1;
  s.world_.resize(asset_->nodes.size());
  s.keys_.resize(max_tracks_);
  return s;
}

Status CrowdPoseJob::Validate() const {
  if (!plan)
    return Status(Error::kInvalidArgument, "a plan is required (PosePlan::Create)", "plan");
  if (!scratch || scratch->plan_ != plan) {
    return Status(Error::kInvalidArgument,
                  !scratch ? "a scratch is required (plan->MakeScratch(), one per thread)"
                           : "the scratch was not made by this plan (use plan->MakeScratch())",
                  "scratch");
  }
  if (animation < -1 || (animation >= 0 && size_t(animation) >= plan->clips_.size())) {
    return Status(Error::kInvalidArgument, "no such clip", "animation");
  }
  const size_t drawn = plan->drawn_.size();
  if (palettes.size() != times.size() * drawn) {
    return Status(Error::kSizeMismatch,
                  std::to_string(palettes.size()) + " palettes for " +
                      std::to_string(times.size()) + " characters of " + std::to_string(drawn) +
                      " drawn meshes",
                  "palettes");
  }
  for (size_t i = 0; i < palettes.size(); ++i) {
    if (palettes[i].size() != plan->drawn_[i % drawn].palette_size) {
      return Status(Error::kSizeMismatch, "not the drawn mesh's palette size",
                    "palettes/" + std::to_string(i));
    }
  }
  if (!weights.empty() && weights.size() != times.size() * plan->weight_count_) {
    return Status(Error::kSizeMismatch, "weight_count() weights per character", "weights");
  }
  for (size_t i = 0; i < times.size(); ++i) {
    if (!std::isfinite(times[i])) {
      return Status(Error::kNonFiniteValue, "time is not finite", "times/" + std::to_string(i));
    }
  }
  return {};
}

Status CrowdPoseJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const Asset& asset = *plan->asset_;
  PoseScratch& sc = *scratch;
  ScenePose& pose = sc.pose_;
  if (sc.clip_ != animation) {  // another clip animated other nodes: start from the rest pose
    pose = plan->rest_;
    sc.clip_ = animation;
  }
  const size_t drawn = plan->drawn_.size();
  for (size_t c = 0; c < times.size(); ++c) {
    if (animation >= 0) {
      const PosePlan::Clip& clip = plan->clips_[size_t(animation)];
      const Animation& anim = asset.animations[size_t(animation)];
      const float t = detail::ClipTime({clip.start, clip.end}, times[c], loop);
      for (size_t k = 0; k < clip.tracks.size(); ++k) {
        sc.keys_[k] = detail::FindKey(clip.tracks[k], t);
      }
      for (const PosePlan::Channel& ch : clip.channels) {
        const detail::KeyPoint& key = sc.keys_[ch.track];
        if (ch.unit_keys != UINT32_MAX) {  // LINEAR or STEP rotation from the normalized keys
          const Quat* keys = clip.unit_rotations.data() + ch.unit_keys;
          const AnimationChannel& channel = anim.channels[ch.channel];
          const bool between =
              !key.clamp_first && !key.clamp_last &&
              anim.samplers[channel.sampler].interpolation == Interpolation::kLinear;
          pose.rotations[size_t(channel.node)] =
              between ? SlerpUnit(keys[key.k], keys[key.k + 1], key.a) : keys[key.k];
          continue;
        }
        detail::WriteChannel(anim, anim.channels[ch.channel], key, &pose);
      }
    }
    for (uint32_t i : plan->order_) {
      const Node& node = asset.nodes[i];
      const Float4x4 local =
          node.has_matrix ? node.matrix
                          : ComposeTrs(pose.translations[i], pose.rotations[i], pose.scales[i]);
      if (node.parent < 0) {
        sc.world_[i] = local;
      } else if (plan->affine_) {
        sc.world_[i] = MultiplyAffine(sc.world_[size_t(node.parent)], local);
      } else {
        sc.world_[i] = Multiply(sc.world_[size_t(node.parent)], local);
      }
    }
    for (size_t d = 0; d < drawn; ++d) {
      const DrawnMesh& m = plan->drawn_[d];
      const std::span<Float3x4> out = palettes[c * drawn + d];
      if (m.skin >= 0 && plan->affine_binds_[d]) {  // a glTF skin, every matrix affine
        const Skin& skin = asset.skins[size_t(m.skin)];
        for (size_t j = 0; j < out.size(); ++j) {
          out[j] = MultiplyAffineTo3x4(sc.world_[skin.joints[j]], skin.inverse_binds[j]);
        }
      } else if (m.skin >= 0) {
        detail::WriteSkinPalette(asset.skins[size_t(m.skin)], sc.world_, m.node, out);
      } else {
        out[0] = ToFloat3x4(sc.world_[m.node]);
      }
      const uint32_t offset = plan->weight_offsets_[d];
      if (weights.empty() || offset == UINT32_MAX) continue;
      const Mesh& mesh = asset.meshes[m.mesh];
      const size_t targets = mesh.primitives[0].targets.size();
      const std::span<float> w = weights.subspan(c * plan->weight_count_ + offset, targets);
      const std::vector<float>& node_weights = pose.weights[m.node];
      if (node_weights.size() != targets) {  // as MorphWeightsFor: no weights, no morphing
        std::fill(w.begin(), w.end(), 0.0f);
        continue;
      }
      SubShapeWeightsJob job;
      job.shapes = mesh.inbetween_shapes;
      job.weights = node_weights;
      job.output = w;
      if (!job.Run()) std::fill(w.begin(), w.end(), 0.0f);
    }
  }
  return {};
}

}  // namespace sinew::cpu
