#include "influence_prepass.h"

#include <algorithm>
#include <cstring>
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
Index Largest(std::span<const Index> indices) {
  Index largest = 0;
  for (Index i : indices) largest = std::max(largest, i);
  return largest;
}

// 1 where `weight` is finite and non-negative (NaN fails both comparisons), else 0.
inline int WeightFine(float weight) {
  return int(weight >= 0.0f) & int(weight <= std::numeric_limits<float>::max());
}

// 1 where entry e (group, weight) comes before entry e - 1 (EntryBefore), else 0.
inline uint32_t OutOfOrder(const uint32_t* groups, const float* weights, size_t e) {
  return uint32_t(EntryBefore(groups[e], weights[e], groups[e - 1], weights[e - 1]));
}

}  // namespace

SINEW_AVX2_CLONE uint16_t LargestIndex(std::span<const uint16_t> indices) {
  return Largest(indices);
}

SINEW_AVX2_CLONE uint32_t LargestIndex(std::span<const uint32_t> indices) {
  return Largest(indices);
}

SINEW_AVX2_CLONE bool AllWeightsFiniteAndNonNegative(std::span<const float> weights) {
  int fine = 1;
  for (float w : weights) fine &= WeightFine(w);
  return fine != 0;
}

namespace {

// At most this many entries are checked at a time (but for a vertex that has more on its own).
constexpr size_t kRunEntries = 4096;

// Entries [first, first + count) of one run of vertices: groups below `group_count`, weights
// finite and non-negative, and no entry before entry e - 1 (OutOfOrder) but where `starts`
// (count bytes, kMarked) marks entry e as a vertex's first. Branch-free, one pass. Without
// kMarked the run is one vertex, and every pair is compared.
template <bool kMarked>
inline bool RunFine(const SparseInfluences& in, size_t first, size_t count, const uint8_t* starts) {
  const uint32_t* groups = in.groups.data() + first;
  const float* weights = in.weights.data() + first;
  uint32_t largest = groups[0];
  int fine = WeightFine(weights[0]);
  uint32_t out_of_order = 0;
  for (size_t i = 1; i < count; ++i) {
    largest = std::max(largest, groups[i]);
    fine &= WeightFine(weights[i]);
    out_of_order |= OutOfOrder(groups, weights, i) & (kMarked ? uint32_t(starts[i] == 0) : 1u);
  }
  return fine != 0 && largest < in.group_count && out_of_order == 0;
}

}  // namespace

// In runs of whole vertices of at most kRunEntries entries, so that each run's marks of where a
// vertex starts fit a small buffer in the cache. A pair of entries straddling two runs straddles
// two vertices, so no run needs to look at the one before it.
SINEW_AVX2_CLONE bool SparseEntriesFine(const SparseInfluences& in, size_t begin, size_t end) {
  const uint32_t* offsets = in.offsets.data();
  uint8_t starts[kRunEntries + 1];  // + 1: a run ending in empty vertices marks the entry past it
  int fine = 1;
  for (size_t v = begin; v < end && fine != 0;) {
    const size_t first = offsets[v];
    // The most vertices from v whose entries fit kRunEntries, or v alone.
    const uint32_t* past =
        std::upper_bound(offsets + v + 1, offsets + end + 1, first + kRunEntries);
    const size_t next = std::max(size_t(past - offsets) - 1, v + 1);
    const size_t count = offsets[next] - first;
    if (count > 0 && next - v > 1) {
      std::memset(starts, 0, count);
      for (size_t u = v + 1; u < next; ++u) starts[offsets[u] - first] = 1;
      fine &= int(RunFine<true>(in, first, count, starts));
    } else if (count > 0) {  // one vertex: no start after its first
      fine &= int(RunFine<false>(in, first, count, nullptr));
    }
    v = next;
  }
  return fine != 0;
}

}  // namespace sinew::detail
