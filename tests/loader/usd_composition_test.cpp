// The stage composed into the layer the UsdSkel loader reads (loader/src/usd/compose_stage.h):
// references and payloads within a layer, across layer files on disk, and inside a .usdz package,
// the referencing prim's opinions stronger and paths inside the referenced prim mapped to where
// it lands; sublayers, strongest first, and the layer offsets that re-time what they bring in;
// and what the loader refuses.
#include <gtest/gtest.h>

#include <pthread.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/load_status.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/loader/usd.h"
#include "usd/compose_stage.h"
#include "usd/crate_reader.h"
#include "usd/crate_writer.h"
#include "usd/usda_parser.h"
#include "usd/usdz_package.h"
#include "usd_compose_test_util.h"

namespace sinew::loader {
namespace {

// A folder of its own for one test's files, removed afterwards.
class Folder {
 public:
  Folder()
      : path_(std::filesystem::temp_directory_path() /
              ("sinew_references_" + std::to_string(::getpid()) + "_" +
               testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path Write(const std::string& name, std::string_view text) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

// A character in a layer of its own, at 48 time codes a second: a SkelRoot (its defaultPrim)
// whose binding, skeleton, clip and blend shape all point inside it.
constexpr std::string_view kBody =
    "#usda 1.0\n(\n    defaultPrim = \"Body\"\n    timeCodesPerSecond = 48\n)\n"
    "def SkelRoot \"Body\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n"
    "    rel skel:skeleton = </Body/Skel>\n"
    "    def Skeleton \"Skel\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n"
    "        uniform token[] joints = [\"a\", \"a/b\"]\n"
    "        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)),"
    " ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,2,0,1))]\n"
    "        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)),"
    " ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,2,0,1))]\n"
    "        rel skel:animationSource = </Body/Skel/Anim>\n"
    "        def SkelAnimation \"Anim\"\n        {\n"
    "            uniform token[] joints = [\"a/b\"]\n"
    "            float3[] translations.timeSamples = { 0: [(0, 2, 0)], 48: [(0, 4, 0)] }\n"
    "            quatf[] rotations = [(1, 0, 0, 0)]\n"
    "            half3[] scales = [(1, 1, 1)]\n"
    "        }\n    }\n"
    "    def Mesh \"M\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n"
    "        point3f[] points = [(0,0,0), (1,0,0), (1,1,0), (0,1,0)]\n"
    "        int[] faceVertexCounts = [4]\n"
    "        int[] faceVertexIndices = [0, 1, 2, 3]\n"
    "        int[] primvars:skel:jointIndices = [1, 1, 1, 1] (\n"
    "            elementSize = 1\n            interpolation = \"vertex\"\n        )\n"
    "        float[] primvars:skel:jointWeights = [1, 1, 1, 1] (\n"
    "            elementSize = 1\n            interpolation = \"vertex\"\n        )\n"
    "        uniform token[] skel:blendShapes = [\"up\"]\n"
    "        rel skel:blendShapeTargets = </Body/M/Up>\n"
    "        def BlendShape \"Up\"\n        {\n"
    "            uniform vector3f[] offsets = [(0, 0, 1)]\n"
    "            uniform int[] pointIndices = [2]\n        }\n"
    "    }\n}\n";

// A stage that references the character from parts/body.usda (by its defaultPrim), moves it and
// gives its mesh points of its own; and a twin that references the hero within the stage.
constexpr std::string_view kStage =
    "#usda 1.0\n"
    "def Xform \"World\"\n{\n"
    "    def \"Hero\" (\n        prepend references = @./parts/body.usda@\n    )\n    {\n"
    "        double3 xformOp:translate = (5, 0, 0)\n"
    "        uniform token[] xformOpOrder = [\"xformOp:translate\"]\n"
    "        over \"M\"\n        {\n"
    "            point3f[] points = [(0,0,0), (2,0,0), (2,2,0), (0,2,0)]\n"
    "        }\n    }\n"
    "    def \"Twin\" (\n        references = </World/Hero>\n    )\n    {\n    }\n"
    "}\n";

// A mesh's body: one triangle.
constexpr std::string_view kTriangle =
    "        point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n"
    "        int[] faceVertexCounts = [3]\n        int[] faceVertexIndices = [0, 1, 2]\n";

const Mesh* MeshNamed(const Asset& a, std::string_view name) {
  for (const Mesh& m : a.meshes) {
    if (m.name == name) return &m;
  }
  ADD_FAILURE() << "no mesh " << name;
  return nullptr;
}

// What kStage composes to, however it was read.
void ExpectTheComposedStage(const LoadedAsset& loaded) {
  for (const Warning& w : loaded.warnings) ADD_FAILURE() << w.where << ": " << w.message;
  const Asset& a = loaded.asset;
  ASSERT_EQ(a.meshes.size(), 2u);
  for (const char* name : {"/World/Hero/M", "/World/Twin/M"}) {
    SCOPED_TRACE(name);
    const Mesh* mesh = MeshNamed(a, name);
    ASSERT_NE(mesh, nullptr);
    const Primitive& p = mesh->primitives.at(0);
    // The stage's points (the stronger opinion), skinned by the referenced binding.
    EXPECT_EQ(p.positions.at(3), 2.0f);
    EXPECT_TRUE(p.skinned());
    // The blend shape, found through skel:blendShapeTargets mapped to the mesh's place.
    EXPECT_EQ(mesh->target_names, std::vector<std::string>{"up"});
    ASSERT_EQ(p.targets.size(), 1u);
    EXPECT_EQ(p.targets[0].positions.at(2 * 3 + 2), 1.0f);
  }
  // Each copy has its skeleton (skel:skeleton mapped twice for the twin) and its clip, whose keys
  // at 48 time codes a second land on the stage's 24 (at 0 and 1 s, not 2).
  EXPECT_EQ(a.skins.size(), 2u);
  ASSERT_EQ(a.animations.size(), 2u);
  for (const Animation& clip : a.animations) EXPECT_FLOAT_EQ(cpu::RangeOf(clip).end, 1.0f);
  bool moved = false;
  for (const Node& n : a.nodes) moved |= n.name == "Hero" && n.translation.x == 5.0f;
  EXPECT_TRUE(moved);
}

TEST(UsdReferences, AReferencedCharacterIsComposedUnderTheReferencingPrim) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  const std::filesystem::path stage = folder.Write("stage.usda", kStage);
  auto loaded = LoadUsda(stage);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ExpectTheComposedStage(*loaded);
  auto any = LoadUsd(stage);  // the same through the reader of any encoding
  ASSERT_TRUE(any.ok()) << any.error().ToString();
  ExpectTheComposedStage(*any);
}

// three.js's USDZExporter and others reference layers packed beside the root layer.
TEST(UsdReferences, APackageReferencesTheLayersItHolds) {
  const auto bytes = [](std::string_view text) {
    return std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  };
  const std::vector<usd::PackagedFile> files = {{"stage.usda", bytes(kStage)},
                                                {"parts/body.usda", bytes(kBody)}};
  const std::vector<uint8_t> package = usd::PackageUsdz(files);
  auto loaded = LoadUsdFromMemory(package);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ExpectTheComposedStage(*loaded);
  // A file the package lacks is named, with the prim that wants it.
  std::string missing(kStage);
  missing.replace(missing.find("body.usda"), 9, "legs.usda");
  const std::vector<usd::PackagedFile> short_files = {{"stage.usda", bytes(missing)},
                                                      {"parts/body.usda", bytes(kBody)}};
  auto refused = LoadUsdFromMemory(usd::PackageUsdz(short_files));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.code(), Error::kFileNotFound);
  EXPECT_NE(refused.error().message.find("/World/Hero references @./parts/legs.usda@"),
            std::string::npos)
      << refused.error().ToString();
}

// A referencing prim's apiSchemas, list edits and properties compose over the referenced ones:
// schemas prepended on both sides are both there; an attribute the referencing prim authors wins
// over the referenced one's, metadata filled in from the weaker; a relationship pointing outside
// the referenced prim keeps its path within one layer. Payloads compose as references do.
TEST(UsdReferences, TheReferencingPrimsOpinionsAreTheStronger) {
  const std::string text =
      "#usda 1.0\n"
      "def Mesh \"Source\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n"
      "    point3f[] points = [(0,0,0), (1,0,0), (1,1,0)]\n"
      "    normal3f[] normals = [(0,0,1), (0,0,1), (0,0,1)] (interpolation = \"vertex\")\n"
      "    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0, 1, 2]\n"
      "}\n"
      "def Xform \"Copy\" (\n    prepend apiSchemas = [\"MaterialBindingAPI\"]\n"
      "    payload = </Source>\n)\n{\n"
      "    point3f[] points = [(0,0,0), (3,0,0), (3,3,0)]\n"
      "    normal3f[] normals (interpolation = \"faceVarying\")\n"
      "}\n";
  const Result<usd::Layer> composed = Composed(text);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  const usd::Prim* copy = composed->FindPrim("/Copy");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->type_name, "Xform");  // the stronger type
  EXPECT_EQ(copy->api_schemas.Resolved(),
            (std::vector<std::string>{"MaterialBindingAPI", "SkelBindingAPI"}));
  const usd::Attribute* points = copy->FindAttribute("points");
  ASSERT_NE(points, nullptr);
  EXPECT_EQ(points->UnblockedDefault()->floats()[3], 3.0f);
  const usd::Attribute* normals = copy->FindAttribute("normals");
  ASSERT_NE(normals, nullptr);
  EXPECT_EQ(normals->interpolation, "faceVarying");  // the stronger metadata
  ASSERT_NE(normals->UnblockedDefault(), nullptr);   // the weaker value: the stronger has none
  EXPECT_EQ(normals->UnblockedDefault()->size(), 3u);
  EXPECT_NE(copy->FindAttribute("faceVertexIndices"), nullptr);
  EXPECT_FALSE(copy->references.BringsAny() || copy->payloads.BringsAny());
  EXPECT_NE(composed->FindPrim("/Source"), nullptr);  // still a prim of its own
}

// A prim that references a prim and, as well, one of that prim's children meets the child at two
// levels of namespace: no cycle, as nothing leads back to where it started.
TEST(UsdReferences, APrimComposedFromAPrimAndItsChildIsNoCycle) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\ndef \"Source\" {\n    def Mesh \"M\" {\n        float x = 1\n    }\n}\n"
      "def \"Copy\" (\n    references = </Source>\n    payload = </Source/M>\n) {}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(composed->FindPrim("/Copy")->type_name, "Mesh");  // from the payload
  EXPECT_NE(composed->FindAttribute("/Copy.x"), nullptr);
  EXPECT_NE(composed->FindAttribute("/Copy/M.x"), nullptr);
}

// A reference to a prim below one that has references of its own brings what those say of it
// too (USD's ancestral opinions), mapped through both.
TEST(UsdReferences, AReferenceBelowAReferencingPrimBringsWhatItsAncestorsReferencesSay) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\ndef \"A\" {\n    def Mesh \"B\" {\n        rel r = </A/B/T>\n"
      "        def \"T\" {}\n    }\n}\n"
      "def \"W\" (\n    references = </A>\n) {\n    over \"B\" {\n        float x = 1\n    }\n}\n"
      "def \"V\" (\n    references = </W/B>\n) {}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  const usd::Prim* v = composed->FindPrim("/V");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->type_name, "Mesh");                      // from A/B, through W's reference
  EXPECT_NE(composed->FindAttribute("/V.x"), nullptr);  // from W/B itself
  EXPECT_EQ(composed->FindRelationship("/V.r")->targets.Resolved(),
            std::vector<std::string>{"/V/T"});  // /A/B/T → /W/B/T → /V/T
  EXPECT_NE(composed->FindPrim("/V/T"), nullptr);
}

// USD ranks every reference above every payload, then the arc of the deeper prim first: a
// child's own payload is weaker than what its parent's reference says of it, a child's own
// reference stronger.
TEST(UsdReferences, ReferencesOutrankPayloadsAndADeeperArcOutranksItsAncestors) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\ndef \"Src\" {\n    def \"M\" {\n        float x = 1\n    }\n}\n"
      "def \"P\" {\n    float x = 9\n}\n"
      "def \"Hero\" (\n    references = </Src>\n) {\n"
      "    over \"M\" (\n        payload = </P>\n    ) {}\n}\n"
      "def \"Own\" (\n    references = </Src>\n) {\n"
      "    over \"M\" (\n        references = </P>\n    ) {}\n}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(composed->FindAttribute("/Hero/M.x")->UnblockedDefault()->floats()[0], 1.0f);
  EXPECT_EQ(composed->FindAttribute("/Own/M.x")->UnblockedDefault()->floats()[0], 9.0f);
}

TEST(UsdReferences, ARelationshipOutsideTheReferencedPrimKeepsItsPathWithinALayer) {
  const std::string text =
      "#usda 1.0\n"
      "def \"Shared\" {}\n"
      "def \"Source\" {\n    rel inside = </Source/Child>\n    rel outside = </Shared>\n"
      "    def \"Child\" {}\n}\n"
      "def \"Copy\" (\n    references = </Source>\n) {}\n";
  const Result<usd::Layer> composed = Composed(text);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(composed->FindRelationship("/Copy.inside")->targets.Resolved(),
            std::vector<std::string>{"/Copy/Child"});
  EXPECT_EQ(composed->FindRelationship("/Copy.outside")->targets.Resolved(),
            std::vector<std::string>{"/Shared"});
  EXPECT_NE(composed->FindPrim("/Copy/Child"), nullptr);
}

