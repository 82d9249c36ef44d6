#include "shaders.h"

#include <array>

// Generated: const uint32_t sinew_spv_<name>[] for each shaders/<name>.comp.
#include "skin_dense.spv.h"
#include "skin_dense_dq.spv.h"
#include "skin_sparse.spv.h"
#include "skin_sparse_dq.spv.h"
#include "skin_sparse_shared.spv.h"

namespace sinew::vk::shaders {
namespace {

struct Shader {
  std::span<const uint32_t> code;
  std::span<const uint32_t> shared_instance_code;  // empty: the kernel has one form
  const char* name;
};

// In KernelKind's order.
const std::array<Shader, detail::kKernelKinds> kShaders = {{
    {sinew_spv_skin_dense, {}, "sinew skin_dense"},
    {sinew_spv_skin_sparse, sinew_spv_skin_sparse_shared, "sinew skin_sparse"},
    {sinew_spv_skin_dense_dq, {}, "sinew skin_dense_dq"},
    {sinew_spv_skin_sparse_dq, {}, "sinew skin_sparse_dq"},
}};

}  // namespace

std::span<const uint32_t> Skin(detail::KernelKind kind, bool instance_in_shared_memory) {
  const Shader& shader = kShaders[static_cast<size_t>(kind)];
  if (instance_in_shared_memory && !shader.shared_instance_code.empty()) {
    return shader.shared_instance_code;
  }
  return shader.code;
}
bool HasSharedInstanceForm(detail::KernelKind kind) {
  return !kShaders[static_cast<size_t>(kind)].shared_instance_code.empty();
}
const char* SkinName(detail::KernelKind kind) { return kShaders[static_cast<size_t>(kind)].name; }

}  // namespace sinew::vk::shaders
