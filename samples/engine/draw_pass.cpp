#include "draw_pass.h"

#include <cstring>
#include <string>

#include "draw_fragment.spv.h"
#include "draw_vertex.spv.h"

namespace sinew::engine {

#define SINEW_DRAW_CALLS(X)        \
  X(vkCreateImage)                 \
  X(vkDestroyImage)                \
  X(vkGetImageMemoryRequirements)  \
  X(vkBindImageMemory)             \
  X(vkCreateImageView)             \
  X(vkDestroyImageView)            \
  X(vkCreateBuffer)                \
  X(vkDestroyBuffer)               \
  X(vkGetBufferMemoryRequirements) \
  X(vkBindBufferMemory)            \
  X(vkAllocateMemory)              \
  X(vkFreeMemory)                  \
  X(vkMapMemory)                   \
  X(vkCreateRenderPass)            \
  X(vkDestroyRenderPass)           \
  X(vkCreateFramebuffer)           \
  X(vkDestroyFramebuffer)          \
  X(vkCreateShaderModule)          \
  X(vkDestroyShaderModule)         \
  X(vkCreatePipelineLayout)        \
  X(vkDestroyPipelineLayout)       \
  X(vkCreateGraphicsPipelines)     \
  X(vkDestroyPipeline)             \
  X(vkCmdBeginRenderPass)          \
  X(vkCmdEndRenderPass)            \
  X(vkCmdBindPipeline)             \
  X(vkCmdBindVertexBuffers)        \
  X(vkCmdBindIndexBuffer)          \
  X(vkCmdPushConstants)            \
  X(vkCmdDraw)                     \
  X(vkCmdDrawIndexed)              \
  X(vkCmdCopyImageToBuffer)        \
  X(vkCmdPipelineBarrier)

struct DrawPass::Functions {
#define SINEW_DRAW_DECLARE(name) PFN_##name name = nullptr;
  SINEW_DRAW_CALLS(SINEW_DRAW_DECLARE)
#undef SINEW_DRAW_DECLARE
};

namespace {

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

// The shaders' push constants (shaders/draw_vertex.vert).
struct DrawConstants {
  float view_projection[16];
  float color[4];
  float light[4];
};

Status Failed(const char* call, VkResult r) {
  return {Error::kVulkanCallFailed, std::string(call) + " returned " + std::to_string(int(r))};
}

}  // namespace

Result<std::unique_ptr<DrawPass>> DrawPass::Create(const DrawPassInfo& info) {
  if (!info.device || !info.get_device_proc_addr || info.width == 0 || info.height == 0) {
    return Status(Error::kInvalidArgument, "a device, its vkGetDeviceProcAddr and a size");
  }
  std::unique_ptr<DrawPass> pass(new DrawPass());
  if (Status s = pass->Init(info); !s) return s;
  return pass;
}

Status DrawPass::Init(const DrawPassInfo& info) {
  device_ = info.device;
  memory_properties_ = info.memory_properties;
  width_ = info.width;
  octahedral_normals_ = info.octahedral_normals;
  height_ = info.height;
  // Every entry point first, so that the destructor only ever sees a complete table.
  Functions loaded;
#define SINEW_DRAW_LOAD(name)                                                            \
  loaded.name = reinterpret_cast<PFN_##name>(info.get_device_proc_addr(device_, #name)); \
  if (!loaded.name) return {Error::kMissingVulkanFunction, "no " #name};
  SINEW_DRAW_CALLS(SINEW_DRAW_LOAD)
#undef SINEW_DRAW_LOAD
  fn_ = std::make_unique<Functions>(loaded);
  if (Status s = CreateTargets(); !s) return s;
  if (Status s = CreatePipelines(); !s) return s;
  return CreateHostBuffer(VkDeviceSize(width_) * height_ * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          &readback_, &readback_memory_, &readback_mapped_);
}

DrawPass::~DrawPass() {
  if (!fn_ || !device_) return;
  for (const Indices& i : indices_) {
    fn_->vkDestroyBuffer(device_, i.buffer, nullptr);
    fn_->vkFreeMemory(device_, i.memory, nullptr);
  }
  fn_->vkDestroyBuffer(device_, readback_, nullptr);
  fn_->vkFreeMemory(device_, readback_memory_, nullptr);
  for (VkPipeline p : pipelines_) fn_->vkDestroyPipeline(device_, p, nullptr);
  fn_->vkDestroyPipelineLayout(device_, layout_, nullptr);
  fn_->vkDestroyFramebuffer(device_, framebuffer_, nullptr);
  fn_->vkDestroyRenderPass(device_, render_pass_, nullptr);
  fn_->vkDestroyImageView(device_, color_view_, nullptr);
  fn_->vkDestroyImageView(device_, depth_view_, nullptr);
  fn_->vkDestroyImage(device_, color_, nullptr);
  fn_->vkDestroyImage(device_, depth_, nullptr);
  fn_->vkFreeMemory(device_, color_memory_, nullptr);
  fn_->vkFreeMemory(device_, depth_memory_, nullptr);
}

Result<uint32_t> DrawPass::MemoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((bits & (1u << i)) && (memory_properties_.memoryTypes[i].propertyFlags & flags) == flags) {
      return i;
    }
  }
  return Status(Error::kNoSuitableMemoryType, "no memory type for the draw pass");
}

