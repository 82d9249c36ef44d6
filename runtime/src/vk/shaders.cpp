#include "shaders.h"

#include "skin_dense.spv.h"  // Generated: const uint32_t sinew_spv_skin_dense[].

namespace sinew::vk::shaders {

std::span<const uint32_t> SkinDense() { return sinew_spv_skin_dense; }

}  // namespace sinew::vk::shaders