TEST(UsdReferences, RefusesReferencesThatCannotBeComposed) {
  // Loading `text` fails with `code` at `where` ("": anywhere), the message holding `message`.
  const auto refused = [](std::string_view text, Error code, std::string_view where,
                          std::string_view message) {
    SCOPED_TRACE(text);
    auto loaded =
        LoadUsdaFromMemory(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.code(), code) << loaded.error().ToString();
    if (!where.empty()) {
      EXPECT_EQ(loaded.error().where, where) << loaded.error().ToString();
    }
    EXPECT_NE(loaded.error().message.find(message), std::string::npos) << loaded.error().ToString();
  };
  refused("#usda 1.0\ndef \"A\" (\n    references = </Gone>\n) {}\n", Error::kInvalidReference,
          "/A", "references </Gone>, which this layer does not hold");
  refused("#usda 1.0\ndef \"A\" {\n    def \"B\" (\n        references = </A>\n    ) {}\n}\n",
          Error::kInvalidReference, "/A/B", "the prim itself or one of its ancestors");
  refused("#usda 1.0\ndef \"A\" (\n    references = @b.usda@\n) {}\n", Error::kFileNotFound,
          "b.usda", "/A references @b.usda@: a layer read from memory cannot open another file");
  refused("#usda 1.0\ndef \"A\" (\n    references = </B> (offset = 10; scale = 0)\n) {}\n",
          Error::kInvalidValue, "line 3, column 23", "whose scale has no finite inverse");
  refused("#usda 1.0\ndef \"A\" (\n    references = </B> (scale = -1)\n) {}\n",
          Error::kUnsupportedFeature, "line 3, column 23", "negative scale");
  refused("#usda 1.0\ndef \"A\" (\n    references = </B> (rate = 2)\n) {}\n", Error::kUsdaSyntax,
          "line 3, column 24", "expected 'offset', 'scale' or 'customData'");
  refused("#usda 1.0\ndef \"A\" (\n    references = </A.x>\n) {}\n", Error::kInvalidValue,
          "line 3, column 18", "names a prim, not a property");
  // A reference to a path deeper than any prim may be, and a defaultPrim that deep: refused
  // before the composer walks its ancestors (a fuzzer-sized file once overflowed the stack).
  std::string deep_path;
  for (int i = 0; i < 20000; ++i) deep_path += "/a";
  refused("#usda 1.0\ndef \"A\" (\n    references = <" + deep_path + ">\n) {}\n",
          Error::kUnsupportedFeature, "/A", "a prim path deeper than 256 levels");
  // Two prims that reference each other.
  refused(
      "#usda 1.0\ndef \"A\" (\n    references = </B>\n) {}\n"
      "def \"B\" (\n    references = </A>\n) {}\n",
      Error::kInvalidReference, "/A", "references or inherits form a cycle through </A>");
  // A prim under one that a reference composes, referencing that prim again: without end,
  // stopped by the nesting of references (each level of namespace adds two).
  refused(
      "#usda 1.0\ndef \"A\" (\n    references = </B>\n) {}\n"
      "def \"B\" {\n    def \"C\" (\n        references = </A>\n    ) {}\n}\n",
      Error::kUnsupportedFeature, "", "references nested deeper than 32");
  // A long string referenced many times: what is copied counts, not how many values.
  std::string copies =
      "#usda 1.0\ndef \"S\" {\n    string s = \"" + std::string(1 << 20, 'x') + "\"\n}\n";
  for (int i = 0; i < 300; ++i) {
    copies += "def \"C" + std::to_string(i) + "\" (\n    references = </S>\n) {}\n";
  }
  refused(copies, Error::kUnsupportedFeature, "", "(UsdOptions::reference_expansion)");
  // Each level references the one below twice: 2^40 prims, stopped by the budget.
  std::string doubling = "#usda 1.0\ndef \"L0\" {\n    float x = 1\n}\n";
  for (int i = 1; i <= 40; ++i) {
    const std::string below = "</L" + std::to_string(i - 1) + ">";
    doubling += "def \"L" + std::to_string(i) +
                "\" {\n    def \"a\" (\n        references = " + below +
                "\n    ) {}\n    def \"b\" (\n        references = " + below + "\n    ) {}\n}\n";
  }
  auto loaded = LoadUsdaFromMemory(
      std::span(reinterpret_cast<const uint8_t*>(doubling.data()), doubling.size()));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.code(), Error::kUnsupportedFeature) << loaded.error().ToString();
  EXPECT_NE(loaded.error().message.find("(UsdOptions::reference_expansion)"), std::string::npos)
      << loaded.error().ToString();
}

TEST(UsdReferences, RefusesAFileReferenceThatIsMissingOrNamesNoPrim) {
  Folder folder;
  folder.Write("nodefault.usda", "#usda 1.0\ndef \"X\" {}\n");
  const std::filesystem::path missing = folder.Write(
      "missing.usda", "#usda 1.0\ndef \"A\" (\n    references = @./nope.usda@\n) {}\n");
  auto a = LoadUsda(missing);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.code(), Error::kFileNotFound);
  EXPECT_NE(a.error().message.find("/A references @./nope.usda@"), std::string::npos)
      << a.error().ToString();
  // An asset path that names no file at all still says where (the fuzzer's find): from a file,
  // and from memory.
  const std::string dot = "#usda 1.0\ndef \"A\" (\n    references = @.@\n) {}\n";
  for (const std::filesystem::path& from :
       {folder.Write("dot.usda", dot), std::filesystem::path()}) {
    auto d = LoadUsdaFromMemory(std::span(reinterpret_cast<const uint8_t*>(dot.data()), dot.size()),
                                from);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.code(), Error::kFileNotFound) << d.error().ToString();
    // (From a file it names the folder it resolves to; from memory, the path as written.)
    EXPECT_EQ(d.error().where, from.empty() ? "." : folder.path().string()) << d.error().ToString();
  }
  const std::filesystem::path unnamed = folder.Write(
      "unnamed.usda", "#usda 1.0\ndef \"A\" (\n    references = @nodefault.usda@\n) {}\n");
  auto b = LoadUsda(unnamed);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.code(), Error::kInvalidReference);
  EXPECT_EQ(b.error().where, "/A");
  // Two files that reference each other.
  folder.Write("x.usda",
               "#usda 1.0\n(\n    defaultPrim = \"X\"\n)\ndef \"X\" (\n"
               "    references = @y.usda@\n) {}\n");
  folder.Write("y.usda",
               "#usda 1.0\n(\n    defaultPrim = \"Y\"\n)\ndef \"Y\" (\n"
               "    references = @x.usda@\n) {}\n");
  auto c = LoadUsda(folder.path() / "x.usda");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.code(), Error::kInvalidReference) << c.error().ToString();
  EXPECT_NE(c.error().message.find("cycle"), std::string::npos) << c.error().ToString();
  // A package referenced from a file: its own references would be inside it.
  folder.Write("packaged.usdz", "PK\x03\x04");
  auto d = LoadUsda(folder.Write(
      "to_package.usda", "#usda 1.0\ndef \"A\" (\n    references = @packaged.usdz@</P>\n) {}\n"));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.code(), Error::kUnsupportedFeature) << d.error().ToString();
  // A referenced layer whose time codes a second are not positive.
  folder.Write(
      "still.usda",
      "#usda 1.0\n(\n    timeCodesPerSecond = 0\n    defaultPrim = \"S\"\n)\ndef \"S\" {}\n");
  auto e = LoadUsda(folder.Write("to_still.usda",
                                 "#usda 1.0\ndef \"A\" (\n    references = @still.usda@\n) {}\n"));
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.code(), Error::kInvalidValue) << e.error().ToString();
  EXPECT_EQ(e.error().where, "/A");
  // One so slow that its time codes scale past a double's range.
  folder.Write("slow.usda",
               "#usda 1.0\n(\n    timeCodesPerSecond = 1e-300\n    defaultPrim = \"S\"\n)\n"
               "def \"S\" {\n    float x.timeSamples = { 1e10: 1, 2e10: 2 }\n}\n");
  auto f = LoadUsda(
      folder.Write("to_slow.usda", "#usda 1.0\ndef \"A\" (\n    references = @slow.usda@\n) {}\n"));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.code(), Error::kInvalidValue) << f.error().ToString();
}

// A prim reached by two ways through the references (a diamond) composes once: each level of
// this file references both prims of the next, 2^30 ways to the last, which is read once.
TEST(UsdReferences, APrimReachedByManyWaysIsComposedOnce) {
  std::string text = "#usda 1.0\ndef \"L30a\" {\n    float x = 7\n}\ndef \"L30b\" {}\n";
  for (int i = 29; i >= 0; --i) {
    const std::string next = std::to_string(i + 1);
    for (const char* side : {"a", "b"}) {
      text += "def \"L" + std::to_string(i) + side + "\" (\n    references = [</L" + next +
              "a>, </L" + next + "b>]\n) {}\n";
    }
  }
  const Result<usd::Layer> composed = Composed(text);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  const usd::Attribute* x = composed->FindAttribute("/L0a.x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->UnblockedDefault()->floats()[0], 7.0f);
}

// Deep prims under nested references: in each of 30 layers, a prim 120 levels deep below a root
// prim that references the same path in the next layer. Composing works each referenced layer's
// ancestors out from the top down, one level of calls at a time, so that it needs little stack:
// here a thread of 1 MiB (walking up the 120 ancestors of each of the 30 targets in nested
// calls, each root prim's reference followed from the top of that walk, took several; deeper
// paths under a sanitizer's larger frames overflowed the usual 8).
TEST(UsdReferences, DeepPrimsUnderNestedReferencesComposeOnASmallStack) {
  constexpr int kLayers = 30, kDepth = 120;  // (.usda text nests 128 deep at most)
  std::string deep;
  for (int i = 0; i < kDepth; ++i) deep += "/A";
  std::map<std::string, std::string> files;
  const auto layer = [&](int k) {
    std::string text = "#usda 1.0\ndef \"A\" ";
    if (k + 1 < kLayers) {
      // (Appended piece by piece: GCC 12 warns of an overlap that is not there otherwise.)
      text += "(references = @l";
      text += std::to_string(k + 1);
      text += ".usda@<";
      text += deep;
      text += ">) ";
    }
    text += "{\n";
    for (int i = 2; i < kDepth; ++i) text += "def \"A\" {\n";
    text += "def \"A\" {\n    float x = ";
    text += std::to_string(k);
    text += "\n}\n";
    for (int i = 1; i < kDepth; ++i) text += "}\n";
    return text;
  };
  for (int k = 1; k < kLayers; ++k) {
    std::string name = std::to_string(k);  // l<k>.usda (piece by piece, as above)
    name.insert(0, 1, 'l');
    name += ".usda";
    files[name] = layer(k);
  }
  const std::string root = layer(0);
  float x = 0;
  std::string error;
  std::function<void()> compose = [&] {
    const Result<usd::Layer> composed = ComposedWith(root, files);
    if (composed.ok()) {
      x = FloatAt(*composed, "/A.x");  // the deep prim of l1.usda
    } else {
      error = composed.error().ToString();
    }
  };
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, size_t(1) << 20), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(
                &thread, &attributes,
                [](void* job) -> void* {
                  (*static_cast<std::function<void()>*>(job))();
                  return nullptr;
                },
                &compose),
            0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attributes);
  EXPECT_EQ(error, "");
  EXPECT_EQ(x, 1.0f);
}

// three.js writes a layer per geometry and references it from every mesh that uses it: a scene
// of one geometry used 300 times composes 300 copies within the default bound.
TEST(UsdReferences, AGeometryReferencedManyTimesIsInstancedWithinTheDefaultBound) {
  std::string geometry =
      "#usda 1.0\n(\n    defaultPrim = \"Geometry\"\n)\ndef \"Geometry\"\n{\n"
      "    def Mesh \"Geometry\"\n    {\n    point3f[] points = [";
  for (int i = 0; i < 2000; ++i) geometry += (i ? ", (" : "(") + std::to_string(i) + ", 0, 1)";
  geometry +=
      "]\n    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0, 1, 2]\n}\n}\n";
  std::string stage = "#usda 1.0\n";
  for (int i = 0; i < 300; ++i) {
    stage += "def Xform \"Tree" + std::to_string(i) +
             "\" (\n    prepend references = @./geometries/Geometry_1.usda@\n) {}\n";
  }
  const auto bytes = [](const std::string& text) {
    return std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  };
  const std::vector<usd::PackagedFile> files = {{"model.usda", bytes(stage)},
                                                {"geometries/Geometry_1.usda", bytes(geometry)}};
  auto loaded = LoadUsdFromMemory(usd::PackageUsdz(files));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->asset.meshes.size(), 300u);
}

// Where a layer authors framesPerSecond and no timeCodesPerSecond, USD reads its time codes at
// that rate (SdfLayer's fallback): so are a referenced layer's samples scaled.
TEST(UsdReferences, AReferencedLayersFramesPerSecondStandsForItsTimeCodesPerSecond) {
  const std::string b =
      "#usda 1.0\n(\n    framesPerSecond = 48\n    defaultPrim = \"B\"\n)\n"
      "def \"B\" {\n    float x.timeSamples = { 48: 1 }\n}\n";
  auto layer = usd::ReadUsda(
      "#usda 1.0\n(\n    timeCodesPerSecond = 12\n)\ndef \"A\" (\n    references = @b.usda@\n) "
      "{}\n");
  ASSERT_TRUE(layer.ok());
  const usd::LayerOpener open = [&](const std::string&) -> Result<usd::OpenedLayer> {
    SINEW_TRY_ASSIGN(usd::Layer read, usd::ReadUsda(b));
    return usd::OpenedLayer{std::move(read), "b.usda"};
  };
  auto composed = usd::ComposeStage(std::move(*layer), "a.usda", open, {});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(composed->FindAttribute("/A.x")->time_samples.at(0).time, 12.0);
  EXPECT_EQ(composed->time_codes_per_second, 12.0);  // the root layer's metadata, kept
}

// Children come in the order USD composes them: the weakest opinion's, then what stronger ones
// add. A list op switched between explicit and edits keeps the later statements only, as Sdf does.
// A stronger opinion's `reorder` moves each item it names, with the unnamed items after it, into
// its order, the items before the first named one staying in front, as Sdf reorders: for
// apiSchemas and relationship targets (variant sets: UsdVariants, below).
TEST(UsdReferences, AReorderMovesTheItemsItNamesWithTheirFollowers) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\n"
      "def \"Src\" (\n    prepend apiSchemas = [\"A\", \"B\", \"C\", \"D\", \"E\"]\n) {\n"
      "    rel r = [</Src/a>, </Src/b>, </Src/c>, </Src/d>]\n"
      "    rel front = [</Src/x>, </Src/a>, </Src/b>]\n}\n"
      "def \"Copy\" (\n    references = </Src>\n    reorder apiSchemas = [\"C\", \"A\"]\n) {\n"
      "    reorder rel r = [</Copy/c>, </Copy/x>, </Copy/a>]\n"
      "    reorder rel front = [</Copy/b>, </Copy/a>]\n}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  const usd::Prim* copy = composed->FindPrim("/Copy");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->api_schemas.Resolved(), (std::vector<std::string>{"C", "D", "E", "A", "B"}));
  EXPECT_EQ(composed->FindRelationship("/Copy.r")->targets.Resolved(),
            (std::vector<std::string>{"/Copy/c", "/Copy/d", "/Copy/a", "/Copy/b"}));
  EXPECT_EQ(composed->FindRelationship("/Copy.front")->targets.Resolved(),
            (std::vector<std::string>{"/Copy/x", "/Copy/b", "/Copy/a"}));  // x stays in front
}

TEST(UsdReferences, ChildrenAndListOpsComposeInUsdsOrder) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\ndef \"Source\" {\n    def \"B\" {}\n    def \"C\" {}\n}\n"
      "def \"Other\" {\n    def \"D\" {}\n}\n"
      "def \"Copy\" (\n    references = </Other>\n    prepend references = </Source>\n) {\n"
      "    def \"A\" {}\n    def \"C\" {}\n}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(ChildNames(*composed, "/Copy"),
            (std::vector<std::string>{"B", "C", "A"}));  // </Other> cleared: no D
}

