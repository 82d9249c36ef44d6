// One small fixture per G4MF rule and bad-input case (docs/G4MF.md, "Validation rules", and
// the format's own rules): the valid character with one thing changed, the exact error and where.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "g4mf/g4b.h"
#include "loader/g4mf_fixture.h"
#include "sinew/loader/g4mf.h"

namespace sinew::loader {
namespace {

using g4mf_testing::Bytes;
using g4mf_testing::Character;
using g4mf_testing::Document;
using g4mf_testing::ExpectError;
using g4mf_testing::JsonObject;
using g4mf_testing::Load;
using g4mf_testing::LoadBytes;
using g4mf_testing::MakeG4b;
using g4mf_testing::Replace;
using g4mf_testing::ValidCharacter;
using g4mf_testing::Zstd;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::string Str(uint32_t index) { return std::to_string(index); }

// o[key] with the first `from` in its JSON text replaced by `to`.
void Edit(JsonObject& o, const std::string& key, const std::string& from, const std::string& to) {
  const std::string* value = o.Find(key);
  ASSERT_NE(value, nullptr) << "no member " << key;
  o.Set(key, Replace(*value, from, to));
}

// The character's normals binding, as the surface writes it.
std::string Normals(const Character& c) {
  return R"("normals": {"values": )" + Str(c.normal_values) + R"(, "simplexes": )" +
         Str(c.normal_simplexes) + "}";
}

// A blend shape surface entry for `surface` with the character's normal offsets.
std::string BlendSurface(const Character& c, uint32_t surface = 0) {
  return R"({"surface": )" + Str(surface) + R"(, "normal": {"indices": )" +
         Str(c.blend_normal_indices) + R"(, "offsets": )" + Str(c.blend_normal_offsets) + "}}";
}

// ---------------------------------------------------------------------------------------------
// JSON and asset

TEST(G4mfErrors, RejectsTextThatIsNotJson) {
  ExpectError(R"({"asset": )", Error::kJsonSyntax, "line 1, column 11");
}

// As in glTF: a byte-order mark before the JSON is skipped, with a warning at byte 0.
TEST(G4mfErrors, SkipsAByteOrderMarkBeforeTheJsonWithAWarning) {
  const auto marked = g4mf_testing::LoadText("\xEF\xBB\xBF" + ValidCharacter().doc.Json());
  ASSERT_TRUE(marked.ok()) << marked.error().ToString();
  ASSERT_FALSE(marked->warnings.empty());
  EXPECT_EQ(marked->warnings[0].where, "byte 0");
  EXPECT_EQ(marked->warnings[0].message, "a UTF-8 byte-order mark begins the JSON: ignored");
}

TEST(G4mfErrors, RejectsARootThatIsNotAnObject) { ExpectError("[1, 2]", Error::kWrongType, ""); }

TEST(G4mfErrors, RequiresTheAssetObject) {
  ExpectError(Replace(ValidCharacter().doc.Json(), R"("asset": {"dimension": 3},)", ""),
              Error::kMissingProperty, "/asset");
}

TEST(G4mfErrors, RequiresTheDimension) {
  Character c = ValidCharacter();
  c.doc.asset.Erase("dimension");
  ExpectError(c.doc, Error::kMissingProperty, "/asset/dimension");
}

TEST(G4mfErrors, RejectsADimensionThatIsNotAnInteger) {
  Character c = ValidCharacter();
  c.doc.asset.Set("dimension", "3.5");
  ExpectError(c.doc, Error::kWrongType, "/asset/dimension");
  c.doc.asset.Set("dimension", R"("3")");
  ExpectError(c.doc, Error::kWrongType, "/asset/dimension");
}

TEST(G4mfErrors, RejectsFourDimensionalFilesAsUnsupported) {
  Character c = ValidCharacter();
  c.doc.asset.Set("dimension", "4");
  ExpectError(c.doc, Error::kUnsupportedFeature, "/asset/dimension");
}

TEST(G4mfErrors, RejectsAnUnknownRequiredExtension) {
  Character c = ValidCharacter();
  c.doc.asset.Set("extensionsUsed", R"(["EXT_unknown"])");
  c.doc.asset.Set("extensionsRequired", R"(["EXT_unknown"])");
  ExpectError(c.doc, Error::kUnsupportedExtension, "/asset/extensionsRequired/0");
}

// ---------------------------------------------------------------------------------------------
// Names (core.md:52)

TEST(G4mfErrors, RejectsANameUsedByTwoItemsOfDifferentKinds) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("name", R"("BodyMesh")");  // mesh 0's name; meshes are checked first
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/4/name");
}

TEST(G4mfErrors, RejectsANameUsedByTwoNodes) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("name", R"("Hips")");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/name");
}

TEST(G4mfErrors, RejectsANameWithAForbiddenCharacter) {
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("name", R"("Hips.L")");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/2/name");
  c.doc.nodes[2].Set("name", R"("Hips/L")");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/2/name");
}

// ---------------------------------------------------------------------------------------------
// Buffers

TEST(G4mfErrors, RejectsABufferWithBothUriAndChunk) {
  Character c = ValidCharacter();
  c.doc.buffers = {c.doc.DataBuffer().Set("chunk", "1")};
  ExpectError(c.doc, Error::kInvalidValue, "/buffers/0");
}

