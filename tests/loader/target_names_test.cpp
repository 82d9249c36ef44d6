// Morph target names (Mesh::target_names): glTF's mesh.extras.targetNames (the de-facto
// convention; glTF names no targets), where a malformed targetNames is ignored with a warning,
// never an error (extras is application data glTF does not define); G4MF's blend shape names,
// where a name that is not a string is an error like any G4MF name; kept by WriteG4mf.
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "loader/g4mf_fixture.h"
#include "loader/gltf_fixture.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::loader {
namespace {

using Names = std::vector<std::string>;

// --- glTF ---------------------------------------------------------------------------------------

// The glTF fixture's mesh with two morph targets and `mesh_members` (raw JSON, e.g. an extras).
std::string WithTwoTargets(const std::string& mesh_members) {
  std::string json = testing::Replace(testing::ValidGltf(), R"("WEIGHTS_0": 2}})",
                                      R"("WEIGHTS_0": 2},
      "targets": [{"POSITION": 0}, {"POSITION": 0}]})");
  if (mesh_members.empty()) return json;
  return testing::Replace(json, R"("meshes": [{"primitives")",
                          R"("meshes": [{)" + mesh_members + R"(, "primitives")");
}

TEST(TargetNames, AreTakenFromAGltfMeshsExtrasTargetNames) {
  auto loaded = testing::LoadBytes(
      WithTwoTargets(R"("extras": {"author": 1, "targetNames": ["Smile", "Frown"]})"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].target_names, (Names{"Smile", "Frown"}));
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(TargetNames, AreEmptyForAGltfMeshWithoutTargetNames) {
  for (const char* members : {"", R"("extras": {"author": 1})", R"("extras": 5)"}) {
    auto loaded = testing::LoadBytes(WithTwoTargets(members));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    EXPECT_TRUE(loaded->asset.meshes[0].target_names.empty()) << members;
    EXPECT_TRUE(loaded->warnings.empty()) << members;
  }
}

// Each malformed targetNames: the file loads, without names, with one warning at `where`.
void ExpectIgnoredWithAWarning(const std::string& target_names, const std::string& where) {
  auto loaded =
      testing::LoadBytes(WithTwoTargets(R"("extras": {"targetNames": )" + target_names + "}"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->asset.meshes[0].target_names.empty()) << target_names;
  ASSERT_EQ(loaded->warnings.size(), 1u) << target_names;
  EXPECT_EQ(loaded->warnings[0].where, where) << target_names;
}

TEST(TargetNames, AGltfTargetNamesThatIsNotAnArrayIsIgnoredWithAWarning) {
  ExpectIgnoredWithAWarning(R"("Smile")", "/meshes/0/extras/targetNames");
  ExpectIgnoredWithAWarning(R"({"0": "Smile"})", "/meshes/0/extras/targetNames");
}

TEST(TargetNames, AGltfTargetNamesOfAnotherCountThanTheTargetsIsIgnoredWithAWarning) {
  ExpectIgnoredWithAWarning(R"(["Smile"])", "/meshes/0/extras/targetNames");
  ExpectIgnoredWithAWarning(R"(["Smile", "Frown", "Wink"])", "/meshes/0/extras/targetNames");
}

TEST(TargetNames, AGltfTargetNamesWithANameThatIsNotAStringIsIgnoredWithAWarning) {
  ExpectIgnoredWithAWarning(R"(["Smile", 3])", "/meshes/0/extras/targetNames/1");
  ExpectIgnoredWithAWarning(R"([null, "Frown"])", "/meshes/0/extras/targetNames/0");
}

TEST(TargetNames, AreTheSharedAssetsTargetNames) {
  const auto load = [](const char* path) {
    auto loaded = LoadGltf(sinew::testing::TestAssets() / path);
    EXPECT_TRUE(loaded.ok()) << path << ": " << loaded.error().ToString();
    return loaded.ok() ? std::move(loaded.value()) : LoadedAsset{};
  };
  const LoadedAsset robot = load("three_RobotExpressive/RobotExpressive.glb");
  ASSERT_GT(robot.asset.meshes.size(), 2u);
  EXPECT_EQ(robot.asset.meshes[2].name, "Head");
  EXPECT_EQ(robot.asset.meshes[2].target_names, (Names{"Angry", "Surprised", "Sad"}));
  const Names keys = {"Key 1", "Key 2", "Key 3", "Key 4", "Key 5", "Key 6", "Key 7", "Key 8"};
  for (const char* path :
       {"MorphStressTest/MorphStressTest.gltf", "MorphStressTest_embedded/MorphStressTest.gltf"}) {
    const LoadedAsset stress = load(path);
    ASSERT_FALSE(stress.asset.meshes.empty()) << path;
    EXPECT_EQ(stress.asset.meshes[0].target_names, keys) << path;
  }
  // No extras.targetNames in these files.
  EXPECT_TRUE(
      load("AnimatedMorphCube/AnimatedMorphCube.gltf").asset.meshes[0].target_names.empty());
  EXPECT_TRUE(load("SimpleMorph/SimpleMorph.gltf").asset.meshes[0].target_names.empty());
}

// --- G4MF ---------------------------------------------------------------------------------------

TEST(TargetNames, AreTakenFromG4mfBlendShapeNames) {
  auto loaded = g4mf_testing::Load(g4mf_testing::ValidCharacter().doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].target_names, Names{"Smile"});
}

// The fixture's mesh with a second shape (reusing Smile's position offsets) whose members are
// `second`, and names as given for the first (`first_name`: raw JSON, or empty for none).
g4mf_testing::Document WithTwoShapes(const std::string& first_name, const std::string& second) {
  g4mf_testing::Character c = g4mf_testing::ValidCharacter();
  std::string blend = *c.doc.meshes[0].Find("blend");
  blend = g4mf_testing::Replace(blend, R"("amounts": [0.5])", R"("amounts": [0.5, 0])");
  blend = g4mf_testing::Replace(blend, R"("name": "Smile", )",
                                first_name.empty() ? "" : R"("name": )" + first_name + ", ");
  blend = g4mf_testing::Replace(blend, "}}]}]}",
                                R"(}}]}, {)" + second + R"("position": {"indices": )" +
                                    std::to_string(c.blend_indices) + R"(, "offsets": )" +
                                    std::to_string(c.blend_offsets) + "}}]}");
  c.doc.meshes[0].Set("blend", blend);
  c.doc.nodes[4].Set("meshInstance", R"({"mesh": 0, "blendAmounts": [0.25, 0]})");
  return c.doc;
}

TEST(TargetNames, AnUnnamedG4mfShapeAmongNamedOnesHasAnEmptyName) {
  auto loaded = g4mf_testing::Load(WithTwoShapes("", R"("name": "Frown", )"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].targets.size(), 2u);
  EXPECT_EQ(loaded->asset.meshes[0].target_names, (Names{"", "Frown"}));
}

TEST(TargetNames, AreEmptyWhenNoG4mfShapeIsNamed) {
  auto loaded = g4mf_testing::Load(WithTwoShapes("", ""));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].targets.size(), 2u);
  EXPECT_TRUE(loaded->asset.meshes[0].target_names.empty());
}

