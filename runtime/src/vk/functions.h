// sinew's private Vulkan function table, one per Context.
//
// The runtime is compiled with VK_NO_PROTOTYPES (runtime/CMakeLists.txt, PRIVATE): no sinew source
// calls a global Vulkan symbol, and nothing here reaches a host's translation units. Every entry
// point is loaded through the host's vkGetInstanceProcAddr / vkGetDeviceProcAddr (or the loader
// sinew opens itself in headless mode), so several Contexts, a host's own loader, its volk or its
// Vulkan-Hpp dispatcher all coexist.
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/vk/context.h"

// Instance-level entry points, loaded with vkGetInstanceProcAddr(instance, name). Required.
#define SINEW_VK_INSTANCE_FUNCTIONS(X)        \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

// VK_EXT_debug_utils, loaded with vkGetInstanceProcAddr; null when the extension is not enabled.
#define SINEW_VK_DEBUG_FUNCTIONS(X)  \
  X(vkCreateDebugUtilsMessengerEXT)  \
  X(vkDestroyDebugUtilsMessengerEXT) \
  X(vkSetDebugUtilsObjectNameEXT)

// Device-level entry points (Vulkan 1.2 core), loaded with vkGetDeviceProcAddr(device, name).
// Required.
#define SINEW_VK_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                 \
  X(vkDeviceWaitIdle)                \
  X(vkGetDeviceQueue)                \
  X(vkCreateBuffer)                  \
  X(vkDestroyBuffer)                 \
  X(vkGetBufferMemoryRequirements)   \
  X(vkAllocateMemory)                \
  X(vkFreeMemory)                    \
  X(vkBindBufferMemory)              \
  X(vkMapMemory)                     \
  X(vkCreateShaderModule)            \
  X(vkDestroyShaderModule)           \
  X(vkCreateDescriptorSetLayout)     \
  X(vkDestroyDescriptorSetLayout)    \
  X(vkCreatePipelineLayout)          \
  X(vkDestroyPipelineLayout)         \
  X(vkCreateComputePipelines)        \
  X(vkDestroyPipeline)               \
  X(vkCreateDescriptorPool)          \
  X(vkDestroyDescriptorPool)         \
  X(vkAllocateDescriptorSets)        \
  X(vkUpdateDescriptorSets)          \
  X(vkCreateCommandPool)             \
  X(vkDestroyCommandPool)            \
  X(vkAllocateCommandBuffers)        \
  X(vkFreeCommandBuffers)            \
  X(vkBeginCommandBuffer)            \
  X(vkEndCommandBuffer)              \
  X(vkQueueSubmit)                   \
  X(vkCreateFence)                   \
  X(vkDestroyFence)                  \
  X(vkWaitForFences)                 \
  X(vkResetFences)                   \
  X(vkCmdBindPipeline)               \
  X(vkCmdBindDescriptorSets)         \
  X(vkCmdPushConstants)              \
  X(vkCmdDispatch)                   \
  X(vkCmdPipelineBarrier)            \
  X(vkCmdCopyBuffer)

// VK_KHR_pipeline_executable_properties, loaded with vkGetDeviceProcAddr when the Context enabled
// it (Context::kernel_statistics_enabled); null otherwise.
#define SINEW_VK_STATISTICS_FUNCTIONS(X)  \
  X(vkGetPipelineExecutablePropertiesKHR) \
  X(vkGetPipelineExecutableStatisticsKHR)

namespace sinew::vk::detail {

struct Functions {
#define SINEW_VK_MEMBER(name) PFN_##name name = nullptr;
  SINEW_VK_INSTANCE_FUNCTIONS(SINEW_VK_MEMBER)
  SINEW_VK_DEBUG_FUNCTIONS(SINEW_VK_MEMBER)
  SINEW_VK_DEVICE_FUNCTIONS(SINEW_VK_MEMBER)
  SINEW_VK_STATISTICS_FUNCTIONS(SINEW_VK_MEMBER)
#undef SINEW_VK_MEMBER
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
};

// The table of `context` (for the runtime's own sources only).
inline const Functions& Fn(const Context& context) { return *context.functions_; }

// Names `handle` for debuggers and validation messages when the context has VK_EXT_debug_utils;
// does nothing otherwise.
void SetName(const Context& context, VkObjectType type, uint64_t handle, const char* name);
template <typename Handle>
void SetName(const Context& context, VkObjectType type, Handle handle, const char* name) {
  SetName(context, type, reinterpret_cast<uint64_t>(handle), name);
}

}  // namespace sinew::vk::detail
