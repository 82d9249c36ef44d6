// The sinew side of every consumer build (tests/consumer/*_host): adopt the host's device, upload
// the procedural character in the host's command buffer, deform two instances on the GPU, read
// them back and compare with the CPU reference. Each host brings its own Vulkan setup, in its own
// style (the loader's prototypes, volk, Vulkan-Hpp), and its own submission.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "sinew/cpu/skin_dense_job.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"

namespace consumer {

// Exit code for "no Vulkan device here" outside CI (ctest's SKIP_RETURN_CODE).
inline constexpr int kSkipped = 77;

inline bool RunningInCi() {
  const char* ci = std::getenv("CI");
  return ci && (std::strcmp(ci, "true") == 0 || std::strcmp(ci, "1") == 0);
}

// The host's side of a submission: record with `record` into a command buffer of the adopted
// queue family, submit it, wait. False on failure.
using RunCommands = std::function<bool(const std::function<void(VkCommandBuffer)>&)>;
// Records a copy of `bytes` from `src` at `offset` to the start of `dst`, followed by a barrier to
// host reads.
using RecordCopy = std::function<void(VkCommandBuffer, VkBuffer src, VkDeviceSize offset,
                                      VkBuffer dst, VkDeviceSize bytes)>;

// Validation messages the host's messenger received (each printed); any fails the consumer.
inline int g_validation_messages = 0;

inline VKAPI_ATTR VkBool32 VKAPI_CALL
OnValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                    const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  ++g_validation_messages;
  return VK_FALSE;
}

// A messenger for validation warnings and errors, reported to OnValidationMessage, created
// through the host's own vkGetInstanceProcAddr (an extension: the loader exports no prototype).
// Destroyed by the returned object.
class ValidationMessenger {
 public:
  ValidationMessenger(PFN_vkGetInstanceProcAddr gipa, VkInstance instance)
      : instance_(instance),
        destroy_(reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            gipa(instance, "vkDestroyDebugUtilsMessengerEXT"))) {
    VkDebugUtilsMessengerCreateInfoEXT info{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    info.pfnUserCallback = OnValidationMessage;
    reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        gipa(instance, "vkCreateDebugUtilsMessengerEXT"))(instance, &info, nullptr, &messenger_);
  }
  ValidationMessenger(const ValidationMessenger&) = delete;
  ValidationMessenger& operator=(const ValidationMessenger&) = delete;
  ~ValidationMessenger() {
    if (messenger_) destroy_(instance_, messenger_, nullptr);
  }

 private:
  VkInstance instance_;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

// The consumer's exit code: CheckSkinning's result, then 1 for any validation message.
inline int Verdict(int check_result) {
  if (check_result != 0) return check_result;
  return g_validation_messages == 0 ? 0 : 1;
}

inline int Fail(const char* what) {
  std::fprintf(stderr, "consumer: %s\n", what);
  return 1;
}

inline int CheckSkinning(const sinew::vk::AdoptInfo& info, const RunCommands& run,
                         const RecordCopy& copy) {
  auto adopted = sinew::vk::Context::Adopt(info);
  if (!adopted) return Fail(adopted.error().ToString().c_str());
  const sinew::vk::Context& ctx = **adopted;

  sinew::procedural::CharacterOptions options;
  options.vertex_count = 500;
  auto character = sinew::procedural::MakeCharacter(options);
  if (!character) return Fail(character.error().ToString().c_str());
  const sinew::Primitive* mesh = &character->mesh;
  const size_t joints = character->skeleton.joint_count();
  auto cache = sinew::vk::SkinCache::Create(ctx);
  if (!cache) return Fail(cache.error().ToString().c_str());
  sinew::vk::MeshId mesh_id;
  if (!run([&](VkCommandBuffer cmd) {
        auto added = (*cache)->AddMesh(*mesh, uint32_t(joints), cmd);
        if (added) mesh_id = *added;
      }) ||
      !(*cache)->mesh_layout(mesh_id)) {
    return Fail("upload");
  }

  constexpr uint32_t kInstances = 2;
  std::vector<sinew::Float3x4> palettes(kInstances * joints);
  std::vector<sinew::vk::InstanceId> instances;
  for (uint32_t i = 0; i < kInstances; ++i) {
    const std::span<sinew::Float3x4> palette(palettes.data() + i * joints, joints);
    if (!sinew::procedural::CrowdPalette(character->skeleton, 0.5f + i, i, palette)) {
      return Fail("pose");
    }
    auto palette_id = (*cache)->AddPalette(uint32_t(joints));
    if (!palette_id || !(*cache)->SetPalette(*palette_id, palette)) return Fail("SetPalette");
    auto instance = (*cache)->AddInstance(mesh_id, *palette_id);
    if (!instance) return Fail(instance.error().ToString().c_str());
    instances.push_back(*instance);
  }
  const VkDeviceSize bytes = mesh->positions.size() * sizeof(float);
  std::vector<sinew::vk::Buffer> per_instance;  // each instance's positions, read back
  for (uint32_t i = 0; i < kInstances; ++i) {
    auto b = ctx.CreateBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                              sinew::vk::MemoryUsage::kReadback, "consumer readback");
    if (!b) return Fail(b.error().ToString().c_str());
    per_instance.push_back(std::move(b.value()));
  }
  if (!run([&](VkCommandBuffer cmd) {
        if (!(*cache)->Record(cmd)) return;
        (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                      VK_ACCESS_TRANSFER_READ_BIT);
        for (uint32_t i = 0; i < kInstances; ++i) {
          const sinew::vk::InstanceOutputs out = (*cache)->outputs(instances[i]);
          copy(cmd, out.buffer, out.positions, per_instance[i].handle(), bytes);
        }
      }) ||
      (*cache)->frame() != 1) {
    return Fail("deform");
  }
  const float tolerance = 1e-5f * sinew::BoundsDiagonal(mesh->positions);
  std::vector<float> expected(mesh->positions.size());
  for (uint32_t i = 0; i < kInstances; ++i) {
    sinew::cpu::SkinDenseJob job = sinew::cpu::SkinDenseJobFor(
        *mesh, std::span<const sinew::Float3x4>(palettes.data() + i * joints, joints));
    job.normals = {};
    job.tangents = {};
    job.out_positions = expected;
    if (!job.Run()) return Fail("CPU reference");
    const auto* got = static_cast<const float*>(per_instance[i].mapped());
    for (size_t v = 0; v < expected.size(); ++v) {
      if (!(std::fabs(got[v] - expected[v]) <= tolerance)) {
        return Fail("GPU and CPU disagree");
      }
    }
  }
  std::printf("consumer: %u instances of %zu vertices, GPU == CPU\n", kInstances,
              mesh->vertex_count());
  return 0;
}

}  // namespace consumer