TEST(TargetNames, AG4mfShapeNameThatIsNotAStringIsAnError) {
  g4mf_testing::ExpectError(WithTwoShapes(R"("Smile")", R"("name": 7, )"), Error::kWrongType,
                            "/meshes/0/blend/shapes/1/name");
}

// --- G4MF writer --------------------------------------------------------------------------------

TEST(TargetNames, AreWrittenAsG4mfShapeNamesWithShapeNForAnUnnamedTarget) {
  for (const auto& [members, expected] :
       {std::pair<std::string, Names>{R"("extras": {"targetNames": ["Smile", "Frown"]})",
                                      {"Smile", "Frown"}},
        std::pair<std::string, Names>{R"("extras": {"targetNames": ["", "Frown"]})",
                                      {"Shape0", "Frown"}},
        std::pair<std::string, Names>{"", {"Shape0", "Shape1"}}}) {
    auto gltf = testing::LoadBytes(WithTwoTargets(members));
    ASSERT_TRUE(gltf.ok()) << gltf.error().ToString();
    auto bytes = WriteG4mf(gltf->asset);
    ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
    auto g4mf = g4mf_testing::LoadBytes(*bytes);
    ASSERT_TRUE(g4mf.ok()) << g4mf.error().ToString();
    ASSERT_EQ(g4mf->asset.meshes.size(), 1u);
    EXPECT_EQ(g4mf->asset.meshes[0].target_names, expected) << members;
  }
}

}  // namespace
}  // namespace sinew::loader
