// The sparse linear kernel with its workgroup's instance record in shared memory
// (shaders/skin_sparse_shared.comp): what a hardware GPU runs, lavapipe the other form (the
// barrier costs it more). Here both forms run on this device, and each deforms sparse meshes as
// the CPU reference: morph targets, UsdSkel's per-joint normals, vertex counts from one to many
// workgroups, workgroups of 64 and 128; the pipelines' names say which form ran.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <tuple>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/vk/skin_cache.h"
#include "vk/kernels.h"
#include "vk/shaders.h"

namespace sinew {
namespace {

class SharedInstanceTest : public testing::GpuTest {};

TEST_F(SharedInstanceTest, OnlyTheSparseLinearKernelOnADeviceThatIsNotACpuTakesIt) {
  const vk::detail::Kernels& kernels = vk::detail::KernelsOf(*context_);
  const bool hardware = !context_->cpu_device();
  EXPECT_EQ(kernels.InstanceInSharedMemory(vk::detail::KernelKind::kSkinSparse), hardware);
  for (const auto kind :
       {vk::detail::KernelKind::kSkinDense, vk::detail::KernelKind::kSkinDenseDualQuaternion,
        vk::detail::KernelKind::kSkinSparseDualQuaternion}) {
    EXPECT_FALSE(kernels.InstanceInSharedMemory(kind));
  }
  // Once a pipeline exists the choice stays.
  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  EXPECT_EQ(vk::detail::KernelsOf(*context_).SetInstanceInSharedMemoryForTests(!hardware).code(),
            Error::kInvalidArgument);
}

// Whether `spirv` declares a variable in Workgroup storage (shared memory): an OpVariable (opcode
// 59) whose storage class, its fourth word, is Workgroup (4).
bool DeclaresSharedMemory(std::span<const uint32_t> spirv) {
  for (size_t at = 5; at < spirv.size();) {  // the header is five words
    const uint32_t words = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (words == 0) return false;
    if (opcode == 59 && words >= 4 && at + 3 < spirv.size() && spirv[at + 3] == 4) return true;
    at += words;
  }
  return false;
}

// The shared form is the SPIR-V that keeps the record in shared memory, the other one does not,
// and only the sparse linear kernel has two forms (a kernel without one answers either request
// with its only form).
TEST(SharedInstanceSpirv, OnlyTheSharedFormDeclaresSharedMemory) {
  using vk::detail::KernelKind;
  for (uint32_t k = 0; k < vk::detail::kKernelKinds; ++k) {
    const auto kind = static_cast<KernelKind>(k);
    const bool two_forms = kind == KernelKind::kSkinSparse;
    EXPECT_EQ(vk::shaders::HasSharedInstanceForm(kind), two_forms) << k;
    EXPECT_EQ(DeclaresSharedMemory(vk::shaders::Skin(kind, true)), two_forms) << k;
    EXPECT_FALSE(DeclaresSharedMemory(vk::shaders::Skin(kind, false))) << k;
  }
}

// (vertices, shared, per-joint normals).
class SharedInstanceGpu : public testing::GpuTest,
                          public ::testing::WithParamInterface<std::tuple<uint32_t, bool, bool>> {};

TEST_P(SharedInstanceGpu, SparseMeshesDeformAsTheCpuReference) {
  const auto [vertices, shared, per_joint] = GetParam();
  auto context = testing::CreateContextOrReport({});
  if (!context) GTEST_SKIP();
  vk::detail::Kernels& kernels = vk::detail::KernelsOf(*context);
  ASSERT_TRUE(kernels.SetInstanceInSharedMemoryForTests(shared).ok());
  ASSERT_EQ(kernels.InstanceInSharedMemory(vk::detail::KernelKind::kSkinSparse), shared);
  Primitive mesh = testing::CharacterMesh(vertices, 8);
  ASSERT_TRUE(UseInfluenceLayout(mesh, InfluenceLayout::kSparse, 0, testing::DefaultJoints()).ok());
  if (per_joint) mesh.normal_blend = NormalBlend::kPerJoint;
  mesh.targets = testing::RandomMorphTargets(vertices, 6, vertices);
  ASSERT_TRUE(mesh.Validate(testing::DefaultJoints()).ok());
  for (const uint32_t size : {64u, 128u}) {  // Vulkan lets every device run 128
    testing::ExpectCrowdMatchesCpuAtWorkgroupSize(*context, mesh, 3, size);
  }
  // The sparse pipelines ran the form asked for (their names say " shared-instance" then).
  size_t sparse = 0;
  for (const std::string& name : kernels.PipelineNames()) {
    if (!name.starts_with("sinew skin_sparse ")) continue;
    ++sparse;
    EXPECT_EQ(name.find(" shared-instance") != std::string::npos, shared) << name;
  }
  EXPECT_GE(sparse, 2u);  // the common sparse kernel and this mesh's, at each size
  testing::ExpectNoValidationMessages(*context);
}

INSTANTIATE_TEST_SUITE_P(VertexCountsAndForms, SharedInstanceGpu,
                         ::testing::Combine(::testing::Values(1u, 65u, 200u, 1500u),
                                            ::testing::Bool(), ::testing::Bool()));

}  // namespace
}  // namespace sinew
