#include "sinew/vk/context.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "enumerate.h"
#include "functions.h"
#include "kernels.h"

namespace sinew::vk {

struct Context::MessageSink {
  mutable std::mutex mutex;
  std::vector<std::string> messages;
};

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL OnDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT type,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user) {
  const bool serious = (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) != 0;
  const bool from_validation = (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0;
  const bool general_error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
  if (serious && (from_validation || general_error)) {
    auto* sink = static_cast<Context::MessageSink*>(user);
    std::lock_guard lock(sink->mutex);
    sink->messages.emplace_back(data && data->pMessage ? data->pMessage : "(no message)");
  }
  return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT MessengerInfo(Context::MessageSink* sink) {
  VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = OnDebugMessage;
  info.pUserData = sink;
  return info;
}

int DeviceTypeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool IsDecimal(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

template <typename Fn>
Fn Load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, const char* name) {
  return reinterpret_cast<Fn>(gipa(instance, name));
}

}  // namespace

namespace detail {

void SetName(const Context& context, VkObjectType type, uint64_t handle, const char* name) {
  if (!context.debug_names() || !name || !handle) return;
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name;
  Fn(context).vkSetDebugUtilsObjectNameEXT(context.device(), &info);
}

}  // namespace detail

ErrorInfo VulkanError(const char* call, VkResult result) {
  return ErrorInfo{
      Error::kVulkanCallFailed, std::string(call) + " failed", {}, static_cast<int32_t>(result)};
}

// ---------------------------------------------------------------------------------------------
// Buffer

Buffer::Buffer(Buffer&& other) noexcept { *this = std::move(other); }

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    Reset();
    context_ = std::exchange(other.context_, nullptr);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

Buffer::~Buffer() { Reset(); }

void Buffer::Reset() noexcept {
  if (!context_) return;
  const detail::Functions& f = detail::Fn(*context_);
  const VkAllocationCallbacks* allocator = context_->allocator();
  if (buffer_) f.vkDestroyBuffer(context_->device(), buffer_, allocator);
  if (memory_) f.vkFreeMemory(context_->device(), memory_, allocator);  // Unmaps implicitly.
  context_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  size_ = 0;
  mapped_ = nullptr;
}

// ---------------------------------------------------------------------------------------------
// Context

Context::Context()
    : functions_(std::make_unique<detail::Functions>()),
      kernels_(std::make_unique<detail::Kernels>(*this)) {}

Context::~Context() {
  // A SkinCache left would destroy its buffers on a device gone (or, adopted, with pipelines
  // gone) when it goes: a crash somewhere else. Stop here instead, saying why.
  if (kernels_ && kernels_->caches() != 0) {
    std::fprintf(stderr,
                 "sinew: vk::Context destroyed while %u SkinCache(s) created on it still exist; "
                 "destroy every SkinCache before its Context\n",
                 kernels_->caches());
    std::abort();
  }
  kernels_.reset();      // sinew's own pipelines, on an adopted device too.
  if (adopted_) return;  // The host owns every other handle.
  const detail::Functions& f = *functions_;
  if (device_) {
    f.vkDeviceWaitIdle(device_);
    if (fence_) f.vkDestroyFence(device_, fence_, allocator_);
    if (command_pool_) f.vkDestroyCommandPool(device_, command_pool_, allocator_);
    f.vkDestroyDevice(device_, allocator_);
  }
  if (messenger_) f.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, allocator_);
  if (instance_) f.vkDestroyInstance(instance_, allocator_);
  if (loader_library_) dlclose(loader_library_);
}

uint32_t Context::pipelines_created() const { return kernels_->pipelines_created(); }

Result<std::vector<KernelStatistics>> Context::QueryKernelStatistics() const {
  if (!kernel_statistics_) return std::vector<vk::KernelStatistics>{};
  return kernels_->Statistics();
}

namespace detail {
Kernels& KernelsOf(const Context& context) { return *context.kernels_; }
}  // namespace detail

PFN_vkGetInstanceProcAddr Context::get_instance_proc_addr() const {
  return functions_->vkGetInstanceProcAddr;
}

PFN_vkGetDeviceProcAddr Context::get_device_proc_addr() const {
  return functions_->vkGetDeviceProcAddr;
}

