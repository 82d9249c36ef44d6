// Timing on the GPU: a two-query timestamp pool to time one stretch of a command buffer, and one
// timed SkinCache frame.
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/core/error.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"
#include "vulkan_calls.h"

namespace sinew::tool {

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
  VulkanCalls t_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  Status status_;
};

// What one frame cost: the GPU's time for the cache's dispatches and the CPU's to record them.
struct TimedFrame {
  double gpu_ms = 0;
  double record_us = 0;
};

// One frame of `cache` as the benchmarks run it: recorded between the cache's reuse and output
// barriers (a transfer reads the outputs afterwards), timed by `timer`, submitted and waited for.
Result<TimedFrame> RunTimedFrame(const vk::Context& ctx, vk::SkinCache& cache,
                                 const GpuTimer& timer);

// On a hardware GPU (not vk::Context::cpu_device(); on a CPU device it returns at once), runs
// frames of `cache` untimed, as they are (the palettes and weights last set), for at least 50 ms
// and until two in a row take the GPU the same time within 3 %, for at most a second: the steady
// state of an engine's back-to-back frames, before a benchmark times any. On an H200 the first
// 10-50 ms of frames could run up to 3.5x slower than the rest, although a copy kernel had just
// brought the clocks up (BENCHMARKS.md).
Status SettleFrames(const vk::Context& ctx, vk::SkinCache& cache, const GpuTimer& timer);

}  // namespace sinew::tool
