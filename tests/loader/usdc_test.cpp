// Binary USD (docs/usdc.md): the crate's integer coding and LZ4 framing, the crate writer and
// reader round-tripping every value type and Pixar's UsdSkel scenes and the three real packages
// layer for layer, the UsdSkel loader giving the same asset from either encoding, and a broken
// file or package refused with the section and byte offset named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "sinew/loader/load_asset.h"
#include "sinew/loader/usd.h"
#include "test_assets.h"
#include "usd/crate_format.h"
#include "usd/crate_reader.h"
#include "usd/crate_writer.h"
#include "usd/integer_coding.h"
#include "usd/lz4_blocks.h"
#include "usd/read_layer.h"
#include "usd/usda_parser.h"
#include "usd/usdz_package.h"

namespace sinew::loader::usd {
namespace {

std::vector<uint8_t> ReadBytes(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}

Layer Text(const std::string& text) {
  auto layer = ReadUsda(text);
  EXPECT_TRUE(layer.ok()) << layer.error().ToString();
  return layer.ok() ? std::move(layer.value()) : Layer();
}

std::vector<uint8_t> Crate(const Layer& layer) {
  auto bytes = WriteCrate(layer);
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  return bytes.ok() ? std::move(bytes.value()) : std::vector<uint8_t>();
}

Layer Read(std::span<const uint8_t> bytes) {
  auto layer = ReadLayer(bytes);
  EXPECT_TRUE(layer.ok()) << layer.error().ToString();
  return layer.ok() ? std::move(layer.value()) : Layer();
}

// Value equality, number for number (a value's storage is what its type stores).
void ExpectSame(const Value& a, const Value& b, const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.array, b.array);
  EXPECT_EQ(a.blocked, b.blocked);
  EXPECT_EQ(a.components, b.components);
  ASSERT_EQ(a.data.index(), b.data.index());
  if (a.dictionary()) {
    ASSERT_EQ(a.dictionary()->size(), b.dictionary()->size());
    for (size_t i = 0; i < a.dictionary()->size(); ++i) {
      EXPECT_EQ((*a.dictionary())[i].key, (*b.dictionary())[i].key);
      ExpectSame((*a.dictionary())[i].value, (*b.dictionary())[i].value,
                 where + "/" + (*a.dictionary())[i].key);
    }
    return;
  }
  EXPECT_TRUE(std::ranges::equal(a.ints(), b.ints()));
  EXPECT_TRUE(std::ranges::equal(a.int64s(), b.int64s()));
  EXPECT_TRUE(std::ranges::equal(a.floats(), b.floats(),
                                 [](float x, float y) { return std::memcmp(&x, &y, 4) == 0; }));
  EXPECT_TRUE(std::ranges::equal(a.doubles(), b.doubles(),
                                 [](double x, double y) { return std::memcmp(&x, &y, 8) == 0; }));
  EXPECT_TRUE(std::ranges::equal(a.strings(), b.strings()));
}

void ExpectSame(const ListOp& a, const ListOp& b, const std::string& where) {
  SCOPED_TRACE(where);
  for (unsigned k = 0; k <= unsigned(ListOpKind::kReorder); ++k) {
    EXPECT_EQ(a.Has(ListOpKind(k)), b.Has(ListOpKind(k))) << "list op keyword " << k;
    EXPECT_EQ(a.Items(ListOpKind(k)), b.Items(ListOpKind(k))) << "list op keyword " << k;
  }
}

// Metadata as a set of (key, list-op keyword) -> value: the crate keeps one field per key, so a
// key's list-op statements come back after the plain keys.
void ExpectSame(const Metadata& a, const Metadata& b, const std::string& where) {
  ASSERT_EQ(a.entries.size(), b.entries.size()) << where;
  const auto sorted = [](const Metadata& m) {
    std::vector<const MetadataEntry*> v;
    for (const MetadataEntry& e : m.entries) v.push_back(&e);
    std::stable_sort(v.begin(), v.end(), [](auto* x, auto* y) {
      return std::tie(x->key, x->op) < std::tie(y->key, y->op);
    });
    return v;
  };
  const auto sa = sorted(a), sb = sorted(b);
  for (size_t i = 0; i < sa.size(); ++i) {
    EXPECT_EQ(sa[i]->key, sb[i]->key) << where;
    EXPECT_EQ(sa[i]->op, sb[i]->op) << where;
    ExpectSame(sa[i]->value, sb[i]->value, where + " metadata " + sa[i]->key);
  }
}

// Everything the model holds, but byte offsets into a text.
void ExpectSameLayer(const Layer& a, const Layer& b) {
  EXPECT_EQ(a.time_codes_per_second, b.time_codes_per_second);
  EXPECT_EQ(a.frames_per_second, b.frames_per_second);
  EXPECT_EQ(a.start_time_code, b.start_time_code);
  EXPECT_EQ(a.end_time_code, b.end_time_code);
  EXPECT_EQ(a.meters_per_unit, b.meters_per_unit);
  EXPECT_EQ(a.up_axis, b.up_axis);
  EXPECT_EQ(a.default_prim, b.default_prim);
  EXPECT_EQ(a.doc, b.doc);
  ExpectSame(a.metadata, b.metadata, "layer");
  EXPECT_EQ(a.roots, b.roots);
  EXPECT_EQ(a.root_order, b.root_order);
  ASSERT_EQ(a.prims.size(), b.prims.size());
  for (size_t i = 0; i < a.prims.size(); ++i) {
    const Prim &p = a.prims[i], &q = b.prims[i];
    const std::string& w = p.path;
    EXPECT_EQ(p.path, q.path);
    EXPECT_EQ(p.name, q.name) << w;
    EXPECT_EQ(p.specifier, q.specifier) << w;
    EXPECT_EQ(p.type_name, q.type_name) << w;
    EXPECT_EQ(p.parent, q.parent) << w;
    EXPECT_EQ(p.children, q.children) << w;
    EXPECT_EQ(p.kind, q.kind) << w;
    ExpectSame(p.api_schemas, q.api_schemas, w + " apiSchemas");
    EXPECT_EQ(p.active, q.active) << w;
    EXPECT_EQ(p.instanceable, q.instanceable) << w;
    EXPECT_EQ(p.doc, q.doc) << w;
    EXPECT_EQ(p.child_order, q.child_order) << w;
    EXPECT_EQ(p.property_order, q.property_order) << w;
    ExpectSame(p.metadata, q.metadata, w);
    ASSERT_EQ(p.variants == nullptr, q.variants == nullptr) << w;
    if (p.variants) {
      ExpectSame(p.variants->sets, q.variants->sets, w + " variantSets");
      ASSERT_EQ(p.variants->selections.size(), q.variants->selections.size()) << w;
      for (size_t k = 0; k < p.variants->selections.size(); ++k) {
        EXPECT_EQ(p.variants->selections[k].set, q.variants->selections[k].set) << w;
        EXPECT_EQ(p.variants->selections[k].variant, q.variants->selections[k].variant) << w;
      }
      EXPECT_EQ(p.variants->contents, q.variants->contents) << w;
    }
    ASSERT_EQ(p.attributes.size(), q.attributes.size()) << w;
    // Both readers index the names (Layer::IndexProperties).
    EXPECT_EQ(p.attributes_by_name, q.attributes_by_name) << w;
    EXPECT_EQ(p.relationships_by_name, q.relationships_by_name) << w;
    EXPECT_EQ(q.attributes_by_name.size(), q.attributes.size()) << w;
    EXPECT_EQ(q.relationships_by_name.size(), q.relationships.size()) << w;
    for (size_t k = 0; k < p.attributes.size(); ++k) {
      const Attribute &x = p.attributes[k], &y = q.attributes[k];
      const std::string aw = w + "." + x.name;
      EXPECT_EQ(x.name, y.name) << aw;
      EXPECT_EQ(x.type, y.type) << aw;
      EXPECT_EQ(x.array, y.array) << aw;
      EXPECT_EQ(x.custom, y.custom) << aw;
      EXPECT_EQ(x.variability, y.variability) << aw;
      ASSERT_EQ(x.default_value.has_value(), y.default_value.has_value()) << aw;
      if (x.default_value) ExpectSame(*x.default_value, *y.default_value, aw);
      EXPECT_EQ(x.has_time_samples, y.has_time_samples) << aw;
      ASSERT_EQ(x.time_samples.size(), y.time_samples.size()) << aw;
      for (size_t s = 0; s < x.time_samples.size(); ++s) {
        EXPECT_EQ(x.time_samples[s].time, y.time_samples[s].time) << aw;
        ExpectSame(x.time_samples[s].value, y.time_samples[s].value,
                   aw + " sample " + std::to_string(s));
      }
      ExpectSame(x.connections, y.connections, aw + " connections");
      EXPECT_EQ(x.interpolation, y.interpolation) << aw;
      EXPECT_EQ(x.element_size, y.element_size) << aw;
      EXPECT_EQ(x.weight, y.weight) << aw;
      EXPECT_EQ(x.doc, y.doc) << aw;
      ExpectSame(x.metadata, y.metadata, aw);
    }
    ASSERT_EQ(p.relationships.size(), q.relationships.size()) << w;
    for (size_t k = 0; k < p.relationships.size(); ++k) {
      const Relationship &x = p.relationships[k], &y = q.relationships[k];
      const std::string rw = w + "." + x.name;
      EXPECT_EQ(x.name, y.name) << rw;
      EXPECT_EQ(x.custom, y.custom) << rw;
      EXPECT_EQ(x.variability, y.variability) << rw;
      ExpectSame(x.targets, y.targets, rw);
      EXPECT_EQ(x.doc, y.doc) << rw;
      ExpectSame(x.metadata, y.metadata, rw);
    }
  }
}

// Every value type of the model (scalars and arrays), roles, time samples with a blocked one,
// dictionaries, list ops, metadata: written as a crate and read back, the same layer.
constexpr const char* kEveryType = R"(#usda 1.0
(
    customLayerData = { string creator = "sinew"; double[] list = [1.5, 2]; dictionary inner = { int n = -3 } }
    defaultPrim = "Root"
    doc = "every type"
    endTimeCode = 10
    metersPerUnit = 0.01
    startTimeCode = 0.5
    timeCodesPerSecond = 30
    upAxis = "Z"
)

def Xform "Root" (
    prepend apiSchemas = ["SkelBindingAPI", "Other"]
    kind = "component"
    active = true
    customData = { token mood = "calm" }
)
{
    bool b = 1
    uchar uc = 200
    int i = -7
    uint u = 4000000000
    int64 i64 = -9000000000
    uint64 u64 = 9000000000
    half h = 0.333
    float f = 0.1
    double d = 0.1
    double dexact = 2.5
    timecode tc = 12
    string s = "a \"quoted\" string"
    token t = "tok"
    asset a = @./tex.png@
    int2 i2 = (1, -2)
    int3 i3 = (100, 200, -300)
    half3 h3 = (0.5, 1.5, -2)
    float2 f2 = (0.25, 3)
    float4 f4 = (1, 2, 3, 4.5)
    double3 d3 = (0.1, 0.2, 0.3)
    point3f p = (1, 2, 3)
    normal3f n = (0, 0, 1)
    color3f c = (0.2, 0.4, 0.6)
    quath qh = (1, 0, 0, 0)
    quatf qf = (0.5, 0.5, 0.5, 0.5)
    quatd qd = (0.7071067811865476, 0, 0.7071067811865476, 0)
    matrix2d m2 = ((1, 2), (3, 4))
    matrix3d m3 = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    matrix4d m4 = ((1, 0, 0, 0), (0, 2, 0, 0), (0, 0, 3, 0), (4, 5, 6, 1))
    matrix4d ident = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))
    bool[] bs = [1, 0, 1]
    int[] small = [1, 2, 3]
    int[] many = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 1000, -100000, 7]
    uint[] us = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 4000000000]
    int64[] i64s = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 9000000000]
    half[] hs = [0.5, -1, 65504]
    float[] fs = [0.1, 0.2, 0.3]
    double[] ds = [0.1, 1e300]
    string[] ss = ["x", "y"]
    token[] ts = ["a", "b", "a"]
    asset[] as = [@one.usd@, @two.usd@]
    float3[] f3s = [(1, 2, 3), (4, 5, 6)]
    point3f[] ps = []
    texCoord2f[] uv = [(0, 1), (1, 0)] (
        interpolation = "vertex"
        elementSize = 1
        doc = "uvs"
    )
    quatf[] qs = [(1, 0, 0, 0), (0, 1, 0, 0)]
    matrix4d[] ms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)), ((2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 2, 0), (1, 2, 3, 1))]
    float weighted = 1 (
        weight = 0.5
    )
    custom uniform token flavour = "sweet"
    float blockedDefault = None
    float3[] animated.timeSamples = {
        0: [(0, 0, 0)],
        1.5: None,
        3: [(1, 2, 3)],
    }
    float noSamples.timeSamples = {
    }
    token outputs:surface.connect = </Root/Shader.outputs:surface>
    rel single = </Root/Child>
    prepend rel edits = [</Root/Child>, </Root.i>]
    rel none = None
    custom uniform rel other = </Root> (
        doc = "rel doc"
        note = "kept"
    )

    def Mesh "Child" (
        doc = "a child"
    )
    {
    }

    over "Over"
    {
    }

    class "Class"
    {
    }

    def Shader "Shader"
    {
        token outputs:surface
    }

    reorder nameChildren = ["Shader", "Child"]
}

