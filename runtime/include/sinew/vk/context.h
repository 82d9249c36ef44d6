// The Vulkan context: sinew's handle on an instance, a physical device, a device and a queue.
//
// Two modes (docs/embedding.md):
// * Headless (Context::Create): sinew creates its own instance and device. It prefers a discrete
//   GPU, then integrated, virtual and CPU (lavapipe); ContextOptions::device picks one. sinew may
//   submit work (SubmitAndWait) to its own queue.
// * Adopt (Context::Adopt): the host engine's instance, physical device, device and queue are used.
//   They must stay valid for the lifetime of the Context and everything created from it. sinew
//   never submits in this mode: it records into command buffers the host gives it.
//
// Every Vulkan call goes through the Context's own function table, loaded from the
// vkGetInstanceProcAddr the host hands over (or libvulkan, headless). This header includes
// <vulkan/vulkan_core.h> only and defines no macro: a host that calls the loader directly, one
// that uses volk (VK_NO_PROTOTYPES in its own build) and one that uses Vulkan-Hpp all see their
// own Vulkan declarations unchanged.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::vk {

class Context;
namespace detail {
struct Functions;  // sinew's private function table (runtime/src/vk/functions.h).
inline const Functions& Fn(const Context& context);
class Kernels;  // The Context's compute pipelines (runtime/src/vk/kernels.h).
Kernels& KernelsOf(const Context& context);
}  // namespace detail

enum class Validation {
  kAuto,  // Enable VK_LAYER_KHRONOS_validation when installed (headless mode only).
  kOff,
  kOn  // Require the layer: Create fails with kValidationLayerMissing if it is missing.
};

struct ContextOptions {
  // Which physical device: "" = automatic (discrete first), a decimal index into
  // vkEnumeratePhysicalDevices' order, or a case-insensitive substring of the device name.
  // sinew reads no environment variable: the tool maps SINEW_DEVICE or --device onto this.
  std::string device{};
  Validation validation = Validation::kAuto;
  // With the validation layer on, also enable its synchronization validation (hazards between
  // commands: a missing or wrong barrier is reported like any other validation message).
  bool synchronization_validation = false;
  // Application name reported to the driver.
  std::string application_name = "sinew";
  // Host memory callbacks for every Vulkan object sinew creates (instance and device included);
  // null = the driver's. Must outlive the Context.
  const VkAllocationCallbacks* allocator = nullptr;
  // Ask the driver for statistics of the skinning kernels it compiles (registers, code size:
  // whatever it reports through VK_KHR_pipeline_executable_properties), where the device has that
  // extension; Context::QueryKernelStatistics() lists them. Off by default: drivers may compile or
  // cache pipelines differently when asked.
  bool kernel_statistics = false;
};

// What the host hands over in adopt mode. The handles and get_instance_proc_addr are required.
struct AdoptInfo {
  // The host's loader entry point: vkGetInstanceProcAddr from the loader, volk's, or Vulkan-Hpp's
  // dispatcher's. Required. sinew loads every function it calls through it.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  // Optional: the host's vkGetDeviceProcAddr (e.g. one a layer of the host intercepts). Null =
  // loaded through get_instance_proc_addr.
  PFN_vkGetDeviceProcAddr get_device_proc_addr = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  // The queue family sinew's commands are recorded for: it must have VK_QUEUE_COMPUTE_BIT. Every
  // command buffer handed to Record() belongs to this family; barriers sinew records name it, and
  // upload/ownership helpers take the other family explicitly (docs/embedding.md).
  uint32_t queue_family = 0;
  // A queue of that family (required). sinew never submits to it; kept for the host's convenience.
  VkQueue queue = VK_NULL_HANDLE;
  // Host memory callbacks for every Vulkan object sinew creates; null = the driver's. Must outlive
  // the Context.
  const VkAllocationCallbacks* allocator = nullptr;
  // Optional: the host's pipeline cache; sinew's compute pipelines are created through it, so a
  // host that saves its cache (vkGetPipelineCacheData) across runs also saves sinew's.
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  // Set when the host enabled VK_EXT_debug_utils on the instance: sinew then names every object it
  // creates ("sinew ..."), as seen in debuggers and validation messages.
  bool debug_utils = false;
  // Set when the host enabled the bufferDeviceAddress feature on the device: required for
  // outputs with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT (vertex pulling, ray-tracing inputs).
  bool buffer_device_address = false;
  // The API version the device was created with (>= 1.2).
  uint32_t api_version = VK_API_VERSION_1_2;
  // Set when the host enabled VK_KHR_pipeline_executable_properties and its
  // pipelineExecutableInfo feature on the device: sinew then captures its kernels' statistics
  // (ContextOptions::kernel_statistics).
  bool kernel_statistics = false;
};

// One statistic a driver reports for a compiled kernel (VkPipelineExecutableStatisticKHR): its
// name and description as the driver gives them, and its value (booleans as 0 or 1).
struct KernelStatistic {
  std::string name;
  std::string description;
  double value = 0;
};

// The statistics of one compiled skinning kernel: the pipeline's name (the kernel, the mesh
// choices it is specialized for, its workgroup size), the driver's name for the executable, and
// what the driver reports for it.
struct KernelStatistics {
  std::string kernel;
  std::string executable;
  std::vector<KernelStatistic> statistics;
};

