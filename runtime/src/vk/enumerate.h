// Vulkan's list queries (layers, physical devices, queue families, device extensions, pipeline
// executables and their statistics) all take a count and an array: asked with a null array they
// give the count, asked again they fill that many. Enumerate is that pattern once.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace sinew::vk::detail {

// Fills `out` from `query(uint32_t* count, T* items)`, a lambda around the Vulkan call with its
// other arguments. `blank` is each item before the call fills it (its sType, for the structs
// that have one). Queries that return void (vkGetPhysicalDeviceQueueFamilyProperties) count as
// VK_SUCCESS. When the list grows between the two calls (VK_INCOMPLETE) the count is asked
// again, a few times at most.
// Returns VK_SUCCESS with `out` holding the whole list; VK_INCOMPLETE for a list that kept growing,
// with `out` holding what the last call filled; or the query's first error, with `out` empty.
template <typename T, typename Query>
VkResult Enumerate(std::vector<T>& out, const T& blank, Query&& query) {
  const auto call = [&](uint32_t* count, T* items) {
    if constexpr (std::is_void_v<decltype(query(count, items))>) {
      query(count, items);
      return VK_SUCCESS;
    } else {
      return query(count, items);
    }
  };
  VkResult result = VK_INCOMPLETE;
  for (int attempt = 0; attempt < 4 && result == VK_INCOMPLETE; ++attempt) {
    out.clear();
    uint32_t count = 0;
    if (VkResult r = call(&count, nullptr); r != VK_SUCCESS) return r;
    if (count == 0) return VK_SUCCESS;  // an empty array's data() may be null: not a second call
    out.assign(count, blank);
    result = call(&count, out.data());
    out.resize(count);  // the second call may fill fewer
  }
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) out.clear();
  return result;
}

// Enumerate for item types without an sType.
template <typename T, typename Query>
VkResult Enumerate(std::vector<T>& out, Query&& query) {
  return Enumerate(out, T{}, static_cast<Query&&>(query));
}

}  // namespace sinew::vk::detail