// `reorder nameChildren` and `reorder rootPrims` order the children as USD composes them: from
// the weakest opinion up, each adds the children it names after those before, then applies its
// reorder (which moves each name it gives with the unnamed ones after it, and passes over a name
// no opinion gave). A weaker opinion's reorder counts too, for what it had.
TEST(UsdReferences, ReordersOfChildrenAndRootPrimsOrderTheComposedChildren) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\nreorder rootPrims = [\"Copy\", \"Nowhere\", \"Source\"]\n"
      "def \"Source\" {\n    reorder nameChildren = [\"D\", \"B\"]\n"
      "    def \"B\" {}\n    def \"C\" {}\n    def \"D\" {}\n}\n"
      "def \"Copy\" (\n    references = </Source>\n) {\n    reorder nameChildren = [\"A\", \"B\"]\n"
      "    def \"A\" {}\n    def \"E\" {}\n}\n"
      "def \"Plain\" (\n    references = </Source>\n) {\n    def \"A\" {}\n}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  // Source, Copy, Plain as read; reordered [Copy, Source]: Plain moves with Copy.
  EXPECT_EQ(ChildNames(*composed, ""), (std::vector<std::string>{"Copy", "Plain", "Source"}));
  EXPECT_EQ(ChildNames(*composed, "/Source"), (std::vector<std::string>{"D", "B", "C"}));
  // The reference's [D, B, C], then the prim's own A and E: [D, B, C, A, E]; reordered [A, B]:
  // D stays in front, A moves with E, B with C.
  EXPECT_EQ(ChildNames(*composed, "/Copy"), (std::vector<std::string>{"D", "A", "E", "B", "C"}));
  EXPECT_EQ(ChildNames(*composed, "/Plain"), (std::vector<std::string>{"D", "B", "C", "A"}));
  // A variant's opinion is weaker than the prim's own: its children, reordered, come first.
  const Result<usd::Layer> variant = Composed(
      "#usda 1.0\ndef \"V\" (\n    variants = { string v = \"a\" }\n"
      "    prepend variantSets = \"v\"\n) {\n    def \"z\" {}\n"
      "    variantSet \"v\" = {\n        \"a\" {\n"
      "            reorder nameChildren = [\"y\", \"x\"]\n"
      "            def \"x\" {}\n            def \"y\" {}\n        }\n    }\n}\n");
  ASSERT_TRUE(variant.ok()) << variant.error().ToString();
  EXPECT_EQ(ChildNames(*variant, "/V"), (std::vector<std::string>{"y", "x", "z"}));
}

// ---------------------------------------------------------------------------------------------
// Sublayers and layer offsets

// The character's clip of kBody re-timed in a layer of its own, at 24 time codes a second: keys
// at 0 and 0.5 s, where kBody's are at 0 and 1 s.
constexpr std::string_view kWalk =
    "#usda 1.0\n(\n    timeCodesPerSecond = 24\n)\n"
    "over \"Body\"\n{\n    over \"Skel\"\n    {\n        over \"Anim\"\n        {\n"
    "            float3[] translations.timeSamples = { 0: [(0, 2, 0)], 12: [(0, 6, 0)] }\n"
    "        }\n    }\n}\n";

// A shot: the walk over the character, and the shot's own points over both.
constexpr std::string_view kShot =
    "#usda 1.0\n(\n    subLayers = [\n        @./anim/walk.usda@,\n"
    "        @./parts/body.usda@\n    ]\n)\n"
    "over \"Body\"\n{\n    over \"M\"\n    {\n"
    "        point3f[] points = [(0,0,0), (2,0,0), (2,2,0), (0,2,0)]\n    }\n}\n";

// What kShot composes to: the shot's points, the walk's keys, the character's binding.
void ExpectTheShot(const LoadedAsset& loaded) {
  for (const Warning& w : loaded.warnings) ADD_FAILURE() << w.where << ": " << w.message;
  const Asset& a = loaded.asset;
  ASSERT_EQ(a.meshes.size(), 1u);
  const Primitive& p = a.meshes[0].primitives.at(0);
  EXPECT_EQ(p.positions.at(3), 2.0f);
  EXPECT_TRUE(p.skinned());
  EXPECT_EQ(p.targets.size(), 1u);
  ASSERT_EQ(a.animations.size(), 1u);
  EXPECT_FLOAT_EQ(cpu::RangeOf(a.animations[0]).end, 0.5f);
}

// kShot, kWalk and kBody in a .usdz package, the shot its root layer.
std::vector<uint8_t> ShotPackage() {
  const auto bytes = [](std::string_view text) {
    return std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  };
  const std::vector<usd::PackagedFile> files = {{"shot.usda", bytes(kShot)},
                                                {"anim/walk.usda", bytes(kWalk)},
                                                {"parts/body.usda", bytes(kBody)}};
  return usd::PackageUsdz(files);
}

TEST(UsdSubLayers, AShotComposesItsSubLayersStrongestFirstUnderItsOwnOpinions) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  folder.Write("anim/walk.usda", kWalk);
  auto loaded = LoadUsd(folder.Write("shot.usda", kShot));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ExpectTheShot(*loaded);
  // The same layers in a package, found beside the packaged root layer.
  auto packaged = LoadUsdFromMemory(ShotPackage());
  ASSERT_TRUE(packaged.ok()) << packaged.error().ToString();
  ExpectTheShot(*packaged);
}

// The times of `attribute`'s samples in `layer`.
std::vector<double> SampleTimes(const usd::Layer& layer, std::string_view attribute) {
  std::vector<double> times;
  const usd::Attribute* a = layer.FindAttribute(attribute);
  EXPECT_NE(a, nullptr) << attribute;
  if (a) {
    for (const usd::TimeSample& t : a->time_samples) times.push_back(t.time);
  }
  return times;
}

// A sublayer's time code t lands at offset + scale · t, after its time codes are scaled to its
// parent's rate (kBody's 48 a second to the shot's 24): 0 and 48 land at 24 and 72.
TEST(UsdSubLayers, ASubLayersTimesLandThroughItsLayerOffsetAndRate) {
  const std::string shot =
      "#usda 1.0\n(\n    timeCodesPerSecond = 24\n"
      "    subLayers = [@parts/body.usda@ (offset = 24; scale = 2)]\n)\n";
  const Result<usd::Layer> composed = ComposedWith(shot, {{"parts/body.usda", std::string(kBody)}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(SampleTimes(*composed, "/Body/Skel/Anim.translations"), (std::vector<double>{24, 72}));
  EXPECT_TRUE(composed->sub_layers.empty());
  // Nested: each level's offset applies in its parent's time codes.
  const std::string middle =
      "#usda 1.0\n(\n    timeCodesPerSecond = 48\n"
      "    subLayers = [@./body.usda@ (offset = 10)]\n)\n";
  const Result<usd::Layer> nested =
      ComposedWith("#usda 1.0\n(\n    subLayers = [@parts/middle.usda@ (scale = 3)]\n)\n",
                   {{"parts/middle.usda", middle}, {"parts/body.usda", std::string(kBody)}});
  ASSERT_TRUE(nested.ok()) << nested.error().ToString();
  // 48 in body → 58 in middle (48 a second) → 29 at the shot's 24 → 87 after the scale of 3.
  EXPECT_EQ(SampleTimes(*nested, "/Body/Skel/Anim.translations"), (std::vector<double>{15, 87}));
}

// Each reorder goes over every child name the prim has so far: a prim of thousands of references,
// each bringing a child and a reorder, would take time quadratic in them, so the work counts
// against the bound on what composing may make (UsdOptions::reference_expansion), and is refused.
TEST(UsdReferences, ManyReordersOfManyChildrenCountAgainstTheBound) {
  constexpr int kSources = 6000;
  std::string text = "#usda 1.0\ndef \"P\" (\n    references = [";
  for (int i = 0; i < kSources; ++i) text += (i ? ", </S" : "</S") + std::to_string(i) + ">";
  text += "]\n) {}\n";
  for (int i = 0; i < kSources; ++i) {
    const std::string n = std::to_string(i);
    text += "def \"S" + n + "\" {\n    reorder nameChildren = [\"c" + n + "\"]\n    def \"c" + n +
            "\" {}\n}\n";
  }
  const Result<usd::Layer> composed = Composed(text);
  ASSERT_FALSE(composed.ok());
  EXPECT_EQ(composed.error().code, Error::kUnsupportedFeature) << composed.error().ToString();
  EXPECT_EQ(composed.error().where, "/P");
  // A tenth of them compose.
  const size_t cut = text.find("</S600>");
  ASSERT_NE(cut, std::string::npos);
  std::string fewer = text.substr(0, cut - 2) + "]\n) {}\n";
  fewer += text.substr(text.find("def \"S0\""));
  const Result<usd::Layer> some = Composed(fewer);
  ASSERT_TRUE(some.ok()) << some.error().ToString();
  EXPECT_EQ(some->FindPrim("/P")->children.size(), 600u);
}

// Sublayers: from the weakest layer up, each adds its children and applies its reorder to all
// it has. Pcp's museum case BasicListEditing: [x, y, z]; then [x, y, z, a, b, c] reordered
// [z, x, b] to [z, a, x, y, b, c]; then f, reordered [z, f, y].
TEST(UsdSubLayers, EachLayersReorderOrdersTheChildrenItAndTheWeakerLayersGive) {
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@sub1.usda@, @sub2.usda@]\n)\n"
      "reorder rootPrims = [\"S\", \"A\"]\n"
      "over \"A\" {\n    reorder nameChildren = [\"z\", \"f\", \"y\"]\n    def \"f\" {}\n}\n",
      {{"sub1.usda",
        "#usda 1.0\nover \"A\" {\n    reorder nameChildren = [\"z\", \"x\", \"b\"]\n"
        "    def \"a\" {}\n    def \"b\" {}\n    def \"c\" {}\n}\ndef \"S\" {}\n"},
       {"sub2.usda",
        "#usda 1.0\ndef \"A\" {\n    def \"x\" {}\n    def \"y\" {}\n    def \"z\" {}\n}\n"}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(ChildNames(*composed, "/A"),
            (std::vector<std::string>{"z", "a", "x", "f", "y", "b", "c"}));
  EXPECT_EQ(ChildNames(*composed, ""), (std::vector<std::string>{"S", "A"}));
}

// A reference's layer offset maps its times as a sublayer's does: 0 and 48 (48 a second) land at
// 12 + 2 · (0 and 24), 12 and 60, the clip's last key at 2.5 s.
TEST(UsdSubLayers, AReferencesLayerOffsetMapsItsTimes) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  const std::filesystem::path stage = folder.Write(
      "stage.usda",
      "#usda 1.0\ndef \"Hero\" (\n"
      "    references = @./parts/body.usda@ (offset = 12; scale = 2; customData = {int n = 1})\n"
      ") {}\n");
  auto loaded = LoadUsd(stage);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.animations.size(), 1u);
  EXPECT_FLOAT_EQ(cpu::RangeOf(loaded->asset.animations[0]).end, 2.5f);
  // Within the stage, from a sublayer at another rate, as Pcp maps it: the reference keeps the
  // mapping of the layer that writes it (48 a second to 24, a scale of 0.5) and adds no rate of
  // its own, and the referenced prim's layer maps its times again (0.5 once more): 48 and 96
  // land at 12 and 24. The reference's offset is in the sublayer's time codes.
  const std::string sub =
      "#usda 1.0\n(\n    timeCodesPerSecond = 48\n)\n"
      "def \"S\" {\n    float x.timeSamples = { 48: 1, 96: 2 }\n}\n"
      "def \"C\" (\n    references = </S>\n) {}\n"
      "def \"D\" (\n    references = </S> (offset = 48)\n) {}\n";
  const Result<usd::Layer> composed =
      ComposedWith("#usda 1.0\n(\n    subLayers = [@a.usda@]\n)\n", {{"a.usda", sub}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(SampleTimes(*composed, "/S.x"), (std::vector<double>{24, 48}));
  EXPECT_EQ(SampleTimes(*composed, "/C.x"), (std::vector<double>{12, 24}));
  EXPECT_EQ(SampleTimes(*composed, "/D.x"), (std::vector<double>{36, 48}));
  // The same through a sublayer offset of 100: applied to the reference and to the layer.
  const Result<usd::Layer> offset = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@a.usda@ (offset = 100)]\n)\n", {{"a.usda", sub}});
  ASSERT_TRUE(offset.ok()) << offset.error().ToString();
  EXPECT_EQ(SampleTimes(*offset, "/S.x"), (std::vector<double>{124, 148}));
  EXPECT_EQ(SampleTimes(*offset, "/C.x"), (std::vector<double>{162, 174}));
}

// Sublayers name files relative to the layer that names them, as references do, and a reference
// in a sublayer looks beside the sublayer.
TEST(UsdSubLayers, ASubLayersOwnSubLayersAndReferencesAreRelativeToIt) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  folder.Write("parts/rig.usda",
               "#usda 1.0\n(\n    subLayers = [@./body.usda@]\n)\n"
               "def \"Hero\" (\n    references = @body.usda@\n) {}\n");
  auto loaded =
      LoadUsd(folder.Write("shot.usda", "#usda 1.0\n(\n    subLayers = [@parts/rig.usda@]\n)\n"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->asset.meshes.size(), 2u);
  EXPECT_NE(MeshNamed(loaded->asset, "/Body/M"), nullptr);
  EXPECT_NE(MeshNamed(loaded->asset, "/Hero/M"), nullptr);
}