TEST(G4mfErrors, RejectsABufferWithNeitherUriNorChunk) {
  Character c = ValidCharacter();
  c.doc.buffers = {c.doc.DataBuffer().Erase("uri")};
  ExpectError(c.doc, Error::kMissingProperty, "/buffers/0");
}

TEST(G4mfErrors, RejectsAChunkBufferInATextFile) {
  Character c = ValidCharacter();
  c.doc.buffers = {{{"byteLength", Str(uint32_t(c.doc.data.size()))}, {"chunk", "1"}}};
  ExpectError(c.doc, Error::kInvalidReference, "/buffers/0/chunk");
}

TEST(G4mfErrors, RequiresTheBufferByteLength) {
  Character c = ValidCharacter();
  c.doc.buffers = {c.doc.DataBuffer().Erase("byteLength")};
  ExpectError(c.doc, Error::kMissingProperty, "/buffers/0/byteLength");
}

TEST(G4mfErrors, RejectsAnUnknownBufferEncoding) {
  Character c = ValidCharacter();
  c.doc.buffers = {c.doc.DataBuffer().Set("encoding", R"("Brot")")};
  ExpectError(c.doc, Error::kUnsupportedFeature, "/buffers/0/encoding");
}

TEST(G4mfErrors, RejectsAByteLengthLongerThanTheData) {
  Character c = ValidCharacter();
  c.doc.buffers = {c.doc.DataBuffer().Set("byteLength", Str(uint32_t(c.doc.data.size() + 1)))};
  ExpectError(c.doc, Error::kOutOfBounds, "/buffers/0/byteLength");
}

TEST(G4mfErrors, RejectsAByteLengthAboveTheLoadersLimit) {
  G4mfOptions options;
  options.max_buffer_bytes = 64;
  auto loaded = g4mf_testing::Load(ValidCharacter().doc, options);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.code(), Error::kInvalidValue) << loaded.error().ToString();
  EXPECT_EQ(loaded.error().where, "/buffers/0/byteLength");
}

TEST(G4mfErrors, RejectsAMissingExternalBufferFile) {
  Character c = ValidCharacter();
  c.doc.buffers = {c.doc.DataBuffer().Set("uri", R"("no_such_file.bin")")};
  ExpectError(c.doc, Error::kFileNotFound, "/buffers/0/uri");
}

// A Zstd buffer (its own "encoding") stored in a data: URI: `stored` as the URI's bytes.
Document WithZstdUri(Document doc, const std::vector<uint8_t>& stored) {
  Document carrier;
  carrier.data = stored;
  doc.buffers = {carrier.DataBuffer()
                     .Set("byteLength", Str(uint32_t(doc.data.size())))
                     .Set("encoding", R"("Zstd")")};
  return doc;
}

TEST(G4mfErrors, RejectsATruncatedZstdBufferUri) {
  std::vector<uint8_t> packed = Zstd(ValidCharacter().doc.data);
  packed.resize(packed.size() - 3);
  ExpectError(WithZstdUri(ValidCharacter().doc, packed), Error::kInvalidG4b, "/buffers/0/uri");
}

TEST(G4mfErrors, RejectsAZstdBufferUriThatIsNotZstd) {
  const Document doc = ValidCharacter().doc;
  ExpectError(WithZstdUri(doc, doc.data), Error::kInvalidG4b, "/buffers/0/uri");
}

// ---------------------------------------------------------------------------------------------
// Buffer views

TEST(G4mfErrors, RejectsAViewPastTheEndOfItsBuffer) {
  Character c = ValidCharacter();
  c.doc.buffer_views[0].Set("byteLength", Str(uint32_t(c.doc.data.size() + 1)));
  ExpectError(c.doc, Error::kOutOfBounds, "/bufferViews/0/byteLength");
}

TEST(G4mfErrors, RejectsAViewStartingPastTheEndOfItsBuffer) {
  Character c = ValidCharacter();
  c.doc.buffer_views[0].Set("byteOffset", Str(uint32_t(c.doc.data.size() + 16)));
  ExpectError(c.doc, Error::kOutOfBounds, "/bufferViews/0/byteLength");
}

TEST(G4mfErrors, RejectsAViewOfTheDefaultBufferWhenThereIsNone) {
  Character c = ValidCharacter();
  c.doc.buffers = std::vector<JsonObject>{};
  ExpectError(c.doc, Error::kInvalidReference, "/bufferViews/0/buffer");
}

TEST(G4mfErrors, RejectsAViewOfABufferThatDoesNotExist) {
  Character c = ValidCharacter();
  c.doc.buffer_views[0].Set("buffer", "1");
  ExpectError(c.doc, Error::kInvalidReference, "/bufferViews/0/buffer");
}

TEST(G4mfErrors, RequiresTheViewByteLength) {
  Character c = ValidCharacter();
  c.doc.buffer_views[0].Erase("byteLength");
  ExpectError(c.doc, Error::kMissingProperty, "/bufferViews/0/byteLength");
}

// ---------------------------------------------------------------------------------------------
// Accessors (view sizes and alignment, component types)

