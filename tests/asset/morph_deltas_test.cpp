#include "sinew/asset/morph_deltas.h"

#include <gtest/gtest.h>

#include <vector>

// Packing morph targets for the fused kernel: blocks per group of 64 vertices, by target, with
// the masks and deltas worked out by hand.

namespace sinew {
namespace {

TEST(MorphDeltas, PacksBlocksPerGroupOfSixtyFourVerticesByTarget) {
  // 70 vertices: groups 0 (vertices 0-63) and 1 (64-69).
  // Target 0 moves vertices 1, 33 and 65; target 1 moves vertex 33's normal only.
  std::vector<MorphTarget> targets(2);
  targets[0].positions.assign(70 * 3, 0.0f);
  targets[0].positions[1 * 3 + 0] = 1;
  targets[0].positions[33 * 3 + 1] = 2;
  targets[0].positions[65 * 3 + 2] = 3;
  targets[1].normals.assign(70 * 3, 0.0f);
  targets[1].normals[33 * 3 + 2] = -1;
  const MorphDeltas d = PackMorphTargets(70, targets);
  EXPECT_EQ(d.target_count, 2u);
  EXPECT_TRUE(d.normals);
  EXPECT_FALSE(d.tangents);
  EXPECT_EQ(d.stride(), 6u);  // position xyz + normal xyz
  EXPECT_EQ(d.group_offsets, (std::vector<uint32_t>{0, 2, 3}));
  // Group 0: target 0 at bits 1 and 33 (deltas 0, 1); target 1 at bit 33 (delta 2).
  // Group 1: target 0 at bit 1 (vertex 65; delta 3).
  EXPECT_EQ(d.blocks, (std::vector<uint32_t>{0, 1u << 1, 1u << 1, 0,  //
                                             1, 0, 1u << 1, 2,        //
                                             0, 1u << 1, 0, 3}));
  EXPECT_EQ(d.deltas, (std::vector<float>{1, 0, 0, 0, 0, 0,     // target 0, vertex 1
                                          0, 2, 0, 0, 0, 0,     // target 0, vertex 33
                                          0, 0, 0, 0, 0, -1,    // target 1, vertex 33
                                          0, 0, 3, 0, 0, 0}));  // target 0, vertex 65
  // Group-major lookup: group 0 -> blocks 0 (target 0) and 1 (target 1); group 1 -> block 2 for
  // target 0, none for target 1.
  EXPECT_EQ(d.block_index, (std::vector<uint32_t>{0, 1, 2, kNoMorphBlock}));
}

TEST(MorphDeltas, IndexesEachTargetsBlockPerGroupAndMarksTheRestAsNone) {
  // 3 targets, 200 vertices (4 groups): target 0 moves vertex 150 (group 2), target 2 vertices
  // 5 (group 0) and 199 (group 3); target 1 moves nothing.
  std::vector<MorphTarget> targets(3);
  targets[0].positions.assign(200 * 3, 0.0f);
  targets[0].positions[150 * 3] = 1;
  targets[2].tangents.assign(200 * 3, 0.0f);
  targets[2].tangents[5 * 3 + 1] = 1;
  targets[2].tangents[199 * 3 + 2] = 1;
  const MorphDeltas d = PackMorphTargets(200, targets);
  const uint32_t n = kNoMorphBlock;
  EXPECT_EQ(d.block_index, (std::vector<uint32_t>{n, n, 0,     // group 0
                                                  n, n, n,     // group 1
                                                  1, n, n,     // group 2
                                                  n, n, 2}));  // group 3
  ASSERT_EQ(d.block_count(), 3u);
  for (uint32_t g = 0; g < 4; ++g) {
    for (uint32_t t = 0; t < 3; ++t) {
      const uint32_t b = d.block_index[g * 3 + t];
      if (b == kNoMorphBlock) continue;
      EXPECT_EQ(d.blocks[b * 4], t);
      EXPECT_GE(b, d.group_offsets[g]);
      EXPECT_LT(b, d.group_offsets[g + 1]);
    }
  }
}

TEST(MorphDeltas, LeavesOutTargetsThatMoveNothingInAGroup) {
  std::vector<MorphTarget> targets(3);
  targets[1].positions.assign(10 * 3, 0.0f);
  targets[1].positions[9 * 3] = 0.5f;
  const MorphDeltas d = PackMorphTargets(10, targets);
  EXPECT_EQ(d.group_offsets, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(d.blocks, (std::vector<uint32_t>{1, 1u << 9, 0, 0}));
  EXPECT_EQ(d.stride(), 3u);
  EXPECT_EQ(d.delta_count(), 1u);
}

TEST(MorphDeltas, HasOneGroupOffsetPerGroupPlusOne) {
  const MorphDeltas d = PackMorphTargets(129, std::vector<MorphTarget>(1));
  EXPECT_EQ(d.group_offsets.size(), 4u);  // 3 groups
  EXPECT_TRUE(d.blocks.empty());
  EXPECT_EQ(d.block_index, (std::vector<uint32_t>(3, kNoMorphBlock)));
}

}  // namespace
}  // namespace sinew
