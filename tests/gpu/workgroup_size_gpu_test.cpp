// The kernels' workgroup size (SkinCacheOptions::workgroup_size, SkinWorkgroupSize): chosen from
// the device's subgroup size by default, any power of two from 64 to the device's limit on
// request, and whatever the size, the same deformation as the CPU reference, morph targets
// included (a workgroup of 128 or more vertices holds several 64-vertex morph groups).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "gpu/deform_check.h"
#include "gpu/gpu_test.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/vk/gpu_layout.h"
#include "sinew/vk/skin_cache.h"

namespace sinew {
namespace {

// The largest workgroup `context`'s device runs, capped at kMaxSkinWorkgroupSize.
uint32_t Largest(const vk::Context& context) {
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  return std::min({limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations,
                   vk::kMaxSkinWorkgroupSize});
}

class WorkgroupSizeTest : public testing::GpuTest {};

TEST_F(WorkgroupSizeTest, TheDefaultIsTheSmallestPowerOfTwoHoldingAMorphGroupAndASubgroup) {
  const uint32_t subgroup = context_->subgroup_size();
  ASSERT_GT(subgroup, 0u);
  auto size = vk::SkinWorkgroupSize(*context_, 0);
  ASSERT_TRUE(size.ok()) << size.error().ToString();
  EXPECT_EQ(*size & (*size - 1), 0u) << *size;
  EXPECT_GE(*size, std::min(std::max(64u, subgroup), Largest(*context_)));
  EXPECT_TRUE(*size == 64u || *size / 2 < subgroup) << *size << " for subgroups of " << subgroup;

  auto cache = vk::SkinCache::Create(*context_);
  ASSERT_TRUE(cache.ok()) << cache.error().ToString();
  EXPECT_EQ((*cache)->options().workgroup_size, *size);
}

TEST_F(WorkgroupSizeTest, ARequestedSizeIsKept) {
  for (uint32_t requested = 64; requested <= Largest(*context_); requested *= 2) {
    vk::SkinCacheOptions options;
    options.workgroup_size = requested;
    auto cache = vk::SkinCache::Create(*context_, options);
    ASSERT_TRUE(cache.ok()) << cache.error().ToString();
    EXPECT_EQ((*cache)->options().workgroup_size, requested);
  }
}

TEST_F(WorkgroupSizeTest, ASizeTheKernelsCannotRunIsRefusedNamingTheOption) {
  for (const uint32_t bad : {1u, 32u, 96u, 192u, Largest(*context_) * 2, 0x80000000u}) {
    auto size = vk::SkinWorkgroupSize(*context_, bad);
    ASSERT_FALSE(size.ok()) << bad;
    EXPECT_EQ(size.error().code, Error::kInvalidArgument);
    EXPECT_EQ(size.error().where, "SkinCacheOptions::workgroup_size");
    vk::SkinCacheOptions options;
    options.workgroup_size = bad;
    auto cache = vk::SkinCache::Create(*context_, options);
    ASSERT_FALSE(cache.ok()) << bad;
    EXPECT_EQ(cache.error().code, Error::kInvalidArgument);
  }
}

// A frame has one work item per workgroup_size vertices of each instance, and a kernel variant
// compiled at two sizes is two pipelines.
TEST_F(WorkgroupSizeTest, AFrameHasOneWorkItemPerWorkgroupOfEachInstance) {
  const Primitive mesh = testing::CharacterMesh(1000, 4);
  for (const uint32_t size : {64u, 128u}) {  // Vulkan lets every device run 128
    vk::SkinCacheOptions base;
    base.workgroup_size = size;
    auto options = vk::SkinCacheOptionsFor(mesh, testing::DefaultJoints(), 3, base);
    ASSERT_TRUE(options.ok());
    auto cache = vk::SkinCache::Create(*context_, *options);
    ASSERT_TRUE(cache.ok()) << cache.error().ToString();
    auto mesh_id = (*cache)->AddMesh(mesh, testing::DefaultJoints());
    ASSERT_TRUE(mesh_id.ok()) << mesh_id.error().ToString();
    auto palette = (*cache)->AddPalette(testing::DefaultJoints());
    ASSERT_TRUE(palette.ok());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE((*cache)->AddInstance(*mesh_id, *palette).ok());
    ASSERT_TRUE(testing::DeformFrameForReadback(*context_, **cache).ok());
    EXPECT_EQ((*cache)->last_frame_stats().work_items, 3 * ((1000 + size - 1) / size));
  }
  // The common dense and sparse kernels (the mesh's is the dense one) at each size, then shared.
  EXPECT_EQ(context_->pipelines_created(), 4u);
  for (const uint32_t size : {64u, 128u}) {
    vk::SkinCacheOptions options;
    options.workgroup_size = size;
    auto again = vk::SkinCache::Create(*context_, options);
    ASSERT_TRUE(again.ok());
  }
  EXPECT_EQ(context_->pipelines_created(), 4u);
}

// Every kernel (dense or sparse, linear or dual quaternions) with morph targets, at vertex counts
// around the sizes, deforms as the CPU reference at every workgroup size the device runs.
class WorkgroupSizeGpu : public testing::GpuTest,
                         public ::testing::WithParamInterface<std::tuple<uint32_t, bool, bool>> {};

TEST_P(WorkgroupSizeGpu, DeformsAsTheCpuReference) {
  const auto [vertices, sparse, dual_quaternion] = GetParam();
  Primitive mesh = testing::CharacterMesh(vertices, 4);
  if (sparse) {
    ASSERT_TRUE(
        UseInfluenceLayout(mesh, InfluenceLayout::kSparse, 0, testing::DefaultJoints()).ok());
  }
  if (dual_quaternion) mesh.skinning = SkinningMethod::kDualQuaternion;
  mesh.targets = testing::RandomMorphTargets(vertices, 6, vertices);
  ASSERT_TRUE(mesh.Validate(testing::DefaultJoints()).ok());
  for (uint32_t size = 64; size <= Largest(*context_); size *= 2) {
    testing::ExpectCrowdMatchesCpuAtWorkgroupSize(*context_, mesh, 2, size);
  }
}

INSTANTIATE_TEST_SUITE_P(SizesAndKernels, WorkgroupSizeGpu,
                         ::testing::Combine(::testing::Values(1u, 65u, 200u, 1500u),
                                            ::testing::Bool(), ::testing::Bool()));

}  // namespace
}  // namespace sinew
