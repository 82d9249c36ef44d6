// The embedded SPIR-V of every kernel (compiled from shaders/ at build time).
#pragma once

#include <cstdint>
#include <span>

#include "kernels.h"

namespace sinew::vk::shaders {

// The SPIR-V of a skinning kernel, and the name its pipeline gets ("sinew skin_dense", ...).
// `kind` below KernelKind::kCount. With `instance_in_shared_memory`, a kernel that has a form
// keeping the workgroup's instance record in shared memory (HasSharedInstanceForm) is that form
// (Kernels::InstanceInSharedMemory); the others have one form, which either asks for.
std::span<const uint32_t> Skin(detail::KernelKind kind, bool instance_in_shared_memory);
// Whether `kind` has that second form: only the sparse linear kernel, skin_sparse_shared.comp.
bool HasSharedInstanceForm(detail::KernelKind kind);
const char* SkinName(detail::KernelKind kind);

}  // namespace sinew::vk::shaders
