// GPU-vs-CPU checking shared by the skinning kernel tests: the CPU reference of a crowd (dense or
// sparse mesh), the GPU deformation, and the comparison (docs/semantics.md, "Tolerances").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/procedural/character.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"

namespace sinew::testing {

struct Streams {
  std::vector<float> positions, normals, tangents;
};

// The procedural character (sinew::procedural::MakeCharacter).
procedural::Character Character(uint32_t vertices, uint32_t k, bool normals = true,
                                bool tangents = true);

// The procedural character's mesh alone, and the skeleton every procedural character of the
// default joints per limb shares (whatever its vertex count and K), with its joint count.
Primitive CharacterMesh(uint32_t vertices, uint32_t k, bool normals = true, bool tangents = true);
const Skeleton& DefaultSkeleton();
uint32_t DefaultJoints();

// Posed palettes of `instances` crowd members (CrowdPalette at distinct times),
// skeleton.joint_count() entries each.
std::vector<Float3x4> CrowdPalettes(const Skeleton& skeleton, uint32_t instances);

// CPU reference for every instance (morph targets, then SkinDenseJob or SkinSparseJob by layout),
// instance after instance; `palettes` holds the same number of entries per instance (the mesh's
// palette_size), `morph_weights` the mesh's morph target count per instance (empty: all 0).
Streams SkinOnCpu(const Primitive& mesh, const std::vector<Float3x4>& palettes, uint32_t instances,
                  const std::vector<float>& morph_weights = {});

float MaxAbsDiff(const std::vector<float>& a, const std::vector<float>& b);

// One frame of `cache` recorded as a test reads it back: the reuse barrier (the last readback
// before the kernels write), Record(), the output barrier to a transfer read; submitted and
// waited for. The first failure's status.
Status DeformFrameForReadback(const vk::Context& ctx, vk::SkinCache& cache);

// `count` morph targets over `vertices` vertices, each moving a random 5% of them (at least one;
// from `seed`); every third target also moves normals, every fourth tangents.
std::vector<MorphTarget> RandomMorphTargets(size_t vertices, size_t count, uint32_t seed);
// Weights of `targets` morph targets for each of `instances` instances: every fifth 0, the others
// in [-0.5, 1.5].
std::vector<float> CrowdMorphWeights(size_t targets, uint32_t instances);

// `mesh` (dense, skinned by a skin of DefaultJoints()) with its influences as sparse CSR
// influences instead.
Primitive SparseCharacterMesh(Primitive mesh);

// Deforms `instances` copies of `mesh` with `palettes` (and per-instance `morph_weights`) on the
// GPU and expects the CPU result:
// positions within 1e-5 x extent, normals and tangents within 1e-5. The SkinCache takes `base`'s
// choices besides its capacities (SkinCacheOptionsFor).
void ExpectGpuMatchesCpu(const vk::Context& ctx, const Primitive& mesh,
                         const std::vector<Float3x4>& palettes, uint32_t instances,
                         const std::vector<float>& morph_weights = {},
                         const vk::SkinCacheOptions& base = {});

// ExpectGpuMatchesCpu for `instances` crowd members of `mesh` (CrowdPalettes of the default
// skeleton, CrowdMorphWeights for its morph targets) in a SkinCache of `workgroup_size`.
void ExpectCrowdMatchesCpuAtWorkgroupSize(const vk::Context& ctx, const Primitive& mesh,
                                          uint32_t instances, uint32_t workgroup_size);

}  // namespace sinew::testing