TEST(G4mfErrors, RejectsAViewThatIsNotAWholeNumberOfElements) {
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.positions, "float32", {0, 0, 0, 1, 0, 0, 0, 1, 0, 1}, 3);
  ExpectError(c.doc, Error::kInvalidValue, "/accessors/0/bufferView");
}

TEST(G4mfErrors, RejectsAViewOffsetNotAlignedToTheComponent) {
  Character c = ValidCharacter();
  c.doc.buffer_views[c.positions].Set("byteOffset", "2");
  ExpectError(c.doc, Error::kInvalidValue, "/accessors/0/bufferView");
}

TEST(G4mfErrors, RejectsAnUnknownComponentType) {
  Character c = ValidCharacter();
  c.doc.accessors[c.skin_weights].Set("componentType", R"("float33")");
  ExpectError(c.doc, Error::kInvalidValue, "/accessors/6/componentType");
}

TEST(G4mfErrors, RejectsTheOldPrimitiveTypeName) {
  Character c = ValidCharacter();
  c.doc.accessors[c.skin_weights].Erase("componentType").Set("primitiveType", R"("float32")");
  ExpectError(c.doc, Error::kMissingProperty, "/accessors/6/componentType");
}

TEST(G4mfErrors, RejectsFloat128AsUnsupported) {
  Character c = ValidCharacter();
  c.doc.accessors[c.skin_weights].Set("componentType", R"("float128")");
  ExpectError(c.doc, Error::kUnsupportedFeature, "/accessors/6/componentType");
}

TEST(G4mfErrors, RejectsAVectorSizeOfZero) {
  Character c = ValidCharacter();
  c.doc.accessors[c.positions].Set("vectorSize", "0");
  ExpectError(c.doc, Error::kInvalidValue, "/accessors/0/vectorSize");
}

TEST(G4mfErrors, RejectsAnAccessorOfAViewThatDoesNotExist) {
  Character c = ValidCharacter();
  c.doc.accessors[c.positions].Set("bufferView", "99");
  ExpectError(c.doc, Error::kInvalidReference, "/accessors/0/bufferView");
}

// ---------------------------------------------------------------------------------------------
// Skins

TEST(G4mfErrors, RequiresSkinWeights) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "skin", R"(, "weights": )" + Str(c.skin_weights), "");
  ExpectError(c.doc, Error::kMissingProperty, "/meshes/0/skin/weights");
}

TEST(G4mfErrors, RequiresSkinGroups) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "skin", R"(, "groups": )" + Str(c.skin_groups), "");
  ExpectError(c.doc, Error::kMissingProperty, "/meshes/0/skin/groups");
}

TEST(G4mfErrors, RequiresSkinVertices) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "skin", R"("vertices": )" + Str(c.skin_vertices) + ", ", "");
  ExpectError(c.doc, Error::kMissingProperty, "/meshes/0/skin/vertices");
}

TEST(G4mfErrors, RejectsSkinAccessorsOfDifferentLengths) {
  Character c = ValidCharacter();
  c.doc.Refill<uint16_t>(c.skin_groups, "uint16", {0, 1, 0, 3});
  ExpectError(c.doc, Error::kSizeMismatch, "/meshes/0/skin");
}

TEST(G4mfErrors, RejectsSignedSkinGroups) {
  Character c = ValidCharacter();
  c.doc.Refill<int32_t>(c.skin_groups, "int32", {0, 1, 0, 3, 2});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/groups");
}

TEST(G4mfErrors, RejectsFloatSkinVertices) {
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.skin_vertices, "float32", {0, 1, 1, 2, 2});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/vertices");
}

TEST(G4mfErrors, RejectsSkinGroupsWithAVectorSize) {
  Character c = ValidCharacter();
  c.doc.accessors[c.skin_groups].Set("vectorSize", "5");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/groups");
}

TEST(G4mfErrors, RejectsSkinVerticesWithAVectorSize) {
  Character c = ValidCharacter();
  c.doc.accessors[c.skin_vertices].Set("vectorSize", "5");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/vertices");
}

TEST(G4mfErrors, RejectsSignedSkinVertices) {
  Character c = ValidCharacter();
  c.doc.Refill<int32_t>(c.skin_vertices, "int32", {0, 1, 1, 2, 2});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/vertices");
}

TEST(G4mfErrors, RejectsASkinGroupThatDoesNotFit32Bits) {  // sinew widens to u32
  Character c = ValidCharacter();
  c.doc.Refill<uint64_t>(c.skin_groups, "uint64", {0, 1, 0, uint64_t(1) << 32, 2});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/groups");
}

TEST(G4mfErrors, RejectsSkinGroupsFrom65536On) {
  // The per-instance palette has 1 + the largest group entries: sinew bounds it (and the group
  // count can then never wrap, as 1 + 0xFFFFFFFF would).
  for (uint32_t group : {65536u, 0xFFFFFFFFu}) {
    Character c = ValidCharacter();
    c.doc.Refill<uint32_t>(c.skin_groups, "uint32", {0, 1, 0, group, 2});
    ExpectError(c.doc, Error::kUnsupportedFeature, "/meshes/0/skin/groups");
  }
}

TEST(G4mfLoader, AcceptsSkinGroup65535) {
  Character c = ValidCharacter();
  c.doc.Refill<uint32_t>(c.skin_groups, "uint32", {0, 1, 0, 65535u, 2});
  auto loaded = Load(c.doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].sparse_influences.group_count, 65536u);
}

