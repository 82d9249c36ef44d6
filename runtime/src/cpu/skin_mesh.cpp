#include "sinew/cpu/skin_mesh.h"

#include <string>
#include <vector>

#include "sinew/cpu/morph_targets_job.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/cpu/skin_sparse_job.h"

namespace sinew::cpu {

Status SkinMesh(const SkinnedMesh& mesh, std::span<const Float3x4> palette,
                std::span<float> out_positions, std::span<float> out_normals,
                std::span<float> out_tangents) {
  if (mesh.sparse()) {
    SkinSparseJob job;
    job.positions = mesh.positions;
    job.normals = mesh.normals;
    job.tangents = mesh.tangents;
    job.influences = &mesh.sparse_influences;
    job.palette = palette;
    job.out_positions = out_positions;
    job.out_normals = out_normals;
    job.out_tangents = out_tangents;
    return job.Run();
  }
  SkinDenseJob job = SkinDenseJobFor(mesh, palette);
  job.out_positions = out_positions;
  job.out_normals = out_normals;
  job.out_tangents = out_tangents;
  return job.Run();
}

Status SkinMesh(const SkinnedMesh& mesh, std::span<const Float3x4> palette,
                std::span<const float> morph_weights, std::span<float> out_positions,
                std::span<float> out_normals, std::span<float> out_tangents) {
  if (mesh.morph_targets.empty() && morph_weights.empty()) {
    return SkinMesh(mesh, palette, out_positions, out_normals, out_tangents);
  }
  if (!morph_weights.empty() && morph_weights.size() != mesh.morph_targets.size()) {
    return Status(Error::kSizeMismatch,
                  std::to_string(morph_weights.size()) + " weights for " +
                      std::to_string(mesh.morph_targets.size()) + " morph targets",
                  "morph_weights");
  }
  const std::vector<float> zeros(morph_weights.empty() ? mesh.morph_targets.size() : 0, 0.0f);
  MorphTargetsJob job;
  job.positions = mesh.positions;
  job.normals = mesh.normals;
  job.tangents = mesh.tangents;
  job.targets = mesh.morph_targets;
  job.weights = morph_weights.empty() ? std::span<const float>(zeros) : morph_weights;
  job.out_positions = out_positions;
  job.out_normals = out_normals;
  job.out_tangents = out_tangents;
  if (job.Inactive()) {
    // MorphTargetsJob would copy the attributes unchanged: skin the rest attributes directly.
    if (Status s = job.Validate(); !s) return s;
    return SkinMesh(mesh, palette, out_positions, out_normals, out_tangents);
  }
  SkinnedMesh morphed;
  morphed.positions.resize(mesh.positions.size());
  morphed.normals.resize(mesh.normals.size());
  morphed.tangents.resize(mesh.tangents.size());
  job.out_positions = morphed.positions;
  job.out_normals = morphed.normals;
  job.out_tangents = morphed.tangents;
  if (Status s = job.Run(); !s) return s;
  morphed.influences = mesh.influences;
  morphed.sparse_influences = mesh.sparse_influences;
  morphed.skeleton = mesh.skeleton;
  return SkinMesh(morphed, palette, out_positions, out_normals, out_tangents);
}

}  // namespace sinew::cpu
