#include "copy_bandwidth.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.h"
#include "copy_bandwidth.spv.h"
#include "run_until_steady.h"
#include "sinew/vk/readback.h"
#include "timestamps.h"
#include "vulkan_calls.h"

namespace sinew::tool {
namespace {

// shaders/copy_bandwidth.comp's push constants.
struct CopyPush {
  VkDeviceAddress source = 0;
  VkDeviceAddress destination = 0;
  uint32_t word_count = 0;
  uint32_t unused = 0;
};

// What the source is filled with, and what the destination must hold afterwards.
constexpr uint32_t kPattern = 0xa5c3e187u;

// A global memory dependency from `src` to `dst` within the submission.
void RecordBarrier(const VulkanCalls& f, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                   VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                   VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  f.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// The destination's first and last 16 bytes hold the pattern: the kernel copied from the first
// word to the last. kVulkanCallFailed otherwise.
Status CheckCopied(const vk::Context& ctx, const vk::Buffer& destination) {
  for (VkDeviceSize offset : {VkDeviceSize(0), destination.size() - 16}) {
    auto words = vk::ReadFloats(ctx, destination.handle(), offset, 16);
    if (!words) return words.status();
    for (float w : *words) {
      uint32_t bits = 0;
      std::memcpy(&bits, &w, sizeof(bits));
      if (bits != kPattern) {
        return Status(Error::kVulkanCallFailed, "the copy kernel left byte " +
                                                    std::to_string(offset) +
                                                    " of its destination unwritten");
      }
    }
  }
  return {};
}

// A timed batch of copies lasts about this long (at least one copy, at most kMaxBatch).
constexpr double kBatchMs = 20.0;
constexpr uint32_t kMaxBatch = 64;
// Copies per submission while warming up.
constexpr uint32_t kWarmUpBatch = 16;

constexpr uint32_t kWorkgroupSize = 256;    // local_size_x of the shader
constexpr uint32_t kMaxWorkgroups = 65535;  // the least maxComputeWorkGroupCount[0] Vulkan allows

// The copy kernel's pipeline and layout, destroyed with it.
class CopyPipeline {
 public:
  CopyPipeline(const vk::Context& ctx, const VulkanCalls& f) : ctx_(ctx), f_(f) {}
  ~CopyPipeline() {
    if (pipeline_) f_.vkDestroyPipeline(ctx_.device(), pipeline_, ctx_.allocator());
    if (layout_) f_.vkDestroyPipelineLayout(ctx_.device(), layout_, ctx_.allocator());
  }
  CopyPipeline(const CopyPipeline&) = delete;
  CopyPipeline& operator=(const CopyPipeline&) = delete;

  Status Create() {
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = sizeof(sinew_spv_copy_bandwidth);
    module_info.pCode = sinew_spv_copy_bandwidth;
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r =
            f_.vkCreateShaderModule(ctx_.device(), &module_info, ctx_.allocator(), &module);
        r != VK_SUCCESS) {
      return vk::VulkanError("vkCreateShaderModule", r);
    }
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(CopyPush)};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &range;
    VkResult r = f_.vkCreatePipelineLayout(ctx_.device(), &layout_info, ctx_.allocator(), &layout_);
    if (r == VK_SUCCESS) {
      VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
      info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
      info.stage.module = module;
      info.stage.pName = "main";
      info.layout = layout_;
      r = f_.vkCreateComputePipelines(ctx_.device(), VK_NULL_HANDLE, 1, &info, ctx_.allocator(),
                                      &pipeline_);
      if (r != VK_SUCCESS) pipeline_ = VK_NULL_HANDLE;
    } else {
      layout_ = VK_NULL_HANDLE;
    }
    f_.vkDestroyShaderModule(ctx_.device(), module, ctx_.allocator());
    if (r != VK_SUCCESS) return vk::VulkanError("creating the copy pipeline", r);
    return {};
  }

  void Record(VkCommandBuffer cmd, const CopyPush& push) const {
    f_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    f_.vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    const uint32_t groups = uint32_t(std::min<uint64_t>(
        (uint64_t(push.word_count) + kWorkgroupSize - 1) / kWorkgroupSize, kMaxWorkgroups));
    f_.vkCmdDispatch(cmd, groups, 1, 1);
  }