std::vector<std::string> Context::validation_messages() const {
  if (!sink_) return {};
  std::lock_guard lock(sink_->mutex);
  return sink_->messages;
}

Status Context::LoadDeviceFunctions(PFN_vkGetDeviceProcAddr gdpa) {
  detail::Functions& f = *functions_;
  f.vkGetDeviceProcAddr = gdpa;
  std::string missing;
#define SINEW_LOAD_DEVICE(name)                                \
  f.name = reinterpret_cast<PFN_##name>(gdpa(device_, #name)); \
  if (!f.name) missing += (missing.empty() ? "" : ", ") + std::string(#name);
  SINEW_VK_DEVICE_FUNCTIONS(SINEW_LOAD_DEVICE)
#undef SINEW_LOAD_DEVICE
  if (!missing.empty()) {
    return {Error::kMissingVulkanFunction, "Vulkan 1.2 device functions missing: " + missing};
  }
  if (kernel_statistics_) {
#define SINEW_LOAD_STATISTICS(name) f.name = reinterpret_cast<PFN_##name>(gdpa(device_, #name));
    SINEW_VK_STATISTICS_FUNCTIONS(SINEW_LOAD_STATISTICS)
#undef SINEW_LOAD_STATISTICS
    // Without its entry points the extension cannot be used: no statistics, nothing else lost.
    kernel_statistics_ =
        f.vkGetPipelineExecutablePropertiesKHR && f.vkGetPipelineExecutableStatisticsKHR;
  }
  return {};
}

Status Context::LoadInstanceFunctions(PFN_vkGetInstanceProcAddr gipa) {
  detail::Functions& f = *functions_;
  f.vkGetInstanceProcAddr = gipa;
  std::string missing;
#define SINEW_LOAD_INSTANCE(name)                    \
  f.name = Load<PFN_##name>(gipa, instance_, #name); \
  if (!f.name) missing += (missing.empty() ? "" : ", ") + std::string(#name);
  SINEW_VK_INSTANCE_FUNCTIONS(SINEW_LOAD_INSTANCE)
#undef SINEW_LOAD_INSTANCE
#define SINEW_LOAD_OPTIONAL(name) f.name = Load<PFN_##name>(gipa, instance_, #name);
  SINEW_VK_DEBUG_FUNCTIONS(SINEW_LOAD_OPTIONAL)  // Null without VK_EXT_debug_utils.
#undef SINEW_LOAD_OPTIONAL
  if (!missing.empty()) {
    return {Error::kMissingVulkanFunction, "Vulkan instance functions missing: " + missing};
  }
  return {};
}

void Context::QueryDevice() {
  const detail::Functions& f = *functions_;
  f.vkGetPhysicalDeviceProperties(physical_device_, &properties_);
  f.vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties2.pNext = &subgroup;
  f.vkGetPhysicalDeviceProperties2(physical_device_, &properties2);
  subgroup_size_ = subgroup.subgroupSize;
}

namespace {

// The loader's global entry points, before any instance exists.
struct GlobalFunctions {
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  PFN_vkCreateInstance create_instance = nullptr;
  PFN_vkEnumerateInstanceLayerProperties enumerate_layers = nullptr;
};

bool HasLayer(const GlobalFunctions& g, const char* name) {
  std::vector<VkLayerProperties> layers;
  detail::Enumerate(layers, [&](uint32_t* count, VkLayerProperties* items) {
    return g.enumerate_layers(count, items);
  });
  for (const auto& l : layers) {
    if (std::strcmp(l.layerName, name) == 0) return true;
  }
  return false;
}

// `device`'s queue families, in index order.
std::vector<VkQueueFamilyProperties> QueueFamilies(const detail::Functions& f,
                                                   VkPhysicalDevice device) {
  std::vector<VkQueueFamilyProperties> families;
  detail::Enumerate(families, [&](uint32_t* count, VkQueueFamilyProperties* items) {
    f.vkGetPhysicalDeviceQueueFamilyProperties(device, count, items);
  });
  return families;
}

// A physical device sinew can use, and its first compute queue family.
struct Candidate {
  VkPhysicalDevice device = VK_NULL_HANDLE;
  uint32_t family = 0;
};

// Vulkan >= 1.2 and a compute queue; then the selector (index or name substring), else the best
// device type. kNoVulkanDevice lists what was seen.
Result<Candidate> PickPhysicalDevice(const detail::Functions& f, VkInstance instance,
                                     const std::string& selector) {
  std::vector<VkPhysicalDevice> devices;
  detail::Enumerate(devices, [&](uint32_t* count, VkPhysicalDevice* items) {
    return f.vkEnumeratePhysicalDevices(instance, count, items);
  });
  const auto device_count = static_cast<uint32_t>(devices.size());
  if (devices.empty()) {
    return ErrorInfo{Error::kNoVulkanDevice,
                     "no Vulkan physical device (install mesa-vulkan-drivers for lavapipe)",
                     {},
                     0};
  }
  Candidate best;
  int best_rank = 1 << 30;
  std::string seen;
  for (uint32_t i = 0; i < device_count; ++i) {
    VkPhysicalDeviceProperties props;
    f.vkGetPhysicalDeviceProperties(devices[i], &props);
    seen += (seen.empty() ? "" : ", ") + std::to_string(i) + ": " + props.deviceName;
    if (props.apiVersion < VK_API_VERSION_1_2) continue;
    const std::vector<VkQueueFamilyProperties> families = QueueFamilies(f, devices[i]);
    int family = -1;
    for (uint32_t q = 0; q < families.size() && family < 0; ++q) {
      if (families[q].queueFlags & VK_QUEUE_COMPUTE_BIT) family = static_cast<int>(q);
    }
    if (family < 0) continue;
    if (!selector.empty()) {
      const bool match = IsDecimal(selector)
                             ? std::strtoul(selector.c_str(), nullptr, 10) == i
                             : Lower(props.deviceName).find(Lower(selector)) != std::string::npos;
      if (!match) continue;
    }
    const int rank = DeviceTypeRank(props.deviceType);
    if (rank < best_rank) {
      best = {devices[i], static_cast<uint32_t>(family)};
      best_rank = rank;
    }
  }
  if (!best.device) {
    return ErrorInfo{Error::kNoVulkanDevice,
                     "no Vulkan 1.2 device with a compute queue" +
                         (selector.empty() ? std::string() : " matching '" + selector + "'") +
                         " among [" + seen + "]",
                     {},
                     0};
  }
  return best;
}

// The Vulkan loader library (libvulkan.so.1, else libvulkan.so), opened for this Context.
Result<void*> OpenVulkanLoader() {
  void* library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    return ErrorInfo{Error::kVulkanLoaderMissing,
                     "cannot open libvulkan.so.1 (Debian package libvulkan1)",
                     {},
                     0};
  }
  return library;
}

// vkGetInstanceProcAddr of the loader `library`, and the global functions through it.
Result<GlobalFunctions> LoadGlobalFunctions(void* library) {
  GlobalFunctions g;
  g.get_instance_proc_addr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
  if (!g.get_instance_proc_addr) {
    return ErrorInfo{Error::kVulkanLoaderMissing, "libvulkan has no vkGetInstanceProcAddr", {}, 0};
  }
  g.create_instance =
      Load<PFN_vkCreateInstance>(g.get_instance_proc_addr, nullptr, "vkCreateInstance");
  g.enumerate_layers = Load<PFN_vkEnumerateInstanceLayerProperties>(
      g.get_instance_proc_addr, nullptr, "vkEnumerateInstanceLayerProperties");
  if (!g.create_instance || !g.enumerate_layers) {
    return ErrorInfo{
        Error::kMissingVulkanFunction, "the Vulkan loader lacks global functions", {}, 0};
  }
  return g;
}

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

// Whether the instance gets the validation layer: when asked for (kOn or kAuto) and installed;
// kValidationLayerMissing when kOn asks for it and it is not installed.
Result<bool> UseValidationLayer(const GlobalFunctions& g, Validation validation) {
  const bool have_layer = validation != Validation::kOff && HasLayer(g, kValidationLayer);
  if (!have_layer && validation == Validation::kOn) {
    return ErrorInfo{Error::kValidationLayerMissing,
                     "VK_LAYER_KHRONOS_validation is not installed (Debian package "
                     "vulkan-validationlayers)",
                     {},
                     static_cast<int32_t>(VK_ERROR_LAYER_NOT_PRESENT)};
  }
  return have_layer;
}

// A Vulkan 1.2 instance; with `validation_layer`, the layer with VK_EXT_debug_utils reporting to
// `sink` while the instance is created and destroyed, and (options.synchronization_validation)
// synchronization validation.
Result<VkInstance> CreateInstance(const GlobalFunctions& g, const ContextOptions& options,
                                  bool validation_layer, Context::MessageSink* sink,
                                  const VkAllocationCallbacks* allocator) {
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info = MessengerInfo(sink);
  const VkValidationFeatureEnableEXT sync_feature =
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = &sync_feature;
  if (validation_layer) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);  // Provided by the layer.
    if (options.synchronization_validation) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);  // Provided by the layer.
      messenger_info.pNext = &features;
    }
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = options.application_name.c_str();
  app.pEngineName = "sinew";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  instance_info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  instance_info.ppEnabledLayerNames = layers.data();
  instance_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  instance_info.ppEnabledExtensionNames = extensions.data();
  if (validation_layer) instance_info.pNext = &messenger_info;  // Also reports create/destroy.
  VkInstance instance = VK_NULL_HANDLE;
  if (VkResult r = g.create_instance(&instance_info, allocator, &instance); r != VK_SUCCESS) {
    return r == VK_ERROR_INCOMPATIBLE_DRIVER ? ErrorInfo{Error::kNoVulkanDevice,
                                                         "no Vulkan driver (incompatible driver)",
                                                         {},
                                                         static_cast<int32_t>(r)}
                                             : VulkanError("vkCreateInstance", r);
  }
  return instance;
}

