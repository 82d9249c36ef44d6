#include "shaders.h"

// Generated: const uint32_t sinew_spv_<name>[] for each shaders/<name>.comp.
#include "skin_dense.spv.h"
#include "skin_dense_dq.spv.h"
#include "skin_sparse.spv.h"
#include "skin_sparse_dq.spv.h"

namespace sinew::vk::shaders {

std::span<const uint32_t> Skin(detail::KernelKind kind) {
  switch (kind) {
    case detail::KernelKind::kSkinSparse:
      return sinew_spv_skin_sparse;
    case detail::KernelKind::kSkinDenseDualQuaternion:
      return sinew_spv_skin_dense_dq;
    case detail::KernelKind::kSkinSparseDualQuaternion:
      return sinew_spv_skin_sparse_dq;
    default:
      return sinew_spv_skin_dense;
  }
}

const char* SkinName(detail::KernelKind kind) {
  switch (kind) {
    case detail::KernelKind::kSkinSparse:
      return "sinew skin_sparse";
    case detail::KernelKind::kSkinDenseDualQuaternion:
      return "sinew skin_dense_dq";
    case detail::KernelKind::kSkinSparseDualQuaternion:
      return "sinew skin_sparse_dq";
    default:
      return "sinew skin_dense";
  }
}

}  // namespace sinew::vk::shaders
