// What `sinew bake` computes (docs/bake.md), apart from its arguments and files, so
// that tests run exactly the command's path: the pose (rest, a clip at a time, explicit morph
// weights, a bind pose), the scene matrices, then every primitive of every drawn mesh instance
// deformed in scene space on the CPU reference or the GPU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"
#include "sinew/vk/skin_cache_asset.h"

namespace sinew::tool {

struct BakeOptions {
  // The clip, by name or index; empty for none (the rest pose).
  std::string anim;
  // Seconds; clamped to the clip's range, or wrapped into it when `loop`.
  float time = 0;
  bool loop = false;
  // Morph weights per mesh (name or index), one per target; they override the clip's.
  std::vector<std::pair<std::string, std::vector<float>>> weights;
  // "rest" (default), "bind" (every joint where its inverse bind matrix puts it), or
  // "bind:TPose" / "bind:APose" / "bind:IPose" / "bind:Custom" (KHR_character_skeleton_bindpose).
  std::string pose = "rest";
  // A KHR_materials_variants name; empty for the default materials.
  std::string variant;
  // The CPU reference's threads (cpu::SkinRun, vectorized): 0 every hardware thread, 1 the calling
  // thread alone. The vertices come out the same bit for bit either way.
  uint32_t threads = 0;
};

// The pose BakeOptions asks for: the clip sampled at its time, explicit weights applied, the bind
// pose, every node's scene matrix; and the material variant. What BakeAsset deforms and
// `sinew render` draws. Errors: those BakeAsset lists for the clip, weights, variant and pose.
struct BakePose {
  int32_t animation = -1;  // the clip's index, -1 for none
  int32_t variant = -1;    // the material variant's index, -1 for none
  ScenePose pose;
  std::vector<Float4x4> world;
};
Result<BakePose> PoseForBake(const Asset& asset, const BakeOptions& options);

// The clip BakeOptions::anim names (an index or a name): its index, -1 for "" (none).
// kInvalidArgument for a clip the asset does not have.
Result<int32_t> FindClip(const Asset& asset, const std::string& anim);

// True for a spelling BakeOptions::pose accepts.
bool IsBakePose(std::string_view pose);

struct BakedPrimitive {
  uint32_t node = 0, primitive = 0;
  int32_t mesh = -1;
  int32_t material = -1;  // after the variant; -1 for none
  uint32_t mode = 4;      // glTF primitive mode
  // The primitive's indices in the asset (empty: not indexed). Points into the asset.
  const std::vector<uint32_t>* indices = nullptr;
  cpu::DeformedPrimitive data;  // scene space
};

struct BakeResult {
  int32_t animation = -1;                  // the clip's index, -1 for none
  std::vector<BakedPrimitive> primitives;  // cpu::DrawnNodes order, each node's primitives in order
  // Each of Asset::rigid_bindings placed in scene space, like the vertices (cpu::RigidTransforms):
  // on the CPU for either device, as an engine would.
  std::vector<Float4x4> rigid;
};

// The GPU bake's SkinCache, the asset's meshes in it and one character: what BakeAsset creates
// on the GPU, and keeps in a `session` between bakes of one asset on one context (sinew bake
// --format usda bakes every time code of a clip).
struct GpuBake {
  std::unique_ptr<vk::SkinCache> cache;
  vk::AssetMeshes meshes;
  vk::AssetInstance character;
};

// Bakes `asset`. `context` null: the CPU reference (cpu::DeformPrimitive); else the GPU: the
// asset's meshes and one character in a vk::SkinCache (vk::AddAssetMeshes, PoseAssetInstance),
// one Record(), the outputs read back; with `session`, the SkinCache it holds (created on first
// use; the same asset and context every call). Errors: kInvalidArgument for a clip, mesh or variant
// the asset does not have, a weight count that is not the mesh's target count, a pose spelling
// IsBakePose rejects, or a bind type no skin has; those of the jobs (BindPoseJob for a bind pose
// its skin cannot take) and of the GPU; `where` then names the node and primitive when known.
Result<BakeResult> BakeAsset(const Asset& asset, const BakeOptions& options,
                             const vk::Context* context = nullptr, GpuBake* session = nullptr);

}  // namespace sinew::tool
