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

InfluenceLayout ChooseInfluenceLayout(const SkinnedMesh& mesh) {
  return Choose(mesh.vertex_count(), mesh.influences, mesh.sparse_influences);
}

Status UseInfluenceLayout(SkinnedMesh& mesh, InfluenceLayout layout, uint32_t dense_k) {
  if (layout == InfluenceLayout::kAuto) layout = ChooseInfluenceLayout(mesh);
  if (layout == InfluenceLayout::kDense && mesh.sparse() &&
      mesh.sparse_influences.group_count != mesh.skeleton.joint_count()) {
    return Status(Error::kUnsupportedFeature,
                  "a dense mesh's palette is indexed by joint: converting needs one group per "
                  "joint, got " +
                      std::to_string(mesh.sparse_influences.group_count) + " groups and " +
                      std::to_string(mesh.skeleton.joint_count()) + " joints",
                  "sparse_influences/group_count");
  }
  return Convert(mesh.vertex_count(), mesh.influences, mesh.sparse_influences,
                 mesh.skeleton.joint_count(), layout, dense_k);
}

Status UseInfluenceLayout(Primitive& primitive, InfluenceLayout layout, uint32_t dense_k) {
  if (!primitive.skinned()) return {};
  uint32_t palette_size = 0;
  for (uint16_t j : primitive.influences.joints)
    palette_size = std::max<uint32_t>(palette_size, j + 1u);
  return Convert(primitive.vertex_count(), primitive.influences, primitive.sparse_influences,
                 std::max<uint32_t>(palette_size, 1), layout, dense_k);
}

}  // namespace sinew
