#include "sinew/vk/context.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

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
  const VolkDeviceTable& t = context_->device_table();
  if (buffer_) t.vkDestroyBuffer(context_->device(), buffer_, nullptr);
  if (memory_) t.vkFreeMemory(context_->device(), memory_, nullptr);  // Unmaps implicitly.
  context_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  size_ = 0;
  mapped_ = nullptr;
}

// ---------------------------------------------------------------------------------------------
// Context

Context::~Context() {
  if (adopted_) return;  // The host owns every handle.
  if (device_) {
    table_.vkDeviceWaitIdle(device_);
    if (fence_) table_.vkDestroyFence(device_, fence_, nullptr);
    if (command_pool_) table_.vkDestroyCommandPool(device_, command_pool_, nullptr);
    table_.vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) instance_table_.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_) instance_table_.vkDestroyInstance(instance_, nullptr);
  if (loader_library_) dlclose(loader_library_);
}

std::vector<std::string> Context::validation_messages() const {
  if (!sink_) return {};
  std::lock_guard lock(sink_->mutex);
  return sink_->messages;
}

Status Context::LoadDeviceTable(const VolkDeviceTable* host_table) {
  if (host_table) {
    table_ = *host_table;
  } else {
    const PFN_vkGetDeviceProcAddr gdpa = instance_table_.vkGetDeviceProcAddr;
    // Only the entry points sinew calls; the rest of the table stays null.
#define SINEW_LOAD_DEVICE(name) table_.name = reinterpret_cast<PFN_##name>(gdpa(device_, #name));
    SINEW_LOAD_DEVICE(vkDestroyDevice)
    SINEW_LOAD_DEVICE(vkDeviceWaitIdle)
    SINEW_LOAD_DEVICE(vkGetDeviceQueue)
    SINEW_LOAD_DEVICE(vkCreateBuffer)
    SINEW_LOAD_DEVICE(vkDestroyBuffer)
    SINEW_LOAD_DEVICE(vkGetBufferMemoryRequirements)
    SINEW_LOAD_DEVICE(vkAllocateMemory)
    SINEW_LOAD_DEVICE(vkFreeMemory)
    SINEW_LOAD_DEVICE(vkBindBufferMemory)
    SINEW_LOAD_DEVICE(vkMapMemory)
    SINEW_LOAD_DEVICE(vkUnmapMemory)
    SINEW_LOAD_DEVICE(vkCreateShaderModule)
    SINEW_LOAD_DEVICE(vkDestroyShaderModule)
    SINEW_LOAD_DEVICE(vkCreateDescriptorSetLayout)
    SINEW_LOAD_DEVICE(vkDestroyDescriptorSetLayout)
    SINEW_LOAD_DEVICE(vkCreatePipelineLayout)
    SINEW_LOAD_DEVICE(vkDestroyPipelineLayout)
    SINEW_LOAD_DEVICE(vkCreateComputePipelines)
    SINEW_LOAD_DEVICE(vkDestroyPipeline)
    SINEW_LOAD_DEVICE(vkCreateDescriptorPool)
    SINEW_LOAD_DEVICE(vkDestroyDescriptorPool)
    SINEW_LOAD_DEVICE(vkAllocateDescriptorSets)
    SINEW_LOAD_DEVICE(vkUpdateDescriptorSets)
    SINEW_LOAD_DEVICE(vkCreateCommandPool)
    SINEW_LOAD_DEVICE(vkDestroyCommandPool)
    SINEW_LOAD_DEVICE(vkAllocateCommandBuffers)
    SINEW_LOAD_DEVICE(vkFreeCommandBuffers)
    SINEW_LOAD_DEVICE(vkResetCommandBuffer)
    SINEW_LOAD_DEVICE(vkBeginCommandBuffer)
    SINEW_LOAD_DEVICE(vkEndCommandBuffer)
    SINEW_LOAD_DEVICE(vkQueueSubmit)
    SINEW_LOAD_DEVICE(vkCreateFence)
    SINEW_LOAD_DEVICE(vkDestroyFence)
    SINEW_LOAD_DEVICE(vkWaitForFences)
    SINEW_LOAD_DEVICE(vkResetFences)
    SINEW_LOAD_DEVICE(vkCmdBindPipeline)
    SINEW_LOAD_DEVICE(vkCmdBindDescriptorSets)
    SINEW_LOAD_DEVICE(vkCmdPushConstants)
    SINEW_LOAD_DEVICE(vkCmdDispatch)
    SINEW_LOAD_DEVICE(vkCmdPipelineBarrier)
    SINEW_LOAD_DEVICE(vkCmdCopyBuffer)
    SINEW_LOAD_DEVICE(vkCmdFillBuffer)
    SINEW_LOAD_DEVICE(vkCreateQueryPool)
    SINEW_LOAD_DEVICE(vkDestroyQueryPool)
    SINEW_LOAD_DEVICE(vkCmdResetQueryPool)
    SINEW_LOAD_DEVICE(vkCmdWriteTimestamp)
    SINEW_LOAD_DEVICE(vkGetQueryPoolResults)
#undef SINEW_LOAD_DEVICE
  }
  const void* required[] = {
      reinterpret_cast<const void*>(table_.vkCreateBuffer),
      reinterpret_cast<const void*>(table_.vkAllocateMemory),
      reinterpret_cast<const void*>(table_.vkCreateComputePipelines),
      reinterpret_cast<const void*>(table_.vkCmdDispatch),
      reinterpret_cast<const void*>(table_.vkCmdPipelineBarrier),
      reinterpret_cast<const void*>(table_.vkUpdateDescriptorSets),
  };
  for (const void* fn : required) {
    if (!fn) return {Error::kMissingVulkanFunction, "a core Vulkan 1.2 device function is missing"};
  }
  return {};
}

