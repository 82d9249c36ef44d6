#include "shaders.h"

#include "skin_dense.spv.h"   // Generated: const uint32_t sinew_spv_skin_dense[].
#include "skin_sparse.spv.h"  // Generated: const uint32_t sinew_spv_skin_sparse[].

namespace sinew::vk::shaders {

std::span<const uint32_t> SkinDense() { return sinew_spv_skin_dense; }
std::span<const uint32_t> SkinSparse() { return sinew_spv_skin_sparse; }

}  // namespace sinew::vk::shaders
