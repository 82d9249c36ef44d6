// Sparse (G4MF-style) skin influences in CSR form (docs/semantics.md, "Sparse skinning"): a
// variable number of (group, weight) entries per vertex.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sinew/asset/dense_influences.h"
#include "sinew/core/error.h"

namespace sinew {

// Vertex v's entries are [offsets[v], offsets[v+1]) of groups/weights, weights descending (ties:
// lower group first). A vertex with no entries keeps its rest attributes. Weights are used as
// authored (G4MF does not normalize).
struct SparseInfluences {
  std::vector<uint32_t> offsets;  // vertex_count + 1 entries; offsets[0] == 0; non-decreasing.
  std::vector<uint32_t> groups;   // One per entry, each < group_count.
  std::vector<float> weights;     // One per entry, finite and >= 0.
  // Size of the per-instance group palette the kernels index (> every group). A group maps to a
  // bone through the skeleton's joints array (GroupPaletteJob); groups without one are identity.
  uint32_t group_count = 0;

  size_t entry_count() const { return groups.size(); }
};

// Checks, in order: offsets has vertex_count + 1 entries, starts at 0, never decreases, and ends at
// the entry count; groups and weights have one entry each (kSizeMismatch, where
// "sparse_influences/offsets" etc.); group_count >= 1 (kEmptyPalette); each group < group_count
// (kJointIndexOutOfRange, "sparse_influences/groups/<e>"); weights finite (kNonFiniteValue) and
// >= 0 (kNegativeWeight); within a vertex, weights descend, ties by increasing group
// (kInvalidArgument, "sparse_influences/weights/<e>").
Status ValidateSparseInfluences(size_t vertex_count, const SparseInfluences& influences);
// The first of those checks, up to group_count (kSizeMismatch, kEmptyPalette): what must hold
// before the entries can be read vertex by vertex.
Status ValidateSparseInfluenceLayout(size_t vertex_count, const SparseInfluences& influences);

// Dense -> sparse (docs/semantics.md, "Converting between dense and sparse"): zero weights dropped,
// entries sorted by descending weight, ties by lower group first; groups are the dense joint
// indices; group_count = palette_size.
// The dense stream must pass ValidateDenseInfluences for `palette_size`.
Result<SparseInfluences> DenseToSparse(size_t vertex_count, const DenseInfluences& dense,
                                       size_t palette_size);

// Sparse -> dense with K = influences_per_vertex slots (a positive multiple of 4): each vertex
// keeps its first K entries (the heaviest), scaled so they sum to the vertex's original total — so
// nothing changes where no entry is dropped, and a truncated vertex keeps its authored weight sum.
// Unused slots are group 0 with weight 0. kUnsupportedFeature if a group does not fit 16 bits.
Result<DenseInfluences> SparseToDense(size_t vertex_count, const SparseInfluences& sparse,
                                      uint32_t influences_per_vertex);

}  // namespace sinew