// A referenced layer brings its sublayers' opinions with it, and a reference within the stage
// (`</Body>`) finds a prim that only a sublayer holds.
TEST(UsdSubLayers, AReferenceReachesIntoTheWholeLayerStack) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  folder.Write("parts/dressed.usda",
               "#usda 1.0\n(\n    defaultPrim = \"Body\"\n    subLayers = [@body.usda@]\n)\n"
               "over \"Body\"\n{\n    over \"M\"\n    {\n"
               "        point3f[] points = [(0,0,0), (3,0,0), (3,3,0), (0,3,0)]\n    }\n}\n");
  auto loaded = LoadUsd(folder.Write("shot.usda",
                                     "#usda 1.0\n(\n    subLayers = [@parts/body.usda@]\n)\n"
                                     "def \"Hero\" (\n    references = @parts/dressed.usda@\n) {}\n"
                                     "def \"Twin\" (\n    references = </Body>\n) {}\n"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Mesh* hero = MeshNamed(loaded->asset, "/Hero/M");
  ASSERT_NE(hero, nullptr);
  EXPECT_EQ(hero->primitives.at(0).positions.at(3), 3.0f);  // dressed.usda's, over body.usda's
  EXPECT_TRUE(hero->primitives.at(0).skinned());
  const Mesh* twin = MeshNamed(loaded->asset, "/Twin/M");
  ASSERT_NE(twin, nullptr);
  EXPECT_EQ(twin->primitives.at(0).positions.at(3), 1.0f);
  EXPECT_TRUE(twin->primitives.at(0).skinned());
  EXPECT_EQ(loaded->asset.meshes.size(), 3u);
}

// Every layer of the stack holds local opinions, which USD ranks above anything a reference
// brings in; and a prim's references are one list edit across the stack, a stronger layer's
// edits applied to what the weaker ones made.
TEST(UsdSubLayers, LocalOpinionsOfEveryLayerAreStrongerThanReferencesAndListEditsCompose) {
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@sub.usda@]\n)\n"
      "def \"Src\" {\n    float x = 1\n    float y = 1\n}\n"
      "def \"Other\" {\n    float x = 3\n}\n"
      "def \"A\" (\n    references = </Src>\n) {}\n"
      "def \"B\" (\n    delete references = </Src>\n) {}\n"
      "def \"C\" (\n    prepend references = </Other>\n) {}\n",
      {{"sub.usda",
        "#usda 1.0\nover \"A\" {\n    float x = 2\n}\n"
        "over \"B\" (\n    references = </Src>\n) {}\n"
        "over \"C\" (\n    references = </Src>\n) {}\n"}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  // The sublayer's x over the referenced one's; y from the reference.
  EXPECT_EQ(composed->FindAttribute("/A.x")->UnblockedDefault()->floats()[0], 2.0f);
  EXPECT_NE(composed->FindAttribute("/A.y"), nullptr);
  // The root layer deletes the reference the sublayer makes.
  EXPECT_EQ(composed->FindAttribute("/B.y"), nullptr);
  // The root layer's prepended reference comes before the sublayer's: its x wins.
  EXPECT_EQ(composed->FindAttribute("/C.x")->UnblockedDefault()->floats()[0], 3.0f);
  EXPECT_NE(composed->FindAttribute("/C.y"), nullptr);
}

// The nesting bound counts references followed, not layers: a prim that forty sublayers each
// speak of still references a prim that references another.
TEST(UsdSubLayers, ManyLayersOfOnePrimDoNotCountAsNestedReferences) {
  std::string root = "#usda 1.0\n(\n    subLayers = [";
  std::map<std::string, std::string> files;
  for (int i = 0; i < 40; ++i) {
    // (Appended piece by piece: GCC 12 warns of an overlap in "s" + std::to_string(i).)
    std::string name = "s";
    name += std::to_string(i);
    name += ".usda";
    root += i ? ", @" : "@";
    root += name;
    root += '@';
    files[name] = "#usda 1.0\nover \"A\" (\n    references = </B>\n) {}\nover \"B\" {}\n";
  }
  root += "]\n)\ndef \"B\" (\n    references = </C>\n) {}\ndef \"C\" {\n    float x = 1\n}\n";
  const Result<usd::Layer> composed = ComposedWith(root, files);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_NE(composed->FindAttribute("/A.x"), nullptr);
}

// A reference is the file it names from the layer that writes it: the same name written in two
// folders is two references (both come in), and a delete names the file as its own layer finds
// it. A defaultPrim written as a path names the same prim.
TEST(UsdSubLayers, ReferencesInListEditsAreTheFilesTheyNameFromTheirOwnLayer) {
  const std::map<std::string, std::string> files = {
      {"sub/weak.usda", "#usda 1.0\nover \"Hero\" (\n    prepend references = @body.usda@\n) {}\n"},
      {"sub/body.usda",
       "#usda 1.0\n(\n    defaultPrim = \"/Body\"\n)\ndef \"Body\" {\n    float inner = 1\n}\n"},
      {"body.usda",
       "#usda 1.0\n(\n    defaultPrim = \"Body\"\n)\ndef \"Body\" {\n"
       "    float outer = 1\n}\n"}};
  const Result<usd::Layer> both = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@sub/weak.usda@]\n)\n"
      "def \"Hero\" (\n    prepend references = @body.usda@\n) {}\n",
      files);
  ASSERT_TRUE(both.ok()) << both.error().ToString();
  EXPECT_NE(both->FindAttribute("/Hero.outer"), nullptr);
  EXPECT_NE(both->FindAttribute("/Hero.inner"), nullptr);
  const Result<usd::Layer> deleted = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@sub/weak.usda@]\n)\n"
      "def \"Hero\" (\n    delete references = @./sub/body.usda@\n) {}\n",
      files);
  ASSERT_TRUE(deleted.ok()) << deleted.error().ToString();
  EXPECT_EQ(deleted->FindAttribute("/Hero.inner"), nullptr);
}

// `text` as a crate file's bytes.
std::string CrateOf(std::string_view text) {
  auto layer = usd::ReadUsda(text);
  EXPECT_TRUE(layer.ok()) << layer.error().ToString();
  if (!layer.ok()) return {};
  auto bytes = usd::WriteCrate(*layer);
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  return bytes.ok() ? std::string(bytes->begin(), bytes->end()) : std::string();
}

// Binary layers compose as text ones do: their sublayers, references and payloads are read from
// the crate's list ops (the files keep their names; a layer's encoding is told by its bytes).
TEST(UsdSubLayers, CrateLayersComposeAsTextLayersDo) {
  Folder folder;
  folder.Write("parts/body.usda", CrateOf(kBody));
  folder.Write("anim/walk.usda", CrateOf(kWalk));
  auto shot = LoadUsd(folder.Write("shot.usdc", CrateOf(kShot)));
  ASSERT_TRUE(shot.ok()) << shot.error().ToString();
  ExpectTheShot(*shot);
  auto stage = LoadUsd(folder.Write("stage.usdc", CrateOf(kStage)));
  ASSERT_TRUE(stage.ok()) << stage.error().ToString();
  ExpectTheComposedStage(*stage);
}

// A layer without arcs is put in its composed order too; and the loaded asset's meshes come in the
// composed order of their prims: the twin's first where World reorders its children so, in text
// and in a crate.
TEST(UsdReferences, ALayerOfItsOwnAndTheLoadedMeshesFollowTheReorders) {
  const Result<usd::Layer> alone = Composed(
      "#usda 1.0\nreorder rootPrims = [\"B\", \"A\"]\ndef \"A\" {}\n"
      "def \"B\" {\n    reorder nameChildren = [\"y\", \"x\"]\n    def \"x\" {}\n    def \"y\" "
      "{}\n}\n");
  ASSERT_TRUE(alone.ok()) << alone.error().ToString();
  EXPECT_EQ(ChildNames(*alone, ""), (std::vector<std::string>{"B", "A"}));
  EXPECT_EQ(ChildNames(*alone, "/B"), (std::vector<std::string>{"y", "x"}));
  EXPECT_TRUE(alone->root_order.empty());  // applied
  EXPECT_TRUE(alone->FindPrim("/B")->child_order.empty());
  // The loader reads the prims in that order: meshes, nodes and the scene's roots.
  const std::string meshes =
      "#usda 1.0\nreorder rootPrims = [\"Second\", \"First\"]\n"
      "def Xform \"First\" {\n    def Mesh \"A\" {\n" +
      std::string(kTriangle) +
      "    }\n"
      "    def Mesh \"B\" {\n" +
      std::string(kTriangle) +
      "    }\n"
      "    reorder nameChildren = [\"B\", \"A\"]\n}\n"
      "def Xform \"Second\" {\n    def Mesh \"C\" {\n" +
      std::string(kTriangle) + "    }\n}\n";
  const std::string meshes_crate = CrateOf(meshes);  // its primOrder fields
  for (const std::string* bytes : {&meshes, &meshes_crate}) {
    auto loaded = LoadUsdFromMemory(
        std::span(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    std::vector<std::string> mesh_names;
    for (const Mesh& m : loaded->asset.meshes) mesh_names.push_back(m.name);
    EXPECT_EQ(mesh_names, (std::vector<std::string>{"/Second/C", "/First/B", "/First/A"}));
  }

  Folder folder;
  folder.Write("parts/body.usda", kBody);
  std::string text(kStage);
  const std::string world = "def Xform \"World\"\n{\n";
  ASSERT_NE(text.find(world), std::string::npos);
  const std::filesystem::path plain = folder.Write("plain.usda", text);
  text.insert(text.find(world) + world.size(), "    reorder nameChildren = [\"Twin\", \"Hero\"]\n");
  const std::filesystem::path reordered = folder.Write("reordered.usda", text);
  const std::filesystem::path crate = folder.Write("reordered.usdc", CrateOf(text));
  for (const auto& [stage, first] :
       {std::pair{plain, "/World/Hero/M"}, std::pair{reordered, "/World/Twin/M"},
        std::pair{crate, "/World/Twin/M"}}) {
    auto referencing = LoadUsd(stage);
    ASSERT_TRUE(referencing.ok()) << referencing.error().ToString();
    ExpectTheComposedStage(*referencing);
    EXPECT_EQ(referencing->asset.meshes.at(0).name, first) << stage;
  }
}

// The loaded asset names each layer file its stage read beside its own, once, whether a sublayer
// or a reference's or a payload's (LoadedAsset::external_files: what an engine watches to reload
// it, and what the tool must not write over), from text and from a crate; a package's layers are
// inside it, no files.
TEST(UsdSubLayers, TheLoadedAssetNamesEachLayerFileItRead) {
  Folder folder;
  const std::filesystem::path body = folder.Write("parts/body.usda", kBody);
  const std::filesystem::path walk = folder.Write("anim/walk.usda", kWalk);
  const auto expect_read = [](const LoadedAsset& loaded,
                              const std::vector<std::filesystem::path>& files) {
    ASSERT_EQ(loaded.external_files.size(), files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      EXPECT_TRUE(std::filesystem::equivalent(loaded.external_files[i], files[i]))
          << loaded.external_files[i] << " for " << files[i];
    }
  };
  for (const std::filesystem::path& shot :
       {folder.Write("shot.usda", kShot), folder.Write("shot.usdc", CrateOf(kShot))}) {
    auto loaded = LoadUsd(shot);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    ExpectTheShot(*loaded);
    expect_read(*loaded, {walk, body});  // as the sublayers list them, strongest first
  }
  // The stage references the body once from a file and its twin once within itself; a payload
  // of the same file is the same file.
  std::string text(kStage);
  text.insert(text.find("    def \"Twin\""),
              "    def \"Extra\" (\n        payload = @./parts/body.usda@\n    )\n    {\n    }\n");
  // And a prim that references another prim of the stage's own file by its name, which reads the
  // file again: that is the asset's own file, not one beside it.
  text += "def \"Again\" (\n    references = @./stage.usda@</World/Hero>\n)\n{\n}\n";
  auto stage = LoadUsda(folder.Write("stage.usda", text));
  ASSERT_TRUE(stage.ok()) << stage.error().ToString();
  EXPECT_EQ(stage->asset.meshes.size(), 4u);
  expect_read(*stage, {body});
  auto packaged = LoadUsdFromMemory(ShotPackage());
  ASSERT_TRUE(packaged.ok()) << packaged.error().ToString();
  EXPECT_TRUE(packaged->external_files.empty());
}

TEST(UsdSubLayers, RefusesSubLayersThatCannotBeComposed) {
  Folder folder;
  // A sublayer that is not there, named with the layer that names it.
  auto missing =
      LoadUsd(folder.Write("missing.usda", "#usda 1.0\n(\n    subLayers = [@./nope.usda@]\n)\n"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), Error::kFileNotFound);
  EXPECT_NE(missing.error().message.find("subLayers @./nope.usda@"), std::string::npos)
      << missing.error().ToString();
  // Two layers that sublayer each other, and one that sublayers itself.
  folder.Write("b.usda", "#usda 1.0\n(\n    subLayers = [@a.usda@]\n)\n");
  auto cycle = LoadUsd(folder.Write("a.usda", "#usda 1.0\n(\n    subLayers = [@b.usda@]\n)\n"));
  ASSERT_FALSE(cycle.ok());
  EXPECT_EQ(cycle.code(), Error::kInvalidReference) << cycle.error().ToString();
  EXPECT_NE(cycle.error().message.find("cycle"), std::string::npos) << cycle.error().ToString();
  auto self =
      LoadUsd(folder.Write("self.usda", "#usda 1.0\n(\n    subLayers = [@./self.usda@]\n)\n"));
  ASSERT_FALSE(self.ok());
  EXPECT_EQ(self.code(), Error::kInvalidReference) << self.error().ToString();
  // Forty-one layers, each sublayering the next: stopped at 32 levels.
  for (int i = 0; i <= 40; ++i) {
    std::string name = "chain";
    name += std::to_string(i);
    std::string next = "chain";
    next += std::to_string(i + 1);
    folder.Write(name + ".usda", "#usda 1.0\n(\n    subLayers = [@" + next + ".usda@]\n)\n");
  }
  folder.Write("chain41.usda", "#usda 1.0\n");
  auto deep = LoadUsd(folder.path() / "chain0.usda");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.code(), Error::kUnsupportedFeature) << deep.error().ToString();
  EXPECT_NE(deep.error().message.find("sublayers nested deeper than 32"), std::string::npos)
      << deep.error().ToString();
  // A layer read from memory opens no other file.
  const std::string text = "#usda 1.0\n(\n    subLayers = [@a.usda@]\n)\n";
  auto memory =
      LoadUsdaFromMemory(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  ASSERT_FALSE(memory.ok());
  EXPECT_EQ(memory.code(), Error::kFileNotFound);
  // What the reader refuses: a scale of 0, a list edit, something other than an asset path.
  const auto refused = [](std::string_view body, Error code, std::string_view where,
                          std::string_view message) {
    SCOPED_TRACE(body);
    auto layer = usd::ReadUsda("#usda 1.0\n(\n    " + std::string(body) + "\n)\n");
    ASSERT_FALSE(layer.ok());
    EXPECT_EQ(layer.code(), code) << layer.error().ToString();
    EXPECT_EQ(layer.error().where, where) << layer.error().ToString();
    EXPECT_NE(layer.error().message.find(message), std::string::npos) << layer.error().ToString();
  };
  refused("subLayers = [@a.usda@ (scale = 0)]", Error::kInvalidValue, "line 3, column 27",
          "whose scale has no finite inverse");
  refused("subLayers = [@a.usda@ (scale = 1e-320)]", Error::kInvalidValue, "line 3, column 27",
          "whose scale has no finite inverse");
  refused("subLayers = [@a.usda@ (offset = inf)]", Error::kInvalidValue, "line 3, column 27",
          "not finite");
  refused("prepend subLayers = [@a.usda@]", Error::kInvalidValue, "line 3, column 13",
          "not a list op");
  refused("subLayers = [</A>]", Error::kUsdaSyntax, "line 3, column 18", "expected a sublayer");
  refused("subLayers = [@a.usda@ (customData = {})]", Error::kUsdaSyntax, "line 3, column 28",
          "expected 'offset' or 'scale'");
}

// ---------------------------------------------------------------------------------------------
// Variant sets

// A prim whose variant sets hold opinions of it and of prims below it: the selected variant's
// opinions are weaker than the prim's own and stronger than its references', its prims are the
// prim's children, its paths land on the prim's, and a variant set of its own (selected inside
// it) composes in turn.
constexpr std::string_view kVariants =
    "#usda 1.0\n"
    "def \"Base\" {\n    float x = 9\n    float y = 9\n    float z = 9\n}\n"
    "def \"A\" (\n    references = </Base>\n    prepend variantSets = [\"lod\", \"look\"]\n"
    "    variants = {\n        string lod = \"high\"\n    }\n) {\n"
    "    float x = 1\n"
    "    variantSet \"lod\" = {\n"
    "        \"high\" (\n            prepend variantSets = \"detail\"\n"
    "            variants = { string detail = \"fine\" }\n        ) {\n"
    "            float x = 2\n            float y = 2\n            rel r = </A/B>\n"
    "            rel s = <B>\n            def \"B\" {\n                float b = 3\n            "
    "}\n"
    "            variantSet \"detail\" = {\n"
    "                \"fine\" {\n                    float w = 4\n"
    "                    over \"B\" {\n                        float q = 5\n"
    "                    }\n                }\n            }\n        }\n"
    "        \"low\" {\n            float y = 1\n        }\n    }\n"
    "    variantSet \"look\" = {\n        \"red\" {\n            float c = 1\n        }\n    }\n"
    "}\n";

// What kVariants composes to, however it was read.
void ExpectTheVariants(const usd::Layer& composed) {
  EXPECT_EQ(FloatAt(composed, "/A.x"), 1.0f);  // its own
  EXPECT_EQ(FloatAt(composed, "/A.y"), 2.0f);  // the variant's, over the reference's
  EXPECT_EQ(FloatAt(composed, "/A.z"), 9.0f);  // the reference's
  EXPECT_EQ(FloatAt(composed, "/A.w"), 4.0f);  // the nested variant's
  EXPECT_EQ(FloatAt(composed, "/A/B.b"), 3.0f);
  EXPECT_EQ(FloatAt(composed, "/A/B.q"), 5.0f);
  EXPECT_EQ(composed.FindAttribute("/A.c"), nullptr);  // "look": nothing selected
  EXPECT_EQ(composed.FindRelationship("/A.r")->targets.Resolved(),
            std::vector<std::string>{"/A/B"});
  EXPECT_EQ(composed.FindRelationship("/A.s")->targets.Resolved(),
            std::vector<std::string>{"/A/B"});  // relative to the variant: the prim's child
  // No prim of a variant is left in the layer, nor anything that declares one.
  for (const usd::Prim& p : composed.prims) {
    EXPECT_EQ(p.path.find('{'), std::string::npos) << p.path;
    EXPECT_EQ(p.variants, nullptr) << p.path;
  }
  EXPECT_EQ(composed.prims.size(), 3u);  // Base, A, A/B
}

TEST(UsdVariants, TheSelectedVariantComposesBetweenThePrimsOwnOpinionsAndItsReferences) {
  const Result<usd::Layer> composed = Composed(kVariants);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  ExpectTheVariants(*composed);
}

// An asset whose "lod" set selects "high" (no Proxy, Body.v = 2) unless "low" is chosen (a Proxy,
// Body.v = 1), and a shot that references it by /Hero as it is, by /Extra selecting "low", and
// below its prim by /Cut.
const std::map<std::string, std::string> kLodAsset = {
    {"asset.usda",
     "#usda 1.0\n(\n    defaultPrim = \"Asset\"\n)\n"
     "def Xform \"Asset\" (\n    variantSets = [\"lod\"]\n"
     "    variants = { string lod = \"high\" }\n) {\n"
     "    def \"Body\" {}\n"
     "    variantSet \"lod\" = {\n"
     "        \"high\" {\n            over \"Body\" {\n                float v = 2\n"
     "            }\n        }\n"
     "        \"low\" {\n            over \"Body\" {\n                float v = 1\n"
     "            }\n            def \"Proxy\" {}\n        }\n    }\n}\n"}};
constexpr std::string_view kLodShot =
    "#usda 1.0\n"
    "def \"Hero\" (\n    references = @asset.usda@\n) {}\n"
    "def \"Extra\" (\n    references = @asset.usda@\n"
    "    variants = { string lod = \"low\" }\n) {}\n"
    "def \"Cut\" (\n    references = @asset.usda@</Asset/Body>\n) {}\n";

// An asset with a variant set and the selection it makes by default, referenced twice from a
// shot that selects the other variant for one of them: the strongest selection counts, for the
// prim and for the prims below it, each copy on its own.
TEST(UsdVariants, TheStrongestSelectionChoosesEachCopysVariant) {
  const Result<usd::Layer> composed = ComposedWith(kLodShot, kLodAsset);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Hero/Body.v"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Extra/Body.v"), 1.0f);
  EXPECT_EQ(composed->FindPrim("/Hero/Proxy"), nullptr);
  EXPECT_NE(composed->FindPrim("/Extra/Proxy"), nullptr);
  // A reference to a prim below the one with the variant set: the asset's own selection.
  EXPECT_EQ(FloatAt(*composed, "/Cut.v"), 2.0f);
}