// The debug messenger that passes validation messages to `sink` for the instance's lifetime.
Result<VkDebugUtilsMessengerEXT> CreateMessenger(const detail::Functions& f, VkInstance instance,
                                                 Context::MessageSink* sink,
                                                 const VkAllocationCallbacks* allocator) {
  const VkDebugUtilsMessengerCreateInfoEXT messenger_info = MessengerInfo(sink);
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  if (VkResult r =
          f.vkCreateDebugUtilsMessengerEXT(instance, &messenger_info, allocator, &messenger);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateDebugUtilsMessengerEXT", r);
  }
  return messenger;
}

// `features` (a feature struct with its sType set, nothing chained) as `device` reports them.
template <typename Features>
Features SupportedFeatures(const detail::Functions& f, VkPhysicalDevice device, Features features) {
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  supported.pNext = &features;
  f.vkGetPhysicalDeviceFeatures2(device, &supported);
  return features;
}

// Whether `device` has bufferDeviceAddress, which sinew enables where it exists so outputs can
// carry device-address usage (vertex pulling, ray-tracing inputs).
bool HasBufferDeviceAddress(const detail::Functions& f, VkPhysicalDevice device) {
  return SupportedFeatures(f, device,
                           VkPhysicalDeviceVulkan12Features{
                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES})
             .bufferDeviceAddress == VK_TRUE;
}

