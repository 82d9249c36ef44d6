// One range of vertices of SkinDenseJob or SkinSparseJob, whatever the method: the choices a job
// makes once (linear blending or dual quaternions, the normal rule, how many vertices at a time),
// then each range skinned as far as whole groups go by the vectorized code (skin_vertex_x8.h,
// dual_quaternion_x8.h) and the rest by the scalar reference, bit for bit the same. The jobs
// differ only in their lanes (DenseLanes, SparseLanes: influence_entries.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dual_quaternion_x8.h"
#include "sinew/asset/primitive.h"
#include "sinew/cpu/skin_run.h"
#include "skin_vertex.h"
#include "skin_vertex_x8.h"

namespace sinew::cpu::detail {

struct RangeSkinner {
  const Float3x4* palette = nullptr;
  const DualQuaternion* dual_quaternions = nullptr;  // null: linear blending
  bool has_scale = false;                            // dual quaternions: HasScale
  bool per_joint = false;                            // linear: NormalBlend::kPerJoint
  bool finite_palette = false;                       // linear, vectorized: FinitePalette
  bool avx512 = false;                               // linear, eight at a time: LinearAvx512Of
  uint32_t lanes_at_a_time = 1;

  // The choices for a job's palette, dual quaternions (empty: linear), normal rule and run.
  static RangeSkinner For(std::span<const Float3x4> palette,
                          std::span<const DualQuaternion> dual_quaternions,
                          NormalBlend normal_blend, const SkinRun& run) {
    RangeSkinner r;
    r.palette = palette.data();
    if (!dual_quaternions.empty()) {
      r.dual_quaternions = dual_quaternions.data();
      r.has_scale = HasScale(dual_quaternions);
      r.lanes_at_a_time = DualQuaternionLanesOf(run);
      return r;
    }
    r.per_joint = normal_blend == NormalBlend::kPerJoint;
    r.lanes_at_a_time = LinearLanesOf(normal_blend, run);
    r.finite_palette = r.lanes_at_a_time > 1 && FinitePalette(palette);
    r.avx512 = LinearAvx512Of(normal_blend, run);
    return r;
  }

  // Skins vertices [begin, end) of `s`, each vertex's (entry, weight) pairs from `lanes`.
  template <typename Lanes>
  void operator()(const SkinStreams& s, size_t begin, size_t end, const Lanes& lanes) const {
    if (dual_quaternions != nullptr) {
      const size_t v = SkinDualQuaternionsVectorized(s, begin, end, lanes, dual_quaternions,
                                                     has_scale, lanes_at_a_time);
      SkinDualQuaternions(s, v, end, lanes, dual_quaternions, has_scale);
      return;
    }
    size_t v = SkinLinearVectorized(s, begin, end, lanes, palette, finite_palette, lanes_at_a_time,
                                    avx512);
    for (; v < end; ++v) {
      // Blend the matrices first, then transform once (as the GPU kernels do), entries in stored
      // order (for sparse streams made by DenseToSparse from descending dense slots, the same
      // additions in the same order as dense ones).
      const auto entries = lanes.Entries(v);
      BlendedMatrix blend(per_joint);
      for (size_t e = 0; e < entries.count; ++e) {
        blend.Add(entries.weight[e], palette[entries.index[e]]);
      }
      WriteSkinned(s, v, blend);
    }
  }
};

}  // namespace sinew::cpu::detail