// A variant set holds nothing when no opinion selects a variant, when the selection names a
// variant it lacks or is empty (a stronger opinion that selects none), and when the prim does not
// declare it in `variantSets`; a selection authored weaker than the prim's own opinions counts.
TEST(UsdVariants, AVariantNobodySelectsOrDeclaresHoldsNothing) {
  const std::string sets =
      "    variantSet \"v\" = {\n        \"a\" {\n            float x = 1\n        }\n    }\n";
  const auto x = [&](const std::string& metadata, const std::string& extra = "") {
    const Result<usd::Layer> composed =
        Composed("#usda 1.0\n" + extra + "def \"P\" (\n" + metadata + "\n) {\n" + sets + "}\n");
    EXPECT_TRUE(composed.ok()) << composed.error().ToString();
    return composed.ok() ? FloatAt(*composed, "/P.x") : -1.0f;
  };
  EXPECT_TRUE(std::isnan(x("    variantSets = \"v\"")));
  EXPECT_TRUE(std::isnan(x("    variantSets = \"v\"\n    variants = { string v = \"b\" }")));
  EXPECT_TRUE(std::isnan(x("    variants = { string v = \"a\" }")));
  EXPECT_EQ(x("    variantSets = \"v\"\n    variants = { string v = \"a\" }"), 1.0f);
  EXPECT_EQ(x("    variantSets = \"v\"\n    references = </S>",
              "def \"S\" (\n    variants = { string v = \"a\" }\n) {}\n"),
            1.0f);
  EXPECT_TRUE(
      std::isnan(x("    variantSets = \"v\"\n    variants = { string v = \"\" }\n"
                   "    references = </S>",
                   "def \"S\" (\n    variants = { string v = \"a\" }\n) {}\n")));
}

// A variant that references another layer brings it in, its times re-timed as any reference's;
// a sublayer's variant set composes in the stack as the root layer's would.
TEST(UsdVariants, AVariantsReferencesAndASublayersVariantsCompose) {
  const std::string rig =
      "#usda 1.0\n(\n    defaultPrim = \"Rig\"\n    timeCodesPerSecond = 48\n)\n"
      "def \"Rig\" {\n    float t.timeSamples = { 0: 1, 48: 2 }\n}\n";
  const std::string asset =
      "#usda 1.0\n"
      "def \"Char\" (\n    variantSets = \"rig\"\n    variants = { string rig = \"full\" }\n) {\n"
      "    variantSet \"rig\" = {\n        \"full\" (\n            references = @rig.usda@\n"
      "        ) {}\n    }\n}\n";
  const std::string shot = "#usda 1.0\n(\n    subLayers = [@asset.usda@]\n)\n";
  const Result<usd::Layer> composed =
      ComposedWith(shot, {{"asset.usda", asset}, {"rig.usda", rig}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(SampleTimes(*composed, "/Char.t"), (std::vector<double>{0, 24}));
}

// A stage that places the character of kBody in a variant, over its points.
constexpr std::string_view kSizes =
    "#usda 1.0\n"
    "def Xform \"World\" (\n    variantSets = \"size\"\n"
    "    variants = { string size = \"large\" }\n) {\n"
    "    variantSet \"size\" = {\n"
    "        \"large\" {\n            def \"Hero\" (\n"
    "                references = @./parts/body.usda@\n            ) {\n"
    "                over \"M\" {\n"
    "                    point3f[] points = [(0,0,0), (2,0,0), (2,2,0), (0,2,0)]\n"
    "                }\n            }\n        }\n    }\n}\n";

// A character whose mesh's points come from the selected variant loads skinned, its points the
// variant's.
TEST(UsdVariants, ACharactersVariantGivesTheLoadedMeshItsPoints) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  const std::filesystem::path stage = folder.Write("stage.usda", kSizes);
  auto loaded = LoadUsd(stage);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  for (const Warning& w : loaded->warnings) ADD_FAILURE() << w.where << ": " << w.message;
  const Mesh* mesh = MeshNamed(loaded->asset, "/World/Hero/M");
  ASSERT_NE(mesh, nullptr);
  EXPECT_EQ(mesh->primitives.at(0).positions.at(3), 2.0f);
  EXPECT_TRUE(mesh->primitives.at(0).skinned());
  EXPECT_EQ(loaded->asset.skins.size(), 1u);
}

// Which variant each set takes, as Pcp chooses: a set no opinion selects is looked at again once
// another set's variant is in (and that variant may select it); a set of a name already chosen
// for the prim takes that choice (Pcp's prior selection); an asset referenced at two levels
// chooses at each level on its own; a reference to a prim below one with a variant set takes the
// variant that prim's own composed opinions select (its own reference's here), not the
// referencing prim's.
TEST(UsdVariants, EachSetTakesTheVariantPcpWouldChoose) {
  const std::string lib =
      "#usda 1.0\n"
      "def \"Lib\" (\n    variantSets = \"lod\"\n    variants = { string lod = \"high\" }\n) {\n"
      "    def \"Body\" {}\n    variantSet \"lod\" = {\n"
      "        \"high\" {\n            float lod = 2\n        }\n"
      "        \"low\" {\n            float lod = 1\n        }\n"
      "        \"mid\" {\n            float lod = 3\n        }\n    }\n}\n"
      "def \"Base\" (\n    variants = { string lod = \"low\" }\n) {}\n"
      "def \"Asset\" (\n    references = </Base>\n    variantSets = \"lod\"\n) {\n"
      "    def \"Body\" {}\n    variantSet \"lod\" = {\n"
      "        \"low\" {\n            over \"Body\" {\n                float v = 1\n"
      "            }\n        }\n    }\n}\n";
  const Result<usd::Layer> composed = Composed(
      lib +
      "def \"Retry\" (\n    variantSets = [\"a\", \"b\"]\n    variants = { string b = \"q\" }\n"
      ") {\n    variantSet \"a\" = {\n        \"y\" {\n            float a = 1\n        }\n    }\n"
      "    variantSet \"b\" = {\n        \"q\" (\n            variants = { string a = \"y\" }\n"
      "        ) {\n            float b = 2\n        }\n    }\n}\n"
      "def \"R\" (\n    variantSets = \"lod\"\n    variants = { string lod = \"low\" }\n) {\n"
      "    variantSet \"lod\" = {\n        \"low\" {\n            float rlod = 1\n        }\n"
      "        \"high\" {\n            float rlod = 2\n        }\n    }\n}\n"
      "def \"Prior\" (\n    references = </R>\n    variantSets = \"lod\"\n) {\n"
      "    variantSet \"lod\" = {\n        \"low\" (\n"
      "            variants = { string lod = \"high\" }\n        ) {\n"
      "            float rootlod = 1\n        }\n"
      "        \"high\" {\n            float rootlod = 2\n        }\n    }\n}\n"
      "def \"P\" (\n    references = </Lib>\n    variants = { string lod = \"low\" }\n) {\n"
      "    def \"Kid\" (\n        references = </Lib>\n"
      "        variants = { string lod = \"mid\" }\n    ) {}\n"
      "    def \"Plain\" (\n        references = </Lib>\n    ) {}\n}\n"
      "def \"Sub\" (\n    references = </Asset/Body>\n    variants = { string lod = \"high\" }\n"
      ") {}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Retry.a"), 1.0f);  // selected inside b's variant
  EXPECT_EQ(FloatAt(*composed, "/Retry.b"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Prior.rootlod"), 1.0f);  // from R's selection
  EXPECT_EQ(FloatAt(*composed, "/Prior.rlod"), 1.0f);     // the prior choice, not "high"
  EXPECT_EQ(FloatAt(*composed, "/P.lod"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/P/Kid.lod"), 3.0f);    // its own selection
  EXPECT_EQ(FloatAt(*composed, "/P/Plain.lod"), 2.0f);  // the asset's: P's is not its
  EXPECT_EQ(FloatAt(*composed, "/Sub.v"), 1.0f);        // /Asset's, from /Base
}

// A stronger layer's `reorder variantSets` ranks the sets of its layer stack anew (as Pcp
// composes a node's variantSets), and the first set's variant is the stronger.
TEST(UsdVariants, AReorderOfTheSetsInAStrongerLayerRanksTheirVariants) {
  const std::string sub =
      "#usda 1.0\n"
      "def \"A\" (\n    variantSets = [\"s\", \"t\"]\n"
      "    variants = {\n        string s = \"x\"\n        string t = \"y\"\n    }\n) {\n"
      "    variantSet \"s\" = {\n        \"x\" {\n            float k = 1\n        }\n    }\n"
      "    variantSet \"t\" = {\n        \"y\" {\n            float k = 2\n        }\n    }\n"
      "}\n";
  const Result<usd::Layer> plain =
      ComposedWith("#usda 1.0\n(\n    subLayers = [@sub.usda@]\n)\n", {{"sub.usda", sub}});
  ASSERT_TRUE(plain.ok()) << plain.error().ToString();
  EXPECT_EQ(FloatAt(*plain, "/A.k"), 1.0f);
  const Result<usd::Layer> reordered = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@sub.usda@]\n)\n"
      "over \"A\" (\n    reorder variantSets = [\"t\", \"s\"]\n) {}\n",
      {{"sub.usda", sub}});
  ASSERT_TRUE(reordered.ok()) << reordered.error().ToString();
  EXPECT_EQ(FloatAt(*reordered, "/A.k"), 2.0f);
}

// A variant's prim that references an ancestor of where it lands, and variants and references
// that lead to each other without end: refused, and soon (fuzzing found both taking seconds).
TEST(UsdVariants, RefusesVariantsThatComposeAPrimInsideItself) {
  const Result<usd::Layer> ancestor = Composed(
      "#usda 1.0\ndef \"A\" (\n    variantSets = \"v\"\n    variants = { string v = \"x\" }\n) {\n"
      "    variantSet \"v\" = {\n        \"x\" {\n            def \"B\" (\n"
      "                references = </A>\n            ) {}\n        }\n    }\n}\n");
  ASSERT_FALSE(ancestor.ok());
  EXPECT_EQ(ancestor.code(), Error::kInvalidReference) << ancestor.error().ToString();
  EXPECT_EQ(ancestor.error().where, "/A/B");
  EXPECT_NE(ancestor.error().message.find("the prim itself or one of its ancestors"),
            std::string::npos)
      << ancestor.error().ToString();
  const Result<usd::Layer> endless = Composed(
      "#usda 1.0\n"
      "def \"A\" (\n    variantSets = \"v\"\n    variants = { string v = \"x\" }\n) {\n"
      "    variantSet \"v\" = {\n        \"x\" {\n            def \"B\" (\n"
      "                references = </C>\n            ) {}\n        }\n    }\n}\n"
      "def \"C\" (\n    variantSets = \"u\"\n    variants = { string u = \"z\" }\n) {\n"
      "    variantSet \"u\" = {\n        \"z\" {\n            def \"D\" (\n"
      "                references = </A>\n            ) {}\n        }\n    }\n}\n");
  ASSERT_FALSE(endless.ok());
  EXPECT_EQ(endless.code(), Error::kUnsupportedFeature) << endless.error().ToString();
  EXPECT_NE(endless.error().message.find("references and variants nested deeper than 64"),
            std::string::npos)
      << endless.error().ToString();
}

// A path relative to a variant's contents climbs out of the variant's selection first, as Sdf
// takes the parent of </A{v=x}> to be </A>: `<../Sib>` beside the variant's properties and
// `<../../Sib>` in a prim inside it both name /A/Sib, as `<../Sib>` in that prim does.
TEST(UsdVariants, RelativePathsInAVariantClimbOutOfItsSelectionFirst) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\n"
      "def \"Sib\" {}\n"
      "def \"A\" (\n    variantSets = [\"v\"]\n    variants = { string v = \"x\" }\n) {\n"
      "    def \"Sib\" {}\n"
      "    variantSet \"v\" = {\n        \"x\" (\n"
      "            prepend variantSets = \"w\"\n            variants = { string w = \"y\" }\n"
      "        ) {\n"
      "            rel r = <../Sib>\n"
      "            def \"B\" {\n                rel s = <../Sib>\n"
      "                rel t = <../../Sib>\n            }\n"
      "            variantSet \"w\" = {\n                \"y\" {\n"
      "                    rel u = <../Sib>\n                }\n            }\n"
      "        }\n    }\n}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  for (const char* rel : {"/A.r", "/A/B.s", "/A/B.t", "/A.u"}) {
    const usd::Relationship* r = composed->FindRelationship(rel);
    ASSERT_NE(r, nullptr) << rel;
    EXPECT_EQ(r->targets.Resolved(), std::vector<std::string>{"/A/Sib"}) << rel;
  }
}

