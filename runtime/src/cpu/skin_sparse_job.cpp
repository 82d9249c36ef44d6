#include "sinew/cpu/skin_sparse_job.h"

#include <string>

#include "../asset/influence_prepass.h"
#include "skin_range.h"
#include "vertex_ranges.h"

namespace sinew::cpu {

namespace {

// Validate()'s checks before the entries': the streams, the influences' presence and layout (or
// the check made of them once, which covers the entries too).
Status ValidateLayout(const SkinSparseJob& job, const detail::SkinStreams& streams) {
  if (Status s = detail::ValidateSkinStreams(streams); !s) return s;
  if (job.influences == nullptr) {
    return {Error::kInvalidArgument, "no sparse influences", "influences"};
  }
  if (job.checked != nullptr) {
    if (job.checked->IsOf(*job.influences) &&
        job.influences->offsets.size() == streams.vertex_count() + 1) {
      return {};
    }
    return {Error::kInvalidArgument,
            "the InfluenceCheck is not of this job's influences and vertex count", "checked"};
  }
  return ValidateSparseInfluenceLayout(streams.vertex_count(), *job.influences);
}

// Validate()'s checks after the entries': the palette covers the groups; the dual quaternions.
Status ValidatePalette(const SkinSparseJob& job) {
  if (job.palette.size() < job.influences->group_count) {
    return {Error::kSizeMismatch,
            "palette has " + std::to_string(job.palette.size()) + " entries for " +
                std::to_string(job.influences->group_count) + " groups",
            "palette"};
  }
  return detail::ValidateDualQuaternions(job.dual_quaternions, job.palette.size());
}

}  // namespace

Status SkinSparseJob::Validate() const {
  const detail::SkinStreams streams{positions,     normals,     tangents,
                                    out_positions, out_normals, out_tangents};
  if (Status s = ValidateLayout(*this, streams); !s) return s;
  // Once the layout holds, the common case, nothing wrong with the entries, is checked on the
  // job's threads by the branch-free passes (runtime/src/asset/influence_prepass.h); otherwise
  // ValidateSparseInfluences, on one thread, names the first fault.
  const SparseInfluences& in = *influences;
  const size_t v = streams.vertex_count();
  if (checked == nullptr && !detail::AllVertexRanges(v, run, [&](size_t begin, size_t end) {
        return sinew::detail::SparseEntriesFine(in, begin, end);
      })) {
    if (Status s = ValidateSparseInfluences(v, in); !s) return s;
  }
  return ValidatePalette(*this);
}

// Validate() and the skinning in one pass over the threads: each range's entries are checked,
// and once every range is found fine, skinned. On a fault nothing has been written, and
// Validate() names it (in its order: the entries before the palette).
Status SkinSparseJob::Run() const {
  const detail::SkinStreams streams{positions,     normals,     tangents,
                                    out_positions, out_normals, out_tangents};
  if (Status s = ValidateLayout(*this, streams); !s) return s;
  if (!ValidatePalette(*this).ok()) return Validate();
  const size_t vertex_count = streams.vertex_count();
  const SparseInfluences& in = *influences;
  const auto fine = [&](size_t begin, size_t end) {
    return sinew::detail::SparseEntriesFine(in, begin, end);
  };
  const detail::RangeSkinner skin =
      detail::RangeSkinner::For(palette, dual_quaternions, normal_blend, run);
  const detail::SparseLanes sparse{in.offsets.data(), in.groups.data(), in.weights.data()};
  // Given a check (ValidateLayout has found it of these influences), no entry is read again.
  const bool skinned = detail::CheckThenForEachVertexRange(
      vertex_count, run, checked != nullptr, fine,
      [&](size_t begin, size_t end) { skin(streams, begin, end, sparse); });
  return skinned ? Status{} : Validate();
}

}  // namespace sinew::cpu
