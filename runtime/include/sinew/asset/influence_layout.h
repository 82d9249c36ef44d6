// Choosing between the dense and the sparse influence layout of a skinned mesh (docs/semantics.md,
// "Converting between dense and sparse"): both deform identically where nothing is truncated; the
// cheaper one is the one whose influences move fewer bytes per skinning pass.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"

namespace sinew {

enum class InfluenceLayout : uint8_t {
  kAuto,    // whichever moves fewer influence bytes (dense on a tie: no offsets indirection)
  kDense,   // K slots per vertex, u16 joint + f32 weight each
  kSparse,  // CSR: one u32 offset per vertex, u32 group + f32 weight per entry
};

const char* ToString(InfluenceLayout layout);

// Influence bytes one skinning pass reads per mesh, as the GPU kernels lay them out.
inline size_t DenseInfluenceBytes(size_t vertex_count, uint32_t influences_per_vertex) {
  return vertex_count * influences_per_vertex * (sizeof(uint16_t) + sizeof(float));
}
inline size_t SparseInfluenceBytes(size_t vertex_count, size_t entry_count) {
  return (vertex_count + 1) * sizeof(uint32_t) + entry_count * (sizeof(uint32_t) + sizeof(float));
}

// The smallest dense K (a multiple of 4, at least 4) that holds every vertex's entries: converting
// to it drops nothing.
uint32_t LosslessDenseK(const SparseInfluences& sparse);

// kDense or kSparse for `mesh` as it is: compares its current layout's bytes with those of the
// other layout (dense at LosslessDenseK for a sparse mesh; the nonzero slots for a dense one).
InfluenceLayout ChooseInfluenceLayout(const Primitive& mesh);

// Converts `mesh` in place to `layout` (kAuto: ChooseInfluenceLayout). The influence indices are
// palette entries in either layout and are kept as they are. Dense -> sparse keeps every nonzero
// weight, with group_count = `joints` (the palette the mesh is skinned with), or 1 + the largest
// joint index when `joints` is 0. Sparse -> dense uses `dense_k` slots (0: LosslessDenseK; smaller
// keeps the heaviest entries, renormalized to the vertex's total: docs/semantics.md, "Sparse
// skinning"). A mesh already in `layout`, or without influences, is left alone. Errors: those of
// DenseToSparse / SparseToDense, kInvalidInfluenceCount for a dense_k not a multiple of 4,
// kUnsupportedFeature for sparse -> dense when `joints` is given and group_count differs from it
// (a dense palette is indexed by joint, so groups must be joints).
Status UseInfluenceLayout(Primitive& mesh, InfluenceLayout layout, uint32_t dense_k = 0,
                          size_t joints = 0);

}  // namespace sinew