def "Second"
{
}
)";

TEST(Usdc, EveryValueTypeWrittenAsACrateReadsBackAsTheSameLayer) {
  const Layer text = Text(kEveryType);
  ASSERT_EQ(text.prims.size(), 6u);
  const std::vector<uint8_t> crate = Crate(text);
  ASSERT_GT(crate.size(), crate::kBootstrapSize);
  EXPECT_EQ(std::memcmp(crate.data(), "PXR-USDC", 8), 0);
  EXPECT_EQ(crate[9], 9);  // version 0.9.0: the timecode needs its type
  const Layer back = Read(crate);
  ExpectSameLayer(text, back);
  // Spot checks that the comparison compares.
  const Attribute* q = back.FindAttribute("/Root.qf");
  ASSERT_TRUE(q && q->default_value);
  EXPECT_EQ(
      std::vector<float>(q->default_value->floats().begin(), q->default_value->floats().end()),
      (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f}));
  const Attribute* h = back.FindAttribute("/Root.hs");
  ASSERT_TRUE(h && h->default_value);
  EXPECT_EQ(h->default_value->floats()[2], 65504.0f);
  EXPECT_EQ(back.FindRelationship("/Root.edits")->targets.prepended,
            (std::vector<std::string>{"/Root/Child", "/Root.i"}));
}

