// The Vulkan calls the tool records itself (timestamps, the bench's copy kernel), loaded as any
// host of a Context loads its own: through the Context's vkGetDeviceProcAddr (sinew's function
// table is private to the library).
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/vk/context.h"

namespace sinew::tool {

#define SINEW_TOOL_VULKAN_CALLS(X) \
  X(vkCreateQueryPool)             \
  X(vkDestroyQueryPool)            \
  X(vkCmdResetQueryPool)           \
  X(vkCmdWriteTimestamp)           \
  X(vkGetQueryPoolResults)         \
  X(vkCreateShaderModule)          \
  X(vkDestroyShaderModule)         \
  X(vkCreatePipelineLayout)        \
  X(vkDestroyPipelineLayout)       \
  X(vkCreateComputePipelines)      \
  X(vkDestroyPipeline)             \
  X(vkGetBufferDeviceAddress)      \
  X(vkCmdBindPipeline)             \
  X(vkCmdPushConstants)            \
  X(vkCmdDispatch)                 \
  X(vkCmdFillBuffer)               \
  X(vkCmdPipelineBarrier)

struct VulkanCalls {
#define SINEW_TOOL_DECLARE(name) PFN_##name name = nullptr;
  SINEW_TOOL_VULKAN_CALLS(SINEW_TOOL_DECLARE)
#undef SINEW_TOOL_DECLARE
};

VulkanCalls LoadVulkanCalls(const vk::Context& ctx);

}  // namespace sinew::tool
