#include "sinew/vk/readback.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "functions.h"
#include "sinew/core/vertex_formats.h"

namespace sinew::vk {

Result<std::vector<float>> ReadFloats(const Context& context, VkBuffer buffer, VkDeviceSize offset,
                                      VkDeviceSize size) {
  if (buffer == VK_NULL_HANDLE) {
    return ErrorInfo{Error::kInvalidArgument, "no buffer to read", "buffer", 0};
  }
  if (size == 0 || size % sizeof(float) != 0) {
    return ErrorInfo{Error::kInvalidArgument, "size must be a positive multiple of 4", "size", 0};
  }
  auto staging = context.CreateBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                      MemoryUsage::kReadback, "sinew readback");
  if (!staging) return staging.status();
  Status s = context.SubmitAndWait([&](VkCommandBuffer cmd) {
    const detail::Functions& t = detail::Fn(context);
    // Order earlier shader writes (e.g. a SkinCache::Record in an earlier submission) before the
    // copy.
    VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    t.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           0, 1, &before, 0, nullptr, 0, nullptr);
    VkBufferCopy region{offset, 0, size};
    t.vkCmdCopyBuffer(cmd, buffer, staging->handle(), 1, &region);
    VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    t.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                           &after, 0, nullptr, 0, nullptr);
  });
  if (!s) return s;
  std::vector<float> out(size / sizeof(float));
  std::memcpy(out.data(), staging->mapped(), size);
  return out;
}

namespace {

// `count` vertices' `per_vertex` 32-bit values (floats, or packed words) from `from`, `stride`
// bytes apart, into `to`.
template <typename Word>
void Gather(std::span<const uint8_t> from, size_t count, uint32_t per_vertex, uint32_t stride,
            std::vector<Word>* to) {
  to->resize(count * per_vertex);
  for (size_t i = 0; i < count; ++i) {
    std::memcpy(to->data() + i * per_vertex, from.data() + i * stride, per_vertex * sizeof(Word));
  }
}

}  // namespace

OutputRange InstanceOutputRange(const InstanceOutputs& out) {
  if (out.vertex_count == 0) return {};
  const VkDeviceSize last = out.vertex_count - 1;
  VkDeviceSize begin = out.positions, end = out.positions + last * out.positions_stride + 12;
  const auto include = [&](VkDeviceSize offset, uint32_t bytes, uint32_t stride) {
    begin = std::min(begin, offset);
    end = std::max(end, offset + last * stride + bytes);
  };
  if (out.has_normals) include(out.normals, NormalBytes(out.directions), out.normals_stride);
  if (out.has_tangents) include(out.tangents, TangentBytes(out.directions), out.tangents_stride);
  return {begin, end - begin};
}

Result<cpu::DeformedPrimitive> DecodeInstanceOutputs(const InstanceOutputs& out,
                                                     std::span<const uint8_t> bytes) {
  if (out.vertex_count == 0) return Status{Error::kInvalidHandle, "no such instance", "instance"};
  const OutputRange range = InstanceOutputRange(out);
  if (bytes.size() != range.size) {
    return Status{Error::kSizeMismatch,
                  std::to_string(bytes.size()) + " bytes, but the instance's outputs span " +
                      std::to_string(range.size),
                  "bytes"};
  }
  const size_t v = out.vertex_count;
  const auto gather = [&]<typename Word>(std::vector<Word>* words, VkDeviceSize offset,
                                         uint32_t per_vertex, uint32_t stride) {
    Gather(bytes.subspan(offset - range.offset), v, per_vertex, stride, words);
  };
  cpu::DeformedPrimitive result;
  gather(&result.positions, out.positions, 3, out.positions_stride);
  const DirectionFormat format = out.directions;
  // A direction stream: `components` floats a vertex, or one packed word each that `decode` turns
  // into them.
  const auto directions = [&](VkDeviceSize offset, uint32_t stride, uint32_t components,
                              auto decode) {
    std::vector<float> floats;
    if (format == DirectionFormat::kFloat32) {
      gather(&floats, offset, components, stride);
      return floats;
    }
    std::vector<uint32_t> words;
    gather(&words, offset, 1, stride);
    floats.resize(v * components);
    for (size_t i = 0; i < v; ++i) {
      const auto direction = decode(words[i], format);
      std::memcpy(&floats[i * components], &direction, sizeof(direction));
    }
    return floats;
  };
  if (out.has_normals) {
    result.normals = directions(out.normals, out.normals_stride, 3, DecodeNormal);
  }
  if (out.has_tangents) {
    result.tangents = directions(out.tangents, out.tangents_stride, 4, DecodeTangent);
  }
  return result;
}

Result<cpu::DeformedPrimitive> ReadInstanceOutputs(const Context& context, const SkinCache& cache,
                                                   InstanceId instance) {
  const InstanceOutputs out = cache.outputs(instance);
  if (out.vertex_count == 0) return Status{Error::kInvalidHandle, "no such instance", "instance"};
  if (!out.deformed) {
    return Status{Error::kInvalidArgument,
                  "the instance has no outputs yet: no Record() has deformed it", "instance"};
  }
  // The range is whole words: every offset, stride and element size is a multiple of 4.
  const OutputRange range = InstanceOutputRange(out);
  auto words = ReadFloats(context, out.buffer, range.offset, range.size);
  if (!words) return words.status();
  return DecodeInstanceOutputs(
      out, std::span(reinterpret_cast<const uint8_t*>(words->data()), range.size));
}

}  // namespace sinew::vk