// Binary layers hold variant sets as text ones do (crate_reader.h), and compose the same: the
// stage above, and a character whose points come from a variant, loaded from .usdc files.
TEST(UsdVariants, CrateLayersComposeTheirVariantSetsAsTextLayersDo) {
  const std::string bytes = CrateOf(kVariants);
  auto layer =
      usd::ReadUsdc(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  ASSERT_TRUE(layer.ok()) << layer.error().ToString();
  auto composed = usd::ComposeStage(std::move(*layer), "", {}, {});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  ExpectTheVariants(*composed);
  Folder folder;
  folder.Write("parts/body.usda", CrateOf(kBody));
  auto loaded = LoadUsd(folder.Write("stage.usdc", CrateOf(kSizes)));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Mesh* mesh = MeshNamed(loaded->asset, "/World/Hero/M");
  ASSERT_NE(mesh, nullptr);
  EXPECT_EQ(mesh->primitives.at(0).positions.at(3), 2.0f);
  EXPECT_TRUE(mesh->primitives.at(0).skinned());
}

// ---------------------------------------------------------------------------------------------
// Variants the caller chooses: UsdOptions::variant_selections and variant_fallbacks

// A selection given to the loader is stronger than any the stage makes (as a session layer's
// is): on the prim that declares the set, on a prim whose reference brings it, over the shot's
// own selection; "" chooses none. A selection is for the prim at that path on the composed stage
// only: the asset's own selection still chooses for /Cut, whose reference lands below the set.
TEST(UsdVariantChoices, ASelectionTheCallerGivesOutranksEveryOpinionOfTheStage) {
  UsdOptions options;
  options.variant_selections = {{"/A", "lod", "low"}};
  const Result<usd::Layer> variants = Composed(kVariants, options);
  ASSERT_TRUE(variants.ok()) << variants.error().ToString();
  EXPECT_EQ(FloatAt(*variants, "/A.x"), 1.0f);          // its own
  EXPECT_EQ(FloatAt(*variants, "/A.y"), 1.0f);          // "low"'s
  EXPECT_EQ(FloatAt(*variants, "/A.z"), 9.0f);          // the reference's
  EXPECT_TRUE(std::isnan(FloatAt(*variants, "/A.w")));  // "high"'s nested set is not there
  EXPECT_EQ(variants->FindPrim("/A/B"), nullptr);
  // A set a variant declares is the prim's too: "high"'s own "detail" set, chosen from outside.
  options.variant_selections = {{"/A", "detail", "coarse"}};
  const Result<usd::Layer> nested = Composed(kVariants, options);
  ASSERT_TRUE(nested.ok()) << nested.error().ToString();
  EXPECT_EQ(FloatAt(*nested, "/A.y"), 2.0f);          // "high" still
  EXPECT_TRUE(std::isnan(FloatAt(*nested, "/A.w")));  // not "fine"
  EXPECT_TRUE(std::isnan(FloatAt(*nested, "/A/B.q")));

  options.variant_selections = {
      {"/Extra", "lod", "high"}, {"/Hero", "lod", "low"}, {"/Asset", "lod", "low"}};
  const Result<usd::Layer> shot = ComposedWith(kLodShot, kLodAsset, options);
  ASSERT_TRUE(shot.ok()) << shot.error().ToString();
  EXPECT_EQ(FloatAt(*shot, "/Hero/Body.v"), 1.0f);
  EXPECT_NE(shot->FindPrim("/Hero/Proxy"), nullptr);
  EXPECT_EQ(FloatAt(*shot, "/Extra/Body.v"), 2.0f);
  EXPECT_EQ(shot->FindPrim("/Extra/Proxy"), nullptr);
  EXPECT_EQ(FloatAt(*shot, "/Cut.v"), 2.0f);

  options.variant_selections = {{"/Extra", "lod", ""}};
  const Result<usd::Layer> none = ComposedWith(kLodShot, kLodAsset, options);
  ASSERT_TRUE(none.ok()) << none.error().ToString();
  EXPECT_TRUE(std::isnan(FloatAt(*none, "/Extra/Body.v")));
  EXPECT_EQ(FloatAt(*none, "/Hero/Body.v"), 2.0f);
}

// A set for which no opinion selects a variant takes the first fallback it holds, as USD applies
// its variant fallbacks: not where an opinion (or the caller) selects one, even one the set
// lacks; where the strongest opinion selects "", as Pcp does; not for a set of another name.
TEST(UsdVariantChoices, AFallbackChoosesWhereNoOpinionSelects) {
  const auto x = [](const std::string& metadata, const UsdOptions& options) {
    const Result<usd::Layer> composed = Composed(
        "#usda 1.0\ndef \"P\" (\n    variantSets = \"v\"\n" + metadata + ") {\n" +
            "    variantSet \"v\" = {\n        \"a\" {\n            float x = 1\n        }\n"
            "        \"b\" {\n            float x = 2\n        }\n    }\n}\n",
        options);
    EXPECT_TRUE(composed.ok()) << composed.error().ToString();
    return composed.ok() ? FloatAt(*composed, "/P.x") : -1.0f;
  };
  UsdOptions options;
  options.variant_fallbacks = {{"w", {"a"}}, {"v", {"c", "b", "a"}}};
  EXPECT_EQ(x("", options), 2.0f);
  EXPECT_EQ(x("    variants = { string v = \"a\" }\n", options), 1.0f);
  EXPECT_EQ(x("    variants = { string v = \"\" }\n", options), 2.0f);
  EXPECT_TRUE(std::isnan(x("    variants = { string v = \"z\" }\n", options)));
  options.variant_selections = {{"/P", "v", "a"}};
  EXPECT_EQ(x("", options), 1.0f);
  options = {};
  options.variant_fallbacks = {{"w", {"a"}}};
  EXPECT_TRUE(std::isnan(x("", options)));
  EXPECT_TRUE(std::isnan(x("", {})));

  // A reference to a prim below one whose set nothing selects in: the fallback chooses there too,
  // as Pcp composes the referenced prim's ancestors with the same fallbacks.
  const std::string lib =
      "#usda 1.0\n"
      "def \"Lib\" (\n    variantSets = \"lod\"\n) {\n    def \"Body\" {}\n"
      "    variantSet \"lod\" = {\n"
      "        \"low\" {\n            over \"Body\" {\n                float v = 1\n"
      "            }\n        }\n"
      "        \"high\" {\n            over \"Body\" {\n                float v = 2\n"
      "            }\n        }\n    }\n}\n"
      "def \"Cut\" (\n    references = </Lib/Body>\n) {}\n";
  options.variant_fallbacks = {{"lod", {"low"}}};
  const Result<usd::Layer> cut = Composed(lib, options);
  ASSERT_TRUE(cut.ok()) << cut.error().ToString();
  EXPECT_EQ(FloatAt(*cut, "/Lib/Body.v"), 1.0f);
  EXPECT_EQ(FloatAt(*cut, "/Cut.v"), 1.0f);
  const Result<usd::Layer> without = Composed(lib);
  ASSERT_TRUE(without.ok()) << without.error().ToString();
  EXPECT_TRUE(std::isnan(FloatAt(*without, "/Cut.v")));
}

// Fallbacks wait until every set an opinion selects in is settled (Pcp ranks its fallback tasks
// below the authored ones, and retries both once a variant is in): a fallback's variant may
// select for another set (Pcp's museum case TrickyVariantFallbackDrivingAuthoredVariant), and a
// selection another set's variant brings wins over a fallback of a stronger set.
TEST(UsdVariantChoices, FallbacksWaitForTheSelectionsOtherSetsBring) {
  UsdOptions options;
  options.variant_fallbacks = {{"vset1", {"fallback"}}, {"a", {"z"}}};
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\n"
      "def \"A\" (\n    variantSets = [\"vset1\", \"vset2\"]\n) {\n"
      "    variantSet \"vset1\" = {\n"
      "        \"fallback\" (\n            variants = { string vset2 = \"authored\" }\n"
      "        ) {}\n        \"other\" {}\n    }\n"
      "    variantSet \"vset2\" = {\n"
      "        \"authored\" {\n            def \"vset2_authored_child\" {}\n        }\n"
      "        \"x\" {}\n    }\n}\n"
      "def \"B\" (\n    variantSets = [\"a\", \"b\"]\n    variants = { string b = \"q\" }\n) {\n"
      "    variantSet \"a\" = {\n        \"y\" {\n            float a = 1\n        }\n"
      "        \"z\" {\n            float a = 2\n        }\n    }\n"
      "    variantSet \"b\" = {\n        \"q\" (\n            variants = { string a = \"y\" }\n"
      "        ) {}\n    }\n}\n",
      options);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_NE(composed->FindPrim("/A/vset2_authored_child"), nullptr);
  EXPECT_EQ(FloatAt(*composed, "/B.a"), 1.0f);

  // Two sets waiting for fallbacks: the stronger takes its own first, and its variant selects
  // for the weaker, over the weaker's fallback.
  options.variant_fallbacks = {{"s1", {"f1"}}, {"s2", {"fb2"}}};
  const Result<usd::Layer> two = Composed(
      "#usda 1.0\n"
      "def \"C\" (\n    variantSets = [\"s1\", \"s2\"]\n) {\n"
      "    variantSet \"s1\" = {\n"
      "        \"f1\" (\n            variants = { string s2 = \"authored2\" }\n        ) {}\n"
      "    }\n"
      "    variantSet \"s2\" = {\n"
      "        \"authored2\" {\n            float s2 = 1\n        }\n"
      "        \"fb2\" {\n            float s2 = 2\n        }\n    }\n}\n",
      options);
  ASSERT_TRUE(two.ok()) << two.error().ToString();
  EXPECT_EQ(FloatAt(*two, "/C.s2"), 1.0f);

  // However many selected sets came in first (each looks at the waiting sets again, 8 times a
  // prim at most), a fallback that comes in last still has the sets waiting looked at again.
  std::string sets = "\"lod\"", bodies, selections;
  for (int i = 1; i <= 9; ++i) {
    const std::string n = "a" + std::to_string(i);
    sets += ", \"" + n + "\"";
    selections += "        string " + n + " = \"on\"\n";
    bodies += "    variantSet \"" + n + "\" = {\n        \"on\" {\n            float " + n +
              " = 1\n        }\n    }\n";
  }
  options.variant_fallbacks = {{"lod", {"low"}}};
  const Result<usd::Layer> late = Composed(
      "#usda 1.0\ndef \"D\" (\n    variantSets = [" + sets + ", \"t\"]\n    variants = {\n" +
          selections + "    }\n) {\n" + bodies +
          "    variantSet \"lod\" = {\n"
          "        \"low\" (\n            variants = { string t = \"on\" }\n        ) {}\n"
          "    }\n"
          "    variantSet \"t\" = {\n        \"on\" {\n            float t = 1\n        }\n"
          "    }\n}\n",
      options);
  ASSERT_TRUE(late.ok()) << late.error().ToString();
  EXPECT_EQ(FloatAt(*late, "/D.a9"), 1.0f);
  EXPECT_EQ(FloatAt(*late, "/D.t"), 1.0f);
}

std::string Describe(const std::vector<UsdVariantSet>& sets) {
  std::string out;
  for (const UsdVariantSet& s : sets) {
    out += s.prim + " " + s.set + " [";
    for (const std::string& v : s.variants) out += v + (&v == &s.variants.back() ? "" : " ");
    out += "] " + s.selected + "\n";
  }
  return out;
}

