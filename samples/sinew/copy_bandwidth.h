// The bandwidth `sinew bench` holds the skinning kernels to: a plain copy kernel
// (shaders/copy_bandwidth.comp) moving a buffer of `bytes` to another on the bench's device,
// timed with timestamps. The figure counts the bytes read and the bytes written, as the bench's
// GB/s column counts a kernel's bytes per vertex.
#pragma once

#include <vulkan/vulkan_core.h>

#include "sinew/core/error.h"
#include "sinew/vk/context.h"

namespace sinew::tool {

struct CopyBandwidth {
  double gb_per_s = 0;     // (read + written) bytes / median time of the timed copies
  VkDeviceSize bytes = 0;  // size of each buffer
};

// Copies `bytes` (rounded down to 16; at most the device's maxStorageBufferRange) `repeats` times
// after one untimed copy; the median. The copy is checked: the destination's first and last words
// must hold what the source was filled with (kVulkanCallFailed otherwise). kFeatureNotEnabled when
// the Context has no buffer device addresses; kVulkanCallFailed and the buffer errors as they come.
Result<CopyBandwidth> MeasureCopyBandwidth(const vk::Context& ctx, VkDeviceSize bytes,
                                           int repeats = 7);

}  // namespace sinew::tool
