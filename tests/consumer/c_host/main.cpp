// A host engine written against Vulkan's C API, with the validation layer and its
// synchronization validation on, adopting its device into sinew. Built twice (CMakeLists.txt):
// calling the loader's prototypes, or volk's global pointers. In the volk build sinew's headers
// come first, before volk.h, and must leave volk's declarations working.
#include "skin_check.h"

#ifdef SINEW_CONSUMER_VOLK
#include <volk.h>
#else
#ifdef VK_NO_PROTOTYPES
#error "sinew must not change the host's Vulkan declarations (VK_NO_PROTOTYPES leaked)"
#endif
#include <vulkan/vulkan.h>

#include "headless_snippet.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/loader/file.h"
#include "sinew/loader/load_asset.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

bool HasValidationLayer() {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& l : layers) {
    if (std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0) return true;
  }
  return false;
}

int NoDevice(const char* what) {
  return consumer::RunningInCi() ? consumer::Fail(what) : consumer::kSkipped;
}

#ifndef SINEW_CONSUMER_VOLK
// docs/embedding.md's headless snippet (sinew's own Context) on CesiumMan half a second into its
// clip, against the CPU reference of the same primitive: positions within 1e-5 of the mesh's
// extent, normals within 1e-5.
int CheckHeadless() {
  const std::filesystem::path path = SINEW_CONSUMER_ASSET;
  const float time = 0.5f;
  sinew::cpu::DeformedPrimitive gpu;
  if (!HeadlessSnippet(path, time, &gpu)) return consumer::Fail("the headless snippet");
  auto file = sinew::loader::LoadAsset(path);
  if (!file) return consumer::Fail("LoadAsset");
  const sinew::Asset& asset = file->loaded.asset;
  auto scene = sinew::cpu::EvaluateScene(asset, 0, time);
  if (!scene) return consumer::Fail("EvaluateScene");
  const uint32_t node = sinew::cpu::DrawnMeshes(asset).at(0).node;
  auto palette = sinew::cpu::NodePalette(asset, node, scene->world);
  if (!palette) return consumer::Fail("NodePalette");
  sinew::cpu::DeformedPrimitive cpu;
  if (!sinew::cpu::DeformPrimitive(asset, node, 0, scene->world, scene->pose.weights[node],
                                   *palette, &cpu)) {
    return consumer::Fail("DeformPrimitive");
  }
  if (gpu.positions.size() != cpu.positions.size() || gpu.normals.size() != cpu.normals.size() ||
      cpu.positions.empty()) {
    return consumer::Fail("headless outputs sized unlike the CPU reference's");
  }
  float low = cpu.positions[0], high = low, position_error = 0, normal_error = 0;
  for (size_t i = 0; i < cpu.positions.size(); ++i) {
    low = std::min(low, cpu.positions[i]);
    high = std::max(high, cpu.positions[i]);
    position_error = std::max(position_error, std::abs(gpu.positions[i] - cpu.positions[i]));
  }
  for (size_t i = 0; i < cpu.normals.size(); ++i) {
    normal_error = std::max(normal_error, std::abs(gpu.normals[i] - cpu.normals[i]));
  }
  std::printf("headless snippet: %zu vertices, position error %.3g (extent %.3g), normal %.3g\n",
              cpu.positions.size() / 3, double(position_error), double(high - low),
              double(normal_error));
  if (position_error > 1e-5f * (high - low) || normal_error > 1e-5f) {
    return consumer::Fail("headless outputs differ from the CPU reference");
  }
  return 0;
}

// docs/embedding.md's file reader: the asset served from memory under a path the file system does
// not have, as an engine's archive would, loads as from disk.
int CheckFileReader() {
  const std::filesystem::path path = SINEW_CONSUMER_ASSET;
  auto bytes = sinew::loader::ReadFile(path);
  auto from_disk = sinew::loader::LoadAsset(path);
  if (!bytes || !from_disk) return consumer::Fail("ReadFile / LoadAsset");
  const std::filesystem::path archived = "/sinew-consumer-archive/CesiumMan.glb";
  sinew::loader::AssetOptions options;
  options.read_file =
      [&](const std::filesystem::path& asked) -> sinew::Result<sinew::loader::FileBytes> {
    if (asked != archived) {
      return sinew::ErrorInfo{sinew::Error::kFileNotFound, "not archived", asked.string(), 0};
    }
    return sinew::loader::FileBytesOf(std::span(bytes->data(), bytes->size));
  };
  auto archived_file = sinew::loader::LoadAsset(archived, options);
  if (!archived_file) return consumer::Fail("LoadAsset through a FileReader");
  if (archived_file->loaded.asset.meshes[0].primitives[0].positions !=
      from_disk->loaded.asset.meshes[0].primitives[0].positions) {
    return consumer::Fail("an asset read through a FileReader differs from the one on disk");
  }
  std::printf("file reader: %s loaded as from disk\n", archived.string().c_str());
  return 0;
}
#endif

}  // namespace

