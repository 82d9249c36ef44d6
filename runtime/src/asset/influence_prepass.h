// The branch-free checks that dense and sparse influence validation run first: skinning jobs
// validate on every run (unless given a cpu::InfluenceCheck, which ran them once), so the common
// case, nothing wrong, must cost one vectorizable pass per stream. The exact loops that name the
// first fault run only when these say there is one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sinew/asset/sparse_influences.h"

namespace sinew::detail {

// The largest index, 0 where there is none (influence_prepass.cpp).
uint16_t LargestIndex(std::span<const uint16_t> indices);
uint32_t LargestIndex(std::span<const uint32_t> indices);

// Every index below `count`.
template <typename Index>
bool AllBelow(std::span<const Index> indices, size_t count) {
  return indices.empty() || LargestIndex(indices) < count;
}

// Every weight finite and non-negative (NaN fails both comparisons).
bool AllWeightsFiniteAndNonNegative(std::span<const float> weights);

// The CSR order of two entries of one vertex: (group a, weight a) comes before (group b, weight b)
// when it is heavier, or as heavy with a lower group. Without branches, so that the passes over
// every pair of neighbouring entries vectorize.
inline bool EntryBefore(uint32_t group_a, float weight_a, uint32_t group_b, float weight_b) {
  return (int(weight_a > weight_b) | (int(weight_a == weight_b) & int(group_a < group_b))) != 0;
}

// Vertices [begin, end)'s entries: every group below group_count, every weight finite and
// non-negative, each vertex's entries in CSR order (EntryBefore never holds of an entry and the
// one before it). The layout must hold (ValidateSparseInfluenceLayout). One pass over the entries
// and one over the offsets (influence_prepass.cpp).
bool SparseEntriesFine(const SparseInfluences& in, size_t begin, size_t end);

}  // namespace sinew::detail
