// A loaded asset in a SkinCache, the way an engine draws it: every drawn mesh instance
// (cpu::DrawnMeshes: node, mesh, skin) uploaded once as one cache mesh per primitive, then any
// number of characters, each with one palette per drawn mesh (shared by its primitives) and one
// cache instance per primitive, posed every frame from the scene's matrices and weights.
#pragma once

#include <span>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/vk/skin_cache.h"

namespace sinew::vk {

// An asset's meshes in a cache.
struct AssetMeshes {
  std::vector<cpu::DrawnMesh> drawn;
  // Per drawn mesh, per primitive of its mesh: the cache mesh (the primitive itself, its palette
  // of DrawnMesh::palette_size entries; a rigid primitive's one entry is the node's world matrix).
  // A primitive without vertices (a glTF primitive skipped for want of POSITION) has none: its
  // id is MeshId{}, its instances' InstanceId{}, and the functions below pass over them.
  std::vector<std::vector<MeshId>> meshes;
};

// One character: an instance of every drawn mesh.
struct AssetInstance {
  std::vector<PaletteId> palettes;                 // per drawn mesh
  std::vector<std::vector<InstanceId>> instances;  // per drawn mesh, per primitive
};

// `base` with every capacity set to hold `characters` characters of `asset` (its meshes once):
// what AddAssetMeshes and AddAssetInstance need, from an upper bound of each mesh's packed size
// (morph targets are counted as if each moved every vertex). frames_in_flight, the previous
// positions mode, the vertex formats and the extra output usage are base's. `characters` counts
// every character alive at once, and a removed one stays alive for the cache's frames in flight
// (its outputs may still be written): a game that removes characters and adds others within that
// many frames asks for room for both.
SkinCacheOptions SkinCacheOptionsFor(const Asset& asset, uint32_t characters,
                                     const SkinCacheOptions& base = {});

// Characters of one asset in a crowd. A null asset counts for nothing; 0 characters count as 1,
// as in SkinCacheOptionsFor(asset, 0), since the asset's meshes are in the cache either way.
struct AssetCharacters {
  const Asset* asset = nullptr;
  uint32_t characters = 1;
};
// `base` with every capacity set to hold a crowd of several assets in one cache: each asset's
// meshes once and its characters, as SkinCacheOptionsFor(asset, characters) counts them, summed,
// with the output pages' slack counted once for the whole crowd. (Adding up the assets' own
// options counts it once per asset, and not at all for an asset whose characters fit one page
// alone, which beside other assets' in shared pages they may not: use this instead.)
SkinCacheOptions SkinCacheOptionsFor(std::span<const AssetCharacters> crowd,
                                     const SkinCacheOptions& base = {});

// Adds every primitive of every drawn mesh of `asset` to `cache`, recording the uploads into
// `upload_cmd` (SkinCache::AddMesh). Errors name the primitive ("nodes/<n>/primitives/<k>"); the
// meshes added before the error are removed again.
Result<AssetMeshes> AddAssetMeshes(SkinCache& cache, const Asset& asset,
                                   VkCommandBuffer upload_cmd);
// Headless contexts: the same, submitted and waited for.
Result<AssetMeshes> AddAssetMeshes(SkinCache& cache, const Asset& asset);
Status RemoveAssetMeshes(SkinCache& cache, const AssetMeshes& meshes);

// A character of the asset: palettes and instances (SkinCache's errors; on error, what was added
// is removed again).
Result<AssetInstance> AddAssetInstance(SkinCache& cache, const AssetMeshes& meshes);
Status RemoveAssetInstance(SkinCache& cache, const AssetInstance& instance);
// Every instance of the character (for SkinCache::Record's active list).
void AppendInstances(const AssetInstance& instance, std::vector<InstanceId>* out);

// Writes a character's pose for the open frame: each drawn mesh's palette from `world`, every
// node's scene matrix (cpu::SceneTransformsJob), through cpu::SkinInstancePaletteJob (a rigid
// node: its world matrix), straight into the cache's memory; and, for primitives with morph
// targets, the node's weights (`weights[node]`, ScenePose::weights) resolved over the mesh's
// in-betweens. `weights` empty: the morph weights are left as they are (as SetMorphWeights set
// them, or 0); else it has an entry per node, and each morphed node one weight per morph target
// (kSizeMismatch at "weights" or "nodes/<n>/weights"). Errors of the palette job, prefixed
// "nodes/<n>".
Status PoseAssetInstance(SkinCache& cache, const Asset& asset, const AssetMeshes& meshes,
                         const AssetInstance& instance, std::span<const Float4x4> world,
                         std::span<const std::vector<float>> weights);

}  // namespace sinew::vk