int main() {
#ifdef SINEW_CONSUMER_VOLK
  if (volkInitialize() != VK_SUCCESS) return NoDevice("volkInitialize");
#else
  // The loader part links and reports errors as values.
  if (sinew::loader::ReadFile("/nonexistent/sinew-consumer").code() !=
      sinew::Error::kFileNotFound) {
    return consumer::Fail("ReadFile");
  }
  if (const int failed = CheckFileReader(); failed != 0) return failed;
#endif
  const bool validation = HasValidationLayer();
  if (!validation && consumer::RunningInCi()) return consumer::Fail("no validation layer in CI");
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                              VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  if (validation) {
    instance_info.pNext = &features;
    instance_info.enabledLayerCount = 1;
    instance_info.ppEnabledLayerNames = &layer;
    instance_info.enabledExtensionCount = 2;
    instance_info.ppEnabledExtensionNames = extensions;
  }
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&instance_info, nullptr, &instance) != VK_SUCCESS) {
    return NoDevice("vkCreateInstance");
  }
#ifdef SINEW_CONSUMER_VOLK
  volkLoadInstance(instance);
#endif
  std::unique_ptr<consumer::ValidationMessenger> messenger;
  if (validation) {
    messenger = std::make_unique<consumer::ValidationMessenger>(vkGetInstanceProcAddr, instance);
  }
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (count == 0) return NoDevice("no Vulkan device");
  std::vector<VkPhysicalDevice> gpus(count);
  vkEnumeratePhysicalDevices(instance, &count, gpus.data());
  const VkPhysicalDevice gpu = gpus[0];
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &family_count, families.data());
  uint32_t family = 0;
  while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  VkDevice device = VK_NULL_HANDLE;
  if (vkCreateDevice(gpu, &device_info, nullptr, &device) != VK_SUCCESS) {
    return consumer::Fail("vkCreateDevice");
  }
#ifdef SINEW_CONSUMER_VOLK
  volkLoadDevice(device);  // volk's globals now point at this device's functions
#endif
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, family, 0, &queue);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = family;
  VkCommandPool pool = VK_NULL_HANDLE;
  vkCreateCommandPool(device, &pool_info, nullptr, &pool);

  sinew::vk::AdoptInfo info;
  info.get_instance_proc_addr = vkGetInstanceProcAddr;  // the loader's, or volk's pointer
#ifdef SINEW_CONSUMER_VOLK
  info.get_device_proc_addr = vkGetDeviceProcAddr;  // volk's too
#endif
  info.instance = instance;
  info.physical_device = gpu;
  info.device = device;
  info.queue_family = family;
  info.queue = queue;
  info.debug_utils = validation;
  const int result = consumer::CheckSkinning(
      info,
      [&](const std::function<void(VkCommandBuffer)>& record) {
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        if (vkAllocateCommandBuffers(device, &alloc, &cmd) != VK_SUCCESS) return false;
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cmd, &begin);
        record(cmd);
        vkEndCommandBuffer(cmd);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        const bool ok = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS &&
                        vkQueueWaitIdle(queue) == VK_SUCCESS;
        vkFreeCommandBuffers(device, pool, 1, &cmd);
        return ok;
      },
      [&](VkCommandBuffer cmd, VkBuffer src, VkDeviceSize offset, VkBuffer dst,
          VkDeviceSize bytes) {
        const VkBufferCopy region{offset, 0, bytes};
        vkCmdCopyBuffer(cmd, src, dst, 1, &region);
        VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &to_host, 0, nullptr, 0, nullptr);
      });
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyDevice(device, nullptr);
  messenger.reset();
  vkDestroyInstance(instance, nullptr);
#ifndef SINEW_CONSUMER_VOLK
  if (const int headless = CheckHeadless(); headless != 0) return headless;
#endif
  return consumer::Verdict(result);
}
