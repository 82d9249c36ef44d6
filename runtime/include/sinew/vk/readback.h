// Copying GPU buffers back to the host (headless contexts): for the tool, tests and baking.
#pragma once

#include <vector>

#include "sinew/core/error.h"
#include "sinew/vk/context.h"

namespace sinew::vk {

// Copies `size` bytes at `offset` of `buffer` (which needs TRANSFER_SRC usage and whose last
// writes must be complete or ordered before this submission on the same queue) into host memory as
// floats. `size` must be a multiple of 4. kNotAllowedInAdoptMode on an adopted context.
Result<std::vector<float>> ReadFloats(const Context& context, VkBuffer buffer, VkDeviceSize offset,
                                      VkDeviceSize size);

}  // namespace sinew::vk
