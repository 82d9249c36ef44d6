// Where a vertex's (palette index, weight) pairs are, for the code that skins one vertex or
// several at a time whatever the influence layout: dense slots (DenseLanes) or sparse CSR entries
// (SparseLanes), each giving a vertex's pairs as LaneEntries. Used by the vectorized linear
// blending (skin_vertex_x4.h, skin_vertex_x8.h) and the dual-quaternion loop
// (dual_quaternion_vertex.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sinew::cpu::detail {

// A vertex's influences: `count` (index, weight) pairs.
template <typename Index>
struct LaneEntries {
  const Index* index;
  const float* weight;
  size_t count;
};

// Dense influences: `k` joints and weights per vertex. With kSlots above 0, k is kSlots and the
// compiler knows it, which lets it unroll a vertex's loop over its slots (the jobs use 4 and 8, the
// counts glTF characters carry; other counts take kSlots = 0).
template <uint32_t kSlots = 0>
struct DenseLanes {
  static constexpr uint32_t kFixedSlots = kSlots;
  const uint16_t* joints;
  const float* weights;
  uint32_t k;
  uint32_t slots() const {
    if constexpr (kSlots != 0) return kSlots;
    return k;
  }
  LaneEntries<uint16_t> Entries(size_t vertex) const {
    return {joints + vertex * slots(), weights + vertex * slots(), slots()};
  }
};

// Calls f with `dense` as DenseLanes<4> or DenseLanes<8> where its K is 4 or 8, else as it is.
template <typename F>
decltype(auto) WithFixedSlots(const DenseLanes<>& dense, F&& f) {
  switch (dense.k) {
    case 4:
      return f(DenseLanes<4>{dense.joints, dense.weights, 4});
    case 8:
      return f(DenseLanes<8>{dense.joints, dense.weights, 8});
    default:
      return f(dense);
  }
}

// Sparse influences: a vertex's entries between its CSR offsets.
struct SparseLanes {
  static constexpr uint32_t kFixedSlots = 0;
  const uint32_t* offsets;
  const uint32_t* groups;
  const float* weights;
  LaneEntries<uint32_t> Entries(size_t vertex) const {
    const uint32_t first = offsets[vertex];
    return {groups + first, weights + first, offsets[vertex + 1] - first};
  }
};

}  // namespace sinew::cpu::detail
