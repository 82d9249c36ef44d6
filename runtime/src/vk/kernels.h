// The compute pipelines of a Context: created once per kernel variant, on first use, through the
// Context's pipeline cache, and shared by every SkinCache of that Context (a character that spawns
// compiles nothing). Destroyed with the Context.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <mutex>

#include "sinew/core/error.h"
#include "sinew/vk/context.h"

namespace sinew::vk::detail {

enum class KernelKind {
  kSkinDense,
  kSkinSparse,
  kSkinDenseDualQuaternion,
  kSkinSparseDualQuaternion,
  kCount
};

inline constexpr uint32_t kKernelVariants = static_cast<uint32_t>(KernelKind::kCount);

// A mesh's kernel as a number below kKernelVariants (the order of KernelKind), for sorting work by
// kernel.
inline uint32_t KernelVariant(bool sparse, bool dual_quaternion) {
  return (sparse ? 1u : 0u) + (dual_quaternion ? 2u : 0u);
}
inline KernelKind KernelFor(uint32_t variant) { return static_cast<KernelKind>(variant); }

// What Record() binds for a kernel: the pipeline and the layout its descriptor set and push
// constants go through (one set layout, gpu_layout.h's bindings, for every kernel).
struct Kernel {
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
};

class Kernels {
 public:
  explicit Kernels(const Context& context) : context_(context) {}
  Kernels(const Kernels&) = delete;
  Kernels& operator=(const Kernels&) = delete;
  ~Kernels();

  // The kernel of `kind`, created on the first call (thread-safe). kVulkanCallFailed.
  Result<Kernel> Get(KernelKind kind);
  // How many pipelines this Context has created so far (tests: one per variant, not per mesh).
  uint32_t pipelines_created() const;

 private:
  Status CreateLayouts();

  const Context& context_;
  mutable std::mutex mutex_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::array<VkPipeline, static_cast<size_t>(KernelKind::kCount)> pipelines_{};
};

// The kernel cache of `context`.
Kernels& KernelsOf(const Context& context);

}  // namespace sinew::vk::detail
