// The threads a CPU job runs on, from what it asks for (the skinning jobs' `threads`).
#pragma once

#include <cstdint>

namespace sinew::cpu {

// `requested`, or every hardware thread for 0 (at least 1).
uint32_t ThreadCount(uint32_t requested) noexcept;

}  // namespace sinew::cpu
