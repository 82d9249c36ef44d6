#include "sinew/cpu/sub_shape_weights_job.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

namespace sinew::cpu {

namespace {

constexpr float kEpsilon = 1e-6f;
constexpr int32_t kNull = -1;

struct SubShape {
  float weight;
  int32_t target;  // kNull for the null shape at 0
};

}  // namespace

Status SubShapeWeightsJob::Validate() const {
  if (output.size() != weights.size()) {
    return Status(Error::kSizeMismatch,
                  "output has " + std::to_string(output.size()) + " entries for " +
                      std::to_string(weights.size()) + " weights",
                  "output");
  }
  for (size_t s = 0; s < shapes.size(); ++s) {
    bool in_range = shapes[s].primary < weights.size();
    for (const auto& ib : shapes[s].inbetweens) in_range &= ib.target < weights.size();
    if (!in_range) {
      return Status(Error::kInvalidArgument, "a target past the mesh's weights",
                    "shapes/" + std::to_string(s));
    }
  }
  for (size_t t = 0; t < weights.size(); ++t) {
    if (!std::isfinite(weights[t])) {
      return Status(Error::kNonFiniteValue, "weight is not finite", "weights/" + std::to_string(t));
    }
  }
  return {};
}

Status SubShapeWeightsJob::Run() const {
  if (Status s = Validate(); !s) return s;
  std::copy(weights.begin(), weights.end(), output.begin());
  // A shape's sub-shapes, sorted: on the stack for up to 16 (no allocation per call, which
  // CrowdPoseJob makes per character), else on the heap.
  SubShape stack[16];
  std::vector<SubShape> heap;
  for (const InbetweenShape& shape : shapes) {
    const float w = weights[shape.primary];
    output[shape.primary] = 0;
    for (const auto& ib : shape.inbetweens) output[ib.target] = 0;
    if (shape.inbetweens.empty()) {  // the fast path: the raw weight, unclamped
      output[shape.primary] = w;
      continue;
    }
    const size_t count = shape.inbetweens.size() + 2;
    if (count > std::size(stack)) heap.resize(count);
    const std::span<SubShape> subs(count > std::size(stack) ? heap.data() : stack, count);
    subs[0] = {0.0f, kNull};
    subs[1] = {1.0f, int32_t(shape.primary)};
    for (size_t i = 0; i < shape.inbetweens.size(); ++i) {
      subs[i + 2] = {shape.inbetweens[i].weight, int32_t(shape.inbetweens[i].target)};
    }
    // Insertion sort by weight: stable, as few entries as a shape has sub-shapes.
    for (size_t i = 1; i < count; ++i) {
      const SubShape x = subs[i];
      size_t j = i;
      for (; j > 0 && x.weight < subs[j - 1].weight; --j) subs[j] = subs[j - 1];
      subs[j] = x;
    }
    const size_t k =
        size_t(std::upper_bound(subs.begin(), subs.end(), w,
                                [](float value, const SubShape& s) { return value < s.weight; }) -
               subs.begin());
    size_t lo, hi;
    if (k == subs.size()) {
      lo = subs.size() - 2, hi = subs.size() - 1;
    } else if (k == 0) {
      lo = 0, hi = 1;
    } else {
      lo = k - 1, hi = k;
    }
    const float d = subs[hi].weight - subs[lo].weight;
    if (d <= kEpsilon) continue;  // degenerate bracket: the shape contributes nothing
    const float a = (w - subs[lo].weight) / d;
    if (subs[lo].target != kNull && std::fabs(a - 1.0f) >= kEpsilon) {
      output[size_t(subs[lo].target)] = float(1.0 - double(a));
    }
    if (subs[hi].target != kNull && std::fabs(a) >= kEpsilon) {
      output[size_t(subs[hi].target)] = a;
    }
  }
  return {};
}

}  // namespace sinew::cpu
