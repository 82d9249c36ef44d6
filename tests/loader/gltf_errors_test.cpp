// One small fixture per glTF rule and bad-input case: the exact error and where it is.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "loader/gltf_fixture.h"
#include "sinew/loader/file.h"
#include "sinew/loader/gltf.h"

namespace sinew::loader {
namespace {

using testing::Append;
using testing::BufferBytes;
using testing::BufferUri;
using testing::DataUri;
using testing::ExpectError;
using testing::LoadBytes;
using testing::Replace;
using testing::ValidGltf;

TEST(GltfFixture, TheValidFixtureLoads) {
  auto loaded = LoadBytes(ValidGltf());
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  ASSERT_EQ(a.nodes.size(), 3u);
  EXPECT_EQ(a.nodes[1].parent, 0);
  EXPECT_EQ(a.nodes[1].translation.y, 1.0f);
  const Primitive& p = a.meshes[0].primitives[0];
  ASSERT_EQ(p.vertex_count(), 3u);
  EXPECT_EQ(p.positions[3], 1.0f);
  EXPECT_EQ(p.influences.influences_per_vertex, 4u);
  EXPECT_EQ(p.influences.joints[1], 1);
  EXPECT_EQ(p.influences.weights[0], 0.5f);
  ASSERT_EQ(a.animations.size(), 1u);
  EXPECT_EQ(a.animations[0].samplers[0].components, 4u);
  EXPECT_EQ(a.animations[0].Output(a.animations[0].samplers[0])[7], 0.7071068f);
  EXPECT_TRUE(loaded->warnings.empty());
}

// A byte-order mark before the JSON (some Windows tools write one) changes nothing: the file
// loads as without it, with a warning at byte 0.
TEST(GltfFixture, AByteOrderMarkBeforeTheJsonIsSkippedWithAWarning) {
  const auto plain = LoadBytes(ValidGltf());
  const auto marked = LoadBytes("\xEF\xBB\xBF" + ValidGltf());
  ASSERT_TRUE(marked.ok()) << marked.error().ToString();
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(marked->asset.meshes.size(), plain->asset.meshes.size());
  ASSERT_EQ(marked->warnings.size(), plain->warnings.size() + 1);
  EXPECT_EQ(marked->warnings[0].where, "byte 0");
  EXPECT_EQ(marked->warnings[0].message, "a UTF-8 byte-order mark begins the JSON: ignored");
}

TEST(GltfFixture, PacksAClipsKeysOnceAndSharesKeyTimesBetweenSamplers) {
  auto loaded = LoadBytes(Replace(
      ValidGltf(), R"("samplers": [{"input": 3, "output": 4}],)",
      R"("samplers": [{"input": 3, "output": 4}, {"input": 3, "output": 4, "interpolation": "STEP"}],)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Animation& clip = loaded->asset.animations[0];
  ASSERT_EQ(clip.samplers.size(), 2u);
  // 2 key times, shared, and 8 rotation floats per sampler.
  EXPECT_EQ(clip.keys.size(), 2u + 8u + 8u);
  EXPECT_EQ(clip.samplers[1].input.offset, clip.samplers[0].input.offset);
  EXPECT_NE(clip.samplers[1].output.offset, clip.samplers[0].output.offset);
  EXPECT_EQ(
      std::vector<float>(clip.Input(clip.samplers[1]).begin(), clip.Input(clip.samplers[1]).end()),
      (std::vector<float>{0, 1}));
  EXPECT_EQ(clip.Output(clip.samplers[1])[7], 0.7071068f);
}

// A reused loader remembers which accessors a clip's samplers share between its loads only within
// a load: the second load of the same file packs its key times again.
TEST(GltfFixture, AReusedLoaderPacksEachLoadsKeyTimesAnew) {
  const std::string json = Replace(
      ValidGltf(), R"("samplers": [{"input": 3, "output": 4}],)",
      R"("samplers": [{"input": 3, "output": 4}, {"input": 3, "output": 4, "interpolation": "STEP"}],)");
  std::vector<uint8_t> padded(json.begin(), json.end());
  padded.resize(json.size() + ReadPadding(), 0);
  GltfLoader loader;
  for (int load = 0; load < 3; ++load) {
    auto loaded = loader.LoadFromMemory({padded.data(), json.size()}, ".");
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const Animation& clip = loaded->asset.animations[0];
    ASSERT_EQ(clip.keys.size(), 2u + 8u + 8u) << "load " << load;
    EXPECT_EQ(clip.samplers[1].input.offset, clip.samplers[0].input.offset);
    EXPECT_EQ(std::vector<float>(clip.Input(clip.samplers[0]).begin(),
                                 clip.Input(clip.samplers[0]).end()),
              (std::vector<float>{0, 1}))
        << "load " << load;
  }
}

// JSON Schema's "integer", which glTF's schema uses, is any number without a fractional part:
// integer properties written 3.0 or 5.126e3 are those integers, in index arrays too. 1.5 is not.
TEST(GltfFixture, IntegersWrittenWithAZeroFractionAreIntegers) {
  std::string json = ValidGltf();
  json = Replace(json, R"("componentType": 5126, "count": 3, "type": "VEC3")",
                 R"("componentType": 5.126e3, "count": 3.0, "type": "VEC3")");
  json = Replace(json, R"("scene": 0,)", R"("scene": 0.0,)");
  json = Replace(json, R"("joints": [0, 1])", R"("joints": [0, 1e0])");
  auto loaded = LoadBytes(json);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  auto plain = LoadBytes(ValidGltf());
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].positions,
            plain->asset.meshes[0].primitives[0].positions);
  EXPECT_EQ(loaded->asset.skins[0].joints, plain->asset.skins[0].joints);
  EXPECT_EQ(loaded->asset.scene, 0);
  ExpectError(
      Replace(ValidGltf(), R"("count": 3, "type": "VEC3")", R"("count": 3.5, "type": "VEC3")"),
      Error::kWrongType, "/accessors/0/count");
  ExpectError(Replace(ValidGltf(), R"("joints": [0, 1])", R"("joints": [0, 1.25])"),
              Error::kWrongType, "/skins/0/joints/1");
  ExpectError(
      Replace(ValidGltf(), R"("count": 3, "type": "VEC3")", R"("count": -0.0e1, "type": "VEC3")"),
      Error::kInvalidValue, "/accessors/0/count");
}

// JOINTS_n / WEIGHTS_n sets come in pairs, contiguous from 0: a set after a gap is not skipped, a
// lone JOINTS_1 / WEIGHTS_1 does not load as unskinned, and a set numbered far past the others
// leaves a gap too. The error names the first missing attribute.
TEST(GltfErrors, RejectsInfluenceSetsThatAreNotContiguousPairsFromZero) {
  const std::string attributes = R"("attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2})";
  const auto with = [&](const std::string& sets) {
    return Replace(ValidGltf(), attributes, R"("attributes": {"POSITION": 0, )" + sets + "}");
  };
  const std::string where = "/meshes/0/primitives/0/attributes/";
  ExpectError(with(R"("JOINTS_0": 1, "WEIGHTS_0": 2, "JOINTS_2": 1, "WEIGHTS_2": 2)"),
              Error::kMissingProperty, where + "JOINTS_1");
  ExpectError(with(R"("JOINTS_1": 1, "WEIGHTS_1": 2)"), Error::kMissingProperty,
              where + "JOINTS_0");
  ExpectError(with(R"("JOINTS_0": 1, "WEIGHTS_0": 2, "JOINTS_1": 1)"), Error::kMissingProperty,
              where + "WEIGHTS_1");
  ExpectError(with(R"("JOINTS_0": 1, "WEIGHTS_0": 2, "WEIGHTS_99": 2)"), Error::kMissingProperty,
              where + "JOINTS_1");
  // Two full sets load as K = 8.
  auto two = LoadBytes(with(R"("JOINTS_0": 1, "WEIGHTS_0": 2, "JOINTS_1": 1, "WEIGHTS_1": 2)"));
  ASSERT_TRUE(two.ok()) << two.error().ToString();
  EXPECT_EQ(two->asset.meshes[0].primitives[0].influences.influences_per_vertex, 8u);
}

