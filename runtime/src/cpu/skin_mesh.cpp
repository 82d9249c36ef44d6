#include "sinew/cpu/skin_mesh.h"

#include <string>
#include <vector>

#include "dual_quaternion_x8.h"
#include "sinew/cpu/morph_targets_job.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/cpu/skin_sparse_job.h"
#include "skin_vertex.h"
#include "skin_vertex_x8.h"
#include "vertex_ranges.h"

namespace sinew::cpu {

Status SkinAttributes(const Primitive& mesh, const SkinInput& input,
                      std::span<const Float3x4> palette, std::span<float> out_positions,
                      std::span<float> out_normals, std::span<float> out_tangents, bool rigid,
                      const SkinRun& run, const InfluenceCheck* checked) {
  if (Status s = mesh.ValidateInfluenceKind(); !s) return s;
  std::vector<DualQuaternion> dual_quaternions;
  if (!rigid && mesh.skinning == SkinningMethod::kDualQuaternion) {
    dual_quaternions.resize(palette.size());
    DualQuaternionPaletteJob convert;
    convert.palette = palette;
    convert.output = dual_quaternions;
    if (Status s = convert.Run(); !s) return s;
  }
  if (!rigid && mesh.sparse()) {
    SkinSparseJob job;
    job.dual_quaternions = dual_quaternions;
    job.normal_blend = mesh.normal_blend;
    job.positions = input.positions;
    job.normals = input.normals;
    job.tangents = input.tangents;
    job.influences = &mesh.sparse_influences;
    job.palette = palette;
    job.out_positions = out_positions;
    job.out_normals = out_normals;
    job.out_tangents = out_tangents;
    job.run = run;
    job.checked = checked;
    return job.Run();
  }
  if (!rigid && mesh.skinned()) {
    SkinDenseJob job = SkinDenseJobFor(mesh, palette);
    job.dual_quaternions = dual_quaternions;
    job.positions = input.positions;
    job.normals = input.normals;
    job.tangents = input.tangents;
    job.out_positions = out_positions;
    job.out_normals = out_normals;
    job.out_tangents = out_tangents;
    job.run = run;
    job.checked = checked;
    return job.Run();
  }
  // Rigid: one matrix for every vertex (docs/semantics.md, "Normals and tangents").
  const detail::SkinStreams streams{input.positions, input.normals, input.tangents,
                                    out_positions,   out_normals,   out_tangents};
  if (Status s = detail::ValidateSkinStreams(streams); !s) return s;
  if (palette.empty()) {
    return {Error::kEmptyPalette, "a rigid mesh moves with palette entry 0; the palette is empty",
            "palette"};
  }
  detail::BlendedMatrix blend;
  blend.Add(1.0f, palette[0]);
  detail::ForEachVertexRange(streams.vertex_count(), run, [&](size_t begin, size_t end) {
    for (size_t v = begin; v < end; ++v) detail::WriteSkinned(streams, v, blend);
  });
  return {};
}

uint32_t SkinLanes(const Primitive& mesh, const SkinRun& run) noexcept {
  // SkinAttributes gives skinned meshes to SkinDenseJob or SkinSparseJob, which choose by
  // LinearLanesOf or DualQuaternionLanesOf; rigid meshes take a scalar loop.
  if (!mesh.skinned()) return 1;
  return mesh.skinning == SkinningMethod::kLinear ? detail::LinearLanesOf(mesh.normal_blend, run)
                                                  : detail::DualQuaternionLanesOf(run);
}

bool SkinsWithAvx512(const Primitive& mesh, const SkinRun& run) noexcept {
  // As RangeSkinner::For chooses for SkinDenseJob and SkinSparseJob.
  return mesh.skinned() && mesh.skinning == SkinningMethod::kLinear &&
         detail::LinearAvx512Of(mesh.normal_blend, run);
}

Status SkinMesh(const Primitive& mesh, std::span<const Float3x4> palette,
                std::span<float> out_positions, std::span<float> out_normals,
                std::span<float> out_tangents) {
  return SkinAttributes(mesh, {mesh.positions, mesh.normals, mesh.tangents}, palette, out_positions,
                        out_normals, out_tangents);
}

Status SkinMesh(const Primitive& mesh, std::span<const Float3x4> palette,
                std::span<const float> morph_weights, std::span<float> out_positions,
                std::span<float> out_normals, std::span<float> out_tangents, const SkinRun& run,
                const InfluenceCheck* checked) {
  const SkinInput rest{mesh.positions, mesh.normals, mesh.tangents};
  if (mesh.targets.empty() && morph_weights.empty()) {
    return SkinAttributes(mesh, rest, palette, out_positions, out_normals, out_tangents, false, run,
                          checked);
  }
  if (!morph_weights.empty() && morph_weights.size() != mesh.targets.size()) {
    return Status(Error::kSizeMismatch,
                  std::to_string(morph_weights.size()) + " weights for " +
                      std::to_string(mesh.targets.size()) + " morph targets",
                  "morph_weights");
  }
  const std::vector<float> zeros(morph_weights.empty() ? mesh.targets.size() : 0, 0.0f);
  MorphTargetsJob job;
  job.positions = mesh.positions;
  job.normals = mesh.normals;
  job.tangents = mesh.tangents;
  job.targets = mesh.targets;
  job.weights = morph_weights.empty() ? std::span<const float>(zeros) : morph_weights;
  job.out_positions = out_positions;
  job.out_normals = out_normals;
  job.out_tangents = out_tangents;
  if (job.Inactive()) {
    // MorphTargetsJob would copy the attributes unchanged: skin the rest attributes directly.
    if (Status s = job.Validate(); !s) return s;
    return SkinAttributes(mesh, rest, palette, out_positions, out_normals, out_tangents, false, run,
                          checked);
  }
  std::vector<float> positions(mesh.positions.size()), normals(mesh.normals.size()),
      tangents(mesh.tangents.size());
  job.out_positions = positions;
  job.out_normals = normals;
  job.out_tangents = tangents;
  if (Status s = job.Run(); !s) return s;
  return SkinAttributes(mesh, {positions, normals, tangents}, palette, out_positions, out_normals,
                        out_tangents, false, run, checked);
}

}  // namespace sinew::cpu