TEST(G4mfErrors, RejectsIntegerSkinWeights) {
  Character c = ValidCharacter();
  c.doc.Refill<uint8_t>(c.skin_weights, "uint8", {255, 128, 127, 192, 63});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/weights");
}

TEST(G4mfErrors, RejectsSkinWeightsWithAVectorSize) {
  Character c = ValidCharacter();
  c.doc.accessors[c.skin_weights].Set("vectorSize", "5");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/weights");
}

TEST(G4mfErrors, RejectsSkinVerticesThatDecrease) {
  Character c = ValidCharacter();
  c.doc.Refill<uint32_t>(c.skin_vertices, "uint32", {0, 1, 1, 2, 0});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/vertices");
}

TEST(G4mfErrors, RejectsASkinVertexPastTheVertexCount) {
  Character c = ValidCharacter();
  c.doc.Refill<uint32_t>(c.skin_vertices, "uint32", {0, 1, 1, 2, 4});
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/skin/vertices");
}

TEST(G4mfErrors, RejectsWeightsThatAscendWithinAVertex) {
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.skin_weights, "float32", {1, 0.5f, 0.5f, 0.25f, 0.75f});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/weights");
}

TEST(G4mfErrors, RejectsAGroupNameUsedTwice) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "skin", R"("Loose")", R"("Hips")");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/groupNames/2");
}

TEST(G4mfErrors, RejectsAnEmptyGroupName) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "skin", R"("Spine")", R"("")");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/skin/groupNames/1");
}

TEST(G4mfErrors, RejectsAGroupNameThatIsNotAString) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "skin", R"("Tail")", "7");
  ExpectError(c.doc, Error::kWrongType, "/meshes/0/skin/groupNames/3");
}

// The character with a second skinned mesh (mesh 1, BodyMesh's data) instanced under the same
// skeleton (node 5), its group names given by `group_names` (a JSON array, or "" for none).
Character TwoMeshesOnOneSkeleton(const std::string& group_names) {
  Character c = ValidCharacter();
  JsonObject second = c.doc.meshes[0];
  second.Set("name", R"("ArmorMesh")");
  const std::string* skin = second.Find("skin");
  const size_t names = skin->find(R"(, "groupNames")");
  second.Set("skin", skin->substr(0, names) +
                         (group_names.empty() ? "" : R"(, "groupNames": )" + group_names) + "}");
  c.doc.meshes.push_back(second);
  c.doc.nodes[1].Set("children", "[2, 4, 5]");
  c.doc.nodes.push_back({{"name", R"("Armor")"}, {"meshInstance", R"({"mesh": 1})"}});
  return c;
}

TEST(G4mfErrors, RejectsGroupNamesThatDisagreeBetweenMeshesOfOneSkeleton) {
  ExpectError(TwoMeshesOnOneSkeleton(R"(["Hips", "Chest"])").doc, Error::kInvalidValue,
              "/meshes/1/skin/groupNames/1");
}

TEST(G4mfLoader, AcceptsMeshesOfOneSkeletonThatNameFewerGroupsOrNone) {
  for (const char* names :
       {R"(["Hips", "Spine"])", "", R"(["Hips", "Spine", "Loose", "Tail", "X"])"}) {
    auto loaded = Load(TwoMeshesOnOneSkeleton(names).doc);
    ASSERT_TRUE(loaded.ok()) << names << ": " << loaded.error().ToString();
    EXPECT_EQ(loaded->asset.skins.size(), 2u);
  }
}

TEST(G4mfErrors, RejectsANaNWeight) {  // sinew needs finite weights
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.skin_weights, "float32", {1, 0.5f, 0.5f, kNaN, 0.25f});
  ExpectError(c.doc, Error::kNonFiniteValue, "/meshes/0/skin/weights");
}

TEST(G4mfErrors, RejectsANegativeWeightAsUnsupported) {  // G4MF does not forbid it
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.skin_weights, "float32", {1, 0.5f, 0.5f, 0.75f, -0.25f});
  ExpectError(c.doc, Error::kUnsupportedFeature, "/meshes/0/skin/weights");
}

// ---------------------------------------------------------------------------------------------
// Skeletons, joints and bones

TEST(G4mfErrors, RejectsAJointPastTheNodes) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [2, 5]})");
  ExpectError(c.doc, Error::kInvalidReference, "/nodes/1/skeleton/joints/1");
}

TEST(G4mfErrors, RejectsAJointBelowMinusOne) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [2, -2]})");
  ExpectError(c.doc, Error::kInvalidReference, "/nodes/1/skeleton/joints/1");
}

TEST(G4mfErrors, RejectsAJointThatIsNotAnInteger) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [2, 2.5]})");
  ExpectError(c.doc, Error::kWrongType, "/nodes/1/skeleton/joints/1");
}

TEST(G4mfErrors, RejectsAJointThatIsNotABone) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [2, 3, -1, 4]})");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/1/skeleton/joints/3");
}

TEST(G4mfErrors, RejectsTheSkeletonItselfAsAJoint) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("skeleton", R"({"joints": [1, 2, 3]})");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/1/skeleton/joints/0");
}