// NaN or an infinity in FLOAT data that is read is an error at its accessor, naming the element:
// positions, weights, key times and rotation keys of the fixture in turn.
TEST(GltfErrors, RejectsNonFiniteFloatsInAccessorDataThatIsRead) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    size_t float_index;  // into the fixture's buffer, counted in 4-byte words
    float value;
    const char* where;
    const char* element;
  };
  // Words: positions 0-8, joints 9-11 (bytes), weights 12-23, key times 24-25, rotations 26-33.
  for (const Case& k : {Case{5, nan, "/accessors/0", "element 1, component 2"},
                        Case{16, inf, "/accessors/2", "element 1, component 0"},
                        Case{25, inf, "/accessors/3", "element 1, component 0"},
                        Case{33, -inf, "/accessors/4", "element 1, component 3"}}) {
    std::vector<uint8_t> b = testing::BufferBytes();
    std::memcpy(b.data() + k.float_index * 4, &k.value, 4);
    const std::string json = Replace(ValidGltf(), BufferUri(), testing::DataUri(b));
    auto loaded = LoadBytes(json);
    ASSERT_FALSE(loaded.ok()) << k.where;
    EXPECT_EQ(loaded.code(), Error::kNonFiniteValue) << k.where;
    EXPECT_EQ(loaded.error().where, k.where);
    EXPECT_NE(loaded.error().message.find(k.element), std::string::npos) << loaded.error().message;
  }
}

// A morph target's NORMAL or TANGENT needs the primitive's own (a MUST of the specification): the
// fixture has positions only, so a target NORMAL offsets nothing.
TEST(GltfErrors, RejectsAMorphTargetAttributeWithoutTheBaseAttribute) {
  ExpectError(Replace(ValidGltf(), R"("WEIGHTS_0": 2})",
                      R"("WEIGHTS_0": 2}, "targets": [{"POSITION": 0, "NORMAL": 0}])"),
              Error::kInvalidValue, "/meshes/0/primitives/0/targets/0/NORMAL");
  auto position_only = LoadBytes(Replace(ValidGltf(), R"("WEIGHTS_0": 2})",
                                         R"("WEIGHTS_0": 2}, "targets": [{"POSITION": 0}])"));
  ASSERT_TRUE(position_only.ok()) << position_only.error().ToString();
}

// A node with a matrix must not be animated (its matrix would win), and one clip must not animate
// the same node and path twice (which channel wins is undefined).
TEST(GltfErrors, RejectsAnimatingAMatrixNodeAndTwoChannelsWithOneTarget) {
  ExpectError(Replace(ValidGltf(), R"({"name": "tip", "translation": [0, 1, 0]})",
                      R"({"name": "tip", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1]})"),
              Error::kInvalidValue, "/animations/0/channels/0/target/node");
  ExpectError(Replace(ValidGltf(),
                      R"("channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}])",
                      R"("channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                                      {"sampler": 0, "target": {"node": 0, "path": "rotation"}},
                                      {"sampler": 0, "target": {"node": 1, "path": "rotation"}}])"),
              Error::kInvalidValue, "/animations/0/channels/2/target");
}

// A node with a skin needs JOINTS_0 and WEIGHTS_0 on every primitive of its mesh.
TEST(GltfErrors, RejectsASkinnedNodeWhoseMeshHasNoInfluences) {
  ExpectError(
      Replace(ValidGltf(), R"("attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2})",
              R"("attributes": {"POSITION": 0})"),
      Error::kMissingProperty, "/meshes/0/primitives/0/attributes/JOINTS_0");
}