// Pixar's four UsdSkel scenes and the real packages' layers: through the writer and back, the
// same layer; and the UsdSkel loader makes the same asset of the crate as of the text.
TEST(Usdc, PixarsUsdSkelScenesRoundTripThroughACrate) {
  for (const char* scene :
       {"blendshapes.usda", "blendshapesWithNormals.usda", "dqs.usda", "lbs.usda"}) {
    SCOPED_TRACE(scene);
    const std::vector<uint8_t> text =
        ReadBytes(sinew::testing::TestConformance() / "usdskel" / scene);
    ASSERT_FALSE(text.empty());
    const Layer layer = Read(text);
    const std::vector<uint8_t> crate = Crate(layer);
    ExpectSameLayer(layer, Read(crate));
    auto from_text = LoadUsdFromMemory(text), from_crate = LoadUsdFromMemory(crate);
    ASSERT_TRUE(from_text.ok() && from_crate.ok());
    const Asset &a = from_text->asset, &b = from_crate->asset;
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    ASSERT_EQ(a.animations.size(), b.animations.size());
    for (size_t m = 0; m < a.meshes.size(); ++m) {
      EXPECT_EQ(a.meshes[m].primitives[0].positions, b.meshes[m].primitives[0].positions);
    }
    for (size_t k = 0; k < a.animations.size(); ++k)
      EXPECT_EQ(a.animations[k].keys, b.animations[k].keys);
  }
}

TEST(Usdc, TheRealPackagesLayersRoundTripThroughTheWriter) {
  for (const char* package :
       {"RiggedSimple.usdz", "AnimatedMorphCube.usdz", "AnimatedMorphSphere.usdz"}) {
    SCOPED_TRACE(package);
    const Layer layer = Read(ReadBytes(sinew::testing::TestAssets() / "usd" / package));
    ASSERT_GT(layer.prims.size(), 5u);
    ExpectSameLayer(layer, Read(Crate(layer)));
  }
}