TEST(G4mfErrors, RejectsAJointOfAnotherSkeleton) {
  Character c = ValidCharacter();
  c.doc.nodes[0].Set("children", "[1, 5]");
  c.doc.nodes.push_back({{"name", R"("Other")"}, {"skeleton", "{}"}, {"children", "[6]"}});
  c.doc.nodes.push_back({{"name", R"("Tail")"}, {"bone", "{}"}});
  c.doc.nodes[1].Set("skeleton", R"({"joints": [2, 3, -1, 6]})");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/1/skeleton/joints/3");
}

TEST(G4mfErrors, RejectsABoneUnderANonBone) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("children", "[5]");
  c.doc.nodes.push_back({{"name", R"("Finger")"}, {"bone", "{}"}});
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/5/bone");
}

TEST(G4mfErrors, RejectsABoneOutsideAnySkeleton) {
  Character c = ValidCharacter();
  c.doc.nodes[0].Set("children", "[1, 5]");
  c.doc.nodes.push_back({{"name", R"("Stray")"}, {"bone", "{}"}});
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/5/bone");
}

TEST(G4mfErrors, RejectsASkeletonUnderABone) {  // its bones would belong to two skeletons
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("children", "[5]");
  c.doc.nodes.push_back({{"name", R"("Inner")"}, {"skeleton", "{}"}, {"children", "[6]"}});
  c.doc.nodes.push_back({{"name", R"("Finger")"}, {"bone", "{}"}});
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/5/skeleton");
}

TEST(G4mfErrors, RejectsASkeletonDirectlyUnderASkeleton) {
  Character c = ValidCharacter();
  c.doc.nodes[1].Set("children", "[2, 4, 5]");
  c.doc.nodes.push_back({{"name", R"("Inner")"}, {"skeleton", "{}"}, {"children", "[6]"}});
  c.doc.nodes.push_back({{"name", R"("Tail")"}, {"bone", "{}"}});
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/5/skeleton");
}

TEST(G4mfErrors, RejectsANegativeBoneLength) {
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("bone", R"({"length": -1})");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/2/bone/length");
}

TEST(G4mfErrors, RejectsANegativeBoneMass) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("bone", R"({"mass": -0.5})");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/bone/mass");
}

TEST(G4mfErrors, RejectsABoneShapeWithoutALength) {
  Character c = ValidCharacter();
  c.doc.extra.Set("shapes", "[{}]");
  c.doc.nodes[3].Set("bone", R"({"shape": 0})");
  ExpectError(c.doc, Error::kMissingProperty, "/nodes/3/bone/length");
}

TEST(G4mfErrors, RejectsABoneShapePastTheShapes) {
  Character c = ValidCharacter();
  c.doc.extra.Set("shapes", "[{}]");
  c.doc.nodes[3].Set("bone", R"({"length": 1, "shape": 1})");
  ExpectError(c.doc, Error::kInvalidReference, "/nodes/3/bone/shape");
}

TEST(G4mfErrors, RejectsABoneThatIsNotAnObject) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("bone", "true");
  ExpectError(c.doc, Error::kWrongType, "/nodes/3/bone");
}

// ---------------------------------------------------------------------------------------------
// Node components and transforms

TEST(G4mfErrors, RejectsTwoComponentsOnANode) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("camera", "{}");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/camera");
}

TEST(G4mfErrors, RejectsASkeletonThatIsAlsoAMeshInstance) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("skeleton", "{}");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/4/skeleton");
}

TEST(G4mfErrors, RejectsATransformOnTheRootNode) {
  Character c = ValidCharacter();
  c.doc.nodes[0].Set("position", "[0, 0, 0]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/0");
  c = ValidCharacter();
  c.doc.nodes[0].Set("scale", "[1]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/0");
}

TEST(G4mfErrors, RejectsABasisWithARotor) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("rotor", "[1, 0, 0, 0]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/4/basis");
}

TEST(G4mfErrors, RejectsABasisWithAScale) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("scale", "[1]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/4/basis");
}

TEST(G4mfErrors, RejectsAScaleOfZero) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("scale", "[0]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/scale/0");
}

TEST(G4mfErrors, RejectsANegativeScaleComponent) {  // flips need a basis
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("scale", "[1, -1, 1]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/scale/1");
}

TEST(G4mfErrors, RejectsAScaleOfTwoNumbers) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("scale", "[1, 2]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/scale");
}

TEST(G4mfErrors, RejectsAPositionOfTwoNumbers) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("position", "[0, 1]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3/position");
}

TEST(G4mfErrors, RejectsAPositionComponentThatIsNotANumber) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("position", R"([0, "1", 0])");
  ExpectError(c.doc, Error::kWrongType, "/nodes/3/position/1");
}

TEST(G4mfErrors, RejectsABasisOfFourNumbers) {  // 9 in 3D, not 16 or 4
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("basis", "[2, 0, 0, 2]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/4/basis");
}

TEST(G4mfErrors, RejectsARotorOfThreeNumbers) {
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("rotor", "[1, 0, 0]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/2/rotor");
}

TEST(G4mfErrors, RejectsAZeroRotor) {
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("rotor", "[0, 0, 0, 0]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/2/rotor");
}

