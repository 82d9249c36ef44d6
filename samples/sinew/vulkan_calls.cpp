#include "vulkan_calls.h"

namespace sinew::tool {

VulkanCalls LoadVulkanCalls(const vk::Context& ctx) {
  VulkanCalls calls;
  const PFN_vkGetDeviceProcAddr gdpa = ctx.get_device_proc_addr();
#define SINEW_TOOL_LOAD(name) calls.name = reinterpret_cast<PFN_##name>(gdpa(ctx.device(), #name));
  SINEW_TOOL_VULKAN_CALLS(SINEW_TOOL_LOAD)
#undef SINEW_TOOL_LOAD
  return calls;
}

}  // namespace sinew::tool