// What the converter wrote, read as its text would read: RiggedSimple's skeleton and clip.
TEST(Usdc, RiggedSimplesCrateHoldsItsSkeletonAndClip) {
  const Layer layer = Read(ReadBytes(sinew::testing::TestAssets() / "usd" / "RiggedSimple.usdz"));
  EXPECT_EQ(layer.up_axis, "Y");
  EXPECT_EQ(layer.time_codes_per_second, 24.0);
  EXPECT_EQ(layer.start_time_code, 1.0);
  EXPECT_EQ(layer.end_time_code, 50.0);
  const Prim* skeleton = layer.FindPrim("/RiggedSimple/Geom/Z_UP/Armature/Bone_3/Skeleton");
  ASSERT_TRUE(skeleton);
  EXPECT_EQ(skeleton->type_name, "Skeleton");
  const Attribute* joints = skeleton->FindAttribute("joints");
  ASSERT_TRUE(joints && joints->default_value);
  EXPECT_EQ(std::vector<std::string>(joints->default_value->strings().begin(),
                                     joints->default_value->strings().end()),
            (std::vector<std::string>{"Bone", "Bone/Bone_001"}));
  const Attribute* rotations = layer.FindAttribute("/RiggedSimple/Animations/skelAnim_0.rotations");
  ASSERT_TRUE(rotations);
  EXPECT_EQ(rotations->type, ValueType::kQuatf);
  ASSERT_EQ(rotations->time_samples.size(), 50u);
  EXPECT_EQ(rotations->time_samples.front().time, 1.0);
  // Unit quaternions, real part first in the model.
  const std::span<const float> q = rotations->time_samples.front().value.floats();
  ASSERT_EQ(q.size(), 8u);
  EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0f, 1e-5f);
  const Attribute* indices = layer.FindAttribute(
      "/RiggedSimple/Geom/Z_UP/Armature/Bone_3/Cylinder_2.primvars:skel:jointIndices");
  ASSERT_TRUE(indices && indices->default_value);
  EXPECT_EQ(indices->element_size, 4);
  EXPECT_EQ(indices->interpolation, "vertex");
  EXPECT_EQ(indices->default_value->ints().size(), 640u);
}

TEST(IntegerCoding, RoundTripsRunsOfEveryWidth) {
  const std::vector<int32_t> v32 = {
      0, 1, 2, 3, 4, 5, 100, -100, 40000, -40000, 2147483647, -2147483647 - 1, 7};
  std::vector<int32_t> back(v32.size());
  std::string why;
  ASSERT_TRUE(
      DecodeIntegers(EncodeIntegers(std::span<const int32_t>(v32)), std::span<int32_t>(back), &why))
      << why;
  EXPECT_EQ(back, v32);
  const std::vector<int64_t> v64 = {5, 5, 5, -1, int64_t(1) << 40, -(int64_t(1) << 50), 3};
  std::vector<int64_t> back64(v64.size());
  ASSERT_TRUE(DecodeIntegers(EncodeIntegers(std::span<const int64_t>(v64)),
                             std::span<int64_t>(back64), &why))
      << why;
  EXPECT_EQ(back64, v64);
}

// Worked by hand: 1, 2, 3, 10 are differences 1, 1, 1, 7. The common difference 1 (int32 LE),
// then one byte of codes (0, 0, 0, 1 from the low bits: 0b01000000), then the int8 7.
TEST(IntegerCoding, EncodesDifferencesFromTheCommonOneWithTwoBitCodes) {
  const std::vector<int32_t> values = {1, 2, 3, 10};
  EXPECT_EQ(EncodeIntegers(std::span<const int32_t>(values)),
            (std::vector<uint8_t>{1, 0, 0, 0, 0x40, 7}));
  std::vector<int32_t> out(5);
  std::string why;
  EXPECT_FALSE(
      DecodeIntegers(std::span<const uint8_t>(EncodeIntegers(std::span<const int32_t>(values))),
                     std::span<int32_t>(out), &why));
}

TEST(Lz4Blocks, RoundTripAndRefuseAMalformedStream) {
  std::vector<uint8_t> data(10000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i % 7 + i / 1000);
  const std::vector<uint8_t> packed = Lz4Compress(data);
  EXPECT_EQ(packed[0], 0);
  EXPECT_LT(packed.size(), data.size());
  std::vector<uint8_t> out(data.size());
  std::string why;
  ASSERT_TRUE(Lz4Decompress(packed, out, &why)) << why;
  EXPECT_EQ(out, data);
  std::vector<uint8_t> short_out(data.size() - 1);
  EXPECT_FALSE(Lz4Decompress(packed, short_out, &why));
  std::vector<uint8_t> broken = packed;
  broken.resize(broken.size() / 2);
  EXPECT_FALSE(Lz4Decompress(broken, out, &why));
  EXPECT_FALSE(why.empty());
}

// A small crate to break.
std::vector<uint8_t> SmallCrate() {
  return Crate(
      Text("#usda 1.0\ndef Xform \"A\"\n{\n    float3[] v = [(1, 2, 3)]\n    rel r = </A>\n}\n"));
}

template <typename T>
void Poke(std::vector<uint8_t>* bytes, size_t at, T value) {
  std::memcpy(bytes->data() + at, &value, sizeof(T));
}

uint64_t SectionStart(const std::vector<uint8_t>& bytes, std::string_view name,
                      uint64_t* entry = nullptr) {
  uint64_t toc, count;
  std::memcpy(&toc, bytes.data() + 16, 8);
  std::memcpy(&count, bytes.data() + toc, 8);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* e = bytes.data() + toc + 8 + i * 32;
    if (name == reinterpret_cast<const char*>(e)) {
      if (entry) *entry = toc + 8 + i * 32;
      uint64_t start;
      std::memcpy(&start, e + 16, 8);
      return start;
    }
  }
  return 0;
}

// Without a timecode the file is 0.8.0. Small-integer vectors and diagonal matrices are inlined
// as USD inlines them (int8s in the ValueRep), and read back as the numbers they were.
TEST(Usdc, WritesVersion080AndInlinesSmallIntegerVectorsAndDiagonalMatrices) {
  EXPECT_EQ(SmallCrate()[9], 8);
  const auto size_of = [](const char* value) {
    const std::string text = std::string("#usda 1.0\ndef \"A\"\n{\n    ") + value + "\n}\n";
    const Layer layer = Text(text);
    const std::vector<uint8_t> crate = Crate(layer);
    ExpectSameLayer(layer, Read(crate));
    return crate.size();
  };
  EXPECT_LT(size_of("float3 v = (1, -2, 127)"), size_of("float3 v = (1, -2, 128)"));
  EXPECT_LT(size_of("double3 v = (0, 0, -128)"), size_of("double3 v = (0, 0, 0.5)"));
  EXPECT_LT(size_of("matrix4d m = ((2, 0, 0, 0), (0, 1, 0, 0), (0, 0, -1, 0), (0, 0, 0, 1))"),
            size_of("matrix4d m = ((2, 0, 0, 0), (0, 1, 0, 0), (0, 0, -1, 0), (0, 0, 1, 1))"));
}