// POSITION must have min and max; sinew computes nothing from them: a warning at the accessor.
TEST(GltfErrors, WarnsAboutAPositionAccessorWithoutMinAndMax) {
  auto loaded = LoadBytes(
      Replace(ValidGltf(), R"("min": [0, 0, 0], "max": [1, 1, 0])", R"("max": [1, 1, 0])"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/accessors/0");
  auto with_bounds = LoadBytes(ValidGltf());
  ASSERT_TRUE(with_bounds.ok());
  EXPECT_TRUE(with_bounds->warnings.empty());
}

// NORMAL must be unit length (TANGENT too, with w = ±1); sinew renormalizes what it transforms:
// a warning at the accessor. The fixture's positions, one of them (0, 0, 0), serve as normals.
TEST(GltfErrors, WarnsAboutNormalsThatAreNotUnitLength) {
  auto loaded = LoadBytes(Replace(ValidGltf(), R"("attributes": {"POSITION": 0,)",
                                  R"("attributes": {"POSITION": 0, "NORMAL": 0,)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/accessors/0");
  EXPECT_EQ(loaded->warnings[0].message, "NORMAL not unit length");
}

// TANGENT's xyz off unit length or its w not ±1 (the fixture's weights serve: w is 0) is warned
// about at its accessor, as NORMAL is, once; the tangents still load.
TEST(GltfErrors, WarnsAboutTangentsThatAreNotUnitLengthOrWhoseWIsNotASign) {
  auto loaded = LoadBytes(Replace(ValidGltf(), R"("attributes": {"POSITION": 0,)",
                                  R"("attributes": {"POSITION": 0, "NORMAL": 0, "TANGENT": 2,)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  std::vector<std::pair<std::string, std::string>> warnings;
  for (const auto& w : loaded->warnings) warnings.emplace_back(w.where, w.message);
  EXPECT_EQ(warnings, (std::vector<std::pair<std::string, std::string>>{
                          {"/accessors/0", "NORMAL not unit length"},
                          {"/accessors/2", "TANGENT xyz not unit length or w not +1 or -1"}}));
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].tangents.size(), 3u * 4);
}

// The skin's inverse bind matrices from a second buffer: two MAT4 (the skin's two joints), the
// second with `fourth_row` as its fourth row; the first the identity.
std::string WithInverseBinds(std::initializer_list<float> fourth_row) {
  std::vector<uint8_t> ibm;
  Append<float>(&ibm, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  const float* r = fourth_row.begin();
  Append<float>(&ibm, {1, 0, 0, r[0], 0, 1, 0, r[1], 0, 0, 1, r[2], 0, -1, 0, r[3]});
  std::string text = Replace(ValidGltf(), R"("skins": [{"joints": [0, 1]}])",
                             R"("skins": [{"joints": [0, 1], "inverseBindMatrices": 5}])");
  text = Replace(text, R"("byteLength": 136, "uri": ")" + BufferUri() + R"("}])",
                 R"("byteLength": 136, "uri": ")" + BufferUri() +
                     R"("}, {"byteLength": 128, "uri": ")" + DataUri(ibm) + R"("}])");
  text = Replace(text, R"("bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 136}])",
                 R"("bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 136},
                                    {"buffer": 1, "byteLength": 128}])");
  return Replace(text, R"("count": 2, "type": "VEC4"}
  ])",
                 R"("count": 2, "type": "VEC4"},
    {"bufferView": 1, "componentType": 5126, "count": 2, "type": "MAT4"}
  ])");
}

// "The fourth row of each matrix MUST be set to [0.0, 0.0, 0.0, 1.0]": the palette keeps three
// rows, so a projective inverse bind would skin as something else. Within 1e-6.
TEST(GltfErrors, RejectsInverseBindMatricesThatAreNotAffine) {
  auto affine = LoadBytes(WithInverseBinds({0, 0, 0, 1}));
  ASSERT_TRUE(affine.ok()) << affine.error().ToString();
  EXPECT_EQ(affine->asset.skins[0].inverse_binds[1].m[3][1], -1.0f);
  ASSERT_TRUE(LoadBytes(WithInverseBinds({1e-7f, 0, 0, 1})).ok());
  ExpectError(WithInverseBinds({0, 0, 0.5f, 1}), Error::kInvalidValue,
              "/skins/0/inverseBindMatrices");
  ExpectError(WithInverseBinds({0, 0, 0, 2}), Error::kInvalidValue, "/skins/0/inverseBindMatrices");
}

// "When matrix is defined, it MUST be decomposable to TRS properties": a projective one would
// place the mesh as something else and is refused; a shear is applied as written, with a warning
// (engines that decompose the matrix lose it).
TEST(GltfErrors, RejectsANodeMatrixThatIsNotAffineAndWarnsAboutOneThatShears) {
  const auto with_matrix = [](const char* matrix) {
    return Replace(ValidGltf(), R"({"name": "root", "children": [1]})",
                   std::string(R"({"name": "root", "children": [1], "matrix": )") + matrix + "}");
  };
  auto trs = LoadBytes(with_matrix("[2,0,0,0, 0,0,3,0, 0,-1,0,0, 0,1,0,1]"));
  ASSERT_TRUE(trs.ok()) << trs.error().ToString();
  EXPECT_TRUE(trs->warnings.empty()) << trs->warnings[0].message;
  ExpectError(with_matrix("[1,0,0,0.5, 0,1,0,0, 0,0,1,0, 0,1,0,1]"), Error::kInvalidValue,
              "/nodes/0/matrix");
  ExpectError(with_matrix("[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,2]"), Error::kInvalidValue,
              "/nodes/0/matrix");
  auto shear = LoadBytes(with_matrix("[1,0,0,0, 0.5,1,0,0, 0,0,1,0, 0,1,0,1]"));
  ASSERT_TRUE(shear.ok()) << shear.error().ToString();
  ASSERT_EQ(shear->warnings.size(), 1u);
  EXPECT_EQ(shear->warnings[0].where, "/nodes/0/matrix");
  EXPECT_EQ(shear->asset.nodes[0].matrix.m[1][0], 0.5f);
}

// A scene's nodes are unique ("uniqueItems"): one listed twice would be drawn twice.
TEST(GltfErrors, RejectsASceneListingARootTwice) {
  ExpectError(Replace(ValidGltf(), R"("scenes": [{"nodes": [0, 2]}])",
                      R"("scenes": [{"nodes": [0, 2, 0]}])"),
              Error::kInvalidValue, "/scenes/0/nodes/2");
  // Two scenes may share a root.
  auto shared = LoadBytes(Replace(ValidGltf(), R"("scenes": [{"nodes": [0, 2]}])",
                                  R"("scenes": [{"nodes": [0, 2]}, {"nodes": [2, 0]}])"));
  ASSERT_TRUE(shared.ok()) << shared.error().ToString();
}

