// Copying GPU buffers back to the host: for the tool, tests and baking on headless contexts, which
// submit the copy themselves; and for an engine (adopt mode), which copies an instance's
// InstanceOutputRange in its own command buffer and decodes the bytes with DecodeInstanceOutputs.
#pragma once

#include <cstdint>
#include <span>
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
// TRANSFER_READ. kInvalidHandle; kInvalidArgument for an instance no Record() has deformed yet;
// ReadFloats' errors. (InstanceOutputRange, copied, then
// DecodeInstanceOutputs.)
Result<cpu::DeformedPrimitive> ReadInstanceOutputs(const Context& context, const SkinCache& cache,
                                                   InstanceId instance);

// The bytes of `out.buffer` that hold an instance's positions, normals and tangents (whatever
// lies between them included): from `offset`, `size` bytes. Size 0 for an instance that is not.
struct OutputRange {
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
};
OutputRange InstanceOutputRange(const InstanceOutputs& out);

// The outputs `out` describes, from `bytes`: a copy of InstanceOutputRange(out) of out.buffer
// (for instance by vkCmdCopyBuffer after SkinCache::RecordOutputBarrier to TRANSFER_READ). Float
// xyz positions, and xyz normals and xyzw tangents where the mesh has them, decoded from packed
// formats, as ReadInstanceOutputs returns them. kInvalidHandle for an instance that is not
// (vertex_count 0); kSizeMismatch (where "bytes") when `bytes` is not the range's size.
Result<cpu::DeformedPrimitive> DecodeInstanceOutputs(const InstanceOutputs& out,
                                                     std::span<const uint8_t> bytes);

}  // namespace sinew::vk
