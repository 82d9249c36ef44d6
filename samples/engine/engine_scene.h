// The engine sample's scene: characters of one asset in one vk::SkinCache, each posed every frame
// wherever the engine puts it and drawn in its own material variant, with sinew's work and the
// draw pass (draw_pass.h) recorded into the same command buffer. What the sample's main.cpp
// drives, and what `sinew render` draws one character with.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "draw_pass.h"
#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/core/vertex_formats.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"
#include "sinew/vk/skin_cache_asset.h"

namespace sinew::engine {

struct SceneOptions {
  uint32_t characters = 1;
  uint32_t width = 512, height = 512;  // of the picture
  // Keep last frame's positions (vk::PreviousPositions::kPingPong) for RecordMotionVectors.
  bool motion_vectors = false;
  // The SkinCache's vertex formats (docs/vertex_formats.md). The draw pass reads float32 or
  // octahedral normals from separate streams; other output formats are refused.
  VertexFormats formats;
};

class EngineScene {
 public:
  // The cache (sized for the characters: vk::SkinCacheOptionsFor), the asset's meshes, one
  // instance per character, the draw pass and every primitive's indices. The mesh uploads are
  // recorded into `upload_cmd`, which must execute before the first Record's (for a headless
  // context, pass VK_NULL_HANDLE: they are submitted and waited for).
  static Result<std::unique_ptr<EngineScene>> Create(const vk::Context& context, const Asset& asset,
                                                     const SceneOptions& options,
                                                     VkCommandBuffer upload_cmd);

  // Character `c` for the frame being recorded next: every node's scene matrix `world`
  // (cpu::SceneTransformsJob's, the engine's placement included), the morph weights per node,
  // and the material variant (-1: the default materials).
  Status Pose(uint32_t c, std::span<const Float4x4> world,
              std::span<const std::vector<float>> weights, int32_t variant);

  // Records the frame: sinew's barriers and kernels (RecordReuseBarrier, Record,
  // RecordOutputBarrier to vertex input), then the draw pass with the camera `view_projection`
  // and the light `light` over every primitive of every character.
  Status Record(VkCommandBuffer cmd, const Float4x4& view_projection, const Float3& light);

  // The same with the draw pass's motion vectors (DrawPass::RecordMotionVectors, `scale`): each
  // pixel's motion since the frame recorded before. kInvalidArgument, recording nothing, unless
  // the scene was created with SceneOptions::motion_vectors.
  Status RecordMotionVectors(VkCommandBuffer cmd, const Float4x4& view_projection, float scale);

  const DrawPass& pass() const { return *pass_; }
  uint32_t characters() const { return uint32_t(characters_.size()); }

 private:
  EngineScene() = default;
  // Sinew's barriers and kernels, then the draw items of every character.
  Result<std::vector<DrawItem>> Deform(VkCommandBuffer cmd);

  const Asset* asset_ = nullptr;
  std::unique_ptr<vk::SkinCache> cache_;
  vk::AssetMeshes meshes_;
  std::vector<vk::AssetInstance> characters_;
  std::vector<int32_t> variants_;
  std::unique_ptr<DrawPass> pass_;
  bool motion_vectors_ = false;
  std::vector<std::vector<uint32_t>> indices_;  // per drawn mesh, per primitive
};

}  // namespace sinew::engine