// "When positions are not specified, client implementations SHOULD skip primitive's rendering":
// a skinned primitive without POSITION is skipped with a warning, as an unskinned one is, not
// refused as if it lacked its influences.
TEST(GltfErrors, SkipsASkinnedPrimitiveWithoutPositionWithAWarning) {
  auto loaded = LoadBytes(Replace(ValidGltf(), R"("attributes": {"POSITION": 0, "JOINTS_0": 1,)",
                                  R"("attributes": {"JOINTS_0": 1,)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].vertex_count(), 0u);
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/meshes/0/primitives/0/attributes");
}

// A primitive skipped for want of POSITION still counts the morph targets it lists: glTF asks
// every primitive of a mesh for the same number, and the mesh's weights, its nodes' weights and
// its weights channels are judged against it, whichever primitive is skipped. The skipped
// primitive's targets are not read (it has no vertices to move).
TEST(GltfErrors, APrimitiveSkippedForWantOfPositionKeepsItsMeshsTargetCount) {
  const std::string morphed =
      Replace(Replace(ValidGltf(), R"("meshes": [{"primitives": [)",
                      R"("meshes": [{"weights": [0.5], "primitives": [)"),
              R"("WEIGHTS_0": 2}}]}],)", R"("WEIGHTS_0": 2}, "targets": [{"POSITION": 0}]}]}],)");
  const std::string skipped_first =
      Replace(morphed, R"("primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1,)",
              R"("primitives": [{"attributes": {"JOINTS_0": 1, "WEIGHTS_0": 2},
                                 "targets": [{"POSITION": 99}]},
                                {"attributes": {"POSITION": 0, "JOINTS_0": 1,)");
  auto loaded = LoadBytes(skipped_first);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Mesh& mesh = loaded->asset.meshes[0];
  ASSERT_EQ(mesh.primitives.size(), 2u);
  EXPECT_EQ(mesh.primitives[0].vertex_count(), 0u);
  EXPECT_EQ(mesh.primitives[0].targets.size(), 1u);  // (empty: no vertices to move)
  EXPECT_TRUE(mesh.primitives[0].targets[0].positions.empty());
  EXPECT_EQ(mesh.primitives[1].targets.size(), 1u);
  EXPECT_EQ(mesh.weights, std::vector<float>{0.5f});
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/meshes/0/primitives/0/attributes");
  // A skipped primitive that lists another number of targets breaks the rule as any other does.
  auto mismatched = LoadBytes(Replace(skipped_first, R"("targets": [{"POSITION": 99}])",
                                      R"("targets": [{"POSITION": 99}, {"POSITION": 99}])"));
  ASSERT_FALSE(mismatched.ok());
  EXPECT_EQ(mismatched.error().code, Error::kInvalidValue);
  EXPECT_EQ(mismatched.error().where, "/meshes/0/primitives/1/targets");
}

// "When normals are not specified, ... the provided tangents (if present) MUST be ignored": the
// primitive loads without tangents, with a warning at TANGENT.
TEST(GltfErrors, IgnoresTangentsWithoutNormalsWithAWarning) {
  const std::string tangents = Replace(ValidGltf(), R"("attributes": {"POSITION": 0,)",
                                       R"("attributes": {"POSITION": 0, "TANGENT": 2,)");
  auto loaded = LoadBytes(tangents);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_TRUE(loaded->asset.meshes[0].primitives[0].tangents.empty());
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/meshes/0/primitives/0/attributes/TANGENT");
  // A morph target's TANGENT goes with the primitive's: ignored too, not refused as an offset to
  // nothing (the fixture's weights accessor serves as offsets).
  const std::string targets =
      Replace(tangents, R"("WEIGHTS_0": 2})", R"("WEIGHTS_0": 2}, "targets": [{"TANGENT": 0}])");
  auto morphed = LoadBytes(Replace(targets, R"("meshes": [{"primitives")",
                                   R"("meshes": [{"weights": [0], "primitives")"));
  ASSERT_TRUE(morphed.ok()) << morphed.error().ToString();
  ASSERT_EQ(morphed->asset.meshes[0].primitives[0].targets.size(), 1u);
  EXPECT_TRUE(morphed->asset.meshes[0].primitives[0].targets[0].tangents.empty());
  // With normals (the positions serve), the tangents are read.
  auto with_normals =
      LoadBytes(Replace(tangents, R"("TANGENT": 2,)", R"("TANGENT": 2, "NORMAL": 0,)"));
  ASSERT_TRUE(with_normals.ok()) << with_normals.error().ToString();
  EXPECT_EQ(with_normals->asset.meshes[0].primitives[0].tangents.size(), 12u);
}

// An animation sampler's key times start at 0 or later ("time[0] >= 0.0"), but Blender's exporter
// wrote negative ones for years and the keys still say what the clip does: a warning at the
// input, the keys kept (the clip starts at its first key).
TEST(GltfErrors, WarnsAboutNegativeKeyTimesAndKeepsThem) {
  std::vector<uint8_t> bytes = BufferBytes();
  const float minus_one = -1.0f;
  std::memcpy(bytes.data() + 96, &minus_one, 4);
  auto loaded = LoadBytes(Replace(ValidGltf(), BufferUri(), DataUri(bytes)));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/animations/0/samplers/0/input");
  const Animation& clip = loaded->asset.animations.at(0);
  EXPECT_EQ(clip.keys.at(clip.samplers.at(0).input.offset), -1.0f);
}

// "For triangles, it MUST be divisible by 3", for lines by 2: the indices, or the vertices of a
// primitive without them.
TEST(GltfErrors, RejectsIndicesThatDoNotMakeWholeTrianglesOrLines) {
  const std::string indexed =
      Replace(Replace(ValidGltf(), R"("WEIGHTS_0": 2})", R"("WEIGHTS_0": 2}, "indices": 5)"),
              R"("count": 2, "type": "VEC4"}
  ])",
              R"("count": 2, "type": "VEC4"},
    {"bufferView": 0, "byteOffset": 36, "componentType": 5121, "count": 2, "type": "SCALAR"}
  ])");
  ExpectError(indexed, Error::kInvalidValue, "/meshes/0/primitives/0/indices");
  auto lines = LoadBytes(Replace(indexed, R"("indices": 5)", R"("indices": 5, "mode": 1)"));
  ASSERT_TRUE(lines.ok()) << lines.error().ToString();
  ExpectError(Replace(ValidGltf(), R"("WEIGHTS_0": 2})", R"("WEIGHTS_0": 2}, "mode": 1)"),
              Error::kInvalidValue, "/meshes/0/primitives/0/attributes/POSITION");
}

