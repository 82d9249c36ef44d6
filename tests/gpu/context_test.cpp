// vk::Context in both modes (docs/embedding.md).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/gpu_test.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

using testing::GpuTest;
using testing::RunningInCi;

class ContextTest : public GpuTest {};

TEST_F(ContextTest, HeadlessContextOwnsADeviceWithAComputeQueue) {
  EXPECT_FALSE(context_->adopted());
  EXPECT_NE(context_->device(), VK_NULL_HANDLE);
  EXPECT_NE(context_->queue(), VK_NULL_HANDLE);
  EXPECT_GE(context_->properties().apiVersion, VK_API_VERSION_1_2);
  ASSERT_NE(context_->get_device_proc_addr(), nullptr);
  EXPECT_NE(context_->get_device_proc_addr()(context_->device(), "vkCmdDispatch"), nullptr);
  if (RunningInCi()) {
    EXPECT_TRUE(context_->validation_enabled());
  }
}

TEST_F(ContextTest, DeviceSelectorPicksADeviceByNameSubstringAndContextsCoexist) {
  const std::string name = context_->properties().deviceName;
  vk::ContextOptions options;
  options.device = name.substr(0, std::min<size_t>(name.size(), 5));
  auto second = vk::Context::Create(options);
  ASSERT_TRUE(second.ok()) << second.error().ToString();
  EXPECT_STREQ((*second)->properties().deviceName, name.c_str());
  EXPECT_NE((*second)->device(), context_->device());
  testing::ExpectNoValidationMessages(**second);
}

// Whether `context`'s physical device lists VK_KHR_pipeline_executable_properties (asked through
// the context's own loader entry point, independently of the Context's own check).
bool ListsPipelineExecutableProperties(const vk::Context& context) {
  const auto enumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
      context.get_instance_proc_addr()(context.instance(), "vkEnumerateDeviceExtensionProperties"));
  uint32_t count = 0;
  enumerate(context.physical_device(), nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  enumerate(context.physical_device(), nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions) {
    if (std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0) {
      return true;
    }
  }
  return false;
}

// Kernel statistics are captured where asked for and offered (the device lists the extension; its
// feature is checked too), and then every compiled kernel is listed under its descriptive name
// with what the driver says of it; elsewhere the list is empty, not an error. Lavapipe in Debian 12
// does not offer the extension; NVIDIA's driver does (BENCHMARKS.md).
TEST_F(ContextTest, KernelStatisticsAreListedWhereAskedForAndOffered) {
  EXPECT_FALSE(context_->kernel_statistics_enabled());  // not asked for
  auto none = context_->QueryKernelStatistics();
  ASSERT_TRUE(none.ok()) << none.error().ToString();
  EXPECT_TRUE(none->empty());

  vk::ContextOptions options;
  options.kernel_statistics = true;
  auto asked = testing::CreateContextOrReport(options);
  if (!asked) GTEST_SKIP();
  const bool offered = ListsPipelineExecutableProperties(*asked);
  if (!offered) {
    EXPECT_FALSE(asked->kernel_statistics_enabled());
  }
  auto cache = vk::SkinCache::Create(*asked);  // compiles the common dense and sparse kernels
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  auto kernels = asked->QueryKernelStatistics();
  ASSERT_TRUE(kernels.ok()) << kernels.error().ToString();
  if (!asked->kernel_statistics_enabled()) {
    EXPECT_TRUE(kernels->empty());
  } else {
    EXPECT_TRUE(offered);
    ASSERT_GE(kernels->size(), 2u);
    for (const vk::KernelStatistics& k : *kernels) {
      EXPECT_TRUE(k.kernel.starts_with("sinew skin_")) << k.kernel;
      EXPECT_NE(k.kernel.find(" workgroup "), std::string::npos) << k.kernel;
      EXPECT_FALSE(k.statistics.empty()) << k.kernel;
    }
  }
  testing::ExpectNoValidationMessages(*asked);
}

TEST_F(ContextTest, DeviceSelectorPicksADeviceByIndex) {
  vk::ContextOptions options;
  options.device = "0";
  auto by_index = vk::Context::Create(options);
  ASSERT_TRUE(by_index.ok()) << by_index.error().ToString();
}

