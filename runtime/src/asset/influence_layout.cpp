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

}  // namespace

InfluenceLayout ChooseInfluenceLayout(const SkinnedMesh& mesh) {
  const size_t v = mesh.vertex_count();
  size_t dense_bytes = 0, sparse_bytes = 0;
  if (mesh.sparse()) {
    dense_bytes = DenseInfluenceBytes(v, LosslessDenseK(mesh.sparse_influences));
    sparse_bytes = SparseInfluenceBytes(v, mesh.sparse_influences.entry_count());
  } else {
    dense_bytes = DenseInfluenceBytes(v, mesh.influences.influences_per_vertex);
    sparse_bytes = SparseInfluenceBytes(v, NonzeroSlots(mesh.influences));
  }
  return sparse_bytes < dense_bytes ? InfluenceLayout::kSparse : InfluenceLayout::kDense;
}

Status UseInfluenceLayout(SkinnedMesh& mesh, InfluenceLayout layout, uint32_t dense_k) {
  if (layout == InfluenceLayout::kAuto) layout = ChooseInfluenceLayout(mesh);
  if (layout == InfluenceLayout::kSparse) {
    if (mesh.sparse()) return {};
    auto sparse = DenseToSparse(mesh.vertex_count(), mesh.influences, mesh.skeleton.joint_count());
    if (!sparse) return sparse.status();
    mesh.sparse_influences = std::move(sparse.value());
    mesh.influences = {};
    return {};
  }
  if (!mesh.sparse()) return {};
  if (mesh.sparse_influences.group_count != mesh.skeleton.joint_count()) {
    return Status(Error::kUnsupportedFeature,
                  "a dense mesh's palette is indexed by joint: converting needs one group per "
                  "joint, got " +
                      std::to_string(mesh.sparse_influences.group_count) + " groups and " +
                      std::to_string(mesh.skeleton.joint_count()) + " joints",
                  "sparse_influences/group_count");
  }
  if (dense_k % 4 != 0) {
    return Status(Error::kInvalidInfluenceCount,
                  "dense influences come in slots of 4, got " + std::to_string(dense_k), "dense_k");
  }
  auto dense = SparseToDense(mesh.vertex_count(), mesh.sparse_influences,
                             dense_k ? dense_k : LosslessDenseK(mesh.sparse_influences));
  if (!dense) return dense.status();
  mesh.influences = std::move(dense.value());
  mesh.sparse_influences = {};
  return {};
}

}  // namespace sinew
