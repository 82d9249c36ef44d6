// The headless snippet of docs/embedding.md ("Headless: sinew's own device"), compiled exactly as
// written there (headless_snippet.inc is cut out of docs/embedding.md at configure time;
// CMakeLists.txt beside this file) and run by main.cpp on a real asset. The names it uses that it
// does not declare are this function's parameters.
#include "headless_snippet.h"

#include <vulkan/vulkan.h>

#include <utility>

#include "sinew/cpu/evaluate_scene.h"
#include "sinew/loader/load_asset.h"
#include "sinew/vk/context.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache_asset.h"

bool HeadlessSnippet(const std::filesystem::path& path, float time,
                     sinew::cpu::DeformedPrimitive* result) {
  bool read = false;
  [&] {  // the snippet returns early where a step fails
#include "headless_snippet.inc"
    if (!out) return;
    *result = *std::move(out);
    read = true;
  }();
  return read;
}