// Where a buffer's memory lives.
enum class MemoryUsage {
  kDeviceLocal,  // GPU only; filled by copies or shaders.
  kUpload,       // Host-visible and coherent, persistently mapped; device-local when possible.
  kReadback,     // Host-visible and coherent, persistently mapped; cached when possible.
  kStaging       // Host-visible and coherent, persistently mapped, in host memory when possible:
                 // the source of a one-off copy, written once by the host.
};

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
  // Host pointer for kUpload/kReadback/kStaging buffers (coherent), null for kDeviceLocal.
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

class Context {
 public:
  // Headless: creates an instance and a device. Errors: kVulkanLoaderMissing, kNoVulkanDevice
  // (no device at all, none matching options.device, or none with Vulkan 1.2),
  // kValidationLayerMissing, kVulkanCallFailed, kMissingVulkanFunction.
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
  // Whether the device is a CPU implementation (VK_PHYSICAL_DEVICE_TYPE_CPU: lavapipe,
  // SwiftShader): it has no clocks for a benchmark to bring up, and a workgroup barrier costs it
  // dearly (the sparse kernel's form is chosen by it, runtime/src/vk/kernels.cpp).
  bool cpu_device() const { return properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }
  // Invocations per subgroup (VkPhysicalDeviceSubgroupProperties::subgroupSize): 32 on NVIDIA, 32
  // or 64 on AMD, 8 to 32 on Intel, 4 to 16 on lavapipe (its SIMD width in floats).
  uint32_t subgroup_size() const { return subgroup_size_; }
  // The entry points sinew loads its functions through: the host's in adopt mode, the loader's
  // in headless mode. A host (or the tool) loads its own calls on a headless device with them.
  PFN_vkGetInstanceProcAddr get_instance_proc_addr() const;
  PFN_vkGetDeviceProcAddr get_device_proc_addr() const;
  // The memory callbacks every sinew object is created with (null: the driver's).
  const VkAllocationCallbacks* allocator() const { return allocator_; }
  // The pipeline cache sinew's pipelines go through (VK_NULL_HANDLE: none).
  VkPipelineCache pipeline_cache() const { return pipeline_cache_; }
  // Whether sinew names its objects (VK_EXT_debug_utils is enabled).
  bool debug_names() const { return debug_names_; }
  // Whether buffers may be created with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT.
  bool buffer_device_address() const { return buffer_device_address_; }
  // How many compute pipelines this Context has created: each kernel variant (the kernel and a
  // mesh's specialization choices) once, on first use — in SkinCache::Create for the common
  // linear ones, else in the AddMesh that first needs it — whatever the number of meshes and
  // SkinCaches.
  uint32_t pipelines_created() const;
  // Whether the driver is asked for the kernels' statistics (ContextOptions::kernel_statistics on
  // a device with the extension, or AdoptInfo::kernel_statistics).
  bool kernel_statistics_enabled() const { return kernel_statistics_; }
  // The statistics of every kernel this Context has compiled so far, in no particular order;
  // empty when kernel_statistics_enabled() is false. kVulkanCallFailed if a query fails.
  Result<std::vector<KernelStatistics>> QueryKernelStatistics() const;

  // Whether VK_LAYER_KHRONOS_validation is active on this (headless) context.
  bool validation_enabled() const { return validation_enabled_; }
  // Warnings and errors the validation layer reported so far (tests fail on any).
  std::vector<std::string> validation_messages() const;

  // Creates a buffer with memory of the given kind. `usage` is a VkBufferUsageFlags mask; with
  // VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT the memory is allocated with the device-address
  // flag. `name` (optional) labels it when debug_names(). Errors: kInvalidArgument for size 0 or
  // a storage buffer larger than the device's maxStorageBufferRange (sinew binds storage buffers
  // whole), kFeatureNotEnabled for device-address usage without buffer_device_address(),
  // kNoSuitableMemoryType, kVulkanCallFailed.
  // `concurrent_families`: with two or more distinct queue families the buffer is created
  // VK_SHARING_MODE_CONCURRENT between them (no ownership transfers); else exclusive.
  Result<Buffer> CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory,
                              const char* name = nullptr,
                              std::span<const uint32_t> concurrent_families = {}) const;

  // Headless only: records `record` into a one-time command buffer, submits it to sinew's queue and
  // waits. kNotAllowedInAdoptMode in adopt mode.
  Status SubmitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

  struct MessageSink;  // Validation messages, shared with the debug callback.

 private:
  friend const detail::Functions& detail::Fn(const Context&);
  friend detail::Kernels& detail::KernelsOf(const Context&);
  Context();
  Status LoadInstanceFunctions(PFN_vkGetInstanceProcAddr gipa);
  Status LoadDeviceFunctions(PFN_vkGetDeviceProcAddr gdpa);
  void QueryDevice();

  bool adopted_ = false;
  void* loader_library_ = nullptr;  // dlopen handle, headless mode only.
  std::unique_ptr<detail::Functions> functions_;
  std::unique_ptr<detail::Kernels> kernels_;  // Destroyed first, in adopt mode too.
  const VkAllocationCallbacks* allocator_ = nullptr;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  bool debug_names_ = false;
  bool buffer_device_address_ = false;
  bool kernel_statistics_ = false;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  uint32_t subgroup_size_ = 0;
  bool validation_enabled_ = false;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::unique_ptr<MessageSink> sink_;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;  // headless only
  VkFence fence_ = VK_NULL_HANDLE;               // headless only
};

// ErrorInfo for a failed Vulkan call: code kVulkanCallFailed, the call's name in the message.
ErrorInfo VulkanError(const char* call, VkResult result);

}  // namespace sinew::vk
