#include "sinew/cpu/skin_sparse_job.h"

#include <string>

#include "../asset/influence_prepass.h"
#include "dual_quaternion_x8.h"
#include "skin_vertex.h"
#include "skin_vertex_x8.h"
#include "vertex_ranges.h"

namespace sinew::cpu {

Status SkinSparseJob::Validate() const {
  const detail::SkinStreams streams{positions,     normals,     tangents,
                                    out_positions, out_normals, out_tangents};
  if (Status s = detail::ValidateSkinStreams(streams); !s) return s;
  if (influences == nullptr) {
    return {Error::kInvalidArgument, "no sparse influences", "influences"};
  }
  // Once the layout holds, the common case, nothing wrong with the entries, is checked on the
  // job's threads by the branch-free passes (runtime/src/asset/influence_prepass.h); otherwise
  // ValidateSparseInfluences, on one thread, names the first fault.
  const SparseInfluences& in = *influences;
  const size_t v = streams.vertex_count();
  if (Status s = ValidateSparseInfluenceLayout(v, in); !s) return s;
  if (!detail::AllVertexRanges(v, run.threads, [&](size_t begin, size_t end) {
        return sinew::detail::SparseEntriesFine(in, begin, end);
      })) {
    if (Status s = ValidateSparseInfluences(v, in); !s) return s;
  }
  if (palette.size() < influences->group_count) {
    return {Error::kSizeMismatch,
            "palette has " + std::to_string(palette.size()) + " entries for " +
                std::to_string(influences->group_count) + " groups",
            "palette"};
  }
  return detail::ValidateDualQuaternions(dual_quaternions, palette.size());
}

Status SkinSparseJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const detail::SkinStreams streams{positions,     normals,     tangents,
                                    out_positions, out_normals, out_tangents};
  const size_t vertex_count = streams.vertex_count();
  const SparseInfluences& in = *influences;
  const detail::SparseLanes sparse{in.offsets.data(), in.groups.data(), in.weights.data()};
  if (!dual_quaternions.empty()) {
    const bool has_scale = HasScale(dual_quaternions);
    const uint32_t lanes = detail::DualQuaternionLanesOf(run);
    detail::ForEachVertexRange(vertex_count, run.threads, [&](size_t begin, size_t end) {
      // Eight at a time, bit for bit as one at a time (dual_quaternion_x8.h).
      const size_t v = detail::SkinDualQuaternionsVectorized(
          streams, begin, end, sparse, dual_quaternions.data(), has_scale, lanes);
      detail::SkinDualQuaternions(streams, v, end, sparse, dual_quaternions.data(), has_scale);
    });
    return {};
  }
  const bool per_joint = normal_blend == NormalBlend::kPerJoint;
  const uint32_t lanes = detail::LinearLanesOf(normal_blend, run);
  const bool finite_palette = lanes > 1 && detail::FinitePalette(palette);
  detail::ForEachVertexRange(vertex_count, run.threads, [&](size_t begin, size_t end) {
    // Eight or four vertices at a time, bit for bit as below (skin_vertex_x8.h).
    size_t v = detail::SkinLinearVectorized(streams, begin, end, sparse, palette.data(),
                                            finite_palette, lanes);
    for (; v < end; ++v) {
      // Entries in stored order (weights descending): for a stream made by DenseToSparse from
      // descending dense slots, the same additions in the same order as SkinDenseJob.
      detail::BlendedMatrix blend(per_joint);
      for (size_t e = in.offsets[v]; e < in.offsets[v + 1]; ++e) {
        blend.Add(in.weights[e], palette[in.groups[e]]);
      }
      detail::WriteSkinned(streams, v, blend);
    }
  });
  return {};
}

}  // namespace sinew::cpu
