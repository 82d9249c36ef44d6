// Copying GPU buffers back to the host (headless contexts): for the tool, tests and baking.
#pragma once

#include <vector>

#include "sinew/core/error.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"

namespace sinew::vk {

// Copies `size` bytes at `offset` of `buffer` (which needs TRANSFER_SRC usage and whose last
// writes must be complete or ordered before this submission on the same queue) into host memory as
// floats. `size` must be a multiple of 4. kNotAllowedInAdoptMode on an adopted context.
Result<std::vector<float>> ReadFloats(const Context& context, VkBuffer buffer, VkDeviceSize offset,
                                      VkDeviceSize size);

// The outputs of the last Record() that deformed `instance` of `cache` (positions, and normals and
// tangents where its mesh has them, decoded to floats from packed formats), read back; the Record's
// submission must have completed and been followed by an output barrier to TRANSFER /
// TRANSFER_READ. kInvalidHandle, and ReadFloats' errors.
Result<cpu::DeformedPrimitive> ReadInstanceOutputs(const Context& context, const SkinCache& cache,
                                                   InstanceId instance);

}  // namespace sinew::vk
