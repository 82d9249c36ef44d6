#include "sinew/asset/influence_layout.h"

#include <algorithm>
#include <string>
#include <utility>

namespace sinew {

const char* ToString(InfluenceLayout layout) {
  switch (layout) {
    case InfluenceLayout::kAuto:
      return "auto";
    case InfluenceLayout::kDense:
      return "dense";
    case InfluenceLayout::kSparse:
      return "sparse";
  }
  return "?";
}

uint32_t LosslessDenseK(const SparseInfluences& sparse) {
  uint32_t most = 0;
  for (size_t v = 0; v + 1 < sparse.offsets.size(); ++v) {
    most = std::max(most, sparse.offsets[v + 1] - sparse.offsets[v]);
  }
  return std::max<uint32_t>(4, (most + 3) / 4 * 4);
}

namespace {

size_t NonzeroSlots(const DenseInfluences& dense) {
  return size_t(
      std::count_if(dense.weights.begin(), dense.weights.end(), [](float w) { return w != 0.0f; }));
}

// The choice and the conversion for one influence stream pair (exactly one of them in use).
InfluenceLayout Choose(size_t v, const DenseInfluences& dense, const SparseInfluences& sparse) {
  const bool is_sparse = !sparse.offsets.empty();
  const size_t dense_bytes =
      DenseInfluenceBytes(v, is_sparse ? LosslessDenseK(sparse) : dense.influences_per_vertex);
  const size_t sparse_bytes =
      SparseInfluenceBytes(v, is_sparse ? sparse.entry_count() : NonzeroSlots(dense));
  return sparse_bytes < dense_bytes ? InfluenceLayout::kSparse : InfluenceLayout::kDense;
}

Status Convert(size_t v, DenseInfluences& dense, SparseInfluences& sparse, size_t palette_size,
               InfluenceLayout layout, uint32_t dense_k) {
  const bool is_sparse = !sparse.offsets.empty();
  if (layout == InfluenceLayout::kAuto) layout = Choose(v, dense, sparse);
  if (layout == InfluenceLayout::kSparse) {
    if (is_sparse) return {};
    auto converted = DenseToSparse(v, dense, palette_size);
    if (!converted) return converted.status();
    sparse = std::move(converted.value());
    dense = {};
    return {};
  }
  if (!is_sparse) return {};
  if (dense_k % 4 != 0) {
    return Status(Error::kInvalidInfluenceCount,
                  "dense influences come in slots of 4, got " + std::to_string(dense_k), "dense_k");
  }
  auto converted = SparseToDense(v, sparse, dense_k ? dense_k : LosslessDenseK(sparse));
  if (!converted) return converted.status();
  dense = std::move(converted.value());
  sparse = {};
  return {};
}

}  // namespace

InfluenceLayout ChooseInfluenceLayout(const Primitive& mesh) {
  return Choose(mesh.vertex_count(), mesh.influences, mesh.sparse_influences);
}

Status UseInfluenceLayout(Primitive& mesh, InfluenceLayout layout, uint32_t dense_k,
                          size_t joints) {
  if (!mesh.skinned()) return {};
  if (layout == InfluenceLayout::kAuto) layout = ChooseInfluenceLayout(mesh);
  if (joints && layout == InfluenceLayout::kDense && mesh.sparse() &&
      mesh.sparse_influences.group_count != joints) {
    return Status(Error::kUnsupportedFeature,
                  "a dense mesh's palette is indexed by joint: converting needs one group per "
                  "joint, got " +
                      std::to_string(mesh.sparse_influences.group_count) + " groups and " +
                      std::to_string(joints) + " joints",
                  "sparse_influences/group_count");
  }
  size_t palette_size = joints;
  if (!palette_size) {
    for (uint16_t j : mesh.influences.joints) palette_size = std::max<size_t>(palette_size, j + 1u);
  }
  return Convert(mesh.vertex_count(), mesh.influences, mesh.sparse_influences,
                 std::max<size_t>(palette_size, 1), layout, dense_k);
}

}  // namespace sinew