// MUSTs whose breach changes nothing sinew computes are warnings, each at its place: an
// extension required but not listed as used, KHR_mesh_quantization used but not required, a
// node listed twice among a skin's joints, a weights channel on a node whose mesh has no morph
// targets (ignored: it moves nothing).
TEST(GltfErrors, WarnsAboutBreachesThatChangeNothingComputed) {
  const auto warned = [](const std::string& json) {
    auto loaded = LoadBytes(json);
    EXPECT_TRUE(loaded.ok()) << loaded.error().ToString();
    std::vector<std::string> where;
    if (loaded.ok()) {
      for (const Warning& w : loaded->warnings) where.push_back(w.where);
    }
    return where;
  };
  EXPECT_EQ(warned(Replace(ValidGltf(), R"("scene": 0,)",
                           R"("scene": 0, "extensionsRequired": ["KHR_mesh_quantization"],)")),
            std::vector<std::string>{"/extensionsRequired/0"});
  EXPECT_EQ(warned(Replace(ValidGltf(), R"("scene": 0,)",
                           R"("scene": 0, "extensionsUsed": ["KHR_mesh_quantization"],)")),
            std::vector<std::string>{"/extensionsUsed"});
  EXPECT_EQ(warned(Replace(ValidGltf(), R"("scene": 0,)",
                           R"("scene": 0, "extensionsUsed": ["KHR_mesh_quantization"],
                               "extensionsRequired": ["KHR_mesh_quantization"],)")),
            std::vector<std::string>{});
  // Required only, KHR_mesh_quantization still reads quantized data (the warning is for the
  // list, not the data): SHORT positions.
  EXPECT_EQ(
      warned(Replace(Replace(ValidGltf(), R"("scene": 0,)",
                             R"("scene": 0, "extensionsRequired": ["KHR_mesh_quantization"],)"),
                     R"("byteOffset": 0, "componentType": 5126, "count": 3, "type": "VEC3")",
                     R"("byteOffset": 0, "componentType": 5122, "count": 3, "type": "VEC3")")),
      std::vector<std::string>{"/extensionsRequired/0"});
  EXPECT_EQ(warned(Replace(ValidGltf(), R"("joints": [0, 1]})", R"("joints": [0, 1, 0]})")),
            std::vector<std::string>{"/skins/0/joints"});
  const std::string weights = Replace(ValidGltf(), R"({"node": 1, "path": "rotation"})",
                                      R"({"node": 2, "path": "weights"})");
  EXPECT_EQ(warned(weights), std::vector<std::string>{"/animations/0/channels/0/target/node"});
  auto ignored = LoadBytes(weights);
  ASSERT_TRUE(ignored.ok());
  EXPECT_EQ(ignored->asset.animations.at(0).channels.at(0).node, -1);
  // The same for a node without a mesh.
  EXPECT_EQ(warned(Replace(ValidGltf(), R"({"node": 1, "path": "rotation"})",
                           R"({"node": 1, "path": "weights"})")),
            std::vector<std::string>{"/animations/0/channels/0/target/node"});
}

// What nothing reads is not refused: a buffer without data (no uri, not a GLB's BIN chunk) with
// a view and an accessor on it, and an accessor of a type glTF does not have, load with a warning
// each; reading either is the error it would have been at load.
TEST(GltfErrors, RefusesABufferWithoutDataAndAnAccessorOfAnUnknownTypeOnlyWhenRead) {
  std::string text =
      Replace(ValidGltf(), R"("byteLength": 136, "uri": ")" + BufferUri() + R"("}])",
              R"("byteLength": 136, "uri": ")" + BufferUri() + R"("}, {"byteLength": 128}])");
  text = Replace(text, R"("bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 136}])",
                 R"("bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 136},
                                    {"buffer": 1, "byteLength": 128}])");
  text = Replace(text, R"("count": 2, "type": "VEC4"}
  ])",
                 R"("count": 2, "type": "VEC4"},
    {"bufferView": 1, "componentType": 5126, "count": 2, "type": "MAT4"},
    {"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC5"}
  ])");
  auto loaded = LoadBytes(text);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 2u);
  EXPECT_EQ(loaded->warnings[0].where, "/buffers/1");
  EXPECT_EQ(loaded->warnings[1].where, "/accessors/6/type");
  EXPECT_EQ(loaded->warnings[1].message, "unknown type 'VEC5'; nothing reads it");
  const std::string skin = R"("skins": [{"joints": [0, 1]}])";
  ExpectError(Replace(text, skin, R"("skins": [{"joints": [0, 1], "inverseBindMatrices": 5}])"),
              Error::kMissingProperty, "/buffers/1/uri");
  ExpectError(Replace(text, skin, R"("skins": [{"joints": [0, 1], "inverseBindMatrices": 6}])"),
              Error::kInvalidValue, "/accessors/6/type");
  ExpectError(Replace(text, R"("samplers": [{"input": 3, "output": 4}])",
                      R"("samplers": [{"input": 6, "output": 4}])"),
              Error::kInvalidValue, "/accessors/6/type");
}

// A syntax error names the line and column where the text goes wrong (here, where it ends).
TEST(GltfErrors, RejectsTextThatIsNotJson) {
  ExpectError("{\"asset\": ", Error::kJsonSyntax, "line 1, column 11");
}

TEST(GltfErrors, RejectsARootThatIsNotAnObject) { ExpectError("[1, 2]", Error::kWrongType, ""); }

TEST(GltfErrors, RequiresTheAssetObject) {
  ExpectError(Replace(ValidGltf(), R"("asset": {"version": "2.0"},)", ""), Error::kMissingProperty,
              "/asset");
}

TEST(GltfErrors, RejectsGltfVersionOne) {
  ExpectError(Replace(ValidGltf(), R"("version": "2.0")", R"("version": "1.0")"),
              Error::kUnsupportedFeature, "/asset/version");
}

TEST(GltfErrors, NamesAnUnknownRequiredExtension) {
  auto json = Replace(ValidGltf(), R"("scene": 0,)",
                      R"("scene": 0, "extensionsUsed": ["EXT_unknown"],
                         "extensionsRequired": ["EXT_unknown"],)");
  auto loaded = LoadBytes(json);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.code(), Error::kUnsupportedExtension);
  EXPECT_EQ(loaded.error().where, "/extensionsRequired/0");
  EXPECT_NE(loaded.error().message.find("EXT_unknown"), std::string::npos);
}

TEST(GltfErrors, AcceptsAnUnknownExtensionThatIsOnlyUsed) {
  auto loaded = LoadBytes(
      Replace(ValidGltf(), R"("scene": 0,)", R"("scene": 0, "extensionsUsed": ["EXT_unknown"],)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.extensions_used, std::vector<std::string>{"EXT_unknown"});
}

TEST(GltfErrors, RequiresAUriOnABufferOutsideGlb) {
  ExpectError(
      Replace(ValidGltf(), R"("byteLength": 136, "uri": ")", R"("byteLength": 136, "x": ")"),
      Error::kMissingProperty, "/buffers/0/uri");
}

TEST(GltfErrors, RejectsABufferShorterThanItsByteLength) {
  ExpectError(Replace(ValidGltf(), R"("byteLength": 136, "uri")", R"("byteLength": 137, "uri")"),
              Error::kOutOfBounds, "/buffers/0/byteLength");
}

TEST(GltfErrors, RejectsBadBase64InADataUri) {
  auto loaded = LoadBytes(Replace(ValidGltf(), "base64,AAAA", "base64,AA*A"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.code(), Error::kInvalidBase64);
  EXPECT_EQ(loaded.error().where.rfind("/buffers/0/uri", 0), 0u) << loaded.error().where;
}

TEST(GltfErrors, RejectsAMissingExternalBufferNamingIt) {
  auto loaded = LoadBytes(Replace(ValidGltf(), BufferUri(), "no_such_file.bin"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.code(), Error::kFileNotFound);
  EXPECT_EQ(loaded.error().where, "/buffers/0/uri");
  EXPECT_NE(loaded.error().message.find("no_such_file.bin"), std::string::npos);
}

TEST(GltfErrors, RejectsABufferViewPastItsBuffer) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 0, "byteLength": 136)",
                      R"("byteOffset": 4, "byteLength": 136)"),
              Error::kOutOfBounds, "/bufferViews/0/byteLength");
}