TEST(G4mfErrors, RejectsASingularBoneRestTransform) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("basis", "[1, 0, 0, 0, 0, 0, 0, 0, 1]");
  ExpectError(c.doc, Error::kInvalidValue, "/nodes/3");
}

// ---------------------------------------------------------------------------------------------
// Hierarchy

TEST(G4mfErrors, RejectsTheRootAsAChild) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("children", "[0]");
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/3/children/0");
}

TEST(G4mfErrors, RejectsANodeWithTwoParents) {
  Character c = ValidCharacter();
  c.doc.nodes[2].Set("children", "[3, 4]");
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/2/children/1");
}

TEST(G4mfErrors, RejectsANodeThatIsItsOwnChild) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("children", "[3]");
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/3/children/0");
}

TEST(G4mfErrors, RejectsACycleUnreachableFromTheRoot) {
  Character c = ValidCharacter();
  c.doc.nodes.push_back({{"name", R"("A")"}, {"children", "[6]"}});
  c.doc.nodes.push_back({{"name", R"("B")"}, {"children", "[5]"}});
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/5");
}

TEST(G4mfErrors, RejectsASecondRoot) {
  Character c = ValidCharacter();
  c.doc.nodes.push_back({{"name", R"("Loose")"}});
  ExpectError(c.doc, Error::kInvalidHierarchy, "/nodes/5");
}

TEST(G4mfErrors, RejectsAChildPastTheNodes) {
  Character c = ValidCharacter();
  c.doc.nodes[3].Set("children", "[5]");
  ExpectError(c.doc, Error::kInvalidReference, "/nodes/3/children/0");
}

// ---------------------------------------------------------------------------------------------
// Mesh instances

TEST(G4mfErrors, RejectsAMeshInstanceOfAMeshThatDoesNotExist) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("meshInstance", R"({"mesh": 1})");
  ExpectError(c.doc, Error::kInvalidReference, "/nodes/4/meshInstance/mesh");
}

TEST(G4mfErrors, RequiresTheMeshOfAMeshInstance) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("meshInstance", "{}");
  ExpectError(c.doc, Error::kMissingProperty, "/nodes/4/meshInstance/mesh");
}

TEST(G4mfErrors, RejectsAMeshInstanceMaterialThatDoesNotExist) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("meshInstance",
                     R"({"mesh": 0, "blendAmounts": [0.25], "materials": [-1, 0]})");
  ExpectError(c.doc, Error::kInvalidReference, "/nodes/4/meshInstance/materials/1");
}

// ---------------------------------------------------------------------------------------------
// Mesh vertices and surfaces

TEST(G4mfErrors, RequiresTheMeshVertices) {
  Character c = ValidCharacter();
  c.doc.meshes[0].Erase("vertices");
  ExpectError(c.doc, Error::kMissingProperty, "/meshes/0/vertices");
}

TEST(G4mfErrors, RejectsVerticesOfTwoComponents) {
  Character c = ValidCharacter();
  c.doc.accessors[c.positions].Set("vectorSize", "2");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/vertices");
}

TEST(G4mfErrors, RejectsANonFiniteVertexPosition) {
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.positions, "float32", {0, 0, 0, 1, 0, 0, 0, kNaN, 0, 1, 1, 0}, 3);
  ExpectError(c.doc, Error::kNonFiniteValue, "/meshes/0/vertices");
}

TEST(G4mfErrors, RequiresTheSimplexesOfASurface) {
  Character c = ValidCharacter();
  c.doc.meshes[0].Set("surfaces", "[{}]");
  ExpectError(c.doc, Error::kMissingProperty, "/meshes/0/surfaces/0/simplexes");
}

TEST(G4mfErrors, RejectsTetrahedraAsUnsupported) {
  Character c = ValidCharacter();
  c.doc.Refill<uint16_t>(c.simplexes, "uint16", {0, 1, 2, 3}, 4);
  ExpectError(c.doc, Error::kUnsupportedFeature, "/meshes/0/surfaces/0/simplexes");
}

TEST(G4mfErrors, RejectsASimplexIndexPastTheVertices) {
  Character c = ValidCharacter();
  c.doc.Refill<uint16_t>(c.simplexes, "uint16", {0, 1, 2, 2, 1, 4}, 3);
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/surfaces/0/simplexes");
}

TEST(G4mfErrors, RejectsFloatSimplexes) {
  Character c = ValidCharacter();
  c.doc.Refill<float>(c.simplexes, "float32", {0, 1, 2, 2, 1, 3}, 3);
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/surfaces/0/simplexes");
}

TEST(G4mfErrors, RejectsASurfaceMaterialThatDoesNotExist) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "surfaces", R"("simplexes": )", R"("material": 0, "simplexes": )");
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/surfaces/0/material");
}

TEST(G4mfErrors, RejectsNormalsBindingADifferentSimplexCount) {
  Character c = ValidCharacter();
  c.doc.Refill<uint8_t>(c.normal_simplexes, "uint8", {0, 0, 0}, 3);
  ExpectError(c.doc, Error::kSizeMismatch, "/meshes/0/surfaces/0/normals/simplexes");
}

