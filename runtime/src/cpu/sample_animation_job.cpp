#include "sinew/cpu/sample_animation_job.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "clip_sampling.h"

namespace sinew::cpu {

ClipRange RangeOf(const Animation& animation) {
  ClipRange range;
  bool first = true;
  for (const AnimationSampler& s : animation.samplers) {
    const std::span<const float> in = animation.Input(s);
    if (in.empty()) continue;
    range.start = first ? in.front() : std::min(range.start, in.front());
    range.end = first ? in.back() : std::max(range.end, in.back());
    first = false;
  }
  return range;
}

namespace detail {

float ClipTime(const ClipRange& range, float time, bool loop) {
  float t = time;
  if (loop && range.duration() > 0) {
    t = range.start + std::fmod(t - range.start, range.duration());
    if (t < range.start) t += range.duration();
  }
  return std::clamp(t, range.start, range.end);
}

KeyPoint FindKey(std::span<const float> in, float t) {
  KeyPoint key;
  if (in.size() == 1 || t <= in.front()) {
    key.clamp_first = true;
    return key;
  }
  if (t >= in.back()) {
    key.clamp_last = true;
    key.k = uint32_t(in.size() - 1);
    return key;
  }
  key.k = uint32_t(std::upper_bound(in.begin(), in.end(), t) - in.begin()) - 1;
  key.dt = in[key.k + 1] - in[key.k];
  key.a = (t - in[key.k]) / key.dt;
  return key;
}

size_t ComponentsOf(AnimationPath path, const AnimationSampler& s) {
  switch (path) {
    case AnimationPath::kTranslation:
    case AnimationPath::kScale:
      return 3;
    case AnimationPath::kRotation:
      return 4;
    case AnimationPath::kWeights:
      return s.components;
  }
  return 0;
}

namespace {

// The sampler's value at `key` into out[0..n) (n <= c components; the first n).
void Sample(const Animation& animation, const AnimationSampler& s, size_t c, size_t n,
            const KeyPoint& key, bool rotation, float* out) {
  const float* const values = animation.Output(s).data();
  const bool cubic = s.interpolation == Interpolation::kCubicSpline;
  const size_t stride = cubic ? 3 * c : c;  // floats per key
  const size_t value = cubic ? c : 0;       // offset of the value within a key
  const auto at = [&](size_t k) { return values + k * stride + value; };
  if (key.clamp_first || key.clamp_last) {
    std::copy_n(at(key.k), n, out);
    return;
  }
  const size_t k = key.k;
  const float a = key.a;
  switch (s.interpolation) {
    case Interpolation::kStep:
      std::copy_n(at(k), n, out);
      return;
    case Interpolation::kLinear:
      if (rotation) {
        const float* p = at(k);
        const float* q = at(k + 1);
        const Quat r = Slerp({p[0], p[1], p[2], p[3]}, {q[0], q[1], q[2], q[3]}, a);
        out[0] = r.x, out[1] = r.y, out[2] = r.z, out[3] = r.w;
        return;
      }
      for (size_t i = 0; i < n; ++i) {
        const float p = at(k)[i], q = at(k + 1)[i], d = q - p;
        // Keys so far apart that their difference overflows: the other form, which does not.
        out[i] = std::isfinite(d) ? p + a * d : p * (1 - a) + q * a;
      }
      return;
    case Interpolation::kCubicSpline: {
      // Key k: (in-tangent, value, out-tangent); tangents are per second, so scaled by dt.
      const float dt = key.dt;
      const float a2 = a * a, a3 = a2 * a;
      const float h00 = 2 * a3 - 3 * a2 + 1, h10 = a3 - 2 * a2 + a;
      const float h01 = -2 * a3 + 3 * a2, h11 = a3 - a2;
      const float* v0 = at(k);
      const float* b0 = values + k * stride + 2 * c;  // out-tangent of k
      const float* v1 = at(k + 1);
      const float* a1 = values + (k + 1) * stride;  // in-tangent of k + 1
      for (size_t i = 0; i < n; ++i) {
        out[i] = h00 * v0[i] + h10 * dt * b0[i] + h01 * v1[i] + h11 * dt * a1[i];
      }
      if (rotation) {
        const Quat r = Normalize({out[0], out[1], out[2], out[3]});
        out[0] = r.x, out[1] = r.y, out[2] = r.z, out[3] = r.w;
      }
      return;
    }
  }
}

}  // namespace

void WriteChannel(const Animation& animation, const AnimationChannel& ch, const KeyPoint& key,
                  ScenePose* pose) {
  const AnimationSampler& s = animation.samplers[ch.sampler];
  const size_t node = size_t(ch.node);
  float value[4] = {0, 0, 0, 0};
  switch (ch.path) {
    case AnimationPath::kTranslation:
      Sample(animation, s, 3, 3, key, false, value);
      pose->translations[node] = {value[0], value[1], value[2]};
      break;
    case AnimationPath::kScale:
      Sample(animation, s, 3, 3, key, false, value);
      pose->scales[node] = {value[0], value[1], value[2]};
      break;
    case AnimationPath::kRotation:
      // Normalized on every path (keys themselves included): files store rotations rounded.
      Sample(animation, s, 4, 4, key, true, value);
      pose->rotations[node] = Normalize({value[0], value[1], value[2], value[3]});
      break;
    case AnimationPath::kWeights: {
      std::vector<float>& out = pose->weights[node];
      Sample(animation, s, s.components, std::min<size_t>(out.size(), s.components), key, false,
             out.data());
      break;
    }
  }
}

}  // namespace detail

Status SampleAnimationJob::Validate() const {
  if (!animation || !pose) {
    return Status(Error::kInvalidArgument, "animation and pose are required");
  }
  if (!std::isfinite(time)) return Status(Error::kNonFiniteValue, "time is not finite", "time");
  // Every sampler's ranges, used by a channel or not: Run reads every sampler's key times (the
  // clip's range).
  const size_t size = animation->keys.size();
  for (size_t i = 0; i < animation->samplers.size(); ++i) {
    const AnimationSampler& s = animation->samplers[i];
    if (s.input.offset > size || s.input.count > size - s.input.offset || s.output.offset > size ||
        s.output.count > size - s.output.offset) {
      return Status(Error::kSizeMismatch,
                    "reaches past the clip's " + std::to_string(size) + " key floats",
                    "samplers/" + std::to_string(i));
    }
  }
  for (size_t i = 0; i < animation->channels.size(); ++i) {
    const AnimationChannel& ch = animation->channels[i];
    // The location is only spelled out on error: Run validates on every call.
    const auto where = [i] { return "channels/" + std::to_string(i); };
    if (ch.node < 0) continue;
    if (size_t(ch.node) >= pose->node_count() || ch.sampler >= animation->samplers.size()) {
      return Status(Error::kSizeMismatch, "node or sampler out of range", where());
    }
    const AnimationSampler& s = animation->samplers[ch.sampler];
    const size_t c = detail::ComponentsOf(ch.path, s);
    const size_t per_key = s.interpolation == Interpolation::kCubicSpline ? 3 * c : c;
    if (c == 0 || s.input.count == 0 || s.output.count != s.input.count * per_key) {
      return Status(Error::kSizeMismatch,
                    "sampler " + std::to_string(ch.sampler) + " has " +
                        std::to_string(s.output.count) + " output floats for " +
                        std::to_string(s.input.count) + " keys of " + std::to_string(c),
                    where());
    }
  }
  return {};
}

Status SampleAnimationJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const float t = detail::ClipTime(RangeOf(*animation), time, loop);
  for (const AnimationChannel& ch : animation->channels) {
    if (ch.node < 0) continue;
    const detail::KeyPoint key =
        detail::FindKey(animation->Input(animation->samplers[ch.sampler]), t);
    detail::WriteChannel(*animation, ch, key, pose);
  }
  return {};
}

}  // namespace sinew::cpu
