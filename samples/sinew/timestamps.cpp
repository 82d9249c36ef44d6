#include "timestamps.h"

#include <chrono>

#include "run_until_steady.h"

namespace sinew::tool {

GpuTimer::GpuTimer(const vk::Context& ctx) : ctx_(ctx), t_(LoadVulkanCalls(ctx)) {
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  if (VkResult r = t_.vkCreateQueryPool(ctx.device(), &info, nullptr, &pool_); r != VK_SUCCESS) {
    status_ = vk::VulkanError("vkCreateQueryPool", r);
    pool_ = VK_NULL_HANDLE;
  }
}

GpuTimer::~GpuTimer() {
  if (pool_) t_.vkDestroyQueryPool(ctx_.device(), pool_, nullptr);
}

void GpuTimer::Begin(VkCommandBuffer cmd) const {
  t_.vkCmdResetQueryPool(cmd, pool_, 0, 2);
  t_.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool_, 0);
}

void GpuTimer::End(VkCommandBuffer cmd) const {
  t_.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 1);
}

Result<double> GpuTimer::Milliseconds() const {
  uint64_t stamps[2] = {};
  if (VkResult r = t_.vkGetQueryPoolResults(ctx_.device(), pool_, 0, 2, sizeof(stamps), stamps,
                                            sizeof(uint64_t),
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      r != VK_SUCCESS) {
    return vk::VulkanError("vkGetQueryPoolResults", r);
  }
  return double(stamps[1] - stamps[0]) * ctx_.properties().limits.timestampPeriod * 1e-6;
}

Result<TimedFrame> RunTimedFrame(const vk::Context& ctx, vk::SkinCache& cache,
                                 const GpuTimer& timer) {
  TimedFrame frame;
  Status recorded;
  const Status submitted = ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
    cache.RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    timer.Begin(cmd);
    const auto r0 = std::chrono::steady_clock::now();
    recorded = cache.Record(cmd);
    frame.record_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - r0).count();
    timer.End(cmd);
    cache.RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  });
  if (!submitted) return submitted;
  if (!recorded) return recorded;
  auto ms = timer.Milliseconds();
  if (!ms) return ms.status();
  frame.gpu_ms = *ms;
  return frame;
}

Status SettleFrames(const vk::Context& ctx, vk::SkinCache& cache, const GpuTimer& timer) {
  if (ctx.cpu_device()) return {};  // no clocks to bring up
  return RunUntilSteady(
      [&]() -> Result<double> {
        auto frame = RunTimedFrame(ctx, cache, timer);
        if (!frame) return frame.status();
        return frame->gpu_ms;
      },
      50.0, 1000.0);
}

}  // namespace sinew::tool