TEST(G4mfErrors, RejectsANormalIndexPastTheNormalValues) {
  Character c = ValidCharacter();
  c.doc.Refill<uint8_t>(c.normal_simplexes, "uint8", {0, 0, 0, 2, 0, 0}, 3);
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/surfaces/0/normals/simplexes");
}

TEST(G4mfErrors, RejectsSignedNormalSimplexes) {
  Character c = ValidCharacter();
  c.doc.Refill<int32_t>(c.normal_simplexes, "int32", {0, 0, 0, 1, 0, 0}, 3);
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/surfaces/0/normals/simplexes");
}

TEST(G4mfErrors, RejectsNormalValuesOfTwoComponents) {
  Character c = ValidCharacter();
  c.doc.accessors[c.normal_values].Set("vectorSize", "2");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/surfaces/0/normals/values");
}

TEST(G4mfErrors, RejectsPerSimplexNormalsAsUnsupported) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "surfaces", R"("simplexes": )" + Str(c.normal_simplexes),
       R"("perSimplex": )" + Str(c.normal_simplexes));
  ExpectError(c.doc, Error::kUnsupportedFeature, "/meshes/0/surfaces/0/normals/perSimplex");
}

TEST(G4mfErrors, RejectsGeometryNormalsAsUnsupported) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "surfaces", R"("simplexes": )" + Str(c.normal_simplexes),
       R"("geometry": {})");
  ExpectError(c.doc, Error::kUnsupportedFeature, "/meshes/0/surfaces/0/normals/geometry");
}

TEST(G4mfErrors, RejectsTextureMapValuesOfThreeComponents) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "surfaces", Normals(c),
       Normals(c) + R"(, "textureMap": {"values": )" + Str(c.normal_values) + R"(, "simplexes": )" +
           Str(c.normal_simplexes) + "}");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/surfaces/0/textureMap/values");
}

// ---------------------------------------------------------------------------------------------
// Blend shapes

TEST(G4mfErrors, RejectsAmountsThatDoNotMatchTheShapes) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "blend", R"("amounts": [0.5])", R"("amounts": [0.5, 1])");
  ExpectError(c.doc, Error::kSizeMismatch, "/meshes/0/blend/amounts");
}

TEST(G4mfErrors, RejectsAnEmptyBlendSurfacesArray) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "blend", BlendSurface(c), "");  // "surfaces": []
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/blend/shapes/0/surfaces");
}

TEST(G4mfErrors, RejectsAnEmptyBlendSurfaceObject) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "blend", BlendSurface(c), R"({"surface": 0})");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/blend/shapes/0/surfaces/0");
}

TEST(G4mfErrors, RejectsMoreBlendSurfacesThanTheMeshHas) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "blend", BlendSurface(c), BlendSurface(c) + ", " + BlendSurface(c));
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/blend/shapes/0/surfaces");
}

TEST(G4mfErrors, RejectsABlendSurfaceThatDoesNotExist) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "blend", BlendSurface(c), BlendSurface(c, 1));
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/blend/shapes/0/surfaces/0/surface");
}

TEST(G4mfErrors, RejectsASurfaceListedTwiceInABlendShape) {
  Character c = ValidCharacter();
  const std::string surface = R"({"simplexes": )" + Str(c.simplexes) + ", " + Normals(c) + "}";
  c.doc.meshes[0].Set("surfaces", "[" + surface + ", " + surface + "]");
  Edit(c.doc.meshes[0], "blend", BlendSurface(c), BlendSurface(c) + ", " + BlendSurface(c));
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/blend/shapes/0/surfaces/1/surface");
}

TEST(G4mfErrors, RejectsABlendIndexPastTheVertices) {
  Character c = ValidCharacter();
  c.doc.Refill<uint8_t>(c.blend_indices, "uint8", {4, 0});
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/blend/shapes/0/position/indices");
}

TEST(G4mfErrors, RejectsSignedBlendIndices) {
  Character c = ValidCharacter();
  c.doc.Refill<int32_t>(c.blend_indices, "int32", {2, 0});
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/blend/shapes/0/position/indices");
}

TEST(G4mfErrors, RejectsBlendOffsetsOfTheWrongVectorSize) {
  Character c = ValidCharacter();
  c.doc.accessors[c.blend_offsets].Set("vectorSize", "2");
  ExpectError(c.doc, Error::kInvalidValue, "/meshes/0/blend/shapes/0/position/offsets");
}

TEST(G4mfErrors, RejectsBlendOffsetsAndIndicesOfDifferentCounts) {
  Character c = ValidCharacter();
  c.doc.Refill<double>(c.blend_offsets, "float64", {0, 0, 0.5}, 3);
  ExpectError(c.doc, Error::kSizeMismatch, "/meshes/0/blend/shapes/0/position/offsets");
}

TEST(G4mfErrors, RejectsANonFiniteBlendOffset) {
  Character c = ValidCharacter();
  c.doc.Refill<double>(c.blend_offsets, "float64",
                       {0, 0, 0.5, std::numeric_limits<double>::infinity(), 0, 0}, 3);
  ExpectError(c.doc, Error::kNonFiniteValue, "/meshes/0/blend/shapes/0/position/offsets");
}

TEST(G4mfErrors, RejectsANormalBlendIndexPastTheNormalValues) {
  Character c = ValidCharacter();
  c.doc.Refill<uint32_t>(c.blend_normal_indices, "uint32", {2});
  ExpectError(c.doc, Error::kInvalidReference,
              "/meshes/0/blend/shapes/0/surfaces/0/normal/indices");
}

