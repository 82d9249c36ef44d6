// One small layer per grammar rule of the .usda reader (docs/usda.md, "What it reads"), with the
// model it must give.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "loader/usda_test_util.h"

namespace sinew::loader::usd {
namespace {

using testing::At;
using testing::Attr;
using testing::Default;
using testing::Read;
using testing::Usda;
using testing::Vec;
using Strings = std::vector<std::string>;

TEST(UsdaReader, ReadsAnEmptyLayer) {
  const Layer layer = Read("#usda 1.0\n");
  EXPECT_TRUE(layer.prims.empty());
  EXPECT_FALSE(layer.start_time_code.has_value());
  EXPECT_TRUE(Read("#usda 1.0").prims.empty());
  EXPECT_TRUE(Read("#usda 1.0  \r\n# a comment\n").prims.empty());
}

TEST(UsdaReader, ReadsTheLayerMetadataItNames) {
  const Layer layer = Read(Usda(R"((
    "The layer's documentation"
    timeCodesPerSecond = 24
    framesPerSecond = 12.5
    startTimeCode = 1
    endTimeCode = 30
    upAxis = "Y"
    metersPerUnit = 0.01
    defaultPrim = "Root"
)
)"));
  EXPECT_EQ(layer.doc, "The layer's documentation");
  EXPECT_EQ(layer.time_codes_per_second, 24.0);
  EXPECT_EQ(layer.frames_per_second, 12.5);
  EXPECT_EQ(layer.start_time_code, 1.0);
  EXPECT_EQ(layer.end_time_code, 30.0);
  EXPECT_EQ(layer.up_axis, "Y");
  EXPECT_EQ(layer.meters_per_unit, 0.01);
  EXPECT_EQ(layer.default_prim, "Root");
  EXPECT_TRUE(layer.metadata.entries.empty());
  EXPECT_EQ(Read(Usda("(doc = \"\"\"two\nlines\"\"\")")).doc, "two\nlines");
}

TEST(UsdaReader, KeepsOtherMetadataAsTheTextShowsIt) {
  const Layer layer = Read(Usda(R"((
    comment = "made by hand"
    owner = builder
    hidden = true
    scale = 2
    pivot = (1, 2.5, -3)
    names = ["a", "b"]
    targets = [</A>, </A/B.x>]
    texture = @./t.png@
    pairs = [(1, 2), (3, 4)]
    nothing = None
    customLayerData = {
        string creator = "sinew"
        int[] frames = [1, 2]
        dictionary nested = {
            double3 p = (1, 2, 3)
        }
    }
)
)"));
  const Metadata& m = layer.metadata;
  ASSERT_EQ(m.entries.size(), 11u);
  EXPECT_EQ(m.Find("comment")->value.type, ValueType::kString);
  EXPECT_EQ(m.Find("comment")->value.AsString(), "made by hand");
  EXPECT_EQ(m.Find("owner")->value.type, ValueType::kToken);
  EXPECT_EQ(m.Find("owner")->value.AsString(), "builder");
  EXPECT_EQ(m.Find("hidden")->value.type, ValueType::kBool);
  EXPECT_EQ(m.Find("hidden")->value.AsDouble(), 1.0);
  EXPECT_EQ(m.Find("scale")->value.AsDouble(), 2.0);
  const Value& pivot = m.Find("pivot")->value;
  EXPECT_EQ(pivot.type, ValueType::kDouble);
  EXPECT_EQ(pivot.components, 3);
  EXPECT_EQ(Vec(pivot.doubles()), (std::vector<double>{1, 2.5, -3}));
  EXPECT_TRUE(m.Find("names")->value.array);
  EXPECT_EQ(Vec(m.Find("names")->value.strings()), (Strings{"a", "b"}));
  EXPECT_EQ(m.Find("targets")->value.type, ValueType::kPath);
  EXPECT_EQ(Vec(m.Find("targets")->value.strings()), (Strings{"/A", "/A/B.x"}));
  EXPECT_EQ(m.Find("texture")->value.type, ValueType::kAsset);
  EXPECT_EQ(m.Find("texture")->value.AsString(), "./t.png");
  EXPECT_EQ(m.Find("pairs")->value.size(), 2u);
  EXPECT_EQ(m.Find("pairs")->value.components, 2);
  EXPECT_TRUE(m.Find("nothing")->value.blocked);
  const Dictionary* data = m.Find("customLayerData")->value.dictionary();
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->size(), 3u);
  EXPECT_EQ(Find(*data, "creator")->AsString(), "sinew");
  EXPECT_EQ(Find(*data, "frames")->type, ValueType::kInt);
  EXPECT_EQ(Vec(Find(*data, "frames")->ints()), (std::vector<int32_t>{1, 2}));
  const Dictionary* nested = Find(*data, "nested")->dictionary();
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(Vec(Find(*nested, "p")->doubles()), (std::vector<double>{1, 2, 3}));
}

TEST(UsdaReader, ReadsPrimsWithTheirSpecifierTypeAndPath) {
  const Layer layer = Read(Usda(R"(
def Xform "Root" {
    def "Untyped" {}
    over Mesh "Over" {}
    class "Class" {
        def Scope "Inner" {}
    }
}
def Mesh "Second" {}
)"));
  ASSERT_EQ(layer.prims.size(), 6u);
  EXPECT_EQ(layer.roots, (std::vector<uint32_t>{0, 5}));
  const Prim& root = At(layer, "/Root");
  EXPECT_EQ(root.specifier, Specifier::kDef);
  EXPECT_EQ(root.type_name, "Xform");
  EXPECT_EQ(root.parent, -1);
  EXPECT_EQ(root.children, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(At(layer, "/Root/Untyped").type_name, "");
  EXPECT_EQ(At(layer, "/Root/Over").specifier, Specifier::kOver);
  EXPECT_EQ(At(layer, "/Root/Class").specifier, Specifier::kClass);
  EXPECT_EQ(At(layer, "/Root/Class/Inner").parent, 3);
  EXPECT_EQ(At(layer, "/Root/Class/Inner").name, "Inner");
  EXPECT_EQ(At(layer, "/Second").path, "/Second");
}

TEST(UsdaReader, ReadsPrimMetadataWithApiSchemaListOps) {
  const Layer layer = Read(Usda(R"(
def SkelRoot "A" (
    kind = "component"
    prepend apiSchemas = ["SkelBindingAPI", "Other"]
    append apiSchemas = ["Last"]
    delete apiSchemas = ["Gone"]
    reorder apiSchemas = ["Last", "SkelBindingAPI"]
    active = false
    instanceable = true
    doc = "a prim"
    customData = { int n = 3 }
) {}
def "B" (apiSchemas = ["Only"]) {}
def "C" ("documentation alone"; active = 1) {}
)"));
  const Prim& a = At(layer, "/A");
  EXPECT_EQ(a.kind, "component");
  EXPECT_EQ(a.api_schemas.prepended, (Strings{"SkelBindingAPI", "Other"}));
  EXPECT_EQ(a.api_schemas.appended, Strings{"Last"});
  EXPECT_EQ(a.api_schemas.deleted, Strings{"Gone"});
  EXPECT_FALSE(a.api_schemas.Has(ListOpKind::kExplicit));
  // The layer's own reorder applies to what its prepend and append make, as in USD.
  EXPECT_EQ(a.api_schemas.Resolved(), (Strings{"Last", "SkelBindingAPI", "Other"}));
  EXPECT_EQ(a.active, false);
  EXPECT_EQ(a.instanceable, true);
  EXPECT_EQ(a.doc, "a prim");
  ASSERT_EQ(a.metadata.entries.size(), 1u);
  EXPECT_EQ(a.metadata.entries[0].key, "customData");
  const Prim& b = At(layer, "/B");
  EXPECT_TRUE(b.api_schemas.Has(ListOpKind::kExplicit));
  EXPECT_EQ(b.api_schemas.Resolved(), Strings{"Only"});
  EXPECT_FALSE(b.active.has_value());
  EXPECT_EQ(At(layer, "/C").doc, "documentation alone");
  EXPECT_EQ(At(layer, "/C").active, true);
}

TEST(UsdaReader, ReadsScalarsOfEveryNumericType) {
  const Layer layer = Read(Usda(R"(
def "P" {
    bool b = true
    bool b0 = 0
    uchar u8 = 255
    int i = -2147483648
    uint u = 4294967295
    int64 i64 = -9223372036854775808
    uint64 u64 = 9223372036854775807
    half h = 0.1
    float f = 0.1
    double d = 0.1
    timecode t = 24
}
)"));
  EXPECT_EQ(Default(layer, "/P.b").ints()[0], 1);
  EXPECT_EQ(Default(layer, "/P.b0").ints()[0], 0);
  EXPECT_EQ(Default(layer, "/P.u8").ints()[0], 255);
  EXPECT_EQ(Default(layer, "/P.i").ints()[0], INT32_MIN);
  EXPECT_EQ(Default(layer, "/P.u").int64s()[0], 4294967295);
  EXPECT_EQ(Default(layer, "/P.i64").int64s()[0], INT64_MIN);
  EXPECT_EQ(Default(layer, "/P.u64").int64s()[0], INT64_MAX);
  EXPECT_EQ(Default(layer, "/P.h").floats()[0], RoundToHalf(0.1f));
  EXPECT_EQ(Default(layer, "/P.f").floats()[0], 0.1f);
  EXPECT_EQ(Default(layer, "/P.d").doubles()[0], 0.1);
  EXPECT_EQ(Default(layer, "/P.t").doubles()[0], 24.0);
  const Value& f = Default(layer, "/P.f");
  EXPECT_FALSE(f.array);
  EXPECT_EQ(f.size(), 1u);  // a scalar is an array of one element
  EXPECT_EQ(f.type, ValueType::kFloat);
}

TEST(UsdaReader, ReadsTuplesOfEveryRoleAsContiguousComponents) {
  const Layer layer = Read(Usda(R"(
def "P" {
    float3[] f3 = [(1, 2, 3), (4, 5, 6)]
    point3f[] p = [(-0.5, -1, 0.5)]
    normal3f[] n = [(0, 0, 1), (0, 1, 0)]
    vector3f[] v = [(1, 0, 0)]
    color3f[] c = [(1, 0.5, 0)]
    texCoord2f[] uv = [(0, 1), (1, 0), (0.5, 0.5)]
    quatf[] q = [(1, 0, 0, 0), (0.5, -0.5, -0.5, -0.5)]
    half3[] s = [(1, 1, 1)]
    int2 i2 = (3, -4)
    double4 d4 = (1, 2, 3, 4)
    color4d c4 = (0.1, 0.2, 0.3, 1)
}
)"));
  const Value& f3 = Default(layer, "/P.f3");
  EXPECT_TRUE(f3.array);
  EXPECT_EQ(f3.components, 3);
  EXPECT_EQ(f3.size(), 2u);
  EXPECT_EQ(Vec(f3.floats()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Default(layer, "/P.p").type, ValueType::kPoint3f);
  EXPECT_EQ(Default(layer, "/P.n").size(), 2u);
  EXPECT_EQ(Default(layer, "/P.v").type, ValueType::kVector3f);
  EXPECT_EQ(Vec(Default(layer, "/P.c").floats()), (std::vector<float>{1, 0.5f, 0}));
  EXPECT_EQ(Default(layer, "/P.uv").size(), 3u);
  EXPECT_EQ(Default(layer, "/P.uv").components, 2);
  // Quaternions as written: the real part first.
  EXPECT_EQ(Vec(Default(layer, "/P.q").floats()),
            (std::vector<float>{1, 0, 0, 0, 0.5f, -0.5f, -0.5f, -0.5f}));
  EXPECT_EQ(Vec(Default(layer, "/P.s").floats()), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(Vec(Default(layer, "/P.i2").ints()), (std::vector<int32_t>{3, -4}));
  EXPECT_EQ(Vec(Default(layer, "/P.d4").doubles()), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(Default(layer, "/P.c4").size(), 1u);
}

TEST(UsdaReader, ReadsMatricesRowMajorAsWritten) {
  const Layer layer = Read(Usda(R"(
def "P" {
    matrix4d m = ( (0, 0, 1, 0), (1, 0, 0, 0), (0, 1, 0, 0), (2, 0, 0, 1) )
    matrix4d[] ms = [( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1) ),
                     ( (2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 2, 0), (5, 6, 7, 1) )]
    matrix2d m2 = ((1, 2), (3, 4))
    matrix3d m3 = ((1, 2, 3), (4, 5, 6), (7, 8, 9))
}
)"));
  EXPECT_EQ(Vec(Default(layer, "/P.m").doubles()),
            (std::vector<double>{0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1}));
  const Value& ms = Default(layer, "/P.ms");
  EXPECT_EQ(ms.components, 16);
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms.doubles()[16], 2.0);
  EXPECT_EQ(ms.doubles()[28], 5.0);  // row 3, column 0 of the second: the translation's x
  EXPECT_EQ(Vec(Default(layer, "/P.m2").doubles()), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(Default(layer, "/P.m3").doubles()[8], 9.0);
}

TEST(UsdaReader, ReadsTokensStringsAndAssets) {
  const Layer layer = Read(Usda(R"(
def "P" {
    uniform token[] joints = ["joint1", "joint1/joint2"]
    token t = "vertex"
    string s = "tab\there \"quoted\""
    string long = """first
second"""
    asset a = @./textures/skin.png@
    asset[] as = [@a.usda@, @@@b@c.usda@@@]
}
)"));
  EXPECT_EQ(Vec(Default(layer, "/P.joints").strings()), (Strings{"joint1", "joint1/joint2"}));
  EXPECT_EQ(Attr(layer, "/P.joints").variability, Variability::kUniform);
  EXPECT_EQ(Default(layer, "/P.t").AsString(), "vertex");
  EXPECT_EQ(Default(layer, "/P.s").AsString(), "tab\there \"quoted\"");
  EXPECT_EQ(Default(layer, "/P.long").AsString(), "first\nsecond");
  EXPECT_EQ(Default(layer, "/P.a").type, ValueType::kAsset);
  EXPECT_EQ(Default(layer, "/P.a").AsString(), "./textures/skin.png");
  EXPECT_EQ(Vec(Default(layer, "/P.as").strings()), (Strings{"a.usda", "b@c.usda"}));
}

TEST(UsdaReader, ReadsNonFiniteNumbersAsUsdWritesThem) {
  const Layer layer = Read(Usda(R"(
def "P" {
    float[] f = [inf, -inf, nan, 1e-50]
    double[] d = [-inf, 1e-400]
}
)"));
  const auto f = Default(layer, "/P.f").floats();
  ASSERT_EQ(f.size(), 4u);
  EXPECT_TRUE(std::isinf(f[0]) && f[0] > 0);
  EXPECT_TRUE(std::isinf(f[1]) && f[1] < 0);
  EXPECT_TRUE(std::isnan(f[2]));
  EXPECT_EQ(f[3], 0.0f);  // below the smallest float: zero, as converting would give
  EXPECT_EQ(Default(layer, "/P.d").doubles()[1], 0.0);
}

TEST(UsdaReader, ReadsEmptyArraysTrailingCommasAndMultiLineArrays) {
  const Layer layer = Read(Usda(R"(
def "P" {
    int[] none = []
    int[] trailing = [1, 2, 3,]
    int[] lines = [
        0, 0, 0, 0,
        0, 1, 0, 1,
    ]
    point3f[] pts = [(1, 2, 3),]
}
)"));
  EXPECT_EQ(Default(layer, "/P.none").size(), 0u);
  EXPECT_TRUE(Default(layer, "/P.none").array);
  EXPECT_EQ(Vec(Default(layer, "/P.trailing").ints()), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(Default(layer, "/P.lines").size(), 8u);
  EXPECT_EQ(Default(layer, "/P.pts").size(), 1u);
}

TEST(UsdaReader, ReadsCustomUniformAndNamespacedAttributes) {
  const Layer layer = Read(Usda(R"(
def "P" {
    custom uniform int primvars:skel:jointIndices = 1
    custom float plain
    config string c = "x"
}
)"));
  const Attribute& a = Attr(layer, "/P.primvars:skel:jointIndices");
  EXPECT_TRUE(a.custom);
  EXPECT_EQ(a.variability, Variability::kUniform);
  const Attribute& plain = Attr(layer, "/P.plain");
  EXPECT_TRUE(plain.custom);
  EXPECT_FALSE(plain.default_value.has_value());
  EXPECT_FALSE(plain.has_time_samples);
  EXPECT_EQ(Attr(layer, "/P.c").variability, Variability::kConfig);
}

TEST(UsdaReader, ReadsBlockedValues) {
  const Layer layer = Read(Usda(R"(
def "P" {
    float3[] blocked = None
    double d.timeSamples = { 1: 2, 2: None, }
}
)"));
  const Value& blocked = Default(layer, "/P.blocked");
  EXPECT_TRUE(blocked.blocked);
  EXPECT_EQ(blocked.size(), 0u);
  EXPECT_EQ(blocked.type, ValueType::kFloat3);
  const Attribute& d = Attr(layer, "/P.d");
  ASSERT_EQ(d.time_samples.size(), 2u);
  EXPECT_FALSE(d.time_samples[0].value.blocked);
  EXPECT_TRUE(d.time_samples[1].value.blocked);
}

TEST(UsdaReader, ReadsTimeSamplesSortedByTimeTheLastOfATimeKept) {
  const Layer layer = Read(Usda(R"(
def "P" {
    float3[] e.timeSamples = {
        1: [(0, 0, 0), (1, 1, 1)],
        2.5: [(0, 0, 0)],
        -1e1: [],
    }
    float x.timeSamples = { 3: 30, 1: 10, 3: 31, 2: 20 }
    float empty.timeSamples = { }
}
)"));
  const Attribute& e = Attr(layer, "/P.e");
  EXPECT_TRUE(e.has_time_samples);
  ASSERT_EQ(e.time_samples.size(), 3u);
  EXPECT_EQ(e.time_samples[0].time, -10.0);
  EXPECT_EQ(e.time_samples[0].value.size(), 0u);
  EXPECT_EQ(e.time_samples[1].time, 1.0);
  EXPECT_EQ(e.time_samples[1].value.size(), 2u);
  EXPECT_EQ(e.time_samples[2].time, 2.5);
  const Attribute& x = Attr(layer, "/P.x");
  ASSERT_EQ(x.time_samples.size(), 3u);
  EXPECT_EQ(x.time_samples[0].value.floats()[0], 10.0f);
  EXPECT_EQ(x.time_samples[1].value.floats()[0], 20.0f);
  EXPECT_EQ(x.time_samples[2].value.floats()[0], 31.0f);
  EXPECT_TRUE(Attr(layer, "/P.empty").has_time_samples);
  EXPECT_TRUE(Attr(layer, "/P.empty").time_samples.empty());
}

TEST(UsdaReader, ReadsAttributeMetadataItNamesAndKeepsTheRest) {
  const Layer layer = Read(Usda(R"(
def "P" {
    int[] primvars:skel:jointIndices = [0, 1] (
        elementSize = 2
        interpolation = "vertex"
    )
    uniform point3f[] inbetweens:smile_half = [(0, 1, 0)] (
        weight = 0.5
        doc = "half a smile"
        customData = { bool generated = 1 }
        renderType = "vector"
    )
    float plain (interpolation = "constant")
}
)"));
  const Attribute& indices = Attr(layer, "/P.primvars:skel:jointIndices");
  EXPECT_EQ(indices.element_size, 2);
  EXPECT_EQ(indices.interpolation, "vertex");
  EXPECT_FALSE(indices.weight.has_value());
  const Attribute& smile = Attr(layer, "/P.inbetweens:smile_half");
  EXPECT_EQ(smile.weight, 0.5f);
  EXPECT_EQ(smile.doc, "half a smile");
  ASSERT_EQ(smile.metadata.entries.size(), 2u);
  EXPECT_EQ(smile.metadata.Find("renderType")->value.AsString(), "vector");
  const Dictionary* data = smile.metadata.Find("customData")->value.dictionary();
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(Find(*data, "generated")->ints()[0], 1);
  EXPECT_EQ(Attr(layer, "/P.plain").interpolation, "constant");
}

TEST(UsdaReader, ReadsRelationshipsAndTheirListOps) {
  const Layer layer = Read(Usda(R"(
def "Root" {
    rel skel:skeleton = </Root/Skel>
    rel skel:blendShapeTargets = [
        </Root/Mesh/a>,
        </Root/Mesh/b>,
    ]
    prepend rel before = </Root/x>
    append rel after = [</Root/y>, </Root/z>]
    delete rel gone = </Root/w>
    rel declared
    rel cleared = None
    custom rel withMeta = </Root> (doc = "d"; displayGroup = "g")
}
)"));
  const Prim& root = At(layer, "/Root");
  ASSERT_EQ(root.relationships.size(), 8u);
  EXPECT_EQ(root.FindRelationship("skel:skeleton")->targets.explicit_items, Strings{"/Root/Skel"});
  EXPECT_EQ(root.FindRelationship("skel:blendShapeTargets")->targets.Resolved(),
            (Strings{"/Root/Mesh/a", "/Root/Mesh/b"}));
  EXPECT_EQ(root.FindRelationship("before")->targets.prepended, Strings{"/Root/x"});
  EXPECT_EQ(root.FindRelationship("after")->targets.appended, (Strings{"/Root/y", "/Root/z"}));
  EXPECT_EQ(root.FindRelationship("gone")->targets.deleted, Strings{"/Root/w"});
  EXPECT_EQ(root.FindRelationship("declared")->targets.written, 0);
  const Relationship* cleared = root.FindRelationship("cleared");
  EXPECT_TRUE(cleared->targets.Has(ListOpKind::kExplicit));
  EXPECT_TRUE(cleared->targets.explicit_items.empty());
  const Relationship* meta = root.FindRelationship("withMeta");
  EXPECT_TRUE(meta->custom);
  EXPECT_EQ(meta->doc, "d");
  EXPECT_EQ(meta->metadata.Find("displayGroup")->value.AsString(), "g");
}

TEST(UsdaReader, ResolvesRelativePathsAgainstTheirPrim) {
  const Layer layer = Read(Usda(R"(
def "Root" {
    rel a = <Skel>
    rel b = <Skel/Anim>
    def "Mesh" {
        rel c = [<twirl_a>, <../Skel>, <.>, <./x>, <../Other.attr>, <.local:name>]
        float f.connect = <../Sibling.x>
    }
}
)"));
  EXPECT_EQ(layer.FindRelationship("/Root.a")->targets.explicit_items, Strings{"/Root/Skel"});
  EXPECT_EQ(layer.FindRelationship("/Root.b")->targets.explicit_items, Strings{"/Root/Skel/Anim"});
  EXPECT_EQ(layer.FindRelationship("/Root/Mesh.c")->targets.explicit_items,
            (Strings{"/Root/Mesh/twirl_a", "/Root/Skel", "/Root/Mesh", "/Root/Mesh/x",
                     "/Root/Other.attr", "/Root/Mesh.local:name"}));
  EXPECT_EQ(Attr(layer, "/Root/Mesh.f").connections.explicit_items, Strings{"/Root/Sibling.x"});
}

TEST(UsdaReader, ReadsConnectionsAndTheirListOps) {
  const Layer layer = Read(Usda(R"(
def "Shader" {
    float inputs:a.connect = </Other.outputs:out>
    prepend float inputs:b.connect = [</A.x>, </B.y>]
    float inputs:b = 2
}
)"));
  const Attribute& a = Attr(layer, "/Shader.inputs:a");
  EXPECT_EQ(a.connections.explicit_items, Strings{"/Other.outputs:out"});
  EXPECT_FALSE(a.default_value.has_value());
  const Attribute& b = Attr(layer, "/Shader.inputs:b");
  EXPECT_EQ(b.connections.prepended, (Strings{"/A.x", "/B.y"}));
  EXPECT_EQ(b.default_value->floats()[0], 2.0f);
}

// The readers index a prim's property names (Layer::IndexProperties) so that binding resolution
// stays linear; a lookup through the index finds what a scan would, whatever the order written.
TEST(UsdaReader, FindsEveryPropertyByNameThroughTheNameIndex) {
  const Layer layer = Read(Usda(R"(
def "P" {
    float b = 1
    float a:b = 2
    float a = 3
    rel r2 = </P>
    float ab = 4
    rel r = </P>
    float a:b = 5
    float c.timeSamples = { 1: 6 }
    rel r1
}
)"));
  const Prim& p = At(layer, "/P");
  ASSERT_EQ(p.attributes_by_name.size(), p.attributes.size());
  ASSERT_EQ(p.relationships_by_name.size(), p.relationships.size());
  for (const Attribute& a : p.attributes) EXPECT_EQ(p.FindAttribute(a.name), &a) << a.name;
  for (const Relationship& r : p.relationships) EXPECT_EQ(p.FindRelationship(r.name), &r) << r.name;
  EXPECT_EQ(p.FindAttribute("a:b")->default_value->floats()[0], 5.0f);
  for (const char* missing : {"", "a:", "aa", "d", "r", "B"}) {
    EXPECT_EQ(p.FindAttribute(missing), nullptr) << missing;
  }
  for (const char* missing : {"", "r0", "r3", "b"}) {
    EXPECT_EQ(p.FindRelationship(missing), nullptr) << missing;
  }
}

TEST(UsdaReader, MergesARedeclaredAttributeWithTheLaterValueWinning) {
  const Layer layer = Read(Usda(R"(
def "P" {
    point3f[] points = [(1, 1, 1)] (interpolation = "vertex"; customData = { int a = 1 })
    point3f[] points.timeSamples = { 1: [(2, 2, 2)] }
    float unrelated = 0
    point3f[] points = [(3, 3, 3), (4, 4, 4)] (customData = { int b = 2 })
}
)"));
  const Prim& p = At(layer, "/P");
  ASSERT_EQ(p.attributes.size(), 2u);
  EXPECT_EQ(p.attributes[0].name, "points");
  const Attribute& points = p.attributes[0];
  EXPECT_EQ(points.default_value->size(), 2u);
  EXPECT_EQ(points.default_value->floats()[0], 3.0f);
  ASSERT_EQ(points.time_samples.size(), 1u);
  EXPECT_EQ(points.interpolation, "vertex");
  ASSERT_EQ(points.metadata.entries.size(), 1u);
  EXPECT_NE(Find(*points.metadata.entries[0].value.dictionary(), "b"), nullptr);
}

TEST(UsdaReader, ReadsReorderStatements) {
  const Layer layer = Read(Usda(R"(
reorder rootPrims = ["B", "A"]
def "A" {
    reorder nameChildren = ["y", "x"]
    reorder properties = ["q", "p"]
    def "x" {}
    def "y" {}
}
def "B" {}
)"));
  EXPECT_EQ(layer.root_order, (Strings{"B", "A"}));
  EXPECT_EQ(At(layer, "/A").child_order, (Strings{"y", "x"}));
  EXPECT_EQ(At(layer, "/A").property_order, (Strings{"q", "p"}));
}

TEST(UsdaReader, AcceptsCommentsAndSemicolonsAroundEveryToken) {
  const Layer layer = Read(Usda(R"(# the layer
( # metadata
    upAxis = "Z" # up
) # end
def "A" # the prim
( kind = "group"; ) # its metadata
{ # body
    float a = 1; float b = 2 # two on a line
    int[] c = [ # open
        1, # one
        2  # two
    ] # close
}
)"));
  EXPECT_EQ(layer.up_axis, "Z");
  EXPECT_EQ(At(layer, "/A").kind, "group");
  EXPECT_EQ(Default(layer, "/A.b").floats()[0], 2.0f);
  EXPECT_EQ(Default(layer, "/A.c").size(), 2u);
}

TEST(UsdaReader, ReadsAFileAndReportsAMissingOne) {
  const auto missing = ReadUsdaFile("/nonexistent/sinew/layer.usda");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), Error::kFileNotFound);
  EXPECT_EQ(missing.error().where, "/nonexistent/sinew/layer.usda");
}

}  // namespace
}  // namespace sinew::loader::usd
