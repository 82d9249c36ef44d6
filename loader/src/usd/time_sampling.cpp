#include "usd/time_sampling.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sinew::loader::usd {
namespace {

bool IsQuaternion(ValueType type) {
  return type == ValueType::kQuath || type == ValueType::kQuatf || type == ValueType::kQuatd;
}

bool IsHalf(ValueType type) { return Info(type).scalar == Scalar::kHalf; }

// lo + (hi − lo)·u per number.
template <typename T>
std::vector<T> Lerp(std::span<const T> lo, std::span<const T> hi, double u) {
  std::vector<T> out(lo.size());
  for (size_t i = 0; i < lo.size(); ++i) out[i] = T(lo[i] + (hi[i] - lo[i]) * u);
  return out;
}

// Per element of 4 numbers (real, i, j, k): the shortest-way slerp of the two quaternions, linear
// weights when they are within 1 − cos θ < 1e-5 of each other, not renormalized; θ in float.
template <typename T>
std::vector<T> Slerp(std::span<const T> lo, std::span<const T> hi, double u) {
  std::vector<T> out(lo.size());
  for (size_t e = 0; e + 4 <= lo.size(); e += 4) {
    const T* a = &lo[e];
    T b[4] = {hi[e], hi[e + 1], hi[e + 2], hi[e + 3]};
    T cos_theta = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (cos_theta < 0) {
      cos_theta = -cos_theta;
      for (T& x : b) x = -x;
    }
    T wa = T(1 - u), wb = T(u);
    if (1 - cos_theta >= T(1e-5)) {
      const float theta = std::acos(float(std::min<T>(cos_theta, 1)));
      const float sin_theta = std::sin(theta);
      wa = T(std::sin((1.0f - float(u)) * theta) / sin_theta);
      wb = T(std::sin(float(u) * theta) / sin_theta);
    }
    for (int k = 0; k < 4; ++k) out[e + size_t(k)] = wa * a[k] + wb * b[k];
  }
  return out;
}

}  // namespace

std::optional<Value> Interpolate(const Value& lo, const Value& hi, double u) {
  if (lo.blocked || hi.blocked || lo.type != hi.type || lo.size() != hi.size()) return {};
  const ValueTypeInfo& info = Info(lo.type);
  if (info.rows != 0) return {};  // matrices hold
  Value out = lo;
  switch (StorageOf(info.scalar)) {
    case Storage::kFloat: {
      std::vector<float> v = IsQuaternion(lo.type) ? Slerp(lo.floats(), hi.floats(), u)
                                                   : Lerp(lo.floats(), hi.floats(), u);
      if (IsHalf(lo.type)) {
        for (float& x : v) x = RoundToHalf(x);
      }
      out.data = std::move(v);
      return out;
    }
    case Storage::kDouble:
      out.data = IsQuaternion(lo.type) ? Slerp(lo.doubles(), hi.doubles(), u)
                                       : Lerp(lo.doubles(), hi.doubles(), u);
      return out;
    default:
      break;
  }
  return {};
}

const Value* UnvaryingValue(const Attribute& attribute) noexcept {
  const std::vector<TimeSample>& samples = attribute.time_samples;
  if (samples.empty()) return attribute.UnblockedDefault();
  return attribute.samples_agree ? &samples.front().value : nullptr;
}

std::optional<Value> ValueAt(const Attribute& attribute, double time) {
  const std::vector<TimeSample>& samples = attribute.time_samples;
  if (samples.empty()) return attribute.default_value;
  if (time <= samples.front().time) return samples.front().value;
  if (time >= samples.back().time) return samples.back().value;
  // The first sample after `time`; the one before it is at or before `time`.
  const auto hi = std::upper_bound(samples.begin(), samples.end(), time,
                                   [](double t, const TimeSample& s) { return t < s.time; });
  const auto lo = hi - 1;
  if (lo->time == time) return lo->value;
  const double u = (time - lo->time) / (hi->time - lo->time);
  if (std::optional<Value> v = Interpolate(lo->value, hi->value, u)) return v;
  return lo->value;
}

}  // namespace sinew::loader::usd