TEST(GltfErrors, RejectsAByteStrideThatIsNotAMultipleOfFour) {
  ExpectError(
      Replace(ValidGltf(), R"("byteLength": 136})", R"("byteLength": 136, "byteStride": 6})"),
      Error::kInvalidValue, "/bufferViews/0/byteStride");
}

TEST(GltfErrors, RejectsAnAccessorNamingAMissingBufferView) {
  ExpectError(Replace(ValidGltf(), R"({"bufferView": 0, "byteOffset": 0, "componentType": 5126)",
                      R"({"bufferView": 7, "byteOffset": 0, "componentType": 5126)"),
              Error::kInvalidReference, "/accessors/0/bufferView");
}

TEST(GltfErrors, RejectsAnAccessorWithCountZero) {
  ExpectError(
      Replace(ValidGltf(), R"("count": 3, "type": "VEC3")", R"("count": 0, "type": "VEC3")"),
      Error::kInvalidValue, "/accessors/0/count");
}

TEST(GltfErrors, RejectsAnUnknownComponentType) {
  ExpectError(Replace(ValidGltf(), R"("componentType": 5126, "count": 3, "type": "VEC3")",
                      R"("componentType": 5124, "count": 3, "type": "VEC3")"),
              Error::kInvalidValue, "/accessors/0/componentType");
}

TEST(GltfErrors, RejectsAnAccessorReadingPastItsView) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 104, "componentType": 5126, "count": 2)",
                      R"("byteOffset": 104, "componentType": 5126, "count": 3)"),
              Error::kOutOfBounds, "/accessors/4");
}

// An accessor without a bufferView is all zeros (plus its sparse values), so its size is not
// bounded by any data in the file: sinew caps what it decodes to at a multiple of the input's size
// (docs/semantics.md, "Bad input"), so that a 200-byte file cannot make the loader allocate
// gigabytes, or overflow.
TEST(GltfErrors, LoadsAnAccessorWithoutABufferViewAsZeros) {
  auto loaded = LoadBytes(Replace(
      ValidGltf(), R"({"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3)",
      R"({"componentType": 5126, "count": 3)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const std::vector<float>& positions = loaded->asset.meshes[0].primitives[0].positions;
  EXPECT_EQ(positions, std::vector<float>(9, 0.0f));
}

TEST(GltfErrors, RejectsAnAccessorWithoutABufferViewFarLargerThanTheFile) {
  ExpectError(Replace(ValidGltf(),
                      R"({"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3)",
                      R"({"componentType": 5126, "count": 4000000000)"),
              Error::kUnsupportedFeature, "/accessors/0/count");
}

TEST(GltfErrors, RejectsAnAccessorCountWhoseByteSizeOverflows) {
  ExpectError(Replace(ValidGltf(),
                      R"({"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3)",
                      R"({"componentType": 5126, "count": 18446744073709551000)"),
              Error::kUnsupportedFeature, "/accessors/0/count");
}

// Only vertex attribute views may define byteStride (glTF 2.0, buffer views). The fixture's
// accessor `moved` is put on a second view, [offset, offset + length) of the buffer, with
// byteStride.
std::string WithStridedView(const std::string& moved, uint32_t offset, uint32_t length,
                            uint32_t stride) {
  auto json = Replace(ValidGltf(), R"("byteOffset": 0, "byteLength": 136}])",
                      R"("byteOffset": 0, "byteLength": 136}, {"buffer": 0, "byteOffset": )" +
                          std::to_string(offset) + R"(, "byteLength": )" + std::to_string(length) +
                          R"(, "byteStride": )" + std::to_string(stride) + "}]");
  return Replace(json, R"({"bufferView": 0, "byteOffset": )" + moved,
                 R"({"bufferView": 1, "byteOffset": 0)");
}

TEST(GltfErrors, RejectsKeyTimesOnABufferViewWithByteStride) {
  ExpectError(WithStridedView("96", 96, 12, 8), Error::kInvalidValue,
              "/animations/0/samplers/0/input");
}

// A byteStride equal to the element size (4 for float key times) reads the same as none; popular
// exporters write it on animation and inverse-bind views: the file loads, with one warning.
TEST(GltfErrors, WarnsAboutKeyTimesOnAViewWhoseByteStrideIsTheElementSize) {
  auto loaded = LoadBytes(WithStridedView("96", 96, 8, 4));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "/animations/0/samplers/0/input");
  auto plain = LoadBytes(ValidGltf());
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(loaded->asset.animations[0].keys, plain->asset.animations[0].keys);
}

TEST(GltfErrors, AcceptsVertexAttributesOnABufferViewWithByteStride) {
  auto loaded = LoadBytes(WithStridedView("0", 0, 36, 12));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].positions,
            (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}));
}

// One zero accessor of about 1 MB (within the per-accessor cap) named by 100 samplers would decode
// to 100 MB from a 6 KB file: the load's whole decoded output is capped too (docs/semantics.md,
// "Bad input").
TEST(GltfErrors, RejectsALoadWhoseDecodedDataGrowsFarPastTheFile) {
  std::string samplers;
  for (int i = 0; i < 100; ++i) samplers += R"({"input": 3, "output": 5}, )";
  auto json = Replace(ValidGltf(), R"("samplers": [)", R"("samplers": [)" + samplers);
  json = Replace(
      json, R"("count": 2, "type": "VEC4"})",
      R"("count": 2, "type": "VEC4"}, {"componentType": 5126, "count": 60000, "type": "VEC4"})");
  auto loaded = LoadBytes(json);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(loaded.error().where, "/accessors/5");
  EXPECT_NE(loaded.error().message.find("decoded bytes"), std::string::npos);
}

TEST(GltfErrors, RejectsAMatrixNextToTrs) {
  ExpectError(Replace(ValidGltf(), R"({"name": "tip", "translation": [0, 1, 0]})",
                      R"({"name": "tip", "translation": [0, 1, 0],
                          "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]})"),
              Error::kInvalidValue, "/nodes/1/matrix");
}

