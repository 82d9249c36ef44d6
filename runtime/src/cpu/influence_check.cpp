#include "sinew/cpu/influence_check.h"

#include <limits>

#include "../asset/influence_prepass.h"

namespace sinew::cpu {

Result<InfluenceCheck> InfluenceCheck::Dense(size_t vertex_count, uint32_t influences_per_vertex,
                                             std::span<const uint16_t> joints,
                                             std::span<const float> weights) {
  // Every 16-bit index is below this palette size.
  constexpr size_t kAnyJoint = size_t(std::numeric_limits<uint16_t>::max()) + 1;
  if (Status s = ValidateDenseInfluenceSizes(vertex_count, influences_per_vertex, joints.size(),
                                             weights.size(), kAnyJoint);
      !s) {
    return s;
  }
  // So only the weights can fail from here on; where one does, the full validation names it. The
  // joints are read once, for their largest index.
  if (!detail::AllWeightsFiniteAndNonNegative(weights)) {
    return ValidateDenseInfluences(vertex_count, influences_per_vertex, joints, weights, kAnyJoint);
  }
  InfluenceCheck check;
  check.kind_ = Kind::kDense;
  check.influences_per_vertex_ = influences_per_vertex;
  check.indices_ = joints.data();
  check.index_count_ = joints.size();
  check.weights_ = weights.data();
  check.palette_size_needed_ = joints.empty() ? 0 : size_t(detail::LargestIndex(joints)) + 1;
  return check;
}

Result<InfluenceCheck> InfluenceCheck::Sparse(size_t vertex_count,
                                              const SparseInfluences& influences) {
  if (Status s = ValidateSparseInfluences(vertex_count, influences); !s) return s;
  InfluenceCheck check;
  check.kind_ = Kind::kSparse;
  check.indices_ = influences.groups.data();
  check.index_count_ = influences.groups.size();
  check.weights_ = influences.weights.data();
  check.offsets_ = influences.offsets.data();
  check.offset_count_ = influences.offsets.size();
  check.palette_size_needed_ = influences.group_count;
  return check;
}

Result<InfluenceCheck> InfluenceCheck::Of(const Primitive& mesh) {
  if (mesh.sparse()) return Sparse(mesh.vertex_count(), mesh.sparse_influences);
  if (!mesh.skinned()) {
    return ErrorInfo{Error::kInvalidArgument, "the mesh has no influences to check", "influences",
                     0};
  }
  const DenseInfluences& dense = mesh.influences;
  return Dense(mesh.vertex_count(), dense.influences_per_vertex, dense.joints, dense.weights);
}

bool InfluenceCheck::IsOf(uint32_t influences_per_vertex, std::span<const uint16_t> joints,
                          std::span<const float> weights) const {
  return kind_ == Kind::kDense && influences_per_vertex_ == influences_per_vertex &&
         indices_ == joints.data() && index_count_ == joints.size() && weights_ == weights.data() &&
         weights.size() == index_count_;
}

bool InfluenceCheck::IsOf(const SparseInfluences& influences) const {
  return kind_ == Kind::kSparse && indices_ == influences.groups.data() &&
         index_count_ == influences.groups.size() && weights_ == influences.weights.data() &&
         influences.weights.size() == index_count_ && offsets_ == influences.offsets.data() &&
         offset_count_ == influences.offsets.size() &&
         palette_size_needed_ == influences.group_count;
}

}  // namespace sinew::cpu
