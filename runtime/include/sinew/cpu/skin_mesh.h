// Skins a whole SkinnedMesh, dense or sparse, for one instance: the CPU path an engine can fall
// back to, and the reference the GPU is compared with.
#pragma once

#include <span>

#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

// Runs SkinDenseJob or SkinSparseJob (by mesh.sparse()) over the mesh's streams. `palette` has
// mesh.palette_size() entries; outputs are sized like the mesh's positions/normals/tangents (empty
// where the mesh has none). Errors: those of the job.
Status SkinMesh(const SkinnedMesh& mesh, std::span<const Float3x4> palette,
                std::span<float> out_positions, std::span<float> out_normals,
                std::span<float> out_tangents);

// The same with the mesh's morph targets applied first (MorphTargetsJob, one weight per target;
// empty = all 0), as the fused GPU kernel does: normals and tangents are renormalized when some
// weight is nonzero; with every weight 0 the result is SkinMesh's without morph targets, bit for
// bit. kSizeMismatch ("morph_weights") for another weight count; MorphTargetsJob's errors.
Status SkinMesh(const SkinnedMesh& mesh, std::span<const Float3x4> palette,
                std::span<const float> morph_weights, std::span<float> out_positions,
                std::span<float> out_normals, std::span<float> out_tangents);

}  // namespace sinew::cpu
