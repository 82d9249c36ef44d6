// The embedded SPIR-V of every kernel (compiled from shaders/ at build time).
#pragma once

#include <cstdint>
#include <span>

#include "kernels.h"

namespace sinew::vk::shaders {

// The SPIR-V of a skinning kernel, and the name its pipeline gets ("sinew skin_dense", ...).
// `kind` below KernelKind::kCount. With `instance_in_shared_memory` the sparse linear kernel is
// skin_sparse_shared.comp (Kernels::InstanceInSharedMemory); the others have one form.
std::span<const uint32_t> Skin(detail::KernelKind kind, bool instance_in_shared_memory);
const char* SkinName(detail::KernelKind kind);

}  // namespace sinew::vk::shaders