Status DrawPass::Allocate(const VkMemoryRequirements& needs, VkMemoryPropertyFlags flags,
                          VkDeviceMemory* memory) {
  auto type = MemoryType(needs.memoryTypeBits, flags);
  if (!type) return type.status();
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = needs.size;
  ai.memoryTypeIndex = *type;
  if (VkResult r = fn_->vkAllocateMemory(device_, &ai, nullptr, memory); r != VK_SUCCESS) {
    return Failed("vkAllocateMemory", r);
  }
  return {};
}

Status DrawPass::CreateHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer* buffer,
                                  VkDeviceMemory* memory, void** mapped) {
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = size;
  bi.usage = usage;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = fn_->vkCreateBuffer(device_, &bi, nullptr, buffer); r != VK_SUCCESS) {
    return Failed("vkCreateBuffer", r);
  }
  VkMemoryRequirements needs;
  fn_->vkGetBufferMemoryRequirements(device_, *buffer, &needs);
  if (Status s = Allocate(
          needs, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
          memory);
      !s) {
    return s;
  }
  if (VkResult r = fn_->vkBindBufferMemory(device_, *buffer, *memory, 0); r != VK_SUCCESS) {
    return Failed("vkBindBufferMemory", r);
  }
  if (VkResult r = fn_->vkMapMemory(device_, *memory, 0, VK_WHOLE_SIZE, 0, mapped);
      r != VK_SUCCESS) {
    return Failed("vkMapMemory", r);
  }
  return {};
}