TEST_F(ContextTest, DeviceSelectorMatchingNothingFailsWithNoVulkanDevice) {
  vk::ContextOptions options;
  options.device = "no-such-device-anywhere";
  auto none = vk::Context::Create(options);
  EXPECT_EQ(none.code(), Error::kNoVulkanDevice);
  EXPECT_NE(none.error().message.find("no-such-device-anywhere"), std::string::npos);
}

TEST_F(ContextTest, TheLibraryReadsNoEnvironmentVariableToChooseTheDevice) {
  const char* previous = std::getenv("SINEW_DEVICE");
  const std::string saved = previous ? previous : "";
  setenv("SINEW_DEVICE", "no-such-device-anywhere", 1);
  auto created = vk::Context::Create();
  if (previous) {
    setenv("SINEW_DEVICE", saved.c_str(), 1);
  } else {
    unsetenv("SINEW_DEVICE");
  }
  ASSERT_TRUE(created.ok()) << created.error().ToString();
}

TEST_F(ContextTest, CreateBufferRejectsSizeZero) {
  EXPECT_EQ(
      context_->CreateBuffer(0, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, vk::MemoryUsage::kDeviceLocal)
          .code(),
      Error::kInvalidArgument);
}

// Every storage buffer is bound whole, so one larger than the device's range is refused up front
// (an invalid descriptor otherwise); nothing is allocated for the refused size.
TEST_F(ContextTest, CreateBufferRejectsAStorageBufferPastTheDevicesRange) {
  const VkDeviceSize range = context_->properties().limits.maxStorageBufferRange;
  auto buffer = context_->CreateBuffer(range + 1, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       vk::MemoryUsage::kDeviceLocal);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.code(), Error::kInvalidArgument);
  EXPECT_NE(buffer.error().message.find("maxStorageBufferRange"), std::string::npos);
}

TEST_F(ContextTest, ValidationMessagesAreCollectedSoTestsCanFailOnThem) {
  // A second context, so the fixture's own check stays clean. Buffer usage 0 is invalid
  // (VUID-VkBufferCreateInfo-usage-requiredbitmask): the layer must report it.
  vk::ContextOptions options;
  options.validation = vk::Validation::kOn;
  const std::unique_ptr<vk::Context> checked = testing::CreateContextOrReport(options);
  if (!checked) GTEST_SKIP() << "validation layer not installed";
  const vk::Context& ctx = *checked;
  ASSERT_TRUE(ctx.validation_messages().empty());
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 64;
  info.usage = 0;
  VkBuffer buffer = VK_NULL_HANDLE;
  const PFN_vkGetDeviceProcAddr gdpa = ctx.get_device_proc_addr();
  auto create = reinterpret_cast<PFN_vkCreateBuffer>(gdpa(ctx.device(), "vkCreateBuffer"));
  auto destroy = reinterpret_cast<PFN_vkDestroyBuffer>(gdpa(ctx.device(), "vkDestroyBuffer"));
  if (create(ctx.device(), &info, nullptr, &buffer) == VK_SUCCESS) {
    destroy(ctx.device(), buffer, nullptr);
  }
  EXPECT_FALSE(ctx.validation_messages().empty());
}

TEST(ContextAdopt, RejectsMissingHandles) {
  vk::AdoptInfo info;
  auto adopted = vk::Context::Adopt(info);
  EXPECT_EQ(adopted.code(), Error::kInvalidArgument);
  EXPECT_EQ(adopted.error().where, "AdoptInfo");
}

// A host engine's own Vulkan setup, written here without sinew.
struct Host {
  void* library = nullptr;
  PFN_vkGetInstanceProcAddr gipa = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  std::vector<std::string> messages;
  struct {
    PFN_vkGetDeviceQueue vkGetDeviceQueue;
    PFN_vkDestroyDevice vkDestroyDevice;
    PFN_vkCreateCommandPool vkCreateCommandPool;
    PFN_vkDestroyCommandPool vkDestroyCommandPool;
    PFN_vkAllocateCommandBuffers vkAllocateCommandBuffers;
    PFN_vkBeginCommandBuffer vkBeginCommandBuffer;
    PFN_vkEndCommandBuffer vkEndCommandBuffer;
    PFN_vkQueueSubmit vkQueueSubmit;
    PFN_vkQueueWaitIdle vkQueueWaitIdle;
    PFN_vkCmdCopyBuffer vkCmdCopyBuffer;
    PFN_vkCmdPipelineBarrier vkCmdPipelineBarrier;
  } table{};