// Whether `device` has VK_KHR_pipeline_executable_properties with its pipelineExecutableInfo
// feature (ContextOptions::kernel_statistics).
bool HasKernelStatistics(const detail::Functions& f, VkPhysicalDevice device) {
  std::vector<VkExtensionProperties> extensions;
  if (detail::Enumerate(extensions, [&](uint32_t* count, VkExtensionProperties* items) {
        return f.vkEnumerateDeviceExtensionProperties(device, nullptr, count, items);
      }) != VK_SUCCESS) {
    return false;
  }
  const bool listed = std::any_of(extensions.begin(), extensions.end(), [](auto& e) {
    return std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
  });
  return listed &&
         SupportedFeatures(
             f, device,
             VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR{
                 VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR})
                 .pipelineExecutableInfo == VK_TRUE;
}

// The logical device: one queue of `family`, bufferDeviceAddress when asked for, and
// VK_KHR_pipeline_executable_properties with `kernel_statistics`.
Result<VkDevice> CreateDevice(const detail::Functions& f, VkPhysicalDevice physical_device,
                              uint32_t family, bool buffer_device_address, bool kernel_statistics,
                              const VkAllocationCallbacks* allocator) {
  VkPhysicalDeviceVulkan12Features enabled12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  enabled12.bufferDeviceAddress = buffer_device_address ? VK_TRUE : VK_FALSE;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executables{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  executables.pipelineExecutableInfo = VK_TRUE;
  const char* extension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  if (kernel_statistics) enabled12.pNext = &executables;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &enabled12;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  if (kernel_statistics) {
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &extension;
  }
  VkDevice device = VK_NULL_HANDLE;
  if (VkResult r = f.vkCreateDevice(physical_device, &device_info, allocator, &device);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateDevice", r);
  }
  return device;
}

// What SubmitAndWait records and waits with: a command pool on `family` (its buffers reset one
// by one) and a fence.
struct SubmitObjects {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
};

// Creates them; on failure whatever was created is in `*out` (the Context destroys it).
Status CreateSubmitObjects(const detail::Functions& f, VkDevice device, uint32_t family,
                           const VkAllocationCallbacks* allocator, SubmitObjects* out) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = family;
  if (VkResult r = f.vkCreateCommandPool(device, &pool_info, allocator, &out->pool);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateCommandPool", r);
  }
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = f.vkCreateFence(device, &fence_info, allocator, &out->fence); r != VK_SUCCESS) {
    return VulkanError("vkCreateFence", r);
  }
  return {};
}

}  // namespace

