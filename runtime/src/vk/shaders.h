// The embedded SPIR-V of every kernel (compiled from shaders/ at build time).
#pragma once

#include <cstdint>
#include <span>

namespace sinew::vk::shaders {

std::span<const uint32_t> SkinDense();
std::span<const uint32_t> SkinSparse();

}  // namespace sinew::vk::shaders