TEST(GltfErrors, RejectsANodeWithTwoParents) {
  ExpectError(Replace(ValidGltf(), R"({"mesh": 0, "skin": 0})",
                      R"({"mesh": 0, "skin": 0, "children": [1]})"),
              Error::kInvalidValue, "/nodes/2/children/0");
}

TEST(GltfErrors, RejectsANodeThatIsItsOwnChild) {
  ExpectError(Replace(ValidGltf(), R"({"name": "tip", "translation": [0, 1, 0]})",
                      R"({"name": "tip", "translation": [0, 1, 0], "children": [1]})"),
              Error::kInvalidValue, "/nodes/1/children/0");
}

TEST(GltfErrors, RejectsACycleInTheHierarchy) {
  auto json =
      Replace(ValidGltf(), R"("scenes": [{"nodes": [0, 2]}])", R"("scenes": [{"nodes": [2]}])");
  json = Replace(json, R"({"name": "tip", "translation": [0, 1, 0]})",
                 R"({"name": "tip", "translation": [0, 1, 0], "children": [0]})");
  ExpectError(json, Error::kInvalidValue, "/nodes/0");
}

TEST(GltfErrors, RejectsASceneNodeThatIsNotARoot) {
  ExpectError(
      Replace(ValidGltf(), R"("scenes": [{"nodes": [0, 2]}])", R"("scenes": [{"nodes": [1]}])"),
      Error::kInvalidValue, "/scenes/0/nodes/0");
}

TEST(GltfErrors, RejectsADefaultSceneThatDoesNotExist) {
  ExpectError(Replace(ValidGltf(), R"("scene": 0,)", R"("scene": 3,)"), Error::kInvalidReference,
              "/scene");
}

TEST(GltfErrors, RejectsASkinOnANodeWithoutAMesh) {
  ExpectError(Replace(ValidGltf(), R"({"mesh": 0, "skin": 0})", R"({"skin": 0})"),
              Error::kInvalidValue, "/nodes/2/skin");
}

TEST(GltfErrors, RejectsAJointIndexPastTheSkin) {
  ExpectError(
      Replace(ValidGltf(), R"("skins": [{"joints": [0, 1]}])", R"("skins": [{"joints": [0]}])"),
      Error::kInvalidReference, "/meshes/0/primitives/0/attributes/JOINTS_0");
}

TEST(GltfErrors, RejectsWeightsWithoutJoints) {
  ExpectError(Replace(ValidGltf(), R"("JOINTS_0": 1, "WEIGHTS_0": 2)", R"("WEIGHTS_0": 2)"),
              Error::kMissingProperty, "/meshes/0/primitives/0/attributes/JOINTS_0");
}

TEST(GltfErrors, RejectsAttributesOfDifferentCounts) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 48, "componentType": 5126, "count": 3)",
                      R"("byteOffset": 48, "componentType": 5126, "count": 2)"),
              Error::kInvalidValue, "/meshes/0/primitives/0/attributes/WEIGHTS_0");
}

TEST(GltfErrors, RejectsMeshWeightsOfTheWrongLength) {
  ExpectError(Replace(ValidGltf(), R"("meshes": [{"primitives")",
                      R"("meshes": [{"weights": [0.5], "primitives")"),
              Error::kInvalidValue, "/meshes/0/weights");
}

TEST(GltfErrors, RejectsKeyTimesThatDoNotIncrease) {
  // Point the input at the first position floats (0, 0): not strictly increasing.
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 96, "componentType": 5126, "count": 2)",
                      R"("byteOffset": 0, "componentType": 5126, "count": 2)"),
              Error::kInvalidValue, "/animations/0/samplers/0/input");
}

TEST(GltfErrors, RejectsAnUnknownInterpolation) {
  ExpectError(Replace(ValidGltf(), R"("output": 4})", R"("output": 4, "interpolation": "SMOOTH"})"),
              Error::kInvalidValue, "/animations/0/samplers/0/interpolation");
}

TEST(GltfErrors, RejectsARotationChannelWithVec3Output) {
  ExpectError(Replace(ValidGltf(), R"("path": "rotation")", R"("path": "translation")"),
              Error::kInvalidValue, "/animations/0/samplers/0/output");
}

TEST(GltfErrors, RejectsAnIndexOfTheWrongJsonType) {
  ExpectError(Replace(ValidGltf(), R"("mesh": 0, "skin": 0)", R"("mesh": "0", "skin": 0)"),
              Error::kWrongType, "/nodes/2/mesh");
}

// Component types per role (glTF 2.0, widened by KHR_mesh_quantization).
TEST(GltfErrors, RejectsAQuantizedPositionWithoutTheExtension) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 0, "componentType": 5126, "count": 3)",
                      R"("byteOffset": 0, "componentType": 5123, "count": 3)"),
              Error::kInvalidValue, "/meshes/0/primitives/0/attributes/POSITION");
}

TEST(GltfErrors, DecodesAQuantizedPositionWithTheExtension) {
  auto json = Replace(ValidGltf(), R"("byteOffset": 0, "componentType": 5126, "count": 3)",
                      R"("byteOffset": 0, "componentType": 5123, "count": 3)");
  json = Replace(json, R"("scene": 0,)",
                 R"("scene": 0, "extensionsUsed": ["KHR_mesh_quantization"],
                    "extensionsRequired": ["KHR_mesh_quantization"],)");
  auto loaded = LoadBytes(json);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  // The buffer's first floats (0, 0, 0, 1.0f) read as u16: 0 x 7, then 0x3F80 = 16256.
  const std::vector<float>& p = loaded->asset.meshes[0].primitives[0].positions;
  ASSERT_EQ(p.size(), 9u);
  EXPECT_EQ(p[6], 0.0f);
  EXPECT_EQ(p[7], 16256.0f);
}

TEST(GltfErrors, RejectsFloatJoints) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 36, "componentType": 5121)",
                      R"("byteOffset": 36, "componentType": 5126)"),
              Error::kInvalidValue, "/meshes/0/primitives/0/attributes/JOINTS_0");
}

TEST(GltfErrors, RejectsWeightsThatAreNotFloatOrNormalized) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 48, "componentType": 5126)",
                      R"("byteOffset": 48, "componentType": 5122)"),
              Error::kInvalidValue, "/meshes/0/primitives/0/attributes/WEIGHTS_0");
}

TEST(GltfErrors, RejectsKeyTimesThatAreNotFloat) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 96, "componentType": 5126)",
                      R"("byteOffset": 96, "componentType": 5121)"),
              Error::kInvalidValue, "/animations/0/samplers/0/input");
}