// Every step keeps what it created in `ctx` before the next one runs, so a failure part way
// returns an error and ~Context destroys what exists.
Result<std::unique_ptr<Context>> Context::Create(const ContextOptions& options) {
  std::unique_ptr<Context> ctx(new Context());
  ctx->allocator_ = options.allocator;
  auto library = OpenVulkanLoader();
  if (!library) return library.status();
  ctx->loader_library_ = *library;
  auto globals = LoadGlobalFunctions(ctx->loader_library_);
  if (!globals) return globals.status();
  auto validation_layer = UseValidationLayer(*globals, options.validation);
  if (!validation_layer) return validation_layer.status();

  ctx->sink_ = std::make_unique<MessageSink>();
  auto instance =
      CreateInstance(*globals, options, *validation_layer, ctx->sink_.get(), ctx->allocator_);
  if (!instance) return instance.status();
  ctx->instance_ = *instance;
  if (Status s = ctx->LoadInstanceFunctions(globals->get_instance_proc_addr); !s) return s;
  const detail::Functions& f = *ctx->functions_;
  if (*validation_layer && f.vkCreateDebugUtilsMessengerEXT) {
    auto messenger = CreateMessenger(f, ctx->instance_, ctx->sink_.get(), ctx->allocator_);
    if (!messenger) return messenger.status();
    ctx->messenger_ = *messenger;
    ctx->validation_enabled_ = true;
    ctx->debug_names_ = f.vkSetDebugUtilsObjectNameEXT != nullptr;
  }

  auto picked = PickPhysicalDevice(f, ctx->instance_, options.device);
  if (!picked) return picked.status();
  ctx->physical_device_ = picked->device;
  ctx->queue_family_ = picked->family;
  ctx->buffer_device_address_ = HasBufferDeviceAddress(f, ctx->physical_device_);
  ctx->kernel_statistics_ =
      options.kernel_statistics && HasKernelStatistics(f, ctx->physical_device_);
  auto device = CreateDevice(f, ctx->physical_device_, ctx->queue_family_,
                             ctx->buffer_device_address_, ctx->kernel_statistics_, ctx->allocator_);
  if (!device) return device.status();
  ctx->device_ = *device;
  if (Status s = ctx->LoadDeviceFunctions(f.vkGetDeviceProcAddr); !s) return s;
  f.vkGetDeviceQueue(ctx->device_, ctx->queue_family_, 0, &ctx->queue_);
  ctx->QueryDevice();

  SubmitObjects submit;
  const Status created =
      CreateSubmitObjects(f, ctx->device_, ctx->queue_family_, ctx->allocator_, &submit);
  ctx->command_pool_ = submit.pool;
  ctx->fence_ = submit.fence;
  if (!created) return created;
  detail::SetName(*ctx, VK_OBJECT_TYPE_COMMAND_POOL, ctx->command_pool_, "sinew submit pool");
  detail::SetName(*ctx, VK_OBJECT_TYPE_FENCE, ctx->fence_, "sinew submit fence");
  return ctx;
}

