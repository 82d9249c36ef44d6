// GPU-vs-CPU checking shared by the skinning kernel tests: the CPU reference of a crowd (dense or
// sparse mesh), the GPU deformation, and the comparison (docs/semantics.md, "Tolerances").
#pragma once

#include <cstdint>
#include <vector>

#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/math.h"
#include "sinew/vk/context.h"

namespace sinew::testing {

struct Streams {
  std::vector<float> positions, normals, tangents;
};

// The procedural character (sinew::procedural::MakeCharacter).
SkinnedMesh Character(uint32_t vertices, uint32_t k, bool normals = true, bool tangents = true);

// Posed palettes of `instances` crowd members (CrowdPalette at distinct times),
// skeleton.joint_count() entries each.
std::vector<Float3x4> CrowdPalettes(const SkinnedMesh& mesh, uint32_t instances);

// CPU reference for every instance (morph targets, then SkinDenseJob or SkinSparseJob by layout),
// instance after instance; `palettes` holds mesh.palette_size() entries per instance,
// `morph_weights` the mesh's morph target count per instance (empty: all 0).
Streams SkinOnCpu(const SkinnedMesh& mesh, const std::vector<Float3x4>& palettes,
                  uint32_t instances, const std::vector<float>& morph_weights = {});

float MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b);

// Deforms `instances` copies of `mesh` with `palettes` (and per-instance `morph_weights`) on the
// GPU and expects the CPU result:
// positions within 1e-5 x extent, normals and tangents within 1e-5.
void ExpectGpuMatchesCpu(const vk::Context& ctx, const SkinnedMesh& mesh,
                         const std::vector<Float3x4>& palettes, uint32_t instances,
                         const std::vector<float>& morph_weights = {});

}  // namespace sinew::testing
