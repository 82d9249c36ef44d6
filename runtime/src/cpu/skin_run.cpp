#include "sinew/cpu/skin_run.h"

#include <algorithm>
#include <thread>

#include "skin_vertex_x8.h"

namespace sinew::cpu {

uint32_t WidestSkinLanes() noexcept { return detail::WidestLanes(); }

uint32_t ThreadCount(uint32_t requested) noexcept {
  return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

uint32_t SkinThreads(size_t vertex_count, const SkinRun& run) noexcept {
  const size_t most = std::max<size_t>(1, vertex_count / std::max(1u, run.min_vertices_per_thread));
  return uint32_t(std::min<size_t>(ThreadCount(run.threads), most));
}

}  // namespace sinew::cpu
