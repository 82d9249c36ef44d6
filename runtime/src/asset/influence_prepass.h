// The branch-free checks that dense and sparse influence validation run first: skinning jobs
// validate on every run, so the common case, nothing wrong, must cost one vectorizable pass per
// stream. The exact loops that name the first fault run only when these say there is one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>

namespace sinew::detail {

// Every index below `count`.
template <typename Index>
bool AllBelow(std::span<const Index> indices, size_t count) {
  Index largest = 0;
  for (Index i : indices) largest = std::max(largest, i);
  return indices.empty() || largest < count;
}

// Every weight finite and non-negative (NaN fails both comparisons).
inline bool AllWeightsFiniteAndNonNegative(std::span<const float> weights) {
  constexpr float kMaxFinite = std::numeric_limits<float>::max();
  int fine = 1;
  for (float w : weights) fine &= int(w >= 0.0f) & int(w <= kMaxFinite);
  return fine != 0;
}

}  // namespace sinew::detail
