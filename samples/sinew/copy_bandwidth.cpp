#include "copy_bandwidth.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "copy_bandwidth.spv.h"
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

Result<CopyBandwidth> MeasureCopyBandwidth(const vk::Context& ctx, VkDeviceSize bytes,
                                           int repeats) {
  if (!ctx.buffer_device_address()) {
    return Status(Error::kFeatureNotEnabled, "the copy kernel needs buffer device addresses");
  }
  bytes = std::min<VkDeviceSize>(bytes, ctx.properties().limits.maxStorageBufferRange) & ~15ull;
  const VkBufferUsageFlags usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
      VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto source = ctx.CreateBuffer(bytes, usage, vk::MemoryUsage::kDeviceLocal, "bench copy source");
  if (!source) return source.status();
  auto destination =
      ctx.CreateBuffer(bytes, usage, vk::MemoryUsage::kDeviceLocal, "bench copy destination");
  if (!destination) return destination.status();
  const VulkanCalls f = LoadVulkanCalls(ctx);
  CopyPipeline pipeline(ctx, f);
  if (Status s = pipeline.Create(); !s) return s;
  CopyPush push;
  VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address.buffer = source->handle();
  push.source = f.vkGetBufferDeviceAddress(ctx.device(), &address);
  address.buffer = destination->handle();
  push.destination = f.vkGetBufferDeviceAddress(ctx.device(), &address);
  push.word_count = uint32_t(bytes / 16);

  GpuTimer timer(ctx);
  if (!timer.status()) return timer.status();
  std::vector<double> ms;
  for (int i = 0; i <= repeats; ++i) {  // the first copy, after the source is filled, is untimed
    const Status s = ctx.SubmitAndWait([&](VkCommandBuffer cmd) {
      if (i == 0) {
        f.vkCmdFillBuffer(cmd, source->handle(), 0, VK_WHOLE_SIZE, kPattern);
        RecordBarrier(f, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
      } else {
        // The previous copy's writes come before this one's (write-after-write).
        RecordBarrier(f, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
      }
      timer.Begin(cmd);
      pipeline.Record(cmd, push);
      timer.End(cmd);
      if (i == repeats) {
        RecordBarrier(f, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      }
    });
    if (!s) return s;
    auto t = timer.Milliseconds();
    if (!t) return t.status();
    if (i > 0) ms.push_back(*t);
  }
  if (Status s = CheckCopied(ctx, *destination); !s) return s;
  std::nth_element(ms.begin(), ms.begin() + ptrdiff_t(ms.size() / 2), ms.end());
  const double median = ms[ms.size() / 2];
  CopyBandwidth out;
  out.bytes = bytes;
  out.gb_per_s = median > 0 ? 2.0 * double(bytes) / (median * 1e6) : 0.0;
  return out;
}

}  // namespace sinew::tool