  template <typename Fn>
  Fn Get(const char* name) {
    return reinterpret_cast<Fn>(gipa(instance, name));
  }

  static VKAPI_ATTR VkBool32 VKAPI_CALL OnMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* d,
                                                  void* user) {
    static_cast<Host*>(user)->messages.emplace_back(d->pMessage);
    return VK_FALSE;
  }

  // Returns an empty string on success.
  std::string Create() {
    library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return "no libvulkan.so.1";
    gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
    auto enum_layers =
        Get<PFN_vkEnumerateInstanceLayerProperties>("vkEnumerateInstanceLayerProperties");
    uint32_t count = 0;
    enum_layers(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    enum_layers(&count, layers.data());
    bool validation = false;
    for (auto& l : layers)
      validation |= std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ii{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ii.pApplicationInfo = &app;
    if (validation) {
      ii.enabledLayerCount = 1;
      ii.ppEnabledLayerNames = &layer;
      ii.enabledExtensionCount = 1;
      ii.ppEnabledExtensionNames = &extension;
    }
    if (Get<PFN_vkCreateInstance>("vkCreateInstance")(&ii, nullptr, &instance) != VK_SUCCESS) {
      return "vkCreateInstance failed";
    }
    if (validation) {
      VkDebugUtilsMessengerCreateInfoEXT mi{
          VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
      mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
      mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
      mi.pfnUserCallback = OnMessage;
      mi.pUserData = this;
      Get<PFN_vkCreateDebugUtilsMessengerEXT>("vkCreateDebugUtilsMessengerEXT")(
          instance, &mi, nullptr, &messenger);
    }
    uint32_t n = 0;
    auto enum_devices = Get<PFN_vkEnumeratePhysicalDevices>("vkEnumeratePhysicalDevices");
    enum_devices(instance, &n, nullptr);
    if (n == 0) return "no physical device";
    std::vector<VkPhysicalDevice> devices(n);
    enum_devices(instance, &n, devices.data());
    physical = devices[0];
    auto families_of = Get<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
        "vkGetPhysicalDeviceQueueFamilyProperties");
    uint32_t fc = 0;
    families_of(physical, &fc, nullptr);
    std::vector<VkQueueFamilyProperties> families(fc);
    families_of(physical, &fc, families.data());
    while (family < fc && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    if (family == fc) return "no compute queue";
    const float priority = 1;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    if (Get<PFN_vkCreateDevice>("vkCreateDevice")(physical, &di, nullptr, &device) != VK_SUCCESS) {
      return "vkCreateDevice failed";
    }
    auto gdpa = Get<PFN_vkGetDeviceProcAddr>("vkGetDeviceProcAddr");
#define HOST_LOAD(name) table.name = reinterpret_cast<PFN_##name>(gdpa(device, #name));
    HOST_LOAD(vkGetDeviceQueue)
    HOST_LOAD(vkDestroyDevice)
    HOST_LOAD(vkCreateCommandPool)
    HOST_LOAD(vkDestroyCommandPool)
    HOST_LOAD(vkAllocateCommandBuffers)
    HOST_LOAD(vkBeginCommandBuffer)
    HOST_LOAD(vkEndCommandBuffer)
    HOST_LOAD(vkQueueSubmit)
    HOST_LOAD(vkQueueWaitIdle)
    HOST_LOAD(vkCmdCopyBuffer)
    HOST_LOAD(vkCmdPipelineBarrier)
#undef HOST_LOAD
    table.vkGetDeviceQueue(device, family, 0, &queue);
    return {};
  }

  ~Host() {
    if (device) table.vkDestroyDevice(device, nullptr);
    if (messenger) {
      Get<PFN_vkDestroyDebugUtilsMessengerEXT>("vkDestroyDebugUtilsMessengerEXT")(
          instance, messenger, nullptr);
    }
    if (instance) Get<PFN_vkDestroyInstance>("vkDestroyInstance")(instance, nullptr);
    if (library) dlclose(library);
  }
};

TEST(ContextAdopt, SkinsIntoTheHostsCommandBufferAndNeverSubmits) {
  Host host;
  if (std::string err = host.Create(); !err.empty()) {
    if (RunningInCi()) FAIL() << "CI=true and no Vulkan device: " << err;
    GTEST_SKIP() << err;
  }
  {
    vk::AdoptInfo info;
    info.get_instance_proc_addr = host.gipa;
    info.instance = host.instance;
    info.physical_device = host.physical;
    info.device = host.device;
    info.queue_family = host.family;
    info.queue = host.queue;
    auto adopted = vk::Context::Adopt(info);
    ASSERT_TRUE(adopted.ok()) << adopted.error().ToString();
    const vk::Context& ctx = **adopted;
    EXPECT_TRUE(ctx.adopted());
    EXPECT_EQ(ctx.device(), host.device);

    // sinew refuses to submit to the host's queue.
    EXPECT_EQ(ctx.SubmitAndWait([](VkCommandBuffer) {}).code(), Error::kNotAllowedInAdoptMode);
    procedural::CharacterOptions co;
    co.vertex_count = 257;
    auto character = procedural::MakeCharacter(co);
    ASSERT_TRUE(character.ok());
    const Primitive* mesh = &character->mesh;
    const uint32_t joints = uint32_t(character->skeleton.joint_count());
    auto cache = vk::SkinCache::Create(ctx);
    ASSERT_TRUE(cache.ok()) << cache.error().ToString();
    EXPECT_EQ((*cache)->AddMesh(*mesh, joints).code(), Error::kNotAllowedInAdoptMode);

    // The host owns the command buffer and the submission.
    VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.queueFamilyIndex = host.family;
    VkCommandPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(host.table.vkCreateCommandPool(host.device, &pi, nullptr, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    ASSERT_EQ(host.table.vkAllocateCommandBuffers(host.device, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    host.table.vkBeginCommandBuffer(cmd, &bi);

    auto mesh_id = (*cache)->AddMesh(*mesh, joints, cmd);
    ASSERT_TRUE(mesh_id.ok()) << mesh_id.error().ToString();
    const vk::PaletteId palette_id = (*cache)->AddPalette(joints).value();
    const vk::InstanceId instance = (*cache)->AddInstance(*mesh_id, palette_id).value();
    std::vector<Float3x4> palette(joints);
    ASSERT_TRUE(procedural::CrowdPalette(character->skeleton, 1.25f, 0, palette).ok());
    ASSERT_TRUE((*cache)->SetPalette(palette_id, palette).ok());
    ASSERT_TRUE((*cache)->Record(cmd).ok());
    (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkDeviceSize bytes = mesh->positions.size() * sizeof(float);
    auto readback =
        ctx.CreateBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, vk::MemoryUsage::kReadback);
    ASSERT_TRUE(readback.ok());
    const vk::InstanceOutputs outputs = (*cache)->outputs(instance);
    VkBufferCopy region{outputs.positions, 0, bytes};
    host.table.vkCmdCopyBuffer(cmd, outputs.buffer, readback->handle(), 1, &region);
    VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    host.table.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                                    0, 1, &to_host, 0, nullptr, 0, nullptr);
    host.table.vkEndCommandBuffer(cmd);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    ASSERT_EQ(host.table.vkQueueSubmit(host.queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    ASSERT_EQ(host.table.vkQueueWaitIdle(host.queue), VK_SUCCESS);

    std::vector<float> expected(mesh->positions.size());
    cpu::SkinDenseJob job = cpu::SkinDenseJobFor(*mesh, palette);
    job.normals = {};  // Positions only: the host reads back positions.
    job.tangents = {};
    job.out_positions = expected;
    ASSERT_TRUE(job.Run().ok());
    const auto* got = static_cast<const float*>(readback->mapped());
    const float tolerance = 1e-5f * BoundsDiagonal(mesh->positions);
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_NEAR(got[i], expected[i], tolerance) << i;

    host.table.vkDestroyCommandPool(host.device, pool, nullptr);
  }
  for (const std::string& m : host.messages) ADD_FAILURE() << "Vulkan validation: " << m;
}

}  // namespace
}  // namespace sinew