void Context::QueryDevice() {
  instance_table_.vkGetPhysicalDeviceProperties(physical_device_, &properties_);
  instance_table_.vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
}

static Status LoadInstanceTable(PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                                InstanceTable* t) {
  t->vkGetInstanceProcAddr = gipa;
#define SINEW_LOAD_INSTANCE(name) t->name = Load<PFN_##name>(gipa, instance, #name);
  SINEW_LOAD_INSTANCE(vkDestroyInstance)
  SINEW_LOAD_INSTANCE(vkEnumeratePhysicalDevices)
  SINEW_LOAD_INSTANCE(vkGetPhysicalDeviceProperties)
  SINEW_LOAD_INSTANCE(vkGetPhysicalDeviceQueueFamilyProperties)
  SINEW_LOAD_INSTANCE(vkGetPhysicalDeviceMemoryProperties)
  SINEW_LOAD_INSTANCE(vkCreateDevice)
  SINEW_LOAD_INSTANCE(vkGetDeviceProcAddr)
  SINEW_LOAD_INSTANCE(vkCreateDebugUtilsMessengerEXT)   // Null without VK_EXT_debug_utils.
  SINEW_LOAD_INSTANCE(vkDestroyDebugUtilsMessengerEXT)  // Null without VK_EXT_debug_utils.
#undef SINEW_LOAD_INSTANCE
  if (!t->vkDestroyInstance || !t->vkEnumeratePhysicalDevices ||
      !t->vkGetPhysicalDeviceProperties || !t->vkGetPhysicalDeviceQueueFamilyProperties ||
      !t->vkGetPhysicalDeviceMemoryProperties || !t->vkCreateDevice || !t->vkGetDeviceProcAddr) {
    return {Error::kMissingVulkanFunction, "a core Vulkan instance function is missing"};
  }
  return {};
}

