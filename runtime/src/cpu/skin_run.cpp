#include "sinew/cpu/skin_run.h"

#include <algorithm>
#include <thread>

#include "skin_vertex_x4.h"

namespace sinew::cpu {

bool VectorizedSkinning() noexcept {
#if defined(SINEW_SKIN_X4)
  return true;
#else
  return false;
#endif
}

uint32_t ThreadCount(uint32_t requested) noexcept {
  return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace sinew::cpu
