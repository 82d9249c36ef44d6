#include "sinew/cpu/skin_mesh.h"

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

}  // namespace sinew::cpu
