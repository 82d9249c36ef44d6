// docs/embedding.md's "Adopting your device" snippet, compiled exactly as written there
// (adopt_snippet.inc is cut out of docs/embedding.md at configure time; CMakeLists.txt beside this
// file). The names it uses are this function's parameters: the engine's objects. Compiled only:
// main.cpp adopts the host's device itself.
#include <vulkan/vulkan.h>

#include "sinew/vk/context.h"

void AdoptSnippet(VkInstance instance, VkPhysicalDevice gpu, VkDevice device,
                  uint32_t graphics_family, VkQueue graphics_queue,
                  const VkAllocationCallbacks& callbacks, VkPipelineCache cache) {
#include "adopt_snippet.inc"
}
