// Queue family ownership transfers of sinew's buffers, for hosts that upload on a transfer queue
// or skin on an async compute queue and draw on a graphics queue (docs/embedding.md).
//
// A buffer created with VK_SHARING_MODE_EXCLUSIVE (all of sinew's) belongs to one queue family at
// a time. Moving it takes two barriers with the same families and range: a *release* recorded on
// the family that last used it, then, after a semaphore orders the two submissions, an *acquire*
// recorded on the family that uses it next. With both families equal there is no transfer: these
// helpers return and record nothing, and an ordinary barrier (e.g. SkinCache::RecordOutputBarrier)
// is what the host records instead.
#pragma once

#include <vulkan/vulkan_core.h>

#include <span>
#include <vector>

#include "sinew/vk/context.h"

namespace sinew::vk {

struct OwnershipTransfer {
  uint32_t src_family = VK_QUEUE_FAMILY_IGNORED;  // The family that last wrote or read the buffers.
  uint32_t dst_family = VK_QUEUE_FAMILY_IGNORED;  // The family that uses them next.
  std::span<const VkBuffer> buffers;              // Whole buffers move.
};

// The barriers of the release half: the source stage's writes (`src_access`) made available;
// the destination access is not part of a release (0). One per buffer.
std::vector<VkBufferMemoryBarrier> ReleaseBarriers(const OwnershipTransfer& transfer,
                                                   VkAccessFlags src_access);
// The barriers of the acquire half: made visible to `dst_access`; the source access is 0.
std::vector<VkBufferMemoryBarrier> AcquireBarriers(const OwnershipTransfer& transfer,
                                                   VkAccessFlags dst_access);

// Records the release into `cmd`, a command buffer of transfer.src_family: from `src_stage` to
// BOTTOM_OF_PIPE (a release waits for nothing after it).
void RecordRelease(const Context& context, VkCommandBuffer cmd, const OwnershipTransfer& transfer,
                   VkPipelineStageFlags src_stage, VkAccessFlags src_access);
// Records the acquire into `cmd`, a command buffer of transfer.dst_family: from TOP_OF_PIPE (the
// semaphore wait orders it) to `dst_stage`.
void RecordAcquire(const Context& context, VkCommandBuffer cmd, const OwnershipTransfer& transfer,
                   VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

}  // namespace sinew::vk