TEST(UsdcErrors, ABrokenBootstrapIsRefusedNamingIt) {
  std::vector<uint8_t> bytes = SmallCrate();
  ASSERT_TRUE(ReadUsdc(bytes).ok());
  std::vector<uint8_t> bad = bytes;
  bad[9] = 3;  // 0.3.0
  auto r = ReadUsdc(bad);
  EXPECT_EQ(r.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(r.error().where, "bootstrap at byte 8");
  bad = bytes;
  bad[8] = 1;  // 1.8.0
  EXPECT_EQ(ReadUsdc(bad).code(), Error::kUnsupportedFeature);
  bad = bytes;
  Poke<uint64_t>(&bad, 16, bytes.size() + 1);
  r = ReadUsdc(bad);
  EXPECT_EQ(r.code(), Error::kOutOfBounds);
  EXPECT_EQ(r.error().where, "bootstrap at byte 16");
}

TEST(UsdcErrors, ASectionPastTheEndOrMissingIsRefusedNamingIt) {
  const std::vector<uint8_t> bytes = SmallCrate();
  uint64_t entry = 0;
  SectionStart(bytes, "SPECS", &entry);
  ASSERT_NE(entry, 0u);
  std::vector<uint8_t> bad = bytes;
  Poke<uint64_t>(&bad, entry + 24, bytes.size());  // its size
  auto r = ReadUsdc(bad);
  EXPECT_EQ(r.code(), Error::kOutOfBounds);
  EXPECT_NE(r.error().message.find("section SPECS"), std::string::npos) << r.error().message;
  bad = bytes;
  bad[entry] = 'X';  // "XPECS"
  r = ReadUsdc(bad);
  EXPECT_EQ(r.code(), Error::kInvalidUsdc);
  EXPECT_EQ(r.error().message, "no SPECS section");
}

TEST(UsdcErrors, CountsTheFileCannotHoldAreRefusedBeforeAnythingIsAllocated) {
  const std::vector<uint8_t> bytes = SmallCrate();
  std::vector<uint8_t> bad = bytes;
  const uint64_t strings = SectionStart(bytes, "STRINGS");
  Poke<uint64_t>(&bad, strings, uint64_t(1) << 60);
  auto r = ReadUsdc(bad);
  EXPECT_EQ(r.code(), Error::kOutOfBounds);
  EXPECT_EQ(r.error().where, "STRINGS at byte " + std::to_string(strings + 8));
  bad = bytes;
  const uint64_t tokens = SectionStart(bytes, "TOKENS");
  Poke<uint64_t>(&bad, tokens + 8, uint64_t(1) << 40);  // uncompressed size
  r = ReadUsdc(bad);
  EXPECT_EQ(r.code(), Error::kInvalidUsdc);
  EXPECT_NE(r.error().where.find("TOKENS at byte"), std::string::npos);
  bad = bytes;
  const uint64_t specs = SectionStart(bytes, "SPECS");
  Poke<uint64_t>(&bad, specs, uint64_t(1) << 62);  // spec count
  EXPECT_FALSE(ReadUsdc(bad).ok());
  UsdcOptions tight;
  tight.max_decoded_bytes = 16;
  r = ReadUsdc(bytes, tight);
  EXPECT_EQ(r.code(), Error::kUnsupportedFeature);
}

// Every prefix of a file, and every byte of it set to 0xff in turn: an error that says where (or,
// for a byte the reader never looks at, a layer), never a crash.
TEST(UsdcErrors, EveryTruncationAndEveryCorruptByteIsAnErrorNotACrash) {
  const std::vector<uint8_t> bytes = SmallCrate();
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(ReadUsdc(std::span(bytes.data(), n)).ok()) << n << " bytes";
  }
  UsdcOptions small;  // a corrupt count may ask for up to this much before it fails
  small.max_decoded_bytes = 1 << 20;
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> bad = bytes;
    bad[i] = 0xff;
    const auto r = ReadUsdc(bad, small);
    EXPECT_TRUE(r.ok() || !r.error().where.empty()) << "byte " << i << ": an error without where";
  }
}

// A metadata entry `key` whose value is a list of strings, paths or tokens (`type`), with a
// list-edit keyword.
MetadataEntry ListEntry(const char* key, ListOpKind op, ValueType type,
                        std::vector<std::string> items) {
  MetadataEntry entry{key, op, {}, 0};
  entry.value.type = type;
  entry.value.array = true;
  entry.value.data = std::move(items);
  return entry;
}

// Each arc sinew does not compose, written as a crate writes it (a list op of paths, a vector of
// strings): refused by its name, at the spec that holds it.
TEST(UsdcErrors, OtherCompositionArcsAreRefusedByName) {
  for (const char* key : {"inheritPaths", "specializes"}) {
    SCOPED_TRACE(key);
    Layer layer = Text("#usda 1.0\ndef Xform \"A\"\n{\n    float x = 1\n}\n");
    layer.prims[0].attributes[0].metadata.entries.push_back(
        ListEntry(key, ListOpKind::kPrepend, ValueType::kPath, {"/B"}));
    auto r = ReadUsdc(Crate(layer));
    EXPECT_EQ(r.code(), Error::kUnsupportedFeature);
    EXPECT_NE(r.error().message.find(std::string("composition arc '") + key + "'"),
              std::string::npos)
        << r.error().message;
    EXPECT_EQ(r.error().where.substr(0, 4), "/A.x");
  }
}