Result<std::unique_ptr<Context>> Context::Adopt(const AdoptInfo& info) {
  if (!info.get_instance_proc_addr || !info.instance || !info.physical_device || !info.device ||
      !info.queue) {
    return ErrorInfo{Error::kInvalidArgument,
                     "AdoptInfo needs get_instance_proc_addr, instance, physical_device, device "
                     "and queue",
                     "AdoptInfo", 0};
  }
  if (info.api_version < VK_API_VERSION_1_2) {
    return ErrorInfo{Error::kInvalidArgument, "sinew needs a Vulkan 1.2 device",
                     "AdoptInfo::api_version", 0};
  }
  std::unique_ptr<Context> ctx(new Context());
  ctx->adopted_ = true;
  ctx->instance_ = info.instance;
  ctx->physical_device_ = info.physical_device;
  ctx->device_ = info.device;
  ctx->queue_family_ = info.queue_family;
  ctx->queue_ = info.queue;
  ctx->allocator_ = info.allocator;
  ctx->pipeline_cache_ = info.pipeline_cache;
  ctx->buffer_device_address_ = info.buffer_device_address;
  ctx->kernel_statistics_ = info.kernel_statistics;
  if (Status s = ctx->LoadInstanceFunctions(info.get_instance_proc_addr); !s) return s;
  const detail::Functions& f = *ctx->functions_;
  ctx->debug_names_ = info.debug_utils && f.vkSetDebugUtilsObjectNameEXT != nullptr;
  const std::vector<VkQueueFamilyProperties> families = QueueFamilies(f, info.physical_device);
  if (info.queue_family >= families.size()) {
    return ErrorInfo{Error::kInvalidArgument,
                     "queue family " + std::to_string(info.queue_family) +
                         " does not exist (the device has " + std::to_string(families.size()) + ")",
                     "AdoptInfo::queue_family", 0};
  }
  if (!(families[info.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    return ErrorInfo{Error::kInvalidArgument,
                     "queue family " + std::to_string(info.queue_family) + " has no compute",
                     "AdoptInfo::queue_family", 0};
  }
  const PFN_vkGetDeviceProcAddr gdpa =
      info.get_device_proc_addr ? info.get_device_proc_addr : f.vkGetDeviceProcAddr;
  if (Status s = ctx->LoadDeviceFunctions(gdpa); !s) return s;
  ctx->QueryDevice();
  return ctx;
}

namespace {

// Memory types for a buffer, best first: preferred-and-required without the avoided flags, then
// required only.
std::vector<uint32_t> MemoryCandidates(const VkPhysicalDeviceMemoryProperties& properties,
                                       uint32_t type_bits, MemoryUsage memory) {
  VkMemoryPropertyFlags required = 0, preferred = 0, avoided = 0;
  switch (memory) {
    case MemoryUsage::kDeviceLocal:
      preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      break;
    case MemoryUsage::kUpload:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      break;
    case MemoryUsage::kReadback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      break;
    case MemoryUsage::kStaging:
      // Device-local host-visible memory is scarce on a discrete GPU (its BAR window) and gains
      // nothing for a buffer the GPU only copies from.
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      avoided = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      break;
  }
  std::vector<uint32_t> candidates;
  for (int pass = 0; pass < 2; ++pass) {
    const VkMemoryPropertyFlags want = pass == 0 ? (required | preferred) : required;
    const VkMemoryPropertyFlags shun = pass == 0 ? avoided : 0;
    for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags flags = properties.memoryTypes[i].propertyFlags;
      if ((type_bits & (1u << i)) && (flags & want) == want && (flags & shun) == 0 &&
          std::find(candidates.begin(), candidates.end(), i) == candidates.end()) {
        candidates.push_back(i);
      }
    }
  }
  return candidates;
}

}  // namespace

Result<Buffer> Context::CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                                     MemoryUsage memory, const char* name,
                                     std::span<const uint32_t> concurrent_families) const {
  if (size == 0) return ErrorInfo{Error::kInvalidArgument, "buffer size is 0", {}, 0};
  // sinew binds every storage buffer whole: one past the device's range could not be bound.
  const VkDeviceSize range = properties_.limits.maxStorageBufferRange;
  if ((usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) && size > range) {
    return ErrorInfo{Error::kInvalidArgument,
                     "a storage buffer of " + std::to_string(size) +
                         " bytes is larger than the device's maxStorageBufferRange (" +
                         std::to_string(range) + ")",
                     {},
                     0};
  }
  const bool device_address = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0;
  if (device_address && !buffer_device_address_) {
    return ErrorInfo{Error::kFeatureNotEnabled,
                     "VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT needs the bufferDeviceAddress "
                     "feature (AdoptInfo::buffer_device_address)",
                     {},
                     0};
  }
  const detail::Functions& f = *functions_;
  Buffer out;
  out.context_ = this;
  out.size_ = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  std::vector<uint32_t> families(concurrent_families.begin(), concurrent_families.end());
  std::sort(families.begin(), families.end());
  families.erase(std::unique(families.begin(), families.end()), families.end());
  if (families.size() >= 2) {
    info.sharingMode = VK_SHARING_MODE_CONCURRENT;
    info.queueFamilyIndexCount = uint32_t(families.size());
    info.pQueueFamilyIndices = families.data();
  }
  if (VkResult r = f.vkCreateBuffer(device_, &info, allocator_, &out.buffer_); r != VK_SUCCESS) {
    return VulkanError("vkCreateBuffer", r);
  }
  detail::SetName(*this, VK_OBJECT_TYPE_BUFFER, out.buffer_, name);
  VkMemoryRequirements req;
  f.vkGetBufferMemoryRequirements(device_, out.buffer_, &req);
  const std::vector<uint32_t> candidates =
      MemoryCandidates(memory_properties_, req.memoryTypeBits, memory);
  if (candidates.empty()) {
    return ErrorInfo{Error::kNoSuitableMemoryType,
                     "no memory type for a buffer of " + std::to_string(size) + " bytes",
                     {},
                     0};
  }
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkResult last = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t type : candidates) {
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.pNext = device_address ? &flags : nullptr;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    last = f.vkAllocateMemory(device_, &alloc, allocator_, &out.memory_);
    if (last == VK_SUCCESS) break;
    out.memory_ = VK_NULL_HANDLE;
  }
  if (!out.memory_) return VulkanError("vkAllocateMemory", last);
  detail::SetName(*this, VK_OBJECT_TYPE_DEVICE_MEMORY, out.memory_, name);
  if (VkResult r = f.vkBindBufferMemory(device_, out.buffer_, out.memory_, 0); r != VK_SUCCESS) {
    return VulkanError("vkBindBufferMemory", r);
  }
  if (memory != MemoryUsage::kDeviceLocal) {
    if (VkResult r = f.vkMapMemory(device_, out.memory_, 0, VK_WHOLE_SIZE, 0, &out.mapped_);
        r != VK_SUCCESS) {
      return VulkanError("vkMapMemory", r);
    }
  }
  return out;
}

Status Context::SubmitAndWait(const std::function<void(VkCommandBuffer)>& record) const {
  if (!record) return {Error::kInvalidArgument, "nothing to record", "record"};
  if (adopted_) {
    return {Error::kNotAllowedInAdoptMode,
            "sinew never submits to an adopted device; record into the host's command buffer"};
  }
  const detail::Functions& f = *functions_;
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (VkResult r = f.vkAllocateCommandBuffers(device_, &alloc, &cmd); r != VK_SUCCESS) {
    return VulkanError("vkAllocateCommandBuffers", r);
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  f.vkBeginCommandBuffer(cmd, &begin);
  record(cmd);
  VkResult r = f.vkEndCommandBuffer(cmd);
  if (r == VK_SUCCESS) {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    f.vkResetFences(device_, 1, &fence_);
    r = f.vkQueueSubmit(queue_, 1, &submit, fence_);
    if (r == VK_SUCCESS) r = f.vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX);
  }
  f.vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
  if (r != VK_SUCCESS) return VulkanError("vkQueueSubmit/vkWaitForFences", r);
  return {};
}

}  // namespace sinew::vk
