// The engine sample: sinew inside an engine, start to finish, in one file to read first.
//
//   sinew_engine_sample FILE [--characters N] [--frames F] [--fps R] [--size WxH] [--out DIR]
//                       [--compact]
//
// 1. The engine creates its own Vulkan instance (the validation layer on when installed; required
//    when CI=true) and a device with one queue family that does graphics and compute.
// 2. It adopts them into sinew (vk::Context::Adopt): sinew records, the engine submits.
// 3. It loads FILE with sinew's loader and puts N characters of it in one vk::SkinCache
//    (engine_scene.h), standing in a square grid, each in its own material variant when the file
//    has KHR_materials_variants (character c: variant c - 1, character 0 the default materials).
//    With --compact the cache stores and writes VertexFormats::Compact() (docs/vertex_formats.md)
//    and the graphics pass decodes the octahedral normals in its vertex shader.
// 4. Every frame it poses each character on the CPU (its clip time offset by a third of a second
//    per character; the engine's placement pre-multiplies the scene matrices), records sinew's
//    kernels and its own graphics pass into one command buffer, submits it and waits, and writes
//    the picture as DIR/frame_<f>.png.
// Exit code 0; 1 on an error or any validation message; 77 without a Vulkan device (outside CI).
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "camera.h"
#include "engine_scene.h"
#include "png_file.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/vk/context.h"

namespace {

constexpr int kSkipped = 77;
constexpr uint8_t kBackground[3] = {46, 50, 58};

bool InCi() {
  const char* ci = std::getenv("CI");
  return ci && std::string_view(ci) == "true";
}

struct Options {
  std::string file, out = ".";
  uint32_t characters = 3, frames = 3, width = 640, height = 360;
  float fps = 10;
  bool compact = false;
};

bool ParseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--characters" && value) {
      o->characters = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--frames" && value) {
      o->frames = uint32_t(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--fps" && value) {
      o->fps = std::strtof(argv[++i], nullptr);
    } else if (a == "--out" && value) {
      o->out = argv[++i];
    } else if (a == "--compact") {
      o->compact = true;
    } else if (a == "--size" && value) {
      if (std::sscanf(argv[++i], "%ux%u", &o->width, &o->height) != 2) return false;
    } else if (o->file.empty() && !a.starts_with("--")) {
      o->file = std::string(a);
    } else {
      return false;
    }
  }
  return !o->file.empty() && o->characters >= 1 && o->characters <= 64 && o->frames >= 1 &&
         o->fps > 0 && o->width >= 1 && o->height >= 1 && o->width <= 4096 && o->height <= 4096;
}

// Counts what the validation layer reports (warnings and errors) and prints it.
VKAPI_ATTR VkBool32 VKAPI_CALL OnValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* user) {
  ++*static_cast<int*>(user);
  std::fprintf(stderr, "validation: %s\n", data->pMessage);
  return VK_FALSE;
}

bool HasValidationLayer() {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& l : layers) {
    if (std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0) return true;
  }
  return false;
}

// The box one character covers over its clip (the CPU reference at 9 times): what the camera
// frames, once per place of the grid.
sinew::engine::Bounds CharacterBounds(const sinew::Asset& a) {
  sinew::engine::Bounds box;
  const int32_t clip = a.animations.empty() ? -1 : 0;
  const sinew::cpu::ClipRange range =
      clip >= 0 ? sinew::cpu::RangeOf(a.animations[0]) : sinew::cpu::ClipRange{};
  for (int i = 0; i <= 8; ++i) {
    auto scene = sinew::cpu::EvaluateScene(a, clip, range.start + range.duration() * float(i) / 8);
    if (!scene) continue;
    for (const sinew::cpu::DrawnMesh& drawn : sinew::cpu::DrawnMeshes(a)) {
      auto palette = sinew::cpu::InstancePalette(a, drawn.node, scene->world);
      if (!palette) continue;
      for (uint32_t k = 0; k < a.meshes[drawn.mesh].primitives.size(); ++k) {
        sinew::cpu::DeformedPrimitive out;
        if (sinew::cpu::DeformPrimitive(a, drawn.node, k, scene->world,
                                        scene->pose.weights[drawn.node], *palette, &out)) {
          box.Add(out.positions);
        }
      }
    }
  }
  return box;
}

