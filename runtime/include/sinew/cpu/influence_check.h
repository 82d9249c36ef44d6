// Influences checked once, for skinning them frame after frame without reading every slot again:
// "validate once, run many", as PosePlan does for posing (sinew/cpu/crowd_pose_job.h).
//
// SkinDenseJob and SkinSparseJob check every joint index (or group) and weight on each Run()
// before they write anything, which reads the influences twice a call: 17 % of a dense K = 4
// job's time at 1M vertices on one thread of the development VM, and 27 % of a sparse one's
// (BENCHMARKS.md, "Influences checked once"). Given an InfluenceCheck of their streams, they check
// only that it is of those streams and that their palette is large enough.
//
// The check vouches for the streams' contents as they were when it was made, so they must not
// change while it is in use: change them and make the check again. It holds no copy, only where
// the streams are and how long, which a job compares with its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/core/error.h"

namespace sinew::cpu {

class InfluenceCheck {
 public:
  // A check of nothing: no job accepts it.
  InfluenceCheck() = default;

  // A dense stream of vertex_count · K joint indices and weights: ValidateDenseInfluences's
  // checks (the same errors) but for the palette, whose size each job compares with the largest
  // joint index found here.
  static Result<InfluenceCheck> Dense(size_t vertex_count, uint32_t influences_per_vertex,
                                      std::span<const uint16_t> joints,
                                      std::span<const float> weights);
  // A sparse stream: ValidateSparseInfluences(vertex_count, influences) (the same errors).
  static Result<InfluenceCheck> Sparse(size_t vertex_count, const SparseInfluences& influences);
  // `mesh`'s own influences, dense or sparse; kInvalidArgument (where "influences") for a mesh
  // without any.
  static Result<InfluenceCheck> Of(const Primitive& mesh);

  // Whether this is the check of these streams: the same memory and sizes, K or group count.
  bool IsOf(uint32_t influences_per_vertex, std::span<const uint16_t> joints,
            std::span<const float> weights) const;
  bool IsOf(const SparseInfluences& influences) const;

  // The fewest palette entries the checked stream needs: its largest joint index + 1 (dense), its
  // group_count (sparse); 0 for a check of nothing.
  size_t palette_size_needed() const { return palette_size_needed_; }

 private:
  enum class Kind : uint8_t { kNone, kDense, kSparse };
  Kind kind_ = Kind::kNone;
  uint32_t influences_per_vertex_ = 0;  // dense: K
  const void* indices_ = nullptr;       // dense joints or sparse groups
  size_t index_count_ = 0;              // as many as the weights (the validation held them equal)
  const float* weights_ = nullptr;
  const uint32_t* offsets_ = nullptr;  // sparse
  size_t offset_count_ = 0;
  size_t palette_size_needed_ = 0;
};

}  // namespace sinew::cpu
