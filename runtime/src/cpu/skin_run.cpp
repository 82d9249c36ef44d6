#include "sinew/cpu/skin_run.h"

#include <algorithm>
#include <thread>

#include "skin_vertex_x8.h"

namespace sinew::cpu {

uint32_t WidestSkinLanes() noexcept { return detail::WidestLanes(); }

uint32_t ThreadCount(uint32_t requested) noexcept {
  return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace sinew::cpu
