// A host engine written with Vulkan-Hpp (vk:: handles, exceptions off is not required here),
// dispatching through the loader's exported functions: sinew must not switch it to the dynamic
// dispatcher (VULKAN_HPP_DISPATCH_LOADER_DYNAMIC follows VK_NO_PROTOTYPES).
#include <vulkan/vulkan.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "skin_check.h"

static_assert(VULKAN_HPP_DISPATCH_LOADER_DYNAMIC == 0,
              "sinew switched the host to Vulkan-Hpp's dynamic dispatcher");

namespace {

int Run() {
  bool validation = false;
  for (const auto& l : vk::enumerateInstanceLayerProperties()) {
    validation |= std::string(l.layerName.data()) == "VK_LAYER_KHRONOS_validation";
  }
  if (!validation && consumer::RunningInCi()) return consumer::Fail("no validation layer in CI");
  std::vector<const char*> layers, extensions;
  if (validation) {
    layers.push_back("VK_LAYER_KHRONOS_validation");
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  const vk::ApplicationInfo app("hpp_host", 1, nullptr, 0, VK_API_VERSION_1_2);
  vk::UniqueInstance instance =
      vk::createInstanceUnique(vk::InstanceCreateInfo({}, &app, layers, extensions));
  std::unique_ptr<consumer::ValidationMessenger> messenger;
  if (validation) {
    messenger = std::make_unique<consumer::ValidationMessenger>(vkGetInstanceProcAddr, *instance);
  }
  const std::vector<vk::PhysicalDevice> gpus = instance->enumeratePhysicalDevices();
  if (gpus.empty())
    return consumer::RunningInCi() ? consumer::Fail("no device") : consumer::kSkipped;
  const vk::PhysicalDevice gpu = gpus.front();
  const auto families = gpu.getQueueFamilyProperties();
  uint32_t family = 0;
  while (family < families.size() && !(families[family].queueFlags & vk::QueueFlagBits::eCompute)) {
    ++family;
  }
  const float priority = 1.0f;
  const vk::DeviceQueueCreateInfo queue_info({}, family, 1, &priority);
  vk::UniqueDevice device = gpu.createDeviceUnique(vk::DeviceCreateInfo({}, queue_info));
  const vk::Queue queue = device->getQueue(family, 0);
  vk::UniqueCommandPool pool = device->createCommandPoolUnique(
      vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer, family));

  sinew::vk::AdoptInfo info;
  info.get_instance_proc_addr = vkGetInstanceProcAddr;
  info.instance = *instance;
  info.physical_device = gpu;
  info.device = *device;
  info.queue_family = family;
  info.queue = queue;
  info.debug_utils = validation;
  const int result = consumer::CheckSkinning(
      info,
      [&](const std::function<void(VkCommandBuffer)>& record) {
        auto cmds = device->allocateCommandBuffersUnique(
            vk::CommandBufferAllocateInfo(*pool, vk::CommandBufferLevel::ePrimary, 1));
        vk::CommandBuffer cmd = *cmds.front();
        cmd.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
        record(cmd);
        cmd.end();
        queue.submit(vk::SubmitInfo({}, {}, cmd));
        queue.waitIdle();
        return true;
      },
      [&](VkCommandBuffer c, VkBuffer src, VkDeviceSize offset, VkBuffer dst, VkDeviceSize bytes) {
        const vk::CommandBuffer cmd(c);
        cmd.copyBuffer(src, dst, vk::BufferCopy(offset, 0, bytes));
        cmd.pipelineBarrier(
            vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {},
            vk::MemoryBarrier(vk::AccessFlagBits::eTransferWrite, vk::AccessFlagBits::eHostRead),
            {}, {});
      });
  pool.reset();
  device.reset();
  messenger.reset();
  return consumer::Verdict(result);
}

}  // namespace

int main() {
  try {
    return Run();
  } catch (const vk::SystemError& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return consumer::RunningInCi() ? 1 : consumer::kSkipped;
  }
}
