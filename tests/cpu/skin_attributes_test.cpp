// cpu::SkinAttributes with some of its streams left out: positions alone, for a physics or picking
// proxy, are the positions SkinMesh writes with normals and tangents, bit for bit, for dense and
// sparse meshes, vectorized or not, checked once or on each call.
#include <gtest/gtest.h>

#include <vector>

#include "cpu/mesh_outputs.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/cpu/influence_check.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"

namespace sinew::cpu {
namespace {

TEST(SkinAttributes, SkinsPositionsAloneAsItSkinsThemWithNormalsAndTangents) {
  procedural::CharacterOptions options;
  options.vertex_count = 1001;  // a remainder after the eight-wide groups
  procedural::Character character = std::move(procedural::MakeCharacter(options).value());
  std::vector<Float3x4> palette(character.skeleton.joint_count());
  ASSERT_TRUE(procedural::CrowdPalette(character.skeleton, 0.4f, 1, palette).ok());
  Primitive sparse = character.mesh;
  ASSERT_TRUE(UseInfluenceLayout(sparse, InfluenceLayout::kSparse, 0,
                                 uint32_t(character.skeleton.joint_count()))
                  .ok());
  for (const Primitive* mesh : {&character.mesh, &sparse}) {
    ASSERT_FALSE(mesh->normals.empty());
    ASSERT_FALSE(mesh->tangents.empty());
    testing::MeshOutputs all(*mesh);
    ASSERT_TRUE(SkinMesh(*mesh, palette, all.positions, all.normals, all.tangents).ok());
    auto checked = InfluenceCheck::Of(*mesh);
    ASSERT_TRUE(checked.ok());
    for (const bool vectorized : {false, true}) {
      for (const InfluenceCheck* check : {static_cast<const InfluenceCheck*>(nullptr),
                                          static_cast<const InfluenceCheck*>(&*checked)}) {
        SkinRun run;
        run.vectorized = vectorized;
        std::vector<float> positions(mesh->positions.size());
        ASSERT_TRUE(SkinAttributes(*mesh, {mesh->positions, {}, {}}, palette, positions, {}, {},
                                   false, run, check)
                        .ok());
        EXPECT_EQ(positions, all.positions)
            << (mesh->sparse() ? "sparse" : "dense") << (vectorized ? ", vectorized" : "")
            << (check ? ", checked once" : "");
      }
    }
    // Outputs the inputs do not have are refused, as outputs of the wrong size are.
    std::vector<float> positions(mesh->positions.size()), normals(mesh->normals.size());
    EXPECT_EQ(
        SkinAttributes(*mesh, {mesh->positions, {}, {}}, palette, positions, normals, {}).code(),
        Error::kSizeMismatch);
  }
}

}  // namespace
}  // namespace sinew::cpu
