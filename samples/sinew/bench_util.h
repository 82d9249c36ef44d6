// Small helpers the tool's benchmarks share: argument parsing, errors and medians.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "sinew/core/math.h"

namespace sinew::tool {

// A decimal uint32; false for anything else.
inline bool ParseUint(std::string_view text, uint32_t* out) {
  if (text.empty()) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + uint64_t(c - '0');
    if (v > 0xFFFFFFFFull) return false;
  }
  *out = static_cast<uint32_t>(v);
  return true;
}

// A comma-separated list of uint32 each at least `min`; false for anything else or an empty list.
inline bool ParseUintList(std::string_view list, uint32_t min, std::vector<uint32_t>* out) {
  out->clear();
  while (!list.empty()) {
    const size_t comma = list.find(',');
    uint32_t v = 0;
    if (!ParseUint(list.substr(0, comma), &v) || v < min) return false;
    out->push_back(v);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return !out->empty();
}

// max |a[i] - b[i]|; infinite when the sizes differ or a difference is not a number (a NaN on
// either side is never within a tolerance).
inline double MaxAbsDiff(std::span<const float> a, std::span<const float> b) {
  double m = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const double d = std::fabs(double(a[i]) - double(b[i]));
    if (std::isnan(d)) return INFINITY;
    m = std::max(m, d);
  }
  return a.size() == b.size() ? m : INFINITY;
}

// The error of positions `got` against the reference's `want` (xyz each), as `sinew bench` reports
// it and checks it: max |got - want| over the extent of `want` (its bounds' diagonal). Where every
// point of `want` is the same point (a mesh of one vertex), over that point's largest coordinate
// instead, so that float rounding reads as the small error it is.
inline double PositionErrorOverExtent(std::span<const float> got, std::span<const float> want) {
  double extent = BoundsDiagonal(want);
  if (extent == 0) {
    for (float x : want) extent = std::max(extent, double(std::fabs(x)));
  }
  return MaxAbsDiff(got, want) / std::max(extent, double(std::numeric_limits<float>::min()));
}

// The median: the middle value of an odd count, the mean of the two middle values of an even
// one; 0 when empty.
inline double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t half = v.size() / 2;
  return v.size() % 2 ? v[half] : (v[half - 1] + v[half]) / 2;
}

}  // namespace sinew::tool
