// The compute pipelines of a Context: created once per kernel variant and workgroup size, on
// first use, through the Context's pipeline cache, and shared by every SkinCache of that Context
// that runs the same workgroup size (a character of a kind already drawn compiles nothing). A
// variant is a kernel (dense or sparse, linear or dual quaternions) and the per-mesh choices it
// takes as specialization constants (shaders/skinning_common.glsl, constant_id 0 to 18 and 20),
// so that no kernel branches on them; the workgroup size is constant_id 19. Destroyed with the
// Context.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

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

inline constexpr uint32_t kKernelKinds = static_cast<uint32_t>(KernelKind::kCount);

// The per-mesh choices, a variant's choice number. Its low five bits are the boolean
// specialization constants of the same names in shaders/skinning_common.glsl (constant_id = the
// bit's index); bits 5-7, kInfluences (constant_id 5) divided by 4: a dense mesh's K when it is
// 4, 8, 12 or 16, else 0 (the kernel reads K from the record); then two bits each for the stream
// formats: weights (WeightFormat), joint index bits (0: 16, 1: 8, 2: 32), rest directions and
// output directions (DirectionFormat). The shaders take each format as two booleans, value 1 and
// value 2 (constant_id 6 to 13), the form the five choices above take; then unorm16 rest
// positions (bit 16, constant_id 14), half-float morph deltas (bit 17, constant_id 15) and
// interleaved outputs (bit 18, constant_id 16; with kOutStride, constant_id 17, the words of one
// output vertex, which the other choices determine); whether the mesh has morph targets at all
// (bit 19, constant_id 18). kJointsBySlot (constant_id 20) has no bit of its own: Kernels::Get
// sets it from K (12 or 16) and the weight format (unorm16).
inline constexpr uint32_t kChoiceNormals = 1u;        // kNormals
inline constexpr uint32_t kChoiceTangents = 2u;       // kTangents
inline constexpr uint32_t kChoiceMorphNormals = 4u;   // kMorphNormals
inline constexpr uint32_t kChoiceMorphTangents = 8u;  // kMorphTangents
inline constexpr uint32_t kChoiceJointNormals = 16u;  // kJointNormals
inline constexpr uint32_t kChoiceInfluencesShift = 5u;
inline constexpr uint32_t kMaxConstantInfluences = 16u;
inline constexpr uint32_t kChoiceWeightsShift = 8u;
inline constexpr uint32_t kChoiceJointBitsShift = 10u;
inline constexpr uint32_t kChoiceDirectionsShift = 12u;
inline constexpr uint32_t kChoiceOutDirectionsShift = 14u;
inline constexpr uint32_t kChoicePositions16 = 1u << 16;  // kPositions16 (constant_id 14)
inline constexpr uint32_t kChoiceMorphHalf = 1u << 17;    // kMorphHalf (constant_id 15)
inline constexpr uint32_t kChoiceInterleaved = 1u << 18;  // kInterleaved (constant_id 16)
inline constexpr uint32_t kChoiceMorphs = 1u << 19;       // kMorphs (constant_id 18)
inline constexpr uint32_t kKernelChoices = 1u << 20;
inline constexpr uint32_t kKernelVariants = kKernelKinds * kKernelChoices;

// A mesh's kernel variant as a number below kKernelVariants, for sorting work by pipeline: the
// kernel (KernelKind's order) and the choices.
inline uint32_t KernelVariant(bool sparse, bool dual_quaternion, uint32_t choices) {
  return (sparse ? 1u : 0u) + (dual_quaternion ? 2u : 0u) + kKernelKinds * choices;
}
// The variants a SkinCache creates up front: linear blending of a mesh with normals and
// tangents, dense with K = 4 or sparse, a palette of at most 256 entries (8-bit joint indices),
// float32 formats otherwise.
inline uint32_t CommonVariant(bool sparse) {
  return KernelVariant(sparse, false,
                       kChoiceNormals | kChoiceTangents | 1u << kChoiceJointBitsShift |
                           (sparse ? 0u : 1u << kChoiceInfluencesShift));
}

inline KernelKind KernelOf(uint32_t variant) {
  return static_cast<KernelKind>(variant % kKernelKinds);
}
inline uint32_t ChoicesOf(uint32_t variant) { return variant / kKernelKinds; }

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

  // The kernel of `variant` (KernelVariant) with `workgroup_size` invocations per workgroup (a
  // power of two from kMinSkinWorkgroupSize to kMaxSkinWorkgroupSize, specialization constant 19),
  // created on the first call (thread-safe). kVulkanCallFailed; kInvalidArgument for a variant
  // past kKernelVariants or another workgroup size.
  Result<Kernel> Get(uint32_t variant, uint32_t workgroup_size);
  // The descriptor set and pipeline layouts every kernel shares (the pipeline left null).
  Result<Kernel> Layouts();
  // How many pipelines this Context has created so far (tests: one per variant and workgroup
  // size, not per mesh).
  uint32_t pipelines_created() const;
  // Whether `kind`'s pipelines keep the workgroup's instance record in shared memory: a kernel
  // with that form (shaders::HasSharedInstanceForm, only shaders/skin_sparse_shared.comp) on a
  // device that is not a CPU (lavapipe runs the barrier that takes slowly), unless a test has set
  // it.
  bool InstanceInSharedMemory(KernelKind kind) const;
  // Tests: the kernels with that form keep their instance record in shared memory, or not,
  // whatever the device. Call before the first Get (kInvalidArgument once a pipeline exists).
  Status SetInstanceInSharedMemoryForTests(bool shared);
  // Tests: the debug name of every pipeline created so far (" shared-instance" in it where the
  // pipeline runs skin_sparse_shared.comp).
  std::vector<std::string> PipelineNames() const;
  // Each created pipeline's executables and their statistics (Context::QueryKernelStatistics; the
  // pipelines were created to capture them).
  Result<std::vector<KernelStatistics>> Statistics() const;
  // The SkinCaches created on this Context and not yet destroyed: each counts itself in and out,
  // and the Context checks that none is left when it is destroyed (context.cpp).
  void AddCache() { caches_.fetch_add(1, std::memory_order_relaxed); }
  void RemoveCache() { caches_.fetch_sub(1, std::memory_order_relaxed); }
  uint32_t caches() const { return caches_.load(std::memory_order_relaxed); }

 private:
  Status CreateLayouts();
  // InstanceInSharedMemory and pipelines_created with mutex_ held.
  bool InstanceInSharedMemoryLocked(KernelKind kind) const;
  uint32_t PipelinesCreatedLocked() const;

  const Context& context_;
  std::atomic<uint32_t> caches_{0};
  mutable std::mutex mutex_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  // By variant and workgroup size: variant + kKernelVariants · log2(workgroup size / 64).
  struct Pipeline {
    VkPipeline handle = VK_NULL_HANDLE;  // null until created (or when creating it failed)
    std::string name;                    // its debug name
  };
  std::unordered_map<uint32_t, Pipeline> pipelines_;
  // SetInstanceInSharedMemoryForTests's choice, if a test made one.
  std::optional<bool> shared_instance_for_tests_;
};

// The kernel cache of `context`.
Kernels& KernelsOf(const Context& context);

}  // namespace sinew::vk::detail