// inheritPaths and specializes: list ops of absolute prim paths, else refused.
TEST(UsdcErrors, ClassPathsThatAreNoPrimPathsAreRefused) {
  for (const char* key : {"inheritPaths", "specializes"}) {
    SCOPED_TRACE(key);
    Layer tokens = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
    tokens.prims[0].metadata.entries.push_back(
        ListEntry(key, ListOpKind::kPrepend, ValueType::kToken, {"B"}));
    EXPECT_EQ(ReadUsdc(Crate(tokens)).code(), Error::kWrongType);
    Layer property = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
    property.prims[0].metadata.entries.push_back(
        ListEntry(key, ListOpKind::kPrepend, ValueType::kPath, {"/B.x"}));
    auto r = ReadUsdc(Crate(property));
    EXPECT_EQ(r.code(), Error::kInvalidValue);
    EXPECT_NE(r.error().message.find("</B.x> is not an absolute prim path"), std::string::npos)
        << r.error().ToString();
  }
}

// references and subLayers of another type than Sdf gives them: kWrongType.
TEST(UsdcErrors, ReferencesAndSubLayersOfAnotherTypeAreAWrongType) {
  Layer paths = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
  paths.prims[0].metadata.entries.push_back(
      ListEntry("references", ListOpKind::kPrepend, ValueType::kPath, {"/B"}));
  EXPECT_EQ(ReadUsdc(Crate(paths)).code(), Error::kWrongType);
  Layer numbers = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
  MetadataEntry sub_layers{"subLayers", ListOpKind::kExplicit, {}, 0};
  sub_layers.value.type = ValueType::kDouble;
  sub_layers.value.array = true;
  sub_layers.value.data = std::vector<double>{1.0};
  numbers.metadata.entries.push_back(sub_layers);
  EXPECT_EQ(ReadUsdc(Crate(numbers)).code(), Error::kWrongType);
}

// A layer's sublayers with their offsets and a prim's references and payloads, each list edit as
// written, read back from a crate as the text reader reads them: a reference to a layer's
// defaultPrim (the empty path, outside the PATHS tree), layer offsets, explicit empty lists, a
// single payload and a list of two.
TEST(Usdc, SubLayersReferencesAndPayloadsReadBackAsWritten) {
  const Layer text = Text(
      "#usda 1.0\n(\n    subLayers = [@anim.usda@ (offset = 24; scale = 2), @rig.usda@]\n)\n"
      "def \"A\" (\n    prepend references = [@a.usda@</Body> (offset = 1; scale = 0.5), "
      "@b.usda@]\n    append references = </C>\n    delete references = @d.usda@\n"
      "    payload = @p.usdc@</P>\n) {}\n"
      "def \"B\" (\n    references = None\n    payload = None\n) {}\n"
      "def \"C\" (\n    payload = [@p.usda@</P>, </Q>]\n) {}\n"
      "def \"Q\" {}\n");
  const Layer read = Read(Crate(text));
  ASSERT_EQ(read.sub_layers.size(), 2u);
  EXPECT_EQ(read.sub_layers[0].asset, "anim.usda");
  EXPECT_EQ(read.sub_layers[0].time.offset, 24.0);
  EXPECT_EQ(read.sub_layers[0].time.scale, 2.0);
  EXPECT_EQ(read.sub_layers[1].asset, "rig.usda");
  EXPECT_EQ(read.sub_layers[1].time.scale, 1.0);
  const auto same = [](const ReferenceList& a, const ReferenceList& b) {
    const auto key = [](const std::vector<Reference>& items) {
      std::vector<std::string> out;
      for (const Reference& r : items) {
        out.push_back(r.asset + "|" + r.prim + "|" + std::to_string(r.time.offset) + "|" +
                      std::to_string(r.time.scale));
      }
      return out;
    };
    EXPECT_EQ(a.is_explicit, b.is_explicit);
    EXPECT_EQ(key(a.explicit_items), key(b.explicit_items));
    EXPECT_EQ(key(a.added), key(b.added));
    EXPECT_EQ(key(a.prepended), key(b.prepended));
    EXPECT_EQ(key(a.appended), key(b.appended));
    EXPECT_EQ(key(a.deleted), key(b.deleted));
  };
  for (const char* path : {"/A", "/B", "/C", "/Q"}) {
    SCOPED_TRACE(path);
    ASSERT_NE(read.FindPrim(path), nullptr);
    same(read.FindPrim(path)->references, text.FindPrim(path)->references);
    same(read.FindPrim(path)->payloads, text.FindPrim(path)->payloads);
  }
  EXPECT_EQ(read.FindPrim("/A")->references.prepended.at(1).prim, "");  // b.usda's defaultPrim
  EXPECT_TRUE(read.FindPrim("/B")->references.is_explicit);
  // `payload = None` and one payload are single Payload values, as OpenUSD writes them: None is
  // the one without an asset path.
  EXPECT_TRUE(read.FindPrim("/B")->payloads.is_explicit);
  EXPECT_TRUE(read.FindPrim("/B")->payloads.explicit_items.empty());
  EXPECT_EQ(read.FindPrim("/A")->payloads.explicit_items.at(0).asset, "p.usdc");
}