TEST(GltfErrors, RejectsRotationsThatAreIntegersButNotNormalized) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 104, "componentType": 5126)",
                      R"("byteOffset": 104, "componentType": 5122)"),
              Error::kInvalidValue, "/animations/0/samplers/0/output");
}

TEST(GltfErrors, AcceptsNormalizedShortRotations) {
  auto loaded =
      LoadBytes(Replace(ValidGltf(), R"("byteOffset": 104, "componentType": 5126)",
                        R"("byteOffset": 104, "componentType": 5122, "normalized": true)"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
}

TEST(GltfErrors, RejectsAnAccessorOffsetNotAMultipleOfItsComponentSize) {
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 48, "componentType": 5126, "count": 3)",
                      R"("byteOffset": 50, "componentType": 5126, "count": 2)"),
              Error::kInvalidValue, "/accessors/2/byteOffset");
}

TEST(GltfErrors, RejectsAVertexAttributeNotOnA4ByteBoundary) {
  // u16 joints at offset 38: a multiple of 2 (the component size) but not of 4.
  ExpectError(Replace(ValidGltf(), R"("byteOffset": 36, "componentType": 5121, "count": 3)",
                      R"("byteOffset": 38, "componentType": 5123, "count": 3)"),
              Error::kInvalidValue, "/meshes/0/primitives/0/attributes/JOINTS_0");
}

TEST(GltfErrors, RejectsNodeWeightsOfTheWrongLength) {
  ExpectError(Replace(ValidGltf(), R"({"mesh": 0, "skin": 0})",
                      R"({"mesh": 0, "skin": 0, "weights": [0.5]})"),
              Error::kInvalidValue, "/nodes/2/weights");
}

// GLB containers.
std::string Glb(const std::string& json, uint32_t version = 2, int length_delta = 0) {
  std::string padded = json;
  while (padded.size() % 4) padded += ' ';
  std::vector<uint8_t> out;
  Append<uint32_t>(&out,
                   {0x46546C67u, version, uint32_t(12 + 8 + padded.size() + size_t(length_delta))});
  Append<uint32_t>(&out, {uint32_t(padded.size()), 0x4E4F534Au});
  out.insert(out.end(), padded.begin(), padded.end());
  return std::string(out.begin(), out.end());
}

// In a GLB the place is in its JSON chunk.
TEST(GlbErrors, NamesTheLineAndColumnOfASyntaxErrorInTheJsonChunk) {
  ExpectError(Glb("{\"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [nul]}"), Error::kJsonSyntax,
              "JSON chunk, line 2, column 13");
}

TEST(GlbErrors, LoadsAGlbWithOnlyAJsonChunk) {
  auto loaded = LoadBytes(Glb(ValidGltf()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
}

TEST(GlbErrors, RejectsVersionOne) {
  ExpectError(Glb(ValidGltf(), 1), Error::kInvalidGlb, "byte 4");
}

TEST(GlbErrors, RejectsAHeaderLengthThatIsNotTheFileSize) {
  ExpectError(Glb(ValidGltf(), 2, 4), Error::kInvalidGlb, "byte 8");
}

// Bytes after the declared length (tools that pad files write them) are not the GLB's: the file
// loads, with a warning at the first of them. A declared length past the file stays an error.
TEST(GlbErrors, IgnoresBytesAfterTheDeclaredLengthWithAWarning) {
  std::string glb = Glb(ValidGltf());
  const size_t declared = glb.size();
  glb += std::string(8, '\0');
  auto loaded = LoadBytes(glb);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, "byte " + std::to_string(declared));
  EXPECT_NE(loaded->warnings[0].message.find("8 bytes"), std::string::npos);
}

TEST(GlbErrors, RejectsAChunkRunningPastTheFile) {
  std::string glb = Glb(ValidGltf());
  const uint32_t huge = 0x7FFFFFF0u;
  std::memcpy(glb.data() + 12, &huge, 4);
  ExpectError(glb, Error::kInvalidGlb, "byte 12");
}

TEST(GlbErrors, RejectsABufferWithoutUriWhenThereIsNoBinChunk) {
  ExpectError(
      Glb(Replace(ValidGltf(), R"("byteLength": 136, "uri": ")", R"("byteLength": 136, "x": ")")),
      Error::kMissingProperty, "/buffers/0/uri");
}

// A BIN chunk may exceed its buffer by up to 3 bytes of padding; more is warned about.
TEST(GlbErrors, WarnsAboutABinChunkLargerThanItsBufferAndItsPadding) {
  for (const uint32_t extra : {0u, 8u}) {
    // The fixture's 136-byte buffer in the BIN chunk, with `extra` bytes after it.
    std::string glb =
        Glb(Replace(ValidGltf(), R"("byteLength": 136, "uri": ")" + BufferUri() + "\"",
                    R"("byteLength": 136)"));
    const std::vector<uint8_t> buffer = BufferBytes();
    glb += std::string("\x00\0\0\0BIN\0", 8) + std::string(buffer.begin(), buffer.end()) +
           std::string(extra, '\0');
    const uint32_t chunk = uint32_t(buffer.size()) + extra;
    std::memcpy(glb.data() + glb.size() - chunk - 8, &chunk, 4);
    const uint32_t length = uint32_t(glb.size());
    std::memcpy(glb.data() + 8, &length, 4);
    auto loaded = LoadBytes(glb);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    std::vector<std::string> where;
    for (const Warning& w : loaded->warnings) where.push_back(w.where);
    EXPECT_EQ(where, extra == 0 ? std::vector<std::string>{}
                                : std::vector<std::string>{"/buffers/0/byteLength"});
  }
}

// A GLB has at most one BIN chunk, right after the JSON: a second one is named as such.
TEST(GlbErrors, NamesASecondBinChunk) {
  std::string glb = Glb(Replace(ValidGltf(), R"("byteLength": 136, "uri": ")" + BufferUri() + "\"",
                                R"("byteLength": 4)"));
  const std::string bin_chunk = std::string("\x04\0\0\0BIN\0", 8) + std::string(4, '\0');
  const size_t second = glb.size() + bin_chunk.size();
  glb += bin_chunk + bin_chunk;
  const uint32_t length = uint32_t(glb.size());
  std::memcpy(glb.data() + 8, &length, 4);
  auto one = LoadBytes(glb.substr(0, second));
  EXPECT_EQ(one.code(), Error::kInvalidGlb) << "the header's length still counts both chunks";
  ExpectError(glb, Error::kInvalidGlb, "byte " + std::to_string(second + 4));
  auto loaded = LoadBytes(glb);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message, "a second BIN chunk");
}

}  // namespace
}  // namespace sinew::loader
