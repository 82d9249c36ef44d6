// The Vulkan context: sinew's handle on an instance, a physical device, a device and a queue.
//
// Two modes (DESIGN.md §7):
// * Headless (Context::Create): sinew creates its own instance and device. It prefers a discrete
//   GPU, then integrated, virtual and CPU (lavapipe). SINEW_DEVICE=<index>|<name substring> picks
//   one. sinew may submit work (SubmitAndWait) to its own queue.
// * Adopt (Context::Adopt): the host engine's instance, physical device, device and queue are used.
//   They must stay valid for the lifetime of the Context and everything created from it. sinew
//   never submits in this mode: it records into command buffers the host gives it.
//
// Every device call goes through a per-device volk table (device_table()), never volk's globals,
// so several Contexts and a host engine's own loader coexist.
#pragma once

#include <volk.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::vk {

enum class Validation {
  kAuto,  // Enable VK_LAYER_KHRONOS_validation when installed (headless mode only).
  kOff,
  kOn  // Require the layer: Create fails with kVulkanCallFailed if it is missing.
};

struct ContextOptions {
  // Which physical device: "" = automatic (discrete first), a decimal index into
  // vkEnumeratePhysicalDevices' order, or a case-insensitive substring of the device name.
  // When empty, the SINEW_DEVICE environment variable is consulted.
  std::string device;
  Validation validation = Validation::kAuto;
  // Application name reported to the driver.
  std::string application_name = "sinew";
};

// What the host hands over in adopt mode. All handles are required except device_table.
struct AdoptInfo {
  // The host's loader entry point (e.g. from its own volk or vulkan loader). Required.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  // A queue family with VK_QUEUE_COMPUTE_BIT, and a queue of it (used only to name the family in
  // barriers; sinew never submits to it).
  uint32_t queue_family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  // Optional: the host's own per-device table. When null, sinew loads one.
  const VolkDeviceTable* device_table = nullptr;
  // The API version the device was created with (>= 1.2).
  uint32_t api_version = VK_API_VERSION_1_2;
};

// Where a buffer's memory lives.
enum class MemoryUsage {
  kDeviceLocal,  // GPU only; filled by copies or shaders.
  kUpload,       // Host-visible and coherent, persistently mapped; device-local when possible.
  kReadback      // Host-visible and coherent, persistently mapped; cached when possible.
};

class Context;

// A VkBuffer with its own memory. Move-only; destroyed with its Context still alive.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // Host pointer for kUpload/kReadback buffers (coherent), null for kDeviceLocal.
  void* mapped() const { return mapped_; }

 private:
  friend class Context;
  void Reset() noexcept;

  const Context* context_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

// Instance-level entry points sinew needs (volk's table covers only device-level ones).
struct InstanceTable {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkDestroyInstance vkDestroyInstance = nullptr;
  PFN_vkEnumeratePhysicalDevices vkEnumeratePhysicalDevices = nullptr;
  PFN_vkGetPhysicalDeviceProperties vkGetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties vkGetPhysicalDeviceQueueFamilyProperties = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties vkGetPhysicalDeviceMemoryProperties = nullptr;
  PFN_vkCreateDevice vkCreateDevice = nullptr;
  PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr = nullptr;
  PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT = nullptr;
};

class Context {
 public:
  // Headless: creates an instance and a device. Errors: kVulkanLoaderMissing, kNoVulkanDevice
  // (no device at all, none matching options.device/SINEW_DEVICE, or none with Vulkan 1.2),
  // kNoComputeQueue, kVulkanCallFailed, kMissingVulkanFunction.
  static Result<std::unique_ptr<Context>> Create(const ContextOptions& options = {});
  // Adopt the host's objects (see AdoptInfo). kInvalidArgument for a missing handle or a queue
  // family without compute; kMissingVulkanFunction if an entry point cannot be loaded.
  static Result<std::unique_ptr<Context>> Adopt(const AdoptInfo& info);

  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();

  bool adopted() const { return adopted_; }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  uint32_t queue_family() const { return queue_family_; }
  VkQueue queue() const { return queue_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  // The per-device function table every sinew call goes through.
  const VolkDeviceTable& device_table() const { return table_; }
  const InstanceTable& instance_table() const { return instance_table_; }

  // Whether VK_LAYER_KHRONOS_validation is active on this (headless) context.
  bool validation_enabled() const { return validation_enabled_; }
  // Warnings and errors the validation layer reported so far (tests fail on any).
  std::vector<std::string> validation_messages() const;

  // Creates a buffer with memory of the given kind. `usage` is a VkBufferUsageFlags mask.
  // Errors: kInvalidArgument for size 0 or a storage buffer larger than the device's
  // maxStorageBufferRange (sinew binds storage buffers whole), kNoSuitableMemoryType,
  // kVulkanCallFailed.
  Result<Buffer> CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                              MemoryUsage memory) const;

  // Headless only: records `record` into a one-time command buffer, submits it to sinew's queue and
  // waits. kNotAllowedInAdoptMode in adopt mode.
  Status SubmitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

  struct MessageSink;  // Validation messages, shared with the debug callback.

 private:
  Context() = default;
  Status LoadDeviceTable(const VolkDeviceTable* host_table);
  void QueryDevice();

  bool adopted_ = false;
  void* loader_library_ = nullptr;  // dlopen handle, headless mode only.
  InstanceTable instance_table_;
  VolkDeviceTable table_{};
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  bool validation_enabled_ = false;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::unique_ptr<MessageSink> sink_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;  // headless only
  VkFence fence_ = VK_NULL_HANDLE;               // headless only
};

// ErrorInfo for a failed Vulkan call: code kVulkanCallFailed, the call's name in the message.
ErrorInfo VulkanError(const char* call, VkResult result);

}  // namespace sinew::vk