// A prim's variant sets as OpenUSD's crate holds them: `variantSetNames` (a list op of strings),
// `variantSelection` (a map of strings), a variant set's spec at "/A{lod=}" listing its
// variants, and each variant a spec at "/A{lod=high}" with its prims and properties below it (a
// set nested in a variant too): read back as the text reader reads them.
TEST(Usdc, VariantSetsReadBackAsTheTextReaderReadsThem) {
  const Layer text = Text(
      "#usda 1.0\n"
      "def Xform \"A\" (\n    prepend variantSets = [\"lod\", \"look\"]\n"
      "    variants = {\n        string look = \"red\"\n        string lod = \"high\"\n    }\n"
      ") {\n    def \"Child\" {}\n"
      "    variantSet \"lod\" = {\n"
      "        \"high\" (\n            variantSets = \"detail\"\n            kind = \"component\"\n"
      "        ) {\n            float x = 2\n            rel r = </A/B>\n"
      "            def Mesh \"B\" {\n                float y = 3\n            }\n"
      "            variantSet \"detail\" = {\n                \"fine\" {\n"
      "                    float w = 4\n                }\n            }\n        }\n"
      "        \"low\" {\n        }\n    }\n"
      "    variantSet \"look\" = {\n        \"red\" {\n            float c = 1\n        }\n"
      "    }\n}\n");
  ASSERT_NE(text.FindPrim("/A{lod=high}{detail=fine}"), nullptr);
  const Layer read = Read(Crate(text));
  ExpectSameLayer(text, read);
  EXPECT_EQ(read.FindAttribute("/A{lod=high}/B.y")->UnblockedDefault()->floats()[0], 3.0f);
  EXPECT_EQ(read.FindPrim("/A{lod=low}")->specifier, Specifier::kOver);
}

// Variant sets are a prim's (or a variant's): on the layer they are refused, as the text reader
// refuses them there.
TEST(UsdcErrors, VariantSetsOnTheLayerAreRefused) {
  Layer layer = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
  layer.metadata.entries.push_back(
      ListEntry("variantSetNames", ListOpKind::kPrepend, ValueType::kString, {"lod"}));
  auto r = ReadUsdc(Crate(layer));
  EXPECT_EQ(r.code(), Error::kUnsupportedFeature) << r.error().ToString();
  EXPECT_NE(r.error().message.find("composition arc 'variantSetNames'"), std::string::npos)
      << r.error().ToString();
}

TEST(UsdcErrors, VariantSelectionsOfAnotherTypeOrWithBadNamesAreRefused) {
  Layer layer = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
  MetadataEntry selection{"variantSelection", ListOpKind::kExplicit, {}, 0};
  selection.value.type = ValueType::kString;
  selection.value.data = std::vector<std::string>{"lod"};
  layer.prims[0].metadata.entries.push_back(selection);
  auto wrong = ReadUsdc(Crate(layer));
  EXPECT_EQ(wrong.code(), Error::kWrongType) << wrong.error().ToString();
  EXPECT_EQ(wrong.error().where.substr(0, 2), "/A");
  // A selection the text reader would refuse, written by a writer that does not check it.
  Layer bad = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
  bad.prims[0].MakeVariants().selections.push_back({"lod", "a/b"});
  auto refused = ReadUsdc(Crate(bad));
  EXPECT_EQ(refused.code(), Error::kInvalidValue) << refused.error().ToString();
  EXPECT_NE(refused.error().message.find("'lod' = 'a/b'"), std::string::npos)
      << refused.error().ToString();
}

// A prim's name is an identifier, as the text reader holds them: one with a brace in it (a fuzzer
// made one from a valid file) would pass for a variant's path.
TEST(UsdcErrors, APrimNameThatIsNoIdentifierIsRefused) {
  Layer layer = Text("#usda 1.0\ndef Xform \"A\"\n{\n}\n");
  layer.prims[0].name = "S{el";
  layer.prims[0].path = "/S{el";
  auto r = ReadUsdc(Crate(layer));
  EXPECT_EQ(r.code(), Error::kInvalidUsdc) << r.error().ToString();
  EXPECT_NE(r.error().message.find("a prim named 'S{el', which is not an identifier"),
            std::string::npos)
      << r.error().ToString();
}

