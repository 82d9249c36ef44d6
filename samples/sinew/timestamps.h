// The timestamp calls the tool records around sinew's dispatches, loaded as any host loads its
// own: through the Context's vkGetDeviceProcAddr (sinew's function table is private), and a
// two-query pool to time one stretch of a command buffer.
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/core/error.h"
#include "sinew/vk/context.h"

namespace sinew::tool {

struct TimestampFunctions {
  PFN_vkCreateQueryPool vkCreateQueryPool = nullptr;
  PFN_vkDestroyQueryPool vkDestroyQueryPool = nullptr;
  PFN_vkCmdResetQueryPool vkCmdResetQueryPool = nullptr;
  PFN_vkCmdWriteTimestamp vkCmdWriteTimestamp = nullptr;
  PFN_vkGetQueryPoolResults vkGetQueryPoolResults = nullptr;
};

TimestampFunctions LoadTimestampFunctions(const vk::Context& ctx);

// Times the commands recorded between Begin() and End() of one submission.
class GpuTimer {
 public:
  explicit GpuTimer(const vk::Context& ctx);
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  // kVulkanCallFailed when the query pool could not be created.
  Status status() const { return status_; }
  void Begin(VkCommandBuffer cmd) const;
  void End(VkCommandBuffer cmd) const;
  // After the submission completed: the milliseconds between Begin and End.
  Result<double> Milliseconds() const;

 private:
  const vk::Context& ctx_;
  TimestampFunctions t_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  Status status_;
};

}  // namespace sinew::tool
