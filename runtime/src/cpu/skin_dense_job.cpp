#include "sinew/cpu/skin_dense_job.h"

#include "../asset/influence_prepass.h"
#include "sinew/asset/primitive.h"
#include "skin_range.h"
#include "vertex_ranges.h"

namespace sinew::cpu {

namespace {

// Validate()'s checks before the per-slot ones: the streams, the dual quaternions, the influence
// stream's sizes.
Status ValidateSizes(const SkinDenseJob& job, const detail::SkinStreams& streams) {
  if (Status s = detail::ValidateSkinStreams(streams); !s) return s;
  if (Status s = detail::ValidateDualQuaternions(job.dual_quaternions, job.palette.size()); !s) {
    return s;
  }
  return ValidateDenseInfluenceSizes(streams.vertex_count(), job.influences_per_vertex,
                                     job.joints.size(), job.weights.size(), job.palette.size());
}

// Vertices [begin, end)'s slots: indices below the palette, weights finite and non-negative (the
// branch-free passes of runtime/src/asset/influence_prepass.h). The sizes must hold.
bool SlotsFine(const SkinDenseJob& job, size_t begin, size_t end) {
  const size_t k = job.influences_per_vertex, first = begin * k, slots = (end - begin) * k;
  return sinew::detail::AllBelow(job.joints.subspan(first, slots), job.palette.size()) &&
         sinew::detail::AllWeightsFiniteAndNonNegative(job.weights.subspan(first, slots));
}

// With `checked`: whether it is of the job's streams (kInvalidArgument otherwise) and covers the
// palette. Not covered: the slots must be read to name the joint beyond it.
Result<bool> CheckedCovers(const SkinDenseJob& job) {
  if (!job.checked->IsOf(job.influences_per_vertex, job.joints, job.weights)) {
    return ErrorInfo{Error::kInvalidArgument,
                     "the InfluenceCheck is not of this job's joints and weights", "checked", 0};
  }
  return job.palette.size() >= job.checked->palette_size_needed();
}

}  // namespace

Status SkinDenseJob::Validate() const {
  const detail::SkinStreams streams{positions,     normals,     tangents,
                                    out_positions, out_normals, out_tangents};
  if (Status s = ValidateSizes(*this, streams); !s) return s;
  if (checked != nullptr) {
    Result<bool> covers = CheckedCovers(*this);
    if (!covers) return covers.status();
    if (*covers) return {};
  }
  // Once the sizes hold, the common case, nothing wrong, is checked on the job's threads;
  // otherwise ValidateDenseInfluences, on one thread, names the first fault.
  if (detail::AllVertexRanges(streams.vertex_count(), run, [&](size_t begin, size_t end) {
        return SlotsFine(*this, begin, end);
      })) {
    return {};
  }
  return ValidateDenseInfluences(streams.vertex_count(), influences_per_vertex, joints, weights,
                                 palette.size());
}

// Validate() and the skinning in one pass over the threads: each range's slots are checked, and
// once every range is found fine, skinned. On a fault nothing has been written, and Validate()
// names it.
Status SkinDenseJob::Run() const {
  const detail::SkinStreams streams{positions,     normals,     tangents,
                                    out_positions, out_normals, out_tangents};
  if (Status s = ValidateSizes(*this, streams); !s) return s;
  // Checked once and covered: no slot is read. Not covered: the slots are checked as without a
  // check, which names the first joint beyond the palette.
  bool checked_once = false;
  if (checked != nullptr) {
    Result<bool> covers = CheckedCovers(*this);
    if (!covers) return covers.status();
    checked_once = *covers;
  }
  const auto fine = [&](size_t begin, size_t end) { return SlotsFine(*this, begin, end); };
  const detail::RangeSkinner skin =
      detail::RangeSkinner::For(palette, dual_quaternions, normal_blend, run);
  const detail::DenseLanes<> dense{joints.data(), weights.data(), influences_per_vertex};
  const bool skinned = detail::CheckThenForEachVertexRange(
      streams.vertex_count(), run, checked_once, fine, [&](size_t begin, size_t end) {
        // K = 4 and 8 as constants of the code (WithFixedSlots).
        detail::WithFixedSlots(dense, [&](const auto& lanes) { skin(streams, begin, end, lanes); });
      });
  return skinned ? Status{} : Validate();
}

SkinDenseJob SkinDenseJobFor(const Primitive& mesh, std::span<const Float3x4> palette) {
  SkinDenseJob job;
  job.influences_per_vertex = mesh.influences.influences_per_vertex;
  job.positions = mesh.positions;
  job.normals = mesh.normals;
  job.tangents = mesh.tangents;
  job.joints = mesh.influences.joints;
  job.weights = mesh.influences.weights;
  job.palette = palette;
  job.normal_blend = mesh.normal_blend;
  return job;
}

}  // namespace sinew::cpu