Result<std::unique_ptr<Context>> Context::Create(const ContextOptions& options) {
  std::unique_ptr<Context> ctx(new Context());
  ctx->loader_library_ = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!ctx->loader_library_) ctx->loader_library_ = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  if (!ctx->loader_library_) {
    return ErrorInfo{Error::kVulkanLoaderMissing,
                     "cannot open libvulkan.so.1 (Debian package libvulkan1)",
                     {},
                     0};
  }
  auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(ctx->loader_library_, "vkGetInstanceProcAddr"));
  if (!gipa) {
    return ErrorInfo{Error::kVulkanLoaderMissing, "libvulkan has no vkGetInstanceProcAddr", {}, 0};
  }
  auto create_instance = Load<PFN_vkCreateInstance>(gipa, nullptr, "vkCreateInstance");
  auto enum_layers = Load<PFN_vkEnumerateInstanceLayerProperties>(
      gipa, nullptr, "vkEnumerateInstanceLayerProperties");
  auto enum_extensions = Load<PFN_vkEnumerateInstanceExtensionProperties>(
      gipa, nullptr, "vkEnumerateInstanceExtensionProperties");
  if (!create_instance || !enum_layers || !enum_extensions) {
    return ErrorInfo{
        Error::kMissingVulkanFunction, "the Vulkan loader lacks global functions", {}, 0};
  }

  // Validation layer and debug utils.
  constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
  bool have_layer = false;
  if (options.validation != Validation::kOff) {
    uint32_t count = 0;
    enum_layers(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    enum_layers(&count, layers.data());
    for (const auto& l : layers) have_layer |= std::strcmp(l.layerName, kValidationLayer) == 0;
    if (!have_layer && options.validation == Validation::kOn) {
      return ErrorInfo{Error::kVulkanCallFailed,
                       "VK_LAYER_KHRONOS_validation is not installed (Debian package "
                       "vulkan-validationlayers)",
                       {},
                       static_cast<int32_t>(VK_ERROR_LAYER_NOT_PRESENT)};
    }
  }
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  ctx->sink_ = std::make_unique<MessageSink>();
  VkDebugUtilsMessengerCreateInfoEXT messenger_info = MessengerInfo(ctx->sink_.get());
  if (have_layer) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);  // Provided by the layer.
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
  if (have_layer) instance_info.pNext = &messenger_info;  // Also reports create/destroy issues.
  if (VkResult r = create_instance(&instance_info, nullptr, &ctx->instance_); r != VK_SUCCESS) {
    return r == VK_ERROR_INCOMPATIBLE_DRIVER ? ErrorInfo{Error::kNoVulkanDevice,
                                                         "no Vulkan driver (incompatible driver)",
                                                         {},
                                                         static_cast<int32_t>(r)}
                                             : VulkanError("vkCreateInstance", r);
  }
  if (Status s = LoadInstanceTable(gipa, ctx->instance_, &ctx->instance_table_); !s) return s;
  if (have_layer && ctx->instance_table_.vkCreateDebugUtilsMessengerEXT) {
    if (VkResult r = ctx->instance_table_.vkCreateDebugUtilsMessengerEXT(
            ctx->instance_, &messenger_info, nullptr, &ctx->messenger_);
        r != VK_SUCCESS) {
      return VulkanError("vkCreateDebugUtilsMessengerEXT", r);
    }
    ctx->validation_enabled_ = true;
  }

  // Pick a physical device: Vulkan >= 1.2 and a compute queue; then the selector or the best type.
  const InstanceTable& it = ctx->instance_table_;
  uint32_t device_count = 0;
  it.vkEnumeratePhysicalDevices(ctx->instance_, &device_count, nullptr);
  std::vector<VkPhysicalDevice> devices(device_count);
  it.vkEnumeratePhysicalDevices(ctx->instance_, &device_count, devices.data());
  if (devices.empty()) {
    return ErrorInfo{Error::kNoVulkanDevice,
                     "no Vulkan physical device (install mesa-vulkan-drivers for lavapipe)",
                     {},
                     0};
  }
  std::string selector = options.device;
  if (selector.empty()) {
    if (const char* env = std::getenv("SINEW_DEVICE")) selector = env;
  }
  int best = -1;
  int best_rank = 1 << 30;
  uint32_t best_family = 0;
  std::string seen;
  for (uint32_t i = 0; i < device_count; ++i) {
    VkPhysicalDeviceProperties props;
    it.vkGetPhysicalDeviceProperties(devices[i], &props);
    seen += (seen.empty() ? "" : ", ") + std::to_string(i) + ": " + props.deviceName;
    if (props.apiVersion < VK_API_VERSION_1_2) continue;
    uint32_t family_count = 0;
    it.vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    it.vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &family_count, families.data());
    int family = -1;
    for (uint32_t f = 0; f < family_count && family < 0; ++f) {
      if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) family = static_cast<int>(f);
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
      best = static_cast<int>(i);
      best_rank = rank;
      best_family = static_cast<uint32_t>(family);
    }
  }
  if (best < 0) {
    return ErrorInfo{Error::kNoVulkanDevice,
                     "no Vulkan 1.2 device with a compute queue" +
                         (selector.empty() ? std::string() : " matching '" + selector + "'") +
                         " among [" + seen + "]",
                     {},
                     0};
  }
  ctx->physical_device_ = devices[static_cast<size_t>(best)];
  ctx->queue_family_ = best_family;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = best_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  if (VkResult r = it.vkCreateDevice(ctx->physical_device_, &device_info, nullptr, &ctx->device_);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateDevice", r);
  }
  if (Status s = ctx->LoadDeviceTable(nullptr); !s) return s;
  ctx->table_.vkGetDeviceQueue(ctx->device_, best_family, 0, &ctx->queue_);
  ctx->QueryDevice();

  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = best_family;
  if (VkResult r =
          ctx->table_.vkCreateCommandPool(ctx->device_, &pool_info, nullptr, &ctx->command_pool_);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateCommandPool", r);
  }
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = ctx->table_.vkCreateFence(ctx->device_, &fence_info, nullptr, &ctx->fence_);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateFence", r);
  }
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
  if (Status s =
          LoadInstanceTable(info.get_instance_proc_addr, info.instance, &ctx->instance_table_);
      !s) {
    return s;
  }
  uint32_t family_count = 0;
  ctx->instance_table_.vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count,
                                                                nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  ctx->instance_table_.vkGetPhysicalDeviceQueueFamilyProperties(info.physical_device, &family_count,
                                                                families.data());
  if (info.queue_family >= family_count ||
      !(families[info.queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
    return ErrorInfo{Error::kInvalidArgument,
                     "queue family " + std::to_string(info.queue_family) + " has no compute",
                     "AdoptInfo::queue_family", 0};
  }
  if (Status s = ctx->LoadDeviceTable(info.device_table); !s) return s;
  ctx->QueryDevice();
  return ctx;
}

Result<Buffer> Context::CreateBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                                     MemoryUsage memory) const {
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
  Buffer out;
  out.context_ = this;
  out.size_ = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = table_.vkCreateBuffer(device_, &info, nullptr, &out.buffer_); r != VK_SUCCESS) {
    return VulkanError("vkCreateBuffer", r);
  }
  VkMemoryRequirements req;
  table_.vkGetBufferMemoryRequirements(device_, out.buffer_, &req);

  VkMemoryPropertyFlags required = 0, preferred = 0;
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
  }
  // Candidates: preferred-and-required first, then required only; try each until one allocates.
  std::vector<uint32_t> candidates;
  for (int pass = 0; pass < 2; ++pass) {
    const VkMemoryPropertyFlags want = pass == 0 ? (required | preferred) : required;
    for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags flags = memory_properties_.memoryTypes[i].propertyFlags;
      if ((req.memoryTypeBits & (1u << i)) && (flags & want) == want &&
          std::find(candidates.begin(), candidates.end(), i) == candidates.end()) {
        candidates.push_back(i);
      }
    }
  }
  if (candidates.empty()) {
    return ErrorInfo{Error::kNoSuitableMemoryType,
                     "no memory type for a buffer of " + std::to_string(size) + " bytes",
                     {},
                     0};
  }
  VkResult last = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t type : candidates) {
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = type;
    last = table_.vkAllocateMemory(device_, &alloc, nullptr, &out.memory_);
    if (last == VK_SUCCESS) break;
    out.memory_ = VK_NULL_HANDLE;
  }
  if (!out.memory_) return VulkanError("vkAllocateMemory", last);
  if (VkResult r = table_.vkBindBufferMemory(device_, out.buffer_, out.memory_, 0);
      r != VK_SUCCESS) {
    return VulkanError("vkBindBufferMemory", r);
  }
  if (memory != MemoryUsage::kDeviceLocal) {
    if (VkResult r = table_.vkMapMemory(device_, out.memory_, 0, VK_WHOLE_SIZE, 0, &out.mapped_);
        r != VK_SUCCESS) {
      return VulkanError("vkMapMemory", r);
    }
  }
  return out;
}

Status Context::SubmitAndWait(const std::function<void(VkCommandBuffer)>& record) const {
  if (adopted_) {
    return {Error::kNotAllowedInAdoptMode,
            "sinew never submits to an adopted device; record into the host's command buffer"};
  }
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = command_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (VkResult r = table_.vkAllocateCommandBuffers(device_, &alloc, &cmd); r != VK_SUCCESS) {
    return VulkanError("vkAllocateCommandBuffers", r);
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  table_.vkBeginCommandBuffer(cmd, &begin);
  record(cmd);
  VkResult r = table_.vkEndCommandBuffer(cmd);
  if (r == VK_SUCCESS) {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    table_.vkResetFences(device_, 1, &fence_);
    r = table_.vkQueueSubmit(queue_, 1, &submit, fence_);
    if (r == VK_SUCCESS) r = table_.vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX);
  }
  table_.vkFreeCommandBuffers(device_, command_pool_, 1, &cmd);
  if (r != VK_SUCCESS) return VulkanError("vkQueueSubmit/vkWaitForFences", r);
  return {};
}

}  // namespace sinew::vk
