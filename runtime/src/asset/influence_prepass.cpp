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

constexpr float kMaxFinite = std::numeric_limits<float>::max();

// 1 where entry e (group, weight) comes before the entry ahead of it (EntryBefore), else 0.
inline uint32_t OutOfOrder(const uint32_t* groups, const float* weights, size_t e) {
  return uint32_t(weights[e] > weights[e - 1]) |
         (uint32_t(weights[e] == weights[e - 1]) & uint32_t(groups[e] < groups[e - 1]));
}

}  // namespace

SINEW_AVX2_CLONE bool AllBelow(std::span<const uint16_t> indices, size_t count) {
  return LargestBelow(indices, count);
}

SINEW_AVX2_CLONE bool AllBelow(std::span<const uint32_t> indices, size_t count) {
  return LargestBelow(indices, count);
}

SINEW_AVX2_CLONE bool AllWeightsFiniteAndNonNegative(std::span<const float> weights) {
  int fine = 1;
  for (float w : weights) fine &= int(w >= 0.0f) & int(w <= kMaxFinite);
  return fine != 0;
}

namespace {

// SparseEntriesFine over one run of vertices. The order check does not know per entry where a
// vertex starts, so it counts the pairs of neighbouring entries out of order over the whole run
// (one branch-free pass, which also checks groups and weights), then counts those among the pairs
// that straddle two vertices, one per vertex. The entries are in order exactly when the two counts
// agree. Counting in 32 bits is exact enough: at most 2^32 - 2 pairs exist (the offsets are
// 32-bit), so a wrong count cannot wrap around to the right one.
inline bool EntriesFine(const SparseInfluences& in, size_t begin, size_t end) {
  const uint32_t* offsets = in.offsets.data();
  const size_t first = offsets[begin], last = offsets[end];
  if (first == last) return true;
  const uint32_t* groups = in.groups.data();
  const float* weights = in.weights.data();
  uint32_t largest = groups[first];
  int fine = int(weights[first] >= 0.0f) & int(weights[first] <= kMaxFinite);
  uint32_t out_of_order = 0;
  for (size_t e = first + 1; e < last; ++e) {
    largest = std::max(largest, groups[e]);
    fine &= int(weights[e] >= 0.0f) & int(weights[e] <= kMaxFinite);
    out_of_order += OutOfOrder(groups, weights, e);
  }
  // A pair straddles two vertices where a vertex's first entry follows a non-empty vertex's last:
  // e = offsets[v] with offsets[v - 1] < e, once per such e, and e < last within the run.
  // Branch-free, so that it vectorizes: a vertex that starts no such pair reads the run's second
  // entry instead, and adds nothing.
  uint32_t straddling = 0;
  if (last - first >= 2) {
    for (size_t v = begin + 1; v < end; ++v) {
      const uint32_t e = offsets[v];
      const uint32_t starts = uint32_t(offsets[v - 1] < e) & uint32_t(e < last);
      straddling += starts & OutOfOrder(groups, weights, starts != 0 ? e : first + 1);
    }
  }
  return fine != 0 && largest < in.group_count && out_of_order == straddling;
}

}  // namespace

// In runs of 1,024 vertices, so that the count of straddling pairs reads entries the first pass
// has just brought into the cache. A pair straddling two runs straddles two vertices too, so no
// run needs to look at the one before it.
SINEW_AVX2_CLONE bool SparseEntriesFine(const SparseInfluences& in, size_t begin, size_t end) {
  constexpr size_t kRun = 1024;
  int fine = 1;
  for (size_t v = begin; v < end && fine; v += kRun) {
    fine &= int(EntriesFine(in, v, std::min(end, v + kRun)));
  }
  return fine != 0;
}

}  // namespace sinew::detail
