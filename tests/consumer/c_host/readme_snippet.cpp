// The README's "Using it from an engine" snippet, compiled exactly as written there
// (readme_snippet.inc is cut out of README.md at configure time; CMakeLists.txt beside this file).
// The names it uses are this function's parameters: the engine's objects.
#include <vulkan/vulkan.h>

#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/vk/context.h"
#include "sinew/vk/skin_cache.h"

void ReadmeSnippet(VkInstance instance, VkPhysicalDevice gpu, VkDevice device,
                   uint32_t graphics_family, VkQueue graphics_queue, VkCommandBuffer upload_cmd,
                   VkCommandBuffer cmd, const sinew::Primitive& primitive, uint32_t joints,
                   std::span<const sinew::Float3x4> palette_of_instance_i) {
#include "readme_snippet.inc"
}
