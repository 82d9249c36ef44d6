#include "sinew/vk/readback.h"

#include <cstring>

#include "functions.h"
#include "sinew/core/vertex_formats.h"

namespace sinew::vk {

Result<std::vector<float>> ReadFloats(const Context& context, VkBuffer buffer, VkDeviceSize offset,
                                      VkDeviceSize size) {
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

Result<cpu::DeformedPrimitive> ReadInstanceOutputs(const Context& context, const SkinCache& cache,
                                                   InstanceId instance) {
  const InstanceOutputs out = cache.outputs(instance);
  if (out.vertex_count == 0) return Status{Error::kInvalidHandle, "no such instance", "instance"};
  const VkDeviceSize v = out.vertex_count;
  // A stream's `bytes` per vertex, `stride` apart from `offset`, gathered into `to` as 32-bit
  // words (floats, or packed words decoded below).
  const auto read = [&](VkDeviceSize offset, uint32_t bytes, uint32_t stride,
                        std::vector<float>* to) {
    auto words = ReadFloats(context, out.buffer, offset, (v - 1) * stride + bytes);
    if (!words) return words.status();
    const uint32_t per_vertex = bytes / 4, step = stride / 4;
    to->resize(v * per_vertex);
    for (VkDeviceSize i = 0; i < v; ++i) {
      std::memcpy(to->data() + i * per_vertex, words->data() + i * step, bytes);
    }
    return Status{};
  };
  cpu::DeformedPrimitive result;
  if (Status s = read(out.positions, 12, out.positions_stride, &result.positions); !s) return s;
  const DirectionFormat format = out.directions;
  if (out.has_normals) {
    if (Status s = read(out.normals, NormalBytes(format), out.normals_stride, &result.normals);
        !s) {
      return s;
    }
  }
  if (out.has_tangents) {
    if (Status s = read(out.tangents, TangentBytes(format), out.tangents_stride, &result.tangents);
        !s) {
      return s;
    }
  }
  if (format == DirectionFormat::kFloat32) return result;
  // One packed word per vertex: decoded to float xyz and xyzw.
  const auto words = [](const std::vector<float>& packed) {
    std::vector<uint32_t> w(packed.size());
    std::memcpy(w.data(), packed.data(), packed.size() * sizeof(float));
    return w;
  };
  const std::vector<uint32_t> normals = words(result.normals), tangents = words(result.tangents);
  result.normals.assign(normals.size() * 3, 0.0f);
  for (size_t i = 0; i < normals.size(); ++i) {
    const Float3 n = DecodeNormal(normals[i], format);
    std::memcpy(&result.normals[i * 3], &n, sizeof(n));
  }
  result.tangents.assign(tangents.size() * 4, 0.0f);
  for (size_t i = 0; i < tangents.size(); ++i) {
    const Float4 t = DecodeTangent(tangents[i], format);
    std::memcpy(&result.tangents[i * 4], &t, sizeof(t));
  }
  return result;
}

}  // namespace sinew::vk