 private:
  const vk::Context& ctx_;
  const VulkanCalls& f_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

struct CopyKernel::State {
  State(const vk::Context& c) : ctx(c), f(LoadVulkanCalls(c)), pipeline(c, f), timer(c) {}
  const vk::Context& ctx;
  VulkanCalls f;
  CopyPipeline pipeline;
  GpuTimer timer;
  vk::Buffer source;
  vk::Buffer destination;
  CopyPush push;
  bool filled = false;
};

CopyKernel::CopyKernel() = default;
CopyKernel::~CopyKernel() = default;

Result<std::unique_ptr<CopyKernel>> CopyKernel::Create(const vk::Context& ctx, VkDeviceSize bytes) {
  if (!ctx.buffer_device_address()) {
    return Status(Error::kFeatureNotEnabled, "the copy kernel needs buffer device addresses");
  }
  bytes = std::min<VkDeviceSize>(bytes, ctx.properties().limits.maxStorageBufferRange) & ~15ull;
  std::unique_ptr<CopyKernel> kernel(new CopyKernel);
  kernel->state_ = std::make_unique<State>(ctx);
  State& k = *kernel->state_;
  if (!k.timer.status()) return k.timer.status();
  const VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
      VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto source = ctx.CreateBuffer(bytes, usage, vk::MemoryUsage::kDeviceLocal, "bench copy source");
  if (!source) return source.status();
  auto destination =
      ctx.CreateBuffer(bytes, usage, vk::MemoryUsage::kDeviceLocal, "bench copy destination");
  if (!destination) return destination.status();
  k.source = std::move(*source);
  k.destination = std::move(*destination);
  if (Status s = k.pipeline.Create(); !s) return s;
  VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address.buffer = k.source.handle();
  k.push.source = k.f.vkGetBufferDeviceAddress(ctx.device(), &address);
  address.buffer = k.destination.handle();
  k.push.destination = k.f.vkGetBufferDeviceAddress(ctx.device(), &address);
  k.push.word_count = uint32_t(bytes / 16);
  return kernel;
}

VkDeviceSize CopyKernel::bytes() const { return state_->source.size(); }

Result<double> CopyKernel::Run(uint32_t copies) {
  State& k = *state_;
  const Status s = k.ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
    if (!k.filled) {
      k.f.vkCmdFillBuffer(cmd, k.source.handle(), 0, VK_WHOLE_SIZE, kPattern);
      RecordBarrier(k.f, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    }
    // An earlier copy's writes (or reads of the destination) come before this one's.
    RecordBarrier(k.f, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT);
    k.timer.Begin(cmd);
    for (uint32_t i = 0; i < copies; ++i) {
      if (i > 0) {
        RecordBarrier(k.f, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
      }
      k.pipeline.Record(cmd, k.push);
    }
    k.timer.End(cmd);
    RecordBarrier(k.f, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  });
  if (!s) return s;
  k.filled = true;
  return k.timer.Milliseconds();
}

Status CopyKernel::WarmUp(double min_ms, double max_ms) {
  return RunUntilSteady([&] { return Run(kWarmUpBatch); }, min_ms, max_ms);
}

namespace {

// (read + written) bytes over a copy of `bytes` that took `ms`.
double CopyGbPerS(VkDeviceSize bytes, double ms) {
  return ms > 0 ? 2.0 * double(bytes) / (ms * 1e6) : 0.0;
}

}  // namespace

Result<CopyBandwidth> CopyKernel::Measure(int batches) {
  auto first = Run(1);  // untimed: fills the source, and sizes the batches
  if (!first) return first.status();
  const uint32_t copies =
      uint32_t(std::clamp(kBatchMs / std::max(*first, 1e-3), 1.0, double(kMaxBatch)));
  std::vector<double> per_copy;
  for (int i = 0; i < std::max(batches, 1); ++i) {
    auto t = Run(copies);
    if (!t) return t.status();
    per_copy.push_back(*t / copies);
  }
  if (Status s = CheckCopied(state_->ctx, state_->destination); !s) return s;
  CopyBandwidth out;
  out.bytes = bytes();
  out.copies_per_batch = copies;
  out.gb_per_s = CopyGbPerS(out.bytes, Median(per_copy));
  return out;
}

Result<CopyBandwidth> CopyKernel::MeasureOneDispatch(VkDeviceSize moved, int runs) {
  State& k = *state_;
  const uint32_t all_words = k.push.word_count;
  const uint32_t words = uint32_t(std::clamp<VkDeviceSize>(moved / 32, 1, all_words));
  k.push.word_count = words;
  std::vector<double> times;
  Status status;
  for (int i = 0; i < std::max(runs, 1) && status; ++i) {
    auto t = Run(1);
    if (t) {
      times.push_back(*t);
    } else {
      status = t.status();
    }
  }
  k.push.word_count = all_words;
  if (!status) return status;
  CopyBandwidth out;
  out.bytes = VkDeviceSize(words) * 16;
  out.copies_per_batch = 1;
  out.gb_per_s = CopyGbPerS(out.bytes, Median(times));
  return out;
}

}  // namespace sinew::tool
