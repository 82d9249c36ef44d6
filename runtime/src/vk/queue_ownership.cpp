#include "sinew/vk/queue_ownership.h"

#include "functions.h"

namespace sinew::vk {
namespace {

std::vector<VkBufferMemoryBarrier> Barriers(const OwnershipTransfer& transfer,
                                            VkAccessFlags src_access, VkAccessFlags dst_access) {
  std::vector<VkBufferMemoryBarrier> out;
  if (transfer.src_family == transfer.dst_family) return out;  // No transfer: nothing to record.
  out.reserve(transfer.buffers.size());
  for (VkBuffer buffer : transfer.buffers) {
    if (!buffer) continue;
    VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    b.srcQueueFamilyIndex = transfer.src_family;
    b.dstQueueFamilyIndex = transfer.dst_family;
    b.buffer = buffer;
    b.offset = 0;
    b.size = VK_WHOLE_SIZE;
    out.push_back(b);
  }
  return out;
}

void Record(const Context& context, VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
            VkPipelineStageFlags dst_stage, const std::vector<VkBufferMemoryBarrier>& barriers) {
  if (barriers.empty()) return;
  detail::Fn(context).vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, nullptr,
                                           static_cast<uint32_t>(barriers.size()), barriers.data(),
                                           0, nullptr);
}

}  // namespace

std::vector<VkBufferMemoryBarrier> ReleaseBarriers(const OwnershipTransfer& transfer,
                                                   VkAccessFlags src_access) {
  return Barriers(transfer, src_access, 0);
}

std::vector<VkBufferMemoryBarrier> AcquireBarriers(const OwnershipTransfer& transfer,
                                                   VkAccessFlags dst_access) {
  return Barriers(transfer, 0, dst_access);
}

void RecordRelease(const Context& context, VkCommandBuffer cmd, const OwnershipTransfer& transfer,
                   VkPipelineStageFlags src_stage, VkAccessFlags src_access) {
  Record(context, cmd, src_stage, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
         ReleaseBarriers(transfer, src_access));
}

void RecordAcquire(const Context& context, VkCommandBuffer cmd, const OwnershipTransfer& transfer,
                   VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  Record(context, cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, dst_stage,
         AcquireBarriers(transfer, dst_access));
}

}  // namespace sinew::vk