int Fail(const std::string& what) {
  std::fprintf(stderr, "sinew_engine_sample: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!ParseOptions(argc, argv, &o)) {
    std::fputs(
        "usage: sinew_engine_sample FILE [--characters N] [--frames F] [--fps R] "
        "[--size WxH] [--out DIR] [--compact]\n",
        stderr);
    return 2;
  }
  const auto no_device = [&](const char* what) {
    std::fprintf(stderr, "sinew_engine_sample: %s\n", what);
    return InCi() ? 1 : kSkipped;
  };

  // 1. The engine's instance and device.
  const bool validation = HasValidationLayer();
  if (!validation && InCi()) return Fail("no validation layer (required when CI=true)");
  int messages = 0;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = OnValidationMessage;
  messenger_info.pUserData = &messages;
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "sinew engine sample";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  if (validation) {
    instance_info.pNext = &messenger_info;  // also reports on vkCreateInstance itself
    instance_info.enabledLayerCount = 1;
    instance_info.ppEnabledLayerNames = &layer;
    instance_info.enabledExtensionCount = 1;
    instance_info.ppEnabledExtensionNames = &extension;
  }
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&instance_info, nullptr, &instance) != VK_SUCCESS) {
    return no_device("vkCreateInstance failed");
  }
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  const auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  if (validation) {
    const auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create) create(instance, &messenger_info, nullptr, &messenger);
  }
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> gpus(count);
  vkEnumeratePhysicalDevices(instance, &count, gpus.data());
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  uint32_t family = 0;
  for (VkPhysicalDevice candidate : gpus) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    if (properties.apiVersion < VK_API_VERSION_1_2) continue;
    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(candidate, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(candidate, &family_count, families.data());
    for (uint32_t f = 0; f < family_count && !gpu; ++f) {
      const VkQueueFlags both = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
      if ((families[f].queueFlags & both) == both) gpu = candidate, family = f;
    }
    if (gpu) break;
  }
  if (!gpu) return no_device("no Vulkan 1.2 device with a graphics and compute queue");
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
    return Fail("vkCreateDevice failed");
  }
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, family, 0, &queue);
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = family;
  VkCommandPool pool = VK_NULL_HANDLE;
  vkCreateCommandPool(device, &pool_info, nullptr, &pool);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  vkAllocateCommandBuffers(device, &alloc, &cmd);
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  vkCreateFence(device, &fence_info, nullptr, &fence);
  // Records `record` into the engine's command buffer, submits it and waits for it. When `record`
  // fails, what it recorded is thrown away, not submitted.
  const auto submit = [&](const auto& record) -> bool {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    const bool recorded = record();
    vkEndCommandBuffer(cmd);
    if (!recorded) {
      vkResetCommandBuffer(cmd, 0);
      return false;
    }
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    const bool done = vkQueueSubmit(queue, 1, &si, fence) == VK_SUCCESS &&
                      vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS &&
                      vkResetFences(device, 1, &fence) == VK_SUCCESS;
    return done;
  };

  // Steps 2 to 4; sinew's objects are gone when it returns, before the engine's device.
  const int rc = [&]() -> int {
    // 2. sinew on the engine's device.
    sinew::vk::AdoptInfo adopt;
    adopt.get_instance_proc_addr = vkGetInstanceProcAddr;
    adopt.instance = instance;
    adopt.physical_device = gpu;
    adopt.device = device;
    adopt.queue_family = family;
    adopt.queue = queue;
    adopt.debug_utils = validation;
    auto context = sinew::vk::Context::Adopt(adopt);
    if (!context) return Fail("Adopt: " + context.error().ToString());

    // 3. The asset and its characters.
    auto file = sinew::loader::LoadAsset(o.file);
    if (!file) return Fail(o.file + ": " + file.error().ToString());
    const sinew::Asset& a = file->loaded.asset;
    sinew::engine::SceneOptions scene_options;
    scene_options.characters = o.characters;
    scene_options.width = o.width;
    scene_options.height = o.height;
    if (o.compact) scene_options.formats = sinew::VertexFormats::Compact();
    std::unique_ptr<sinew::engine::EngineScene> scene;
    sinew::Status created;
    if (!submit([&] {
          auto made = sinew::engine::EngineScene::Create(**context, a, scene_options, cmd);
          if (made) scene = std::move(made.value());
          created = made.status();
          return made.ok();
        })) {
      return Fail("the scene: " +
                  (created.ok() ? std::string("submission failed") : created.error().ToString()));
    }
    // The grid: ceil(sqrt(N)) characters a row, a box and a fifth apart along x, rows a box and a
    // fifth apart along -z; the camera frames all of them.
    // The sample's scene is +Y up in metres: each character goes in through the matrix that takes
    // the asset's frame there (what the loaded asset says of its coordinates; a Z-up stage in
    // centimetres stands up, a hundredth of its numbers).
    const sinew::Float4x4 frame = sinew::engine::ToYUpMeters(
        file->loaded.up_axis == sinew::loader::UpAxis::kZ ? sinew::engine::UpAxis::kZ
                                                          : sinew::engine::UpAxis::kY,
        float(file->loaded.meters_per_unit));
    const sinew::engine::Bounds box = sinew::engine::Transformed(CharacterBounds(a), frame);
    const uint32_t columns = uint32_t(std::ceil(std::sqrt(double(o.characters))));
    const float spacing_x = 1.2f * std::max(box.max.x - box.min.x, 1e-3f);
    const float spacing_z = 1.2f * std::max(box.max.z - box.min.z, 1e-3f);
    const auto place_of = [&](uint32_t c) {
      return sinew::Float3{spacing_x * float(c % columns), 0, -spacing_z * float(c / columns)};
    };
    sinew::engine::Bounds grid = box;
    const sinew::Float3 last = place_of(o.characters - 1);
    grid.Add({box.max.x + spacing_x * float(std::min(o.characters, columns) - 1), box.max.y,
              box.min.z + last.z});
    const sinew::Float4x4 camera =
        sinew::engine::FramingViewProjection(grid, float(o.width) / float(o.height));
    const sinew::Float3 light = sinew::engine::FramingLight();
    const int32_t clip = a.animations.empty() ? -1 : 0;

    // 4. The frames.
    std::filesystem::create_directories(o.out);
    for (uint32_t f = 0; f < o.frames; ++f) {
      for (uint32_t c = 0; c < o.characters; ++c) {
        const float time = float(f) / o.fps + 0.33f * float(c);
        auto posed = sinew::cpu::EvaluateScene(a, clip, time, /*loop=*/true);
        if (!posed) return Fail("posing: " + posed.error().ToString());
        const sinew::Float4x4 place = sinew::engine::Placed(frame, place_of(c));
        for (sinew::Float4x4& m : posed->world) m = sinew::Multiply(place, m);
        const int32_t variant = int32_t(c) - 1 < int32_t(a.variants.size()) ? int32_t(c) - 1 : -1;
        if (sinew::Status s = scene->Pose(c, posed->world, posed->pose.weights, variant); !s) {
          return Fail("Pose: " + s.error().ToString());
        }
      }
      sinew::Status recorded;
      if (!submit([&] {
            recorded = scene->Record(cmd, camera, light);
            return recorded.ok();
          })) {
        return Fail("frame " + std::to_string(f) + ": " +
                    (recorded.ok() ? "submission failed" : recorded.error().ToString()));
      }
      std::vector<uint8_t> picture = scene->pass().Pixels();
      sinew::engine::OverBackground(picture, kBackground);
      char name[32];
      std::snprintf(name, sizeof(name), "frame_%03u.png", f);
      const std::string path = (std::filesystem::path(o.out) / name).string();
      std::string error;
      if (!sinew::engine::WritePng(path, o.width, o.height, picture, &error)) return Fail(error);
      std::printf("sinew_engine_sample: %s (%u characters)\n", path.c_str(), o.characters);
    }
    return 0;
  }();
  vkDeviceWaitIdle(device);

  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyDevice(device, nullptr);
  if (messenger && destroy_messenger) destroy_messenger(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
  if (messages > 0) {
    std::fprintf(stderr, "sinew_engine_sample: %d validation messages\n", messages);
    return 1;
  }
  return rc;
}