// The composed layer lists each composed prim's variant sets (its own, those its references and
// its variants bring), strongest first, with the variants each holds in every layer and the one
// it took; a set the prim's reference lands below is no set of that prim.
TEST(UsdVariantChoices, TheComposedLayerListsEachPrimsSetsTheirVariantsAndTheChoice) {
  const Result<usd::Layer> variants = Composed(kVariants);
  ASSERT_TRUE(variants.ok()) << variants.error().ToString();
  EXPECT_EQ(Describe(variants->variant_sets),
            "/A lod [high low] high\n/A look [red] \n/A detail [fine] fine\n");
  UsdOptions options;
  options.variant_selections = {{"/Hero", "lod", "low"}};
  std::map<std::string, std::string> files = kLodAsset;
  files["extra.usda"] =
      "#usda 1.0\nover \"Extra\" (\n    variantSets = \"lod\"\n) {\n"
      "    variantSet \"lod\" = {\n        \"mid\" {}\n    }\n}\n";
  const Result<usd::Layer> shot = ComposedWith(
      "#usda 1.0\n(\n    subLayers = [@extra.usda@]\n)\n" + std::string(kLodShot.substr(10)), files,
      options);
  ASSERT_TRUE(shot.ok()) << shot.error().ToString();
  EXPECT_EQ(Describe(shot->variant_sets),
            "/Extra lod [high low mid] low\n/Hero lod [high low] low\n");  // (the prims' order)
}

// What the loader reports of the choices: LoadedAsset::variant_sets, and a warning at its prim
// for each selection given that no set took (a prim or a set the stage lacks, a variant the set
// does not hold); LoadAsset passes the options on for a USD file.
TEST(UsdVariantChoices, TheLoaderListsTheSetsAndWarnsOfASelectionNoSetTakes) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  const std::filesystem::path stage = folder.Write("stage.usda", kSizes);
  auto plain = LoadUsd(stage);
  ASSERT_TRUE(plain.ok()) << plain.error().ToString();
  EXPECT_EQ(Describe(plain->variant_sets), "/World size [large] large\n");
  EXPECT_TRUE(plain->warnings.empty());

  AssetOptions options;
  options.usd.variant_selections = {{"/World", "size", "large"},
                                    {"/World", "lod", "low"},
                                    {"/Nowhere", "size", "large"},
                                    {"/World", "size", "small"}};
  auto chosen = LoadAsset(stage, options);
  ASSERT_TRUE(chosen.ok()) << chosen.error().ToString();
  EXPECT_EQ(Describe(chosen->loaded.variant_sets), "/World size [large] small\n");
  EXPECT_TRUE(chosen->loaded.asset.meshes.empty());  // "small" holds no Hero
  std::string warnings;
  for (const Warning& w : chosen->loaded.warnings) warnings += w.where + ": " + w.message + "\n";
  EXPECT_EQ(warnings,
            "/World: the variant selection given to the loader, {size=large}: a later selection "
            "for the same set overrides it\n"
            "/World: the variant selection given to the loader, {lod=low}: the prim has no "
            "variant set of that name\n"
            "/Nowhere: the variant selection given to the loader, {size=large}: the stage has no "
            "prim at that path\n"
            "/World: the variant selection given to the loader, {size=small}: the set holds no "
            "such variant (it holds large): the set brings nothing\n");
}

// ---------------------------------------------------------------------------------------------
// Inherits

// A prim that inherits a class, selects a variant and references a prim: the class's opinions
// are weaker than the prim's own and stronger than the variant's and the reference's (USD's
// strength order: local, inherits, variants, references); the class's children are the prim's,
// its own opinions below them too, and the class stays on the stage as a class.
constexpr std::string_view kInherits =
    "#usda 1.0\n"
    "class \"_class_Thing\" {\n    float x = 2\n    float y = 2\n    float z = 2\n"
    "    rel r = </_class_Thing/Part>\n"
    "    def \"Part\" {\n        float p = 7\n        float q = 7\n    }\n}\n"
    "def \"Base\" {\n    float z = 9\n    float w = 9\n}\n"
    "def \"PartBase\" {\n    float q = 8\n    float s = 8\n}\n"
    "def \"A\" (\n    inherits = </_class_Thing>\n    references = </Base>\n"
    "    variantSets = \"v\"\n    variants = { string v = \"a\" }\n) {\n"
    "    float x = 1\n"
    "    variantSet \"v\" = {\n        \"a\" {\n            float y = 3\n"
    "            float u = 3\n        }\n    }\n"
    "    over \"Part\" (\n        references = </PartBase>\n    ) {\n"
    "        float p = 1\n    }\n}\n";

// What kInherits composes to, however it was read.
void ExpectTheInherits(const usd::Layer& composed) {
  EXPECT_EQ(FloatAt(composed, "/A.x"), 1.0f);  // its own
  EXPECT_EQ(FloatAt(composed, "/A.y"), 2.0f);  // the class's, over the variant's
  EXPECT_EQ(FloatAt(composed, "/A.u"), 3.0f);  // the variant's
  EXPECT_EQ(FloatAt(composed, "/A.z"), 2.0f);  // the class's, over the reference's
  EXPECT_EQ(FloatAt(composed, "/A.w"), 9.0f);  // the reference's
  EXPECT_EQ(composed.FindRelationship("/A.r")->targets.Resolved(),
            std::vector<std::string>{"/A/Part"});  // the class's paths land on the prim's
  // The class's child: the prim's own child's opinions, then the class's, then the child's
  // reference (an ancestor's inherit outranks a child's reference, by its kind).
  EXPECT_EQ(FloatAt(composed, "/A/Part.p"), 1.0f);
  EXPECT_EQ(FloatAt(composed, "/A/Part.q"), 7.0f);
  EXPECT_EQ(FloatAt(composed, "/A/Part.s"), 8.0f);
  const usd::Prim* c = composed.FindPrim("/_class_Thing");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->specifier, usd::Specifier::kClass);
  EXPECT_EQ(FloatAt(composed, "/_class_Thing/Part.p"), 7.0f);
  for (const usd::Prim& p : composed.prims) EXPECT_EQ(p.inherits, nullptr) << p.path;
}

TEST(UsdInherits, AClassComposesBetweenThePrimsOwnOpinionsAndItsVariantsAndReferences) {
  const Result<usd::Layer> composed = Composed(kInherits);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  ExpectTheInherits(*composed);
}