TEST(G4mfErrors, RejectsNormalOffsetsForASurfaceWithoutNormals) {
  Character c = ValidCharacter();
  c.doc.meshes[0].Set("surfaces", R"([{"simplexes": )" + Str(c.simplexes) + "}]");
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/blend/shapes/0/surfaces/0/normal");
}

TEST(G4mfErrors, RejectsTextureMapOffsetsForASurfaceWithoutATextureMap) {
  Character c = ValidCharacter();
  Edit(c.doc.meshes[0], "blend", R"("normal": )", R"("textureMap": )");
  ExpectError(c.doc, Error::kInvalidReference, "/meshes/0/blend/shapes/0/surfaces/0/textureMap");
}

TEST(G4mfErrors, RejectsNodeBlendAmountsThatDoNotMatchTheShapes) {
  Character c = ValidCharacter();
  c.doc.nodes[4].Set("meshInstance", R"({"mesh": 0, "blendAmounts": [0.25, 1]})");
  ExpectError(c.doc, Error::kSizeMismatch, "/nodes/4/meshInstance/blendAmounts");
}

// ---------------------------------------------------------------------------------------------
// .g4b buffers

// The character as a .g4b whose only buffer is `buffer`: JSON chunk 0, then `blob` as chunk 1.
std::vector<uint8_t> G4b(const Character& c, const JsonObject& buffer,
                         const std::vector<uint8_t>& blob,
                         uint32_t blob_encoding = g4mf::kG4bEncodingNone) {
  Document d = c.doc;
  d.buffers = {buffer};
  return MakeG4b({{g4mf::kG4bChunkJson, g4mf::kG4bEncodingNone, Bytes(d.Json())},
                  {g4mf::kG4bChunkBlob, blob_encoding, blob}});
}

JsonObject ChunkBuffer(const Character& c, const std::string& chunk = "1") {
  return {{"byteLength", Str(uint32_t(c.doc.data.size()))}, {"chunk", chunk}};
}

void ExpectG4bError(const std::vector<uint8_t>& g4b, Error code, const std::string& where) {
  auto loaded = LoadBytes(g4b);
  ASSERT_FALSE(loaded.ok()) << "loaded, expected " << ErrorName(code) << " at " << where;
  EXPECT_EQ(loaded.code(), code) << loaded.error().ToString();
  EXPECT_EQ(loaded.error().where, where) << loaded.error().ToString();
}

TEST(G4mfErrors, RejectsABufferChunkPastTheChunks) {
  const Character c = ValidCharacter();
  ExpectG4bError(G4b(c, ChunkBuffer(c, "2"), c.doc.data), Error::kInvalidReference,
                 "/buffers/0/chunk");
}

TEST(G4mfErrors, RejectsTheJsonChunkAsABuffer) {
  const Character c = ValidCharacter();
  ExpectG4bError(G4b(c, ChunkBuffer(c, "0"), c.doc.data), Error::kInvalidReference,
                 "/buffers/0/chunk");
}

TEST(G4mfErrors, RejectsAPlainChunkOfAnotherSizeThanTheByteLength) {
  const Character c = ValidCharacter();
  std::vector<uint8_t> blob = c.doc.data;
  blob.push_back(0);
  ExpectG4bError(G4b(c, ChunkBuffer(c), blob), Error::kOutOfBounds, "/buffers/0/byteLength");
}

TEST(G4mfErrors, RejectsABufferAndItsChunkBothEncodedWithZstd) {
  const Character c = ValidCharacter();
  JsonObject buffer = ChunkBuffer(c);
  buffer.Set("encoding", R"("Zstd")");
  ExpectG4bError(G4b(c, buffer, Zstd(c.doc.data), g4mf::kG4bEncodingZstd), Error::kInvalidValue,
                 "/buffers/0/encoding");
}

TEST(G4mfErrors, RejectsACorruptZstdChunk) {
  const Character c = ValidCharacter();
  std::vector<uint8_t> packed = Zstd(c.doc.data);
  packed.resize(packed.size() - 3);
  ExpectG4bError(G4b(c, ChunkBuffer(c), packed, g4mf::kG4bEncodingZstd), Error::kInvalidG4b,
                 "/buffers/0/chunk");
}

TEST(G4mfErrors, RejectsAZstdChunkThatDecodesToAnotherSize) {
  const Character c = ValidCharacter();
  std::vector<uint8_t> longer = c.doc.data;
  longer.resize(longer.size() + 16, 0);
  ExpectG4bError(G4b(c, ChunkBuffer(c), Zstd(longer), g4mf::kG4bEncodingZstd), Error::kInvalidG4b,
                 "/buffers/0/chunk");
}

TEST(G4mfErrors, ReportsAMalformedContainerAtItsByteOffset) {
  const Character c = ValidCharacter();
  std::vector<uint8_t> g4b = G4b(c, ChunkBuffer(c), c.doc.data);
  g4b[4] = 1;  // version 1
  ExpectG4bError(g4b, Error::kInvalidG4b, "byte 4");
}

}  // namespace
}  // namespace sinew::loader