// Prims nested past the reader's depth: refused while the path tree is read, before any path
// string longer than that is built.
TEST(UsdcErrors, PathsNestingPastTheDepthLimitAreRefused) {
  std::string text = "#usda 1.0\n";
  for (int i = 0; i < 140; ++i) text += "def \"P\" {\n";
  for (int i = 0; i < 140; ++i) text += "}\n";
  UsdaOptions deep;
  deep.max_depth = 200;
  auto layer = ReadUsda(text, deep);
  ASSERT_TRUE(layer.ok()) << layer.error().ToString();
  const std::vector<uint8_t> crate = Crate(*layer);
  auto r = ReadUsdc(crate);
  EXPECT_EQ(r.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(r.error().message, "paths nest deeper than 130");
  EXPECT_EQ(r.error().where.substr(0, 5), "PATHS");
  UsdcOptions allow;
  allow.max_depth = 200;
  EXPECT_TRUE(ReadUsdc(crate, allow).ok());
}

TEST(UsdcErrors, AValueOfAnotherTypeThanItsAttributeIsAWrongType) {
  Layer layer = Text("#usda 1.0\ndef Xform \"A\"\n{\n    float3 v = (1, 2, 3)\n}\n");
  layer.prims[0].attributes[0].type = ValueType::kFloat;  // declared float, the value float3
  const std::vector<uint8_t> crate = Crate(layer);
  auto r = ReadUsdc(crate);
  EXPECT_EQ(r.code(), Error::kWrongType);
  EXPECT_NE(r.error().where.find("/A.v"), std::string::npos);
}

TEST(Usdz, ThePackagesRootLayerIsReadInPlace) {
  const std::vector<uint8_t> crate = SmallCrate();
  const PackagedFile files[] = {{"A.usdc", crate},
                                {"extra.png", std::span<const uint8_t>(crate).first(10)}};
  const std::vector<uint8_t> package = PackageUsdz(files);
  auto root = UsdzRootLayer(package);
  ASSERT_TRUE(root.ok()) << root.error().ToString();
  EXPECT_EQ(root->name, "A.usdc");
  EXPECT_EQ(size_t(root->bytes.data() - package.data()) % 64, 0u);  // aligned, as USD writes it
  EXPECT_TRUE(std::ranges::equal(root->bytes, crate));
  EXPECT_EQ(DetectLayerEncoding(package), LayerEncoding::kUsdz);
  EXPECT_EQ(Read(package).prims.size(), 1u);
}

// The entries a zip tool lists: it reads a package from its end, the end-of-central-directory
// record, then walks the central directory (46 bytes a header, then the name, extra field and
// comment), each header pointing at its entry's local header, which must carry the same name.
// nullopt where that walk does not hold together.
std::optional<std::vector<std::string>> ZipDirectory(std::span<const uint8_t> zip) {
  const auto u16 = [&](size_t at) { return uint32_t(zip[at]) | uint32_t(zip[at + 1]) << 8; };
  const auto u32 = [&](size_t at) { return u16(at) | u16(at + 2) << 16; };
  if (zip.size() < 22) return std::nullopt;
  const size_t end = zip.size() - 22;  // no archive comment
  if (u32(end) != 0x06054b50 || u16(end + 20) != 0) return std::nullopt;
  const size_t count = u16(end + 10), size = u32(end + 12), start = u32(end + 16);
  if (start + size != end) return std::nullopt;
  std::vector<std::string> names;
  size_t at = start;
  for (size_t i = 0; i < count; ++i) {
    if (at + 46 > end || u32(at) != 0x02014b50) return std::nullopt;
    const size_t name = u16(at + 28), extra = u16(at + 30), comment = u16(at + 32);
    const size_t local = u32(at + 42);
    names.emplace_back(reinterpret_cast<const char*>(&zip[at + 46]), name);
    if (local + 30 + name > start || u32(local) != 0x04034b50 || u16(local + 26) != name ||
        std::memcmp(&zip[local + 30], &zip[at + 46], name) != 0) {
      return std::nullopt;
    }
    at += 46 + name + extra + comment;
  }
  if (at != end) return std::nullopt;
  return names;
}

TEST(Usdz, APackageListsItsEntriesAsAZipToolReadsThem) {
  // The walk itself, on a package USD wrote.
  const auto real =
      ZipDirectory(ReadBytes(sinew::testing::TestAssets() / "usd" / "RiggedSimple.usdz"));
  ASSERT_TRUE(real.has_value());
  EXPECT_FALSE(real->empty());
  const std::vector<uint8_t> crate = SmallCrate();
  const PackagedFile files[] = {{"A.usdc", crate},
                                {"textures/b.png", std::span<const uint8_t>(crate).first(10)}};
  const auto written = ZipDirectory(PackageUsdz(files));
  ASSERT_TRUE(written.has_value());
  EXPECT_EQ(*written, (std::vector<std::string>{"A.usdc", "textures/b.png"}));
}

TEST(Usdz, ABrokenPackageIsRefusedAndErrorsInsideNameTheLayer) {
  const std::vector<uint8_t> crate = SmallCrate();
  const PackagedFile file{"A.usdc", crate};
  const std::vector<uint8_t> package = PackageUsdz(std::span(&file, 1));
  std::vector<uint8_t> bad = package;
  bad[8] = 8;  // deflate
  EXPECT_EQ(ReadLayer(bad).code(), Error::kUnsupportedFeature);
  auto root = UsdzRootLayer(package);
  ASSERT_TRUE(root.ok());
  bad = package;
  bad[size_t(root->bytes.data() - package.data()) + 20] ^= 1;  // a byte of the layer
  auto crc = UsdzRootLayer(bad);
  EXPECT_EQ(crc.code(), Error::kInvalidUsdc);
  EXPECT_EQ(crc.error().message, "the entry's CRC-32 does not match its data");
  EXPECT_EQ(UsdzRootLayer(std::span(package).first(29)).code(), Error::kInvalidUsdc);
  // Cut short after its entry, before the central directory's end: zip tools and USD refuse it.
  const size_t whole_entry = size_t(root->bytes.data() - package.data()) + root->bytes.size();
  for (const size_t cut : {whole_entry, package.size() - 1}) {
    auto cut_short = UsdzRootLayer(std::span(package).first(cut));
    EXPECT_EQ(cut_short.code(), Error::kInvalidUsdc) << cut;
    EXPECT_EQ(cut_short.error().where, "usdz at byte " + std::to_string(cut));
  }
  bad = package;
  Poke<uint32_t>(&bad, 18, uint32_t(package.size()));  // the entry's size
  Poke<uint32_t>(&bad, 22, uint32_t(package.size()));
  auto r = ReadLayer(bad);
  EXPECT_EQ(r.code(), Error::kInvalidUsdc);
  EXPECT_EQ(r.error().where, "usdz at byte 0");
  // A broken layer inside: its error, named by the packaged file.
  std::vector<uint8_t> broken = crate;
  broken[9] = 3;
  const PackagedFile inner{"A.usdc", broken};
  r = ReadLayer(PackageUsdz(std::span(&inner, 1)));
  EXPECT_EQ(r.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(r.error().where, "A.usdc: bootstrap at byte 8");
  // A package in a package.
  const PackagedFile nested{"inner.usdz", package};
  EXPECT_EQ(ReadLayer(PackageUsdz(std::span(&nested, 1))).code(), Error::kUnsupportedFeature);
}

TEST(Usdz, LoadAssetTellsTheEncodingsApart) {
  const std::vector<uint8_t> crate = SmallCrate();
  EXPECT_EQ(DetectAssetFormat("x.bin", crate), AssetFormat::kUsdc);
  const PackagedFile file{"A.usdc", crate};
  EXPECT_EQ(DetectAssetFormat("x.bin", PackageUsdz(std::span(&file, 1))), AssetFormat::kUsdz);
  EXPECT_EQ(DetectAssetFormat("x.usdz", {}), AssetFormat::kUsdz);
  EXPECT_EQ(DetectAssetFormat("x.usdc", {}), AssetFormat::kUsdc);
  auto loaded = LoadAsset(sinew::testing::TestAssets() / "usd" / "RiggedSimple.usdz");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->format, AssetFormat::kUsdz);
  EXPECT_STREQ(ToString(loaded->format), "USD (.usdz)");
}

}  // namespace
}  // namespace sinew::loader::usd
