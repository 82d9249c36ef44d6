#include "influence_prepass.h"

#include <algorithm>
#include <limits>

// With GCC or Clang on x86-64 with glibc, each pass is compiled twice, for x86-64's baseline and
// for AVX2, and the dynamic loader binds the one the CPU runs (an ifunc, which glibc provides).
// Skinning jobs run these passes over their influences on every run; the AVX2 ones take about half
// the time on the development VM (BENCHMARKS.md).
#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
#define SINEW_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define SINEW_AVX2_CLONE
#endif

namespace sinew::detail {
namespace {

template <typename Index>
bool LargestBelow(std::span<const Index> indices, size_t count) {
  Index largest = 0;
  for (Index i : indices) largest = std::max(largest, i);
  return indices.empty() || largest < count;
}

}  // namespace

SINEW_AVX2_CLONE bool AllBelow(std::span<const uint16_t> indices, size_t count) {
  return LargestBelow(indices, count);
}

SINEW_AVX2_CLONE bool AllBelow(std::span<const uint32_t> indices, size_t count) {
  return LargestBelow(indices, count);
}

SINEW_AVX2_CLONE bool AllWeightsFiniteAndNonNegative(std::span<const float> weights) {
  constexpr float kMaxFinite = std::numeric_limits<float>::max();
  int fine = 1;
  for (float w : weights) fine &= int(w >= 0.0f) & int(w <= kMaxFinite);
  return fine != 0;
}

}  // namespace sinew::detail
