// The engine sample's graphics pass: what an engine's own renderer does with sinew's outputs. It
// draws deformed vertices straight from a vk::SkinCache output buffer (positions and normals as
// vertex buffers) into an offscreen colour and depth target, lit by one directional light, and
// copies the picture to host memory. Triangles are lit by their skinned normals (by their faces'
// own when the mesh has none); lines and points are drawn unlit. It uses no sinew code: only
// Vulkan, loaded through the device's vkGetDeviceProcAddr, with memory of its own.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::engine {

struct DrawPassInfo {
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkGetDeviceProcAddr get_device_proc_addr = nullptr;
  VkPhysicalDeviceMemoryProperties memory_properties{};
  uint32_t width = 0;
  uint32_t height = 0;
  // Normals as sinew writes them with DirectionFormat::kOctahedral (one word each, decoded in the
  // vertex shader by sinew's shaders/vertex_formats.glsl) instead of xyz floats.
  bool octahedral_normals = false;
};

// One draw: `vertex_count` vertices of a vertex buffer (xyz float positions, and xyz float normals
// or none) as triangles, lines or points, indexed or not, in one colour.
struct DrawItem {
  static constexpr uint32_t kNoIndices = UINT32_MAX;

  VkBuffer vertices = VK_NULL_HANDLE;
  VkDeviceSize positions = 0;  // byte offset of the positions
  VkDeviceSize normals = 0;    // byte offset of the normals, when has_normals
  bool has_normals = false;
  // Byte offset of last frame's positions (vk::InstanceOutputs::previous_positions), read when
  // the pass draws motion vectors.
  VkDeviceSize previous_positions = 0;
  uint32_t vertex_count = 0;
  uint32_t indices = kNoIndices;  // a DrawPass::AddIndices handle, or kNoIndices
  uint32_t mode = 4;              // glTF's: 0 points, 1 lines, 4 triangles; others are not drawn
  Float4 color{0.8f, 0.8f, 0.8f, 1.0f};  // linear RGB (alpha is not used)
};

class DrawPass {
 public:
  // kInvalidArgument for a missing device or entry point or a zero size; kVulkanCallFailed,
  // kNoSuitableMemoryType.
  static Result<std::unique_ptr<DrawPass>> Create(const DrawPassInfo& info);
  ~DrawPass();
  DrawPass(const DrawPass&) = delete;
  DrawPass& operator=(const DrawPass&) = delete;

  // Copies `indices` into memory of the pass's own for DrawItem::indices; returns the handle.
  Result<uint32_t> AddIndices(std::span<const uint32_t> indices);

  // Records the render pass — cleared to transparent black and depth 1, each item drawn with the
  // camera `view_projection` (scene space to Vulkan clip space) and the light coming from
  // `light` (a unit vector, scene space) — then the copy of the picture to host memory. The
  // vertex buffers' writes must be made visible to VERTEX_ATTRIBUTE_READ before (for a SkinCache:
  // RecordOutputBarrier). Pixels() reads the picture once the submission has completed.
  void Record(VkCommandBuffer cmd, std::span<const DrawItem> items, const Float4x4& view_projection,
              const Float3& light) const;

  // Records the same, but every triangle, line and point drawn in its screen-space motion since
  // the previous positions (the camera held still): red = 128/255 + dx · scale and green =
  // 128/255 + dy · scale in the picture's bytes (/ 255), dx and dy in pixels (x right, y down),
  // blue 128/255: no motion is the byte 128.
  void RecordMotionVectors(VkCommandBuffer cmd, std::span<const DrawItem> items,
                           const Float4x4& view_projection, float scale) const;

  // The last recorded picture: RGBA8, sRGB-encoded colour, alpha 255 where something was drawn
  // and 0 elsewhere; rows top to bottom.
  std::vector<uint8_t> Pixels() const;

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }

  struct Functions;

 private:
  DrawPass() = default;
  Status Init(const DrawPassInfo& info);
  Result<uint32_t> MemoryType(uint32_t bits, VkMemoryPropertyFlags flags) const;
  Status Allocate(const VkMemoryRequirements& needs, VkMemoryPropertyFlags flags,
                  VkDeviceMemory* memory);
  Status CreateTargets();
  Status CreatePipelines();
  void RecordDraws(VkCommandBuffer cmd, std::span<const DrawItem> items,
                   const Float4x4& view_projection, const Float3& light, bool motion,
                   float scale) const;
  Status CreateHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer* buffer,
                          VkDeviceMemory* memory, void** mapped);

  std::unique_ptr<Functions> fn_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  uint32_t width_ = 0, height_ = 0;
  bool octahedral_normals_ = false;
  VkImage color_ = VK_NULL_HANDLE, depth_ = VK_NULL_HANDLE;
  VkDeviceMemory color_memory_ = VK_NULL_HANDLE, depth_memory_ = VK_NULL_HANDLE;
  VkImageView color_view_ = VK_NULL_HANDLE, depth_view_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipelines_[3] = {};  // points, lines, triangles
  VkBuffer readback_ = VK_NULL_HANDLE;
  VkDeviceMemory readback_memory_ = VK_NULL_HANDLE;
  void* readback_mapped_ = nullptr;
  struct Indices {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint32_t count = 0;
  };
  std::vector<Indices> indices_;
};

}  // namespace sinew::engine