// Classes compose in their whole layer stack (a stronger layer's override of the class counts),
// a class inherits in turn, list edits of several layers compose (the stronger layer's prepend
// first, a delete removing a weaker layer's class), a relative path is anchored at the prim, and
// a class that no layer holds brings nothing (USD does not count that as an error).
TEST(UsdInherits, ClassesComposeInTheLayerStackAndInTurn) {
  const std::string library =
      "#usda 1.0\n"
      "class \"_class_A\" {\n    float a = 1\n    float b = 1\n}\n"
      "class \"_class_B\" (\n    inherits = </_class_Base>\n) {\n    float b = 2\n}\n"
      "class \"_class_Base\" {\n    float base = 5\n}\n"
      "class \"_class_Gone\" {\n    float gone = 1\n}\n"
      "def \"W\" {\n    def \"P\" (\n        inherits = [</_class_A>, </_class_Gone>]\n"
      "    ) {}\n}\n";
  const std::string shot =
      "#usda 1.0\n(\n    subLayers = [@library.usda@]\n)\n"
      "over \"_class_A\" {\n    float a = 3\n}\n"
      "class \"Local\" {\n    float local = 4\n}\n"
      "over \"W\" {\n    over \"P\" (\n"
      "        prepend inherits = [</_class_B>, <../../Local>, </_class_Missing>]\n"
      "        delete inherits = </_class_Gone>\n    ) {}\n}\n";
  const Result<usd::Layer> composed = ComposedWith(shot, {{"library.usda", library}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/W/P.a"), 3.0f);     // the shot's override of the class
  EXPECT_EQ(FloatAt(*composed, "/W/P.b"), 2.0f);     // _class_B, prepended, over _class_A
  EXPECT_EQ(FloatAt(*composed, "/W/P.base"), 5.0f);  // what _class_B inherits
  EXPECT_EQ(FloatAt(*composed, "/W/P.local"), 4.0f);
  EXPECT_TRUE(std::isnan(FloatAt(*composed, "/W/P.gone")));
}

// A referenced asset's prim that inherits a class of its own layer brings the class's opinions
// with it, below the referencing prim's own; a stage that writes that class as well composes it
// over the asset (an implied inherit: tests/loader/usd_implied_classes_test.cpp has the rest).
// A class met again through a reference within its own layer stack composes once.
TEST(UsdInherits, AReferencedAssetsClassComesWithItAndTheStagesOwnClassOverridesIt) {
  const std::string asset =
      "#usda 1.0\n(\n    defaultPrim = \"Model\"\n)\n"
      "class \"_class_Model\" {\n    float c = 1\n    float d = 1\n}\n"
      "def \"Model\" (\n    inherits = </_class_Model>\n) {\n    float m = 1\n}\n"
      "def \"Copy\" (\n    references = </Model>\n) {}\n";
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\ndef \"Hero\" (\n    references = @asset.usda@\n) {\n    float d = 2\n}\n"
      "def \"Copy\" (\n    references = @asset.usda@</Copy>\n) {}\n",
      {{"asset.usda", asset}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Hero.c"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/Hero.d"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Hero.m"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/Copy.c"), 1.0f);
  const Result<usd::Layer> implied = ComposedWith(
      "#usda 1.0\nclass \"_class_Model\" {\n    float c = 5\n}\n"
      "def \"Hero\" (\n    references = @asset.usda@\n) {}\n",
      {{"asset.usda", asset}});
  ASSERT_TRUE(implied.ok()) << implied.error().ToString();
  EXPECT_EQ(FloatAt(*implied, "/Hero.c"), 5.0f);
  EXPECT_EQ(FloatAt(*implied, "/Hero.d"), 1.0f);
  EXPECT_EQ(FloatAt(*implied, "/Hero.m"), 1.0f);
}

// A character whose SkelRoot inherits a class that references the body: it loads skinned, its
// paths landing under the prim that inherits.
TEST(UsdInherits, ACharacterBroughtByAClassLoadsSkinned) {
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  const std::filesystem::path stage = folder.Write(
      "stage.usda",
      "#usda 1.0\nclass \"_class_Body\" (\n    references = @./parts/body.usda@\n) {}\n"
      "def SkelRoot \"Hero\" (\n    inherits = </_class_Body>\n) {}\n");
  auto loaded = LoadUsd(stage);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  for (const Warning& w : loaded->warnings) ADD_FAILURE() << w.where << ": " << w.message;
  ASSERT_EQ(loaded->asset.meshes.size(), 1u);  // the class's own is not defined: not loaded
  const Mesh* mesh = MeshNamed(loaded->asset, "/Hero/M");
  ASSERT_NE(mesh, nullptr);
  EXPECT_TRUE(mesh->primitives.at(0).skinned());
  EXPECT_EQ(loaded->asset.skins.size(), 1u);
}

// A prim's specifier is its strongest `def` or `class`, but a `class` of a class the prim
// inherits itself is weaker than any other, as USD resolves it: an `over` that inherits a class
// and references a `def` is defined (and its character loads), one that only a class defines
// stays a class, and so does a class's child reached through the parent's inherit.
TEST(UsdInherits, InheritingAClassDoesNotMakeThePrimOne) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\nclass \"C\" {\n    float c = 1\n    class \"K\" {}\n}\ndef \"B\" {}\n"
      "over \"A\" (\n    inherits = </C>\n    references = </B>\n) {}\n"
      "over \"Z\" (\n    inherits = </C>\n) {}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(composed->FindPrim("/A")->specifier, usd::Specifier::kDef);
  EXPECT_EQ(composed->FindPrim("/Z")->specifier, usd::Specifier::kClass);
  EXPECT_EQ(composed->FindPrim("/A/K")->specifier, usd::Specifier::kClass);
  Folder folder;
  folder.Write("parts/body.usda", kBody);
  auto loaded = LoadUsd(folder.Write(
      "stage.usda",
      "#usda 1.0\nclass \"_class_Char\" {\n    float lod = 1\n}\n"
      "def Xform \"World\" {\n    over \"Char\" (\n        prepend inherits = </_class_Char>\n"
      "        references = @./parts/body.usda@\n    ) {}\n}\n"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_NE(MeshNamed(loaded->asset, "/World/Char/M"), nullptr);
}

// Where Pcp would add a class that a reference brings too, it keeps the reference's place and
// drops the class arc (it adds the references' arcs first, and no prim twice): a prim that
// inherits and references one prim, an ancestor's reference to the class, a class whose own
// reference the prim's references bring too. A class's relationship to a path inside the prim it
// lands on has no place there (Pcp maps it to nothing), nor has an internally referenced prim's.
TEST(UsdInherits, AClassThatAReferenceBringsTooTakesTheReferencesPlace) {
  const Result<usd::Layer> composed = Composed(
      "#usda 1.0\n"
      "class \"C\" {\n    float v = 2\n    rel r = </A/y>\n}\n"
      "def \"P\" {\n    float v = 1\n}\n"
      "def \"A\" (\n    inherits = </C>\n    references = [</P>, </C>]\n) {\n    def \"y\" {}\n}\n"
      "def \"B\" {\n    def \"Child\" {\n        float v = 2\n    }\n}\n"
      "def \"D\" (\n    references = </B>\n) {\n"
      "    def \"Child\" (\n        inherits = </B/Child>\n        references = </P>\n    ) {}\n}\n"
      "def \"X\" {\n    def \"Y\" (\n        references = </R>\n    ) {}\n}\n"
      "def \"R\" {\n    float v = 2\n}\n"
      "def \"E\" (\n    inherits = </X/Y>\n    references = [</P>, </R>]\n) {}\n"
      "def \"F\" (\n    references = </C>\n) {\n    def \"A\" {\n        def \"y\" {}\n    }\n}\n");
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/A.v"), 1.0f);        // /A, /P, /C
  EXPECT_EQ(FloatAt(*composed, "/D/Child.v"), 1.0f);  // the child's /P over the ancestor's /B
  EXPECT_EQ(FloatAt(*composed, "/E.v"), 1.0f);        // /R stays at /E's reference
  EXPECT_TRUE(composed->FindRelationship("/A.r")->targets.Resolved().empty());
  EXPECT_EQ(composed->FindRelationship("/C.r")->targets.Resolved(),
            std::vector<std::string>{"/A/y"});
  EXPECT_EQ(composed->FindRelationship("/F.r")->targets.Resolved(),
            std::vector<std::string>{"/A/y"});  // outside /F: kept
}

// A local class of a referenced model lands under the referencing prim, where the referencing
// stage's opinions compose over the model's, the instance's own opinion still the stronger (the
// class the reference brings again keeps its place below it); a root class the referencing
// prim inherits itself composes once; an `over` there that writes nothing changes nothing; one
// that adds a child, specializes a class or writes inside a variant composes that; a class
// inside a class that the inheriting prim overrides composes the override.
TEST(UsdInherits, AReferencedModelsLocalClassTakesTheReferencingStagesOpinions) {
  const std::string model =
      "#usda 1.0\n"
      "def \"Model\" {\n    class \"Local\" {\n        float attr = 4\n        float k = 4\n    }\n"
      "    def \"Instance\" (\n        inherits = </Model/Local>\n    ) {\n"
      "        float attr = 3\n    }\n}\n"
      "class \"_class_M\" {\n    float v = 3\n    float w = 3\n}\n"
      "def \"M\" (\n    inherits = </_class_M>\n) {}\n";
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\ndef \"Model_1\" (\n    references = @model.usda@</Model>\n) {}\n"
      "class \"_class_M\" {\n    float w = 2\n}\n"
      "def \"Char\" (\n    inherits = </_class_M>\n    references = @model.usda@</M>\n) {}\n",
      {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Model_1/Instance.attr"), 3.0f);
  EXPECT_EQ(FloatAt(*composed, "/Model_1/Instance.k"), 4.0f);
  EXPECT_EQ(FloatAt(*composed, "/Char.w"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Char.v"), 3.0f);
  const std::string reference =
      "#usda 1.0\ndef \"A\" (\n    references = @model.usda@</Model>\n) {\n";
  const Result<usd::Layer> written = ComposedWith(
      reference + "    over \"Local\" {\n        float k = 5\n        float attr = 5\n    }\n}\n",
      {{"model.usda", model}});
  ASSERT_TRUE(written.ok()) << written.error().ToString();
  EXPECT_EQ(FloatAt(*written, "/A/Instance.k"), 5.0f);
  EXPECT_EQ(FloatAt(*written, "/A/Instance.attr"), 5.0f);  // the stage's class over the model
  const Result<usd::Layer> empty =
      ComposedWith(reference + "    over \"Local\" {}\n}\n", {{"model.usda", model}});
  ASSERT_TRUE(empty.ok()) << empty.error().ToString();
  EXPECT_EQ(FloatAt(*empty, "/A/Instance.k"), 4.0f);
  EXPECT_EQ(FloatAt(*empty, "/A/Instance.attr"), 3.0f);
  const Result<usd::Layer> child =
      ComposedWith(reference + "    over \"Local\" {\n        def \"G\" {}\n    }\n}\n",
                   {{"model.usda", model}});
  ASSERT_TRUE(child.ok()) << child.error().ToString();
  EXPECT_NE(child->FindPrim("/A/Instance/G"), nullptr);
  // A class the stage's class specializes is weaker than the model's class.
  const Result<usd::Layer> specializes =
      ComposedWith(reference +
                       "    over \"Local\" (\n        specializes = </Other>\n    ) {}\n}\n"
                       "class \"Other\" {\n    float k = 9\n    float o = 9\n}\n",
                   {{"model.usda", model}});
  ASSERT_TRUE(specializes.ok()) << specializes.error().ToString();
  EXPECT_EQ(FloatAt(*specializes, "/A/Instance.k"), 4.0f);
  EXPECT_EQ(FloatAt(*specializes, "/A/Instance.o"), 9.0f);
  const Result<usd::Layer> variant = ComposedWith(
      "#usda 1.0\ndef \"A\" (\n    references = @model.usda@</Model>\n    variantSets = \"v\"\n"
      "    variants = { string v = \"x\" }\n) {\n    variantSet \"v\" = {\n"
      "        \"x\" {\n            over \"Local\" {\n                float k = 9\n"
      "            }\n        }\n    }\n}\n",
      {{"model.usda", model}});
  ASSERT_TRUE(variant.ok()) << variant.error().ToString();
  EXPECT_EQ(FloatAt(*variant, "/A/Instance.k"), 9.0f);
  const Result<usd::Layer> nested = Composed(
      "#usda 1.0\nclass \"C\" {\n    def \"X\" (\n        inherits = </C/K>\n    ) {}\n"
      "    class \"K\" {\n        float v = 3\n        float u = 3\n    }\n}\n"
      "def \"A\" (\n    inherits = </C>\n) {\n    over \"K\" {\n        float v = 2\n    }\n}\n");
  ASSERT_TRUE(nested.ok()) << nested.error().ToString();
  EXPECT_EQ(FloatAt(*nested, "/A/X.v"), 2.0f);
  EXPECT_EQ(FloatAt(*nested, "/A/X.u"), 3.0f);
}

// Inherits Pcp reports as cycles: of the prim itself, an ancestor or a descendant, and classes
// that inherit each other. sinew refuses the stage (Pcp drops the arc).
TEST(UsdInherits, RefusesInheritsThatFormACycle) {
  for (const char* text :
       {"#usda 1.0\ndef \"A\" (\n    inherits = </A>\n) {}\n",
        "#usda 1.0\ndef \"A\" {\n    def \"B\" (\n        inherits = </A>\n    ) {}\n}\n",
        "#usda 1.0\ndef \"A\" (\n    inherits = </A/B>\n) {\n    def \"B\" {}\n}\n"}) {
    SCOPED_TRACE(text);
    const Result<usd::Layer> refused = Composed(text);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.code(), Error::kInvalidReference);
    EXPECT_NE(refused.error().message.find("the prim itself, one of its ancestors or one of its "
                                           "descendants"),
              std::string::npos)
        << refused.error().ToString();
  }
  const Result<usd::Layer> cycle = Composed(
      "#usda 1.0\nclass \"C\" (\n    inherits = </D>\n) {}\nclass \"D\" (\n    inherits = </C>\n) "
      "{}\ndef \"A\" (\n    inherits = </C>\n) {}\n");
  ASSERT_FALSE(cycle.ok());
  EXPECT_EQ(cycle.code(), Error::kInvalidReference);
  EXPECT_NE(cycle.error().message.find("form a cycle"), std::string::npos)
      << cycle.error().ToString();
}

// Binary layers hold inherits as text ones do (inheritPaths, a list op of paths) and compose the
// same.
TEST(UsdInherits, CrateLayersComposeTheirInheritsAsTextLayersDo) {
  const std::string bytes = CrateOf(kInherits);
  auto layer =
      usd::ReadUsdc(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  ASSERT_TRUE(layer.ok()) << layer.error().ToString();
  const usd::Prim* a = layer->FindPrim("/A");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(a->inherits, nullptr);
  EXPECT_EQ(a->inherits->Resolved(), std::vector<std::string>{"/_class_Thing"});
  auto composed = usd::ComposeStage(std::move(*layer), "", {}, {});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  ExpectTheInherits(*composed);
}

// ---------------------------------------------------------------------------------------------
// Specializes

// A prim that specializes a class, inherits one and references a prim that references another:
// the specialized class's opinions are weaker than everything else the prim holds, its
// references' references included (Pcp moves them to the bottom of the prim's index); its
// children below the prim's children's own arcs; an `over` that specializes a class and
// references a `def` is defined.
constexpr std::string_view kSpecializes =
    "#usda 1.0\n"
    "class \"S\" {\n    float s = 5\n    float r = 5\n    float p = 5\n    float x = 5\n"
    "    def \"K\" {\n        float k = 5\n        float j = 5\n    }\n}\n"
    "class \"C\" {\n    float x = 2\n}\n"
    "def \"Base\" (\n    references = </Deep>\n) {\n    float r = 9\n}\n"
    "def \"Deep\" {\n    float p = 8\n}\n"
    "def \"KB\" {\n    float k = 7\n}\n"
    "over \"A\" (\n    specializes = </S>\n    inherits = </C>\n    references = </Base>\n) {\n"
    "    float own = 1\n    over \"K\" (\n        references = </KB>\n    ) {}\n}\n";

// What kSpecializes composes to, however it was read.
void ExpectTheSpecializes(const usd::Layer& composed) {
  EXPECT_EQ(FloatAt(composed, "/A.own"), 1.0f);
  EXPECT_EQ(FloatAt(composed, "/A.x"), 2.0f);  // the inherited class's
  EXPECT_EQ(FloatAt(composed, "/A.r"), 9.0f);  // the reference's
  EXPECT_EQ(FloatAt(composed, "/A.p"), 8.0f);  // the reference's reference's
  EXPECT_EQ(FloatAt(composed, "/A.s"), 5.0f);  // the specialized class's
  EXPECT_EQ(FloatAt(composed, "/A/K.k"), 7.0f);
  EXPECT_EQ(FloatAt(composed, "/A/K.j"), 5.0f);
  EXPECT_EQ(composed.FindPrim("/A")->specifier, usd::Specifier::kDef);
  for (const usd::Prim& p : composed.prims) EXPECT_EQ(p.specializes, nullptr) << p.path;
}

TEST(UsdSpecializes, ASpecializedClassIsWeakerThanEverythingElseThePrimHolds) {
  const Result<usd::Layer> composed = Composed(kSpecializes);
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  ExpectTheSpecializes(*composed);
}

// A referenced prim's specialized class is weaker than the referencing prim's other references
// too, though that reference is the stronger; a stage that writes the class as well composes
// it over the referenced one (an implied specialize), still below the reference; specializes of
// the prim itself, an ancestor or a descendant are refused.
TEST(UsdSpecializes, AReferencedPrimsSpecializedClassIsWeakerThanEveryReference) {
  const std::string asset =
      "#usda 1.0\nclass \"S\" {\n    float v = 1\n    float w = 1\n}\n"
      "def \"M\" (\n    specializes = </S>\n) {}\n";
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\ndef \"A\" (\n    references = [@asset.usda@</M>, </R>]\n) {}\n"
      "def \"R\" {\n    float v = 2\n}\n",
      {{"asset.usda", asset}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/A.v"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/A.w"), 1.0f);
  const Result<usd::Layer> implied = ComposedWith(
      "#usda 1.0\nclass \"S\" {\n    float v = 3\n}\n"
      "def \"A\" (\n    references = @asset.usda@</M>\n) {}\n",
      {{"asset.usda", asset}});
  ASSERT_TRUE(implied.ok()) << implied.error().ToString();
  EXPECT_EQ(FloatAt(*implied, "/A.v"), 3.0f);
  EXPECT_EQ(FloatAt(*implied, "/A.w"), 1.0f);
  const Result<usd::Layer> cycle = Composed(
      "#usda 1.0\ndef \"A\" {\n    def \"B\" (\n        specializes = </A>\n    ) {}\n}\n");
  EXPECT_EQ(cycle.code(), Error::kInvalidReference);
  EXPECT_NE(cycle.error().message.find("specializes </A>, the prim itself"), std::string::npos)
      << cycle.error().ToString();
}

// Pcp's order at the bottom of the index: the specialized classes of the deeper prim first (a
// child's own before what its ancestor's reference specializes, a child's reference's before
// what the ancestor's inherited class specializes), then by where each class's arc stands in
// the index: what the prim's references specialize before what it specializes itself, though a
// class both specialize keeps the prim's place. A `class` a specialized class brings makes the
// prim a class (USD weakens only an inherited one).
TEST(UsdSpecializes, SpecializesRankByDepthThenByWhereTheirArcsStand) {
  const std::string asset =
      "#usda 1.0\ndef \"R\" (\n    specializes = </S2>\n) {}\n"
      "class \"S2\" {\n    def \"K\" {\n        float v = 2\n    }\n}\n";
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\n"
      "def \"A\" (\n    references = @asset.usda@</R>\n) {\n"
      "    def \"K\" (\n        specializes = </S1>\n    ) {}\n}\n"
      "class \"S1\" {\n    float v = 1\n}\n"
      "def \"B\" (\n    inherits = </C>\n) {\n    def \"K\" (\n        references = </R1>\n    ) "
      "{}\n}\n"
      "class \"C\" (\n    specializes = </S3>\n) {}\n"
      "class \"S3\" {\n    def \"K\" {\n        float v = 3\n    }\n}\n"
      "def \"R1\" (\n    specializes = </S1>\n) {}\n"
      "def \"D\" (\n    specializes = [</T1>, </T2>]\n    references = </U>\n) {}\n"
      "def \"U\" (\n    specializes = </T2>\n) {}\n"
      "class \"T1\" {\n    float b = 1\n}\nclass \"T2\" {\n    float b = 2\n}\n"
      "def \"D2\" (\n    specializes = </T1>\n    references = </U2>\n) {}\n"
      "def \"U2\" (\n    specializes = </T3>\n) {}\nclass \"T3\" {\n    float b = 3\n}\n"
      "over \"Z\" (\n    specializes = </Y>\n) {}\nclass \"Y\" (\n    references = </W>\n) {}\n"
      "def \"W\" {}\n",
      {{"asset.usda", asset}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/A/K.v"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/B/K.v"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/D.b"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/D2.b"), 3.0f);
  EXPECT_EQ(composed->FindPrim("/Z")->specifier, usd::Specifier::kClass);
}

// Binary layers hold specializes as text ones do (a list op of paths) and compose the same.
TEST(UsdSpecializes, CrateLayersComposeTheirSpecializesAsTextLayersDo) {
  const std::string bytes = CrateOf(kSpecializes);
  auto layer =
      usd::ReadUsdc(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  ASSERT_TRUE(layer.ok()) << layer.error().ToString();
  ASSERT_NE(layer->FindPrim("/A")->specializes, nullptr);
  auto composed = usd::ComposeStage(std::move(*layer), "", {}, {});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  ExpectTheSpecializes(*composed);
}

TEST(ResolveAssetPath, IsRelativeToTheReferencingLayersFolder) {
  EXPECT_EQ(usd::ResolveAssetPath("dir/stage.usda", "./parts/b.usda"), "dir/parts/b.usda");
  EXPECT_EQ(usd::ResolveAssetPath("parts/b.usda", "../c.usda"), "c.usda");
  EXPECT_EQ(usd::ResolveAssetPath("parts/b.usda", "c.usda"), "parts/c.usda");
  EXPECT_EQ(usd::ResolveAssetPath("/x/y/stage.usda", "/abs/z.usda"), "/abs/z.usda");
  EXPECT_EQ(usd::ResolveAssetPath("/x/y/stage.usda", "../z.usda"), "/x/z.usda");
  EXPECT_EQ(usd::ResolveAssetPath("stage.usda", "../a.usda"), "../a.usda");
  EXPECT_EQ(usd::ResolveAssetPath("", "a.usda"), "a.usda");
}

}  // namespace
}  // namespace sinew::loader