Status DrawPass::CreateTargets() {
  const auto image = [&](VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                         VkImage* out, VkDeviceMemory* memory, VkImageView* view) -> Status {
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = {width_, height_, 1};
    ii.mipLevels = 1;
    ii.arrayLayers = 1;
    ii.samples = VK_SAMPLE_COUNT_1_BIT;
    ii.tiling = VK_IMAGE_TILING_OPTIMAL;
    ii.usage = usage;
    ii.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (VkResult r = fn_->vkCreateImage(device_, &ii, nullptr, out); r != VK_SUCCESS) {
      return Failed("vkCreateImage", r);
    }
    VkMemoryRequirements needs;
    fn_->vkGetImageMemoryRequirements(device_, *out, &needs);
    if (Status s = Allocate(needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, memory); !s) return s;
    if (VkResult r = fn_->vkBindImageMemory(device_, *out, *memory, 0); r != VK_SUCCESS) {
      return Failed("vkBindImageMemory", r);
    }
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = *out;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {aspect, 0, 1, 0, 1};
    if (VkResult r = fn_->vkCreateImageView(device_, &vi, nullptr, view); r != VK_SUCCESS) {
      return Failed("vkCreateImageView", r);
    }
    return {};
  };
  if (Status s =
          image(kColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, &color_, &color_memory_, &color_view_);
      !s) {
    return s;
  }
  if (Status s = image(kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                       VK_IMAGE_ASPECT_DEPTH_BIT, &depth_, &depth_memory_, &depth_view_);
      !s) {
    return s;
  }

  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = kColorFormat;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  attachments[1] = attachments[0];
  attachments[1].format = kDepthFormat;
  attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pDepthStencilAttachment = &depth_ref;
  // In: the previous picture's copy and depth writes are done before this one clears and draws.
  // Out: the colour writes are done before the copy to host memory.
  VkSubpassDependency dependencies[2] = {};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask =
      VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[0].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[0].dstStageMask =
      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT;
  dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                                  VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                  VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  VkRenderPassCreateInfo rp{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rp.attachmentCount = 2;
  rp.pAttachments = attachments;
  rp.subpassCount = 1;
  rp.pSubpasses = &subpass;
  rp.dependencyCount = 2;
  rp.pDependencies = dependencies;
  if (VkResult r = fn_->vkCreateRenderPass(device_, &rp, nullptr, &render_pass_); r != VK_SUCCESS) {
    return Failed("vkCreateRenderPass", r);
  }
  const VkImageView views[2] = {color_view_, depth_view_};
  VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fb.renderPass = render_pass_;
  fb.attachmentCount = 2;
  fb.pAttachments = views;
  fb.width = width_;
  fb.height = height_;
  fb.layers = 1;
  if (VkResult r = fn_->vkCreateFramebuffer(device_, &fb, nullptr, &framebuffer_);
      r != VK_SUCCESS) {
    return Failed("vkCreateFramebuffer", r);
  }
  return {};
}

Status DrawPass::CreatePipelines() {
  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                            sizeof(DrawConstants)};
  VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  li.pushConstantRangeCount = 1;
  li.pPushConstantRanges = &range;
  if (VkResult r = fn_->vkCreatePipelineLayout(device_, &li, nullptr, &layout_); r != VK_SUCCESS) {
    return Failed("vkCreatePipelineLayout", r);
  }
  VkShaderModule modules[2] = {};
  const std::span<const uint32_t> code[2] = {sinew_spv_draw_vertex, sinew_spv_draw_fragment};
  for (int i = 0; i < 2; ++i) {
    VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mi.codeSize = code[i].size_bytes();
    mi.pCode = code[i].data();
    if (VkResult r = fn_->vkCreateShaderModule(device_, &mi, nullptr, &modules[i]);
        r != VK_SUCCESS) {
      if (i == 1) fn_->vkDestroyShaderModule(device_, modules[0], nullptr);
      return Failed("vkCreateShaderModule", r);
    }
  }
  VkPipelineShaderStageCreateInfo stages[2] = {};
  stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[0].module = modules[0];
  stages[1].module = modules[1];
  stages[0].pName = stages[1].pName = "main";
  // The vertex shader's kOctahedralNormals (constant_id 0).
  const VkBool32 octahedral = octahedral_normals_ ? VK_TRUE : VK_FALSE;
  const VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
  const VkSpecializationInfo specialization{1, &entry, sizeof(octahedral), &octahedral};
  stages[0].pSpecializationInfo = &specialization;
  // Positions from binding 0, normals from binding 1, previous positions from binding 2: each a
  // tightly packed stream of xyz floats, or for octahedral normals of one word each. Normals are
  // read as raw words either way (the vertex shader decodes them).
  const uint32_t normal_stride = octahedral_normals_ ? 4 : 12;
  const VkFormat normal_format =
      octahedral_normals_ ? VK_FORMAT_R32_UINT : VK_FORMAT_R32G32B32_UINT;
  const VkVertexInputBindingDescription bindings[3] = {
      {0, 12, VK_VERTEX_INPUT_RATE_VERTEX},
      {1, normal_stride, VK_VERTEX_INPUT_RATE_VERTEX},
      {2, 12, VK_VERTEX_INPUT_RATE_VERTEX}};
  const VkVertexInputAttributeDescription attributes[3] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                           {1, 1, normal_format, 0},
                                                           {2, 2, VK_FORMAT_R32G32B32_SFLOAT, 0}};
  VkPipelineVertexInputStateCreateInfo input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  input.vertexBindingDescriptionCount = 3;
  input.pVertexBindingDescriptions = bindings;
  input.vertexAttributeDescriptionCount = 3;
  input.pVertexAttributeDescriptions = attributes;
  const VkViewport viewport{0, 0, float(width_), float(height_), 0, 1};
  const VkRect2D scissor{{0, 0}, {width_, height_}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.pViewports = &viewport;
  vp.scissorCount = 1;
  vp.pScissors = &scissor;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;  // skinned meshes are seen from both sides here
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depth{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = VK_TRUE;
  depth.depthWriteEnable = VK_TRUE;
  depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                         VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkPrimitiveTopology topologies[3] = {VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                                             VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
                                             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
  Status status;
  for (int t = 0; t < 3 && status.ok(); ++t) {
    VkPipelineInputAssemblyStateCreateInfo assembly{
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = topologies[t];
    VkGraphicsPipelineCreateInfo pi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    pi.stageCount = 2;
    pi.pStages = stages;
    pi.pVertexInputState = &input;
    pi.pInputAssemblyState = &assembly;
    pi.pViewportState = &vp;
    pi.pRasterizationState = &raster;
    pi.pMultisampleState = &ms;
    pi.pDepthStencilState = &depth;
    pi.pColorBlendState = &cb;
    pi.layout = layout_;
    pi.renderPass = render_pass_;
    if (VkResult r = fn_->vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &pi, nullptr,
                                                    &pipelines_[t]);
        r != VK_SUCCESS) {
      status = Failed("vkCreateGraphicsPipelines", r);
    }
  }
  for (VkShaderModule m : modules) fn_->vkDestroyShaderModule(device_, m, nullptr);
  return status;
}

Result<uint32_t> DrawPass::AddIndices(std::span<const uint32_t> indices) {
  Indices added;
  added.count = uint32_t(indices.size());
  void* mapped = nullptr;
  const VkDeviceSize bytes = std::max<VkDeviceSize>(indices.size_bytes(), 4);
  if (Status s = CreateHostBuffer(bytes, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &added.buffer,
                                  &added.memory, &mapped);
      !s) {
    fn_->vkDestroyBuffer(device_, added.buffer, nullptr);
    fn_->vkFreeMemory(device_, added.memory, nullptr);
    return s;
  }
  if (!indices.empty()) std::memcpy(mapped, indices.data(), indices.size_bytes());
  indices_.push_back(added);
  return uint32_t(indices_.size() - 1);
}

void DrawPass::Record(VkCommandBuffer cmd, std::span<const DrawItem> items,
                      const Float4x4& view_projection, const Float3& light) const {
  RecordDraws(cmd, items, view_projection, light, false, 0);
}

void DrawPass::RecordMotionVectors(VkCommandBuffer cmd, std::span<const DrawItem> items,
                                   const Float4x4& view_projection, float scale) const {
  RecordDraws(cmd, items, view_projection, {}, true, scale);
}

void DrawPass::RecordDraws(VkCommandBuffer cmd, std::span<const DrawItem> items,
                           const Float4x4& view_projection, const Float3& light, bool motion,
                           float scale) const {
  VkClearValue clear[2] = {};
  clear[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = render_pass_;
  begin.framebuffer = framebuffer_;
  begin.renderArea = {{0, 0}, {width_, height_}};
  begin.clearValueCount = 2;
  begin.pClearValues = clear;
  fn_->vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  DrawConstants constants{};
  std::memcpy(constants.view_projection, view_projection.m.data(), sizeof(float) * 16);
  for (const DrawItem& item : items) {
    const int topology = item.mode == 0 ? 0 : item.mode == 1 ? 1 : item.mode == 4 ? 2 : -1;
    if (topology < 0 || item.vertex_count == 0) continue;
    fn_->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_[topology]);
    const VkBuffer buffers[3] = {item.vertices, item.vertices, item.vertices};
    const VkDeviceSize offsets[3] = {item.positions,
                                     item.has_normals ? item.normals : item.positions,
                                     motion ? item.previous_positions : item.positions};
    fn_->vkCmdBindVertexBuffers(cmd, 0, 3, buffers, offsets);
    if (motion) {
      constants.color[0] = scale;
      constants.color[1] = float(width_);
      constants.color[2] = float(height_);
      constants.light[3] = 3.0f;
    } else {
      constants.color[0] = item.color.x;
      constants.color[1] = item.color.y;
      constants.color[2] = item.color.z;
      constants.color[3] = 1.0f;
      // Shading: the skinned normals, the faces' own (no normals), or none (lines, points).
      constants.light[0] = light.x;
      constants.light[1] = light.y;
      constants.light[2] = light.z;
      constants.light[3] = item.mode != 4 ? 0.0f : item.has_normals ? 1.0f : 2.0f;
    }
    fn_->vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                            0, sizeof(constants), &constants);
    if (item.indices != DrawItem::kNoIndices && item.indices < indices_.size()) {
      const Indices& i = indices_[item.indices];
      fn_->vkCmdBindIndexBuffer(cmd, i.buffer, 0, VK_INDEX_TYPE_UINT32);
      fn_->vkCmdDrawIndexed(cmd, i.count, 1, 0, 0, 0);
    } else {
      fn_->vkCmdDraw(cmd, item.vertex_count, 1, 0, 0);
    }
  }
  fn_->vkCmdEndRenderPass(cmd);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {width_, height_, 1};
  fn_->vkCmdCopyImageToBuffer(cmd, color_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_, 1,
                              &copy);
  VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  fn_->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                            &to_host, 0, nullptr, 0, nullptr);
}

std::vector<uint8_t> DrawPass::Pixels() const {
  const auto* p = static_cast<const uint8_t*>(readback_mapped_);
  return std::vector<uint8_t>(p, p + size_t(width_) * height_ * 4);
}

}  // namespace sinew::engine
