// Skins a whole Primitive for one instance, dense, sparse or rigid: the CPU path an engine can
// fall back to, and the reference the GPU is compared with.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/influence_check.h"
#include "sinew/cpu/skin_run.h"

namespace sinew::cpu {

// The attributes a primitive is skinned from: its rest attributes, or those after blend shapes.
// Sized like the primitive's streams.
struct SkinInput {
  std::span<const float> positions;
  std::span<const float> normals;
  std::span<const float> tangents;
};

// Skins `input` with `mesh`'s influences: SkinSparseJob for a sparse mesh, SkinDenseJob for a
// dense one (with mesh.skinning's method: dual quaternions converted from `palette` by
// DualQuaternionPaletteJob on each call), and for a rigid mesh (or with `rigid` set, a skinned mesh
// drawn by a node without a skin) every vertex by palette[0], normals by its cofactor. `palette`
// has mesh.palette_size(joints) entries (the dense job checks joint indices against its size);
// outputs are sized like the inputs (empty where the mesh has no normals/tangents). `run` is the
// jobs' (threads, vectorized or not: the same outputs either way), and `checked`, when given, the
// jobs' InfluenceCheck of the mesh's influences (InfluenceCheck::Of(mesh)); a rigid mesh ignores
// it. Errors: those of the job; kEmptyPalette for a rigid mesh with an empty palette.
Status SkinAttributes(const Primitive& mesh, const SkinInput& input,
                      std::span<const Float3x4> palette, std::span<float> out_positions,
                      std::span<float> out_normals, std::span<float> out_tangents,
                      bool rigid = false, const SkinRun& run = {},
                      const InfluenceCheck* checked = nullptr);

// How many vertices at a time SkinAttributes with `run` skins `mesh`: 8 or 4 for a dense or sparse
// mesh blended linearly with the blended-matrix normal rule and `run.vectorized` (the widest the
// CPU allows within run.max_lanes: WidestSkinLanes); for dual quaternions 8 where eight are
// allowed, else 1; 1 for per-joint-normal and rigid meshes whatever `run` says. The outputs are
// the same either way.
uint32_t SkinLanes(const Primitive& mesh, const SkinRun& run) noexcept;

// Whether SkinAttributes with `run` skins `mesh`'s groups of eight vertices with AVX-512
// (SkinRun::avx512): linear blending with the blended-matrix normal rule, where SkinLanes is 8
// and the CPU has AVX-512 (F and VL). Dual quaternions, the per-joint rule and rigid meshes never
// do. The outputs are the same either way.
bool SkinsWithAvx512(const Primitive& mesh, const SkinRun& run) noexcept;

// SkinAttributes over the mesh's rest attributes.
Status SkinMesh(const Primitive& mesh, std::span<const Float3x4> palette,
                std::span<float> out_positions, std::span<float> out_normals,
                std::span<float> out_tangents);

// The same with the mesh's morph targets applied first (MorphTargetsJob, one weight per target;
// empty = all 0), as the fused GPU kernel does: normals and tangents are renormalized when some
// weight is nonzero; with every weight 0 the result is SkinMesh's without morph targets, bit for
// bit. kSizeMismatch ("morph_weights") for another weight count; MorphTargetsJob's errors.
// `run` and `checked` as SkinAttributes's (for the skinning; the morph targets run on the calling
// thread).
Status SkinMesh(const Primitive& mesh, std::span<const Float3x4> palette,
                std::span<const float> morph_weights, std::span<float> out_positions,
                std::span<float> out_normals, std::span<float> out_tangents,
                const SkinRun& run = {}, const InfluenceCheck* checked = nullptr);

}  // namespace sinew::cpu
