// The `sinew` tool on Pixar's UsdSkel scenes (the shared conformance data, found as test_assets.h
// says), which LoadAsset loads as .usda: `info` lists them, `bake` writes what Pixar baked and
// `bench` skins them.
#include <gtest/gtest.h>
#include <algorithm>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_test.h"
#include "test_assets.h"
#include "tool/tool_run.h"
#include "usd/crate_writer.h"
#include "usd/usda_parser.h"
#include "usd/usdz_package.h"

namespace sinew::testing {
namespace {

std::string Scene(const char* name) { return (TestConformance() / "usdskel" / name).string(); }

// lbs.usda: its SkelRoot, Skeleton and SkelAnimation with the stage's time codes, its skins (with
// their skeleton), its rigid gprims as rigid bindings, its clip; the cubic curves drawn by their
// control points are warned about.
TEST(SinewInfo, ListsAUsdSkelScenesSkinsRigidBindingsAndWarnings) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"info", Scene("lbs.usda"), "--json"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonDocument doc(run.out);
  const JsonValue info = doc.root();
  EXPECT_TRUE(info["valid"].Bool());
  EXPECT_EQ(info["format"].String(), "USD (.usda)");
  EXPECT_EQ(info["meshes"].size(), 4u);
  EXPECT_EQ(info["skins"].size(), 7u);  // three meshes, the curves, three rigid gprims
  EXPECT_EQ(info["skins"][0]["skeleton"].String(), "Skeleton");
  ASSERT_EQ(info["rigid_bindings"].size(), 3u);
  const JsonValue cube = info["rigid_bindings"][1];
  EXPECT_EQ(cube["name"].String(), "/Root/Cube");
  EXPECT_EQ(cube["type"].String(), "Cube");
  EXPECT_EQ(cube["skinning"].String(), "linear");
  EXPECT_EQ(cube["weights"].size(), 2u);
  EXPECT_EQ(cube["weights"][1].Number(), 0.5);
  EXPECT_EQ(info["animations"].size(), 1u);
  const JsonValue usd = info["usd"];
  ASSERT_EQ(usd["skel_roots"].size(), 1u);
  EXPECT_EQ(usd["skel_roots"][0].String(), "/Root");
  ASSERT_EQ(usd["skeletons"].size(), 1u);
  EXPECT_EQ(usd["skeletons"][0]["path"].String(), "/Root/Skeleton");
  EXPECT_EQ(usd["skeletons"][0]["joints"].Int(), 3);
  ASSERT_EQ(usd["animations"].size(), 1u);
  EXPECT_EQ(usd["animations"][0].String(), "/Root/Skeleton/Animation");
  EXPECT_EQ(usd["time_codes_per_second"].Number(), 24);
  std::vector<std::string> where;
  for (const JsonValue& w : info["warnings"].Elements()) where.push_back(w["where"].String());
  EXPECT_EQ(where, (std::vector<std::string>{"/Root/Curves"}));
}

// lbs.usda's clip at 0.5 s, time code 12 at its 24 time codes a second: the first mesh written is
// /Root/Mesh, whose points Pixar baked at time code 12.
TEST(SinewBake, BakesAUsdSkelSceneAsPixarsBaselineAtATimeCode) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"bake", Scene("lbs.usda"), "--anim", "0", "--time", "0.5",
                                "--format", "obj", "--out", "lbs"},
                               dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream obj(ReadText(dir.path() / "lbs.obj"));
  std::vector<float> written;
  for (std::string line; std::getline(obj, line);) {
    float x, y, z;
    if (std::sscanf(line.c_str(), "v %f %f %f", &x, &y, &z) == 3)
      written.insert(written.end(), {x, y, z});
  }
  auto baked = loader::usd::ReadUsdaFile(TestConformance() / "usdskel/baseline/lbs.baked.usda");
  ASSERT_TRUE(baked.ok()) << baked.error().ToString();
  const loader::usd::Attribute* points = baked->FindAttribute("/Root/Mesh.points");
  ASSERT_NE(points, nullptr);
  const loader::usd::TimeSample* at12 = nullptr;
  for (const loader::usd::TimeSample& s : points->time_samples) {
    if (s.time == 12) at12 = &s;
  }
  ASSERT_NE(at12, nullptr);
  const std::span<const float> want = at12->value.floats();
  ASSERT_GE(written.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(written[i], want[i], 1e-4f) << i;
}

// The numbers of a time sample: floats (points, normals) or doubles (matrices).
std::vector<double> Numbers(const loader::usd::Value& v) {
  if (!v.floats().empty()) return {v.floats().begin(), v.floats().end()};
  return {v.doubles().begin(), v.doubles().end()};
}

// lbs.usda and dqs.usda baked on `device`: a mesh's points, another's normals and the three rigid
// gprims' transforms at every time code, within 1e-4 of Pixar's bake.
void ExpectUsdaBakesLikePixar(const char* device) {
  for (const char* scene : {"lbs", "dqs"}) {
    SCOPED_TRACE(scene);
    ScratchDir dir;
    const ToolRun run = RunSinew({"bake", Scene((std::string(scene) + ".usda").c_str()), "--anim",
                                  "0", "--format", "usda", "--device", device, "--out", "baked"},
                                 dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto mine = loader::usd::ReadUsdaFile(dir.path() / "baked.usda");
    ASSERT_TRUE(mine.ok()) << mine.error().ToString();
    auto pixar = loader::usd::ReadUsdaFile(TestConformance() / "usdskel/baseline" /
                                           (std::string(scene) + ".baked.usda"));
    ASSERT_TRUE(pixar.ok()) << pixar.error().ToString();
    for (const char* attribute :
         {"/Root/Mesh.points", "/Root/MeshWithNormals.normals", "/Root/Sphere.xformOp:transform",
          "/Root/Cube.xformOp:transform", "/Root/Cylinder.xformOp:transform"}) {
      SCOPED_TRACE(attribute);
      const loader::usd::Attribute* got = mine->FindAttribute(attribute);
      const loader::usd::Attribute* want = pixar->FindAttribute(attribute);
      ASSERT_NE(got, nullptr);
      ASSERT_NE(want, nullptr);
      ASSERT_EQ(got->time_samples.size(), want->time_samples.size());
      for (size_t s = 0; s < want->time_samples.size(); ++s) {
        SCOPED_TRACE(want->time_samples[s].time);
        ASSERT_EQ(got->time_samples[s].time, want->time_samples[s].time);
        const std::vector<double> a = Numbers(got->time_samples[s].value);
        const std::vector<double> b = Numbers(want->time_samples[s].value);
        ASSERT_EQ(a.size(), b.size());
        ASSERT_FALSE(b.empty());
        for (size_t i = 0; i < b.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-4) << i;
      }
    }
  }
}

// `--format usda` without --time: PREFIX.usda holds the points, normals and rigid transforms at
// every time code of the clip, as Pixar's UsdSkelBakeSkinning wrote them in the baseline, for
// linear (lbs.usda) and dual-quaternion (dqs.usda) skinning.
TEST(SinewBake, WritesAUsdSkelSceneAsUsdaLikePixarsBakeAtEveryTimeCode) {
  ExpectUsdaBakesLikePixar("cpu");
}

class SinewBakeUsdaOnGpu : public GpuTest {};

TEST_F(SinewBakeUsdaOnGpu, WritesAUsdSkelSceneAsUsdaLikePixarsBakeFromTheGpu) {
  ExpectUsdaBakesLikePixar("gpu");
}

// The bin manifest lists each rigid gprim with its transform: the Cube of lbs.usda at 0.5 s (time
// code 12) is where Pixar baked it.
TEST(SinewBake, ListsRigidGprimsWithTheirTransformsInTheManifest) {
  ScratchDir dir;
  const ToolRun run = RunSinew(
      {"bake", Scene("lbs.usda"), "--anim", "0", "--time", "0.5", "--out", "lbs"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonDocument doc(ReadText(dir.path() / "lbs.json"));
  const JsonValue rigid = doc.root()["rigid"];
  ASSERT_EQ(rigid.size(), 3u);
  EXPECT_EQ(rigid[1]["name"].String(), "/Root/Cube");
  auto baked = loader::usd::ReadUsdaFile(TestConformance() / "usdskel/baseline/lbs.baked.usda");
  ASSERT_TRUE(baked.ok());
  const loader::usd::Attribute* xform = baked->FindAttribute("/Root/Cube.xformOp:transform");
  ASSERT_NE(xform, nullptr);
  const auto at12 = std::find_if(xform->time_samples.begin(), xform->time_samples.end(),
                                 [](const loader::usd::TimeSample& s) { return s.time == 12; });
  ASSERT_NE(at12, xform->time_samples.end());
  const std::vector<double> want = Numbers(at12->value);
  ASSERT_EQ(rigid[1]["matrix"].size(), 16u);
  for (size_t i = 0; i < 16; ++i) EXPECT_NEAR(rigid[1]["matrix"][i].Number(), want[i], 1e-4) << i;
}

// Without --skinning each mesh is blended as its stage says: dqs.usda's meshes with dual
// quaternions, and the manifest says so, for the bake and for each primitive. `--skinning linear`
// blends them linearly (other bytes), and the manifest says that.
TEST(SinewBake, BlendsEachMeshAsItsStageSaysAndTheManifestSaysWhichUnlessToldOtherwise) {
  ScratchDir dir;
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--skinning", "linear"}}) {
    std::vector<std::string> args = {"bake",   Scene("dqs.usda"),
                                     "--anim", "0",
                                     "--time", "0.5",
                                     "--out",  extra.empty() ? "asis" : "linear"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = RunSinew(args, dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const JsonDocument asis(ReadText(dir.path() / "asis.json"));
  EXPECT_EQ(asis.root()["skinning"].String(), "dualQuaternion");
  ASSERT_GT(asis.root()["primitives"].size(), 0u);
  EXPECT_EQ(asis.root()["primitives"][0]["skinning"].String(), "dualQuaternion");
  const JsonDocument linear(ReadText(dir.path() / "linear.json"));
  EXPECT_EQ(linear.root()["skinning"].String(), "linear");
  EXPECT_EQ(linear.root()["primitives"][0]["skinning"].String(), "linear");
  EXPECT_NE(ReadText(dir.path() / "asis.bin"), ReadText(dir.path() / "linear.bin"));
}

TEST(SinewBench, SkinsTheMeshesOfAUsdSkelScene) {
  ScratchDir dir;
  const ToolRun run = RunSinew(
      {"bench", Scene("lbs.usda"), "--cpu-only", "--characters", "2", "--frames", "1", "--json"},
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonDocument doc(run.out);
  std::vector<std::string> rows;
  for (const JsonValue& r : doc.root()["results"].Elements()) {
    rows.push_back(r["path"].String() + " " + r["layout"].String());
  }
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "cpu /Root/Mesh/0 dense K=4", "cpu /Root/Mesh/0 sparse",
                      "cpu /Root/MeshWithFaceVaryingNormals/0 dense K=4",
                      "cpu /Root/MeshWithFaceVaryingNormals/0 sparse",
                      "cpu /Root/MeshWithNormals/0 dense K=4", "cpu /Root/MeshWithNormals/0 sparse",
                      "cpu /Root/Curves/0 dense K=4", "cpu /Root/Curves/0 sparse"}));
}

// blendshapes.usda's plane has blend shapes and no skin: its fused morph stage is timed as a
// "rigid" case, the node's world matrix the one palette entry.
TEST(SinewBench, TimesTheBlendShapesOfAnUnskinnedMesh) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"bench", Scene("blendshapes.usda"), "--cpu-only", "--characters",
                                "2", "--frames", "1", "--json"},
                               dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonDocument doc(run.out);
  std::vector<std::string> rows;
  for (const JsonValue& r : doc.root()["results"].Elements()) {
    rows.push_back(r["path"].String() + " " + r["layout"].String());
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"cpu /TestPlane/Mesh/0 rigid"}));
}

// What a conversion leaves out is named as the source names it: a USD stage's curves by their
// prim path, not by an index into the loaded meshes.
TEST(SinewConvert, NamesWhatItLeavesOutByTheSourcesPrimPath) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"convert", Scene("dqs.usda"), "dq.usda", "--json"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonDocument doc(run.out);
  std::vector<std::string> left_out;
  for (const JsonValue& v : doc.root()["left_out"].Elements()) {
    left_out.push_back(v.String());
  }
  EXPECT_NE(
      std::find(left_out.begin(), left_out.end(), "mesh '/Root/Curves' primitive 0: not triangles"),
      left_out.end())
      << ::testing::PrintToString(left_out);
}

// A glTF character converted to .usdc and to .usdz by the tool, then read back by it: `info`
// names the encoding and the layer's UsdSkel prims, `bake` writes the same vertices from either
// file, `bench` skins it.
TEST(SinewConvert, WritesUsdcAndUsdzThatTheToolReadsBack) {
  ScratchDir dir;
  const std::string fox = (TestAssets() / "Fox/Fox.glb").string();
  for (const char* out : {"fox.usdc", "fox.usdz"}) {
    const ToolRun run = RunSinew({"convert", fox, out, "--json"}, dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(JsonDocument(run.out).root()["bytes"].Int(),
              int64_t(std::filesystem::file_size(dir.path() / out)));
    EXPECT_TRUE(JsonDocument(run.out).root()["binary"].Bool()) << out;
  }
  const ToolRun info = RunSinew({"info", "fox.usdz", "--json"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const JsonDocument doc(info.out);
  EXPECT_EQ(doc.root()["format"].String(), "USD (.usdz)");
  EXPECT_EQ(doc.root()["usd"]["skeletons"][0]["joints"].Int(), 24);
  EXPECT_EQ(doc.root()["animations"].size(), 1u);
  std::vector<std::string> objs;
  for (const char* file : {"fox.usdc", "fox.usdz"}) {
    const std::string prefix = std::string(file).substr(5);
    const ToolRun bake =
        RunSinew({"bake", file, "--anim", "0", "--time", "0.4", "--format", "obj", "--out", prefix},
                 dir.path());
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    objs.push_back(ReadText(dir.path() / (prefix + ".obj")));
  }
  ASSERT_GT(objs[0].size(), 1000u);
  // The same vertices (the first line names the source file).
  EXPECT_EQ(objs[0].substr(objs[0].find('\n')), objs[1].substr(objs[1].find('\n')));
  const ToolRun bench =
      RunSinew({"bench", "fox.usdc", "--cpu-only", "--characters", "1", "--frames", "1", "--json"},
               dir.path());
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_GT(JsonDocument(bench.out).root()["results"].size(), 0u);
}

// A skinned triangle in a layer of its own, its defaultPrim /Body.
constexpr std::string_view kSkinnedBody =
    "#usda 1.0\n(\n    defaultPrim = \"Body\"\n)\n"
    "def SkelRoot \"Body\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n"
    "    rel skel:skeleton = </Body/Skel>\n"
    "    def Skeleton \"Skel\"\n    {\n        uniform token[] joints = [\"a\"]\n"
    "        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
    "        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
    "    }\n"
    "    def Mesh \"M\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n"
    "        point3f[] points = [(0,0,0), (1,0,0), (1,1,0)]\n"
    "        int[] faceVertexCounts = [3]\n        int[] faceVertexIndices = [0, 1, 2]\n"
    "        int[] primvars:skel:jointIndices = [0, 0, 0] (elementSize = 1 interpolation = "
    "\"vertex\")\n"
    "        float[] primvars:skel:jointWeights = [1, 1, 1] (elementSize = 1 interpolation = "
    "\"vertex\")\n    }\n}\n";

// A stage in a crate file names its referenced layer where no text shows it: once the stage is
// loaded, convert and bake know the layers it read (LoadedAsset::external_files) and refuse to
// write over one, by any spelling; the layer stays as it was.
TEST(SinewConvert, RefusesToWriteOverALayerTheStageRead) {
  ScratchDir dir;
  const std::string body(kSkinnedBody);
  std::filesystem::create_directories(dir.path() / "parts");
  WriteText(dir.path() / "parts" / "body.usda", body);
  // The stage as a crate file, written by the loader's crate writer (sinew convert would write
  // the loaded asset, no reference).
  auto stage = loader::usd::ReadUsda(
      "#usda 1.0\ndef \"World\" (\n    prepend references = @./parts/body.usda@\n)\n{\n}\n");
  ASSERT_TRUE(stage.ok()) << stage.error().ToString();
  auto crate = loader::usd::WriteCrate(*stage);
  ASSERT_TRUE(crate.ok()) << crate.error().ToString();
  std::ofstream(dir.path() / "stage.usdc", std::ios::binary)
      .write(reinterpret_cast<const char*>(crate->data()), std::streamsize(crate->size()));
  const ToolRun info = RunSinew({"info", "stage.usdc"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("mesh 0 '/World/M'"), std::string::npos) << info.out;
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"convert", "stage.usdc", "parts/body.usda"},
           {"convert", "stage.usdc", "./parts/../parts/body.usda"},
           {"bake", "stage.usdc", "--format", "usda", "--out", "parts/body"}}) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[0] << " " << args.back() << ": " << run.err;
    EXPECT_NE(run.err.find("is a file the input names"), std::string::npos) << run.err;
  }
  EXPECT_EQ(ReadText(dir.path() / "parts" / "body.usda"), body);
  // Elsewhere it writes.
  const ToolRun elsewhere = RunSinew({"convert", "stage.usdc", "parts/copy.usda"}, dir.path());
  EXPECT_EQ(elsewhere.exit_code, 0) << elsewhere.err;
}

// A stage whose variant sets choose which character it holds: `info` lists the sets (what each
// holds and took); --usd-variant chooses another variant for info, bake, render's loading and
// convert alike, --usd-fallback a variant for a set nothing selects in; a selection no set takes
// is a warning, and a malformed one a usage error.
TEST(SinewInfo, ListsAStagesVariantSetsAndTheCommandsLoadTheVariantChosen) {
  ScratchDir dir;
  std::filesystem::create_directories(dir.path() / "parts");
  WriteText(dir.path() / "parts" / "body.usda", kSkinnedBody);
  WriteText(dir.path() / "stage.usda",
            "#usda 1.0\n"
            "def Xform \"World\" (\n    variantSets = [\"size\", \"look\"]\n"
            "    variants = { string size = \"large\" }\n) {\n"
            "    variantSet \"size\" = {\n"
            "        \"large\" {\n            def \"Hero\" (references = @./parts/body.usda@) {}\n"
            "        }\n"
            "        \"small\" {\n            def \"Tiny\" (references = @./parts/body.usda@) {}\n"
            "        }\n    }\n"
            "    variantSet \"look\" = {\n        \"red\" {}\n        \"blue\" {}\n    }\n}\n");
  const auto info = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"info", "stage.usda", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::string out;
    const JsonDocument doc(run.out);
    for (const JsonValue& set : doc.root()["variant_sets"].Elements()) {
      out += set["prim"].String() + "{" + set["set"].String() + "=" + set["selected"].String() +
             "} of";
      for (const JsonValue& v : set["variants"].Elements()) {
        out += ' ';  // (not " " + v.String(): GCC 12 warns of an overlapping copy there)
        out += v.String();
      }
      out += "\n";
    }
    for (const JsonValue& m : doc.root()["meshes"].Elements()) out += m["name"].String() + "\n";
    for (const JsonValue& w : doc.root()["warnings"].Elements()) {
      out += w["where"].String() + ": " + w["message"].String() + "\n";
    }
    return out;
  };
  EXPECT_EQ(info({}),
            "/World{size=large} of large small\n/World{look=} of blue red\n/World/Hero/M\n");
  EXPECT_EQ(info({"--usd-variant", "/World{size=small}", "--usd-fallback", "look=green,blue"}),
            "/World{size=small} of large small\n/World{look=blue} of blue red\n/World/Tiny/M\n");
  EXPECT_EQ(info({"--usd-variant", "/World{lod=low}"}),
            "/World{size=large} of large small\n/World{look=} of blue red\n/World/Hero/M\n"
            "/World: the variant selection given to the loader, {lod=low}: the prim has no "
            "variant set of that name\n");
  const ToolRun text =
      RunSinew({"info", "stage.usda", "--usd-variant", "/World{size=}"}, dir.path());
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("variant sets:\n  /World{size=} (variants: large, small)\n"
                          "  /World{look=} (variants: blue, red)\n"),
            std::string::npos)
      << text.out;

  const ToolRun bake = RunSinew({"bake", "stage.usda", "--usd-variant", "/World{size=small}",
                                 "--format", "usda", "--out", "baked"},
                                dir.path());
  ASSERT_EQ(bake.exit_code, 0) << bake.err;
  const std::string baked = ReadText(dir.path() / "baked.usda");
  EXPECT_NE(baked.find("def Xform \"Tiny\""), std::string::npos) << baked;
  EXPECT_EQ(baked.find("Hero"), std::string::npos) << baked;
  // bench times FILE as chosen: "" leaves it no skinned mesh to time.
  const std::vector<std::string> bench = {"bench", "stage.usda", "--cpu-only", "--characters",
                                          "1",     "--frames",   "1",          "--json"};
  std::vector<std::string> small = bench, none = bench;
  small.insert(small.end(), {"--usd-variant", "/World{size=small}"});
  none.insert(none.end(), {"--usd-variant", "/World{size=}"});
  const ToolRun timed = RunSinew(small, dir.path());
  EXPECT_EQ(timed.exit_code, 0) << timed.err;
  const ToolRun untimed = RunSinew(none, dir.path());
  EXPECT_EQ(untimed.exit_code, 1) << untimed.err;
  EXPECT_NE(untimed.err.find("no skinned or morphing mesh"), std::string::npos) << untimed.err;
  // (convert writes the character under a root of its own: its loader's warning shows the
  // selection reached it)
  const ToolRun convert = RunSinew(
      {"convert", "stage.usda", "small.usda", "--usd-variant", "/World{lod=low}"}, dir.path());
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  EXPECT_NE(convert.err.find("{lod=low}: the prim has no variant set"), std::string::npos)
      << convert.err;

  // Each command's own arguments complete, so that only the malformed value is refused.
  const std::vector<std::vector<std::string>> commands = {
      {"info", "stage.usda"},
      {"bake", "stage.usda", "--out", "x"},
      {"render", "stage.usda", "--out", "x.png"},
      {"convert", "stage.usda", "out.usda"},
      {"bench", "stage.usda", "--cpu-only"}};
  for (const char* bad : {"World{size=small}", "/World", "/World{size}", "/World{=small}",
                          "/World{size=small}{look=red}", "/World{size=small"}) {
    for (std::vector<std::string> args : commands) {
      args.insert(args.end(), {"--usd-variant", bad});
      const ToolRun run = RunSinew(args, dir.path());
      EXPECT_EQ(run.exit_code, 2) << args[0] << " " << bad << ": " << run.err;
      EXPECT_NE(run.err.find("--usd-variant /PRIM{SET=VARIANT} (a prim's path and one variant "
                             "selection, as USD writes one: /World/Hero{lod=low}), not '" +
                             std::string(bad) + "'"),
                std::string::npos)
          << args[0] << " " << bad << ": " << run.err;
    }
  }
  for (const char* bad : {"look", "look=", "=red", "look=red,,blue", "look=red,"}) {
    for (std::vector<std::string> args : commands) {
      args.insert(args.end(), {"--usd-fallback", bad});
      const ToolRun run = RunSinew(args, dir.path());
      EXPECT_EQ(run.exit_code, 2) << args[0] << " " << bad << ": " << run.err;
      EXPECT_NE(run.err.find("--usd-fallback SET=VARIANT[,VARIANT...] (lod=low,medium), not '" +
                             std::string(bad) + "'"),
                std::string::npos)
          << args[0] << " " << bad << ": " << run.err;
    }
  }
}

// A crate file cut short: the tool says which section and byte, and exits 1.
TEST(SinewInfo, NamesTheSectionAndByteOfABrokenCrateFile) {
  ScratchDir dir;
  const std::string fox = (TestAssets() / "Fox/Fox.glb").string();
  ASSERT_EQ(RunSinew({"convert", fox, "fox.usdc"}, dir.path()).exit_code, 0);
  std::string bytes = ReadText(dir.path() / "fox.usdc");
  bytes.resize(bytes.size() - 100);  // the table of contents cut off
  {
    std::ofstream f(dir.path() / "cut.usdc", std::ios::binary);
    f << bytes;
  }
  const ToolRun run = RunSinew({"info", "cut.usdc"}, dir.path());
  EXPECT_EQ(run.exit_code, 1);
  const std::string said = run.out + run.err;
  EXPECT_NE(said.find("kOutOfBounds at table of contents at byte "), std::string::npos) << said;
  EXPECT_NE(said.find("6 sections do not fit"), std::string::npos) << said;
}

// A two-joint skinned quad whose clip has its last rotation key at time code `last_key`.
std::string QuadWithAKeyAt(const char* last_key) {
  return std::string(R"(#usda 1.0
def SkelRoot "Root" (prepend apiSchemas = ["SkelBindingAPI"])
{
    def Skeleton "Skel" (prepend apiSchemas = ["SkelBindingAPI"])
    {
        uniform token[] joints = ["A", "A/B"]
        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)), ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,1,0,1))]
        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)), ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,1,0,1))]
        rel skel:animationSource = <Anim>
        def SkelAnimation "Anim"
        {
            uniform token[] joints = ["A/B"]
            float3[] translations = [(0, 1, 0)]
            quatf[] rotations.timeSamples = { 0: [(1, 0, 0, 0)], )") +
         last_key + R"(: [(0.7071068, 0, 0, 0.7071068)] }
            half3[] scales = [(1, 1, 1)]
        }
    }
    def Mesh "Quad" (prepend apiSchemas = ["SkelBindingAPI"])
    {
        rel skel:skeleton = </Root/Skel>
        int[] faceVertexCounts = [4]
        int[] faceVertexIndices = [0, 1, 2, 3]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 2, 0), (0, 2, 0)]
        int[] primvars:skel:jointIndices = [0, 0, 1, 1] (interpolation = "vertex" elementSize = 1)
        float[] primvars:skel:jointWeights = [1, 1, 1, 1] (interpolation = "vertex" elementSize = 1)
    }
}
)";
}

// Stage metadata UsdGeom does not take is shown as authored, with what is read in its place, and
// the loader's warning says so too.
TEST(SinewInfo, ShowsStageMetadataUsdGeomDoesNotTakeWithWhatIsReadInItsPlace) {
  ScratchDir dir;
  std::string text = QuadWithAKeyAt("2");
  text.insert(text.find('\n') + 1, "(\n    upAxis = \"X\"\n    metersPerUnit = -2\n)\n");
  WriteText(dir.path() / "x.usda", text);
  const ToolRun info = RunSinew({"info", "x.usda"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("up axis X (read as Y), -2 m a unit (read as 0.01)"), std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("warning at upAxis: \"X\" is neither"), std::string::npos) << info.out;
}

// three.js's USDZExporter and Needle's reference a layer per mesh, packed beside the root layer
// (`prepend references = @./geometries/Geometry_1.usda@</Geometry>`): `sinew info` reads the
// stage they compose to, its outline included, from the package or from the loose files.
TEST(SinewInfo, DescribesAStageWhoseRootLayerReferencesOtherLayers) {
  ScratchDir dir;
  const std::string root =
      "#usda 1.0\n(\n    defaultPrim = \"Root\"\n)\ndef Xform \"Root\"\n{\n"
      "    def Xform \"Box\" (\n"
      "        prepend references = @./geometries/Geometry_1.usda@</Geometry>\n    )\n    {\n"
      "        double3 xformOp:translate = (1, 0, 0)\n"
      "        uniform token[] xformOpOrder = [\"xformOp:translate\"]\n    }\n}\n";
  const std::string geometry =
      "#usda 1.0\n(\n    defaultPrim = \"Geometry\"\n)\ndef \"Geometry\"\n{\n"
      "    def Mesh \"Geometry\"\n    {\n"
      "        int[] faceVertexCounts = [3]\n        int[] faceVertexIndices = [0, 1, 2]\n"
      "        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n    }\n}\n";
  const auto bytes = [](const std::string& text) {
    return std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  };
  const std::vector<loader::usd::PackagedFile> files = {
      {"model.usda", bytes(root)}, {"geometries/Geometry_1.usda", bytes(geometry)}};
  const std::vector<uint8_t> package = loader::usd::PackageUsdz(files);
  std::ofstream(dir.path() / "model.usdz", std::ios::binary)
      .write(reinterpret_cast<const char*>(package.data()), std::streamsize(package.size()));
  const ToolRun info = RunSinew({"info", "model.usdz"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("mesh 0 '/Root/Box/Geometry':\n  primitive 0: 3 vertices"),
            std::string::npos)
      << info.out;
  EXPECT_EQ(info.out.find("warning"), std::string::npos) << info.out;
  // The same layers as loose files: the root layer's references are found beside it, whatever
  // folder sinew runs in.
  std::filesystem::create_directories(dir.path() / "loose" / "geometries");
  WriteText(dir.path() / "loose" / "model.usda", root);
  WriteText(dir.path() / "loose" / "geometries" / "Geometry_1.usda", geometry);
  const ToolRun loose = RunSinew({"info", "loose/model.usda"}, dir.path());
  ASSERT_EQ(loose.exit_code, 0) << loose.err << loose.out;
  EXPECT_NE(loose.out.find("mesh 0 '/Root/Box/Geometry':\n  primitive 0: 3 vertices"),
            std::string::npos)
      << loose.out;
}

// A shot that stacks a walk over a rig as sublayers, the walk re-timed by its layer offset: its
// keys at 0 and 24 land at 24 + 2 · t, 1 s and 3 s.
TEST(SinewInfo, DescribesAShotComposedFromSubLayers) {
  ScratchDir dir;
  WriteText(
      dir.path() / "rig.usda",
      "#usda 1.0\ndef SkelRoot \"Root\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n"
      "{\n    rel skel:skeleton = </Root/Skel>\n    def Skeleton \"Skel\"\n    {\n"
      "        uniform token[] joints = [\"a\"]\n"
      "        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
      "        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
      "        rel skel:animationSource = </Root/Skel/Anim>\n    }\n"
      "    def Mesh \"Body\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n"
      "        int[] faceVertexCounts = [3]\n        int[] faceVertexIndices = [0, 1, 2]\n"
      "        point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]\n"
      "        int[] primvars:skel:jointIndices = [0] (interpolation = \"constant\")\n"
      "        float[] primvars:skel:jointWeights = [1] (interpolation = \"constant\")\n"
      "    }\n}\n");
  std::filesystem::create_directories(dir.path() / "anim");
  WriteText(dir.path() / "anim" / "walk.usda",
            "#usda 1.0\nover \"Root\"\n{\n    over \"Skel\"\n    {\n"
            "        def SkelAnimation \"Anim\"\n        {\n"
            "            uniform token[] joints = [\"a\"]\n"
            "            float3[] translations.timeSamples = { 0: [(0, 0, 0)], 24: [(0, 1, 0)] }\n"
            "            quatf[] rotations.timeSamples = { 0: [(1, 0, 0, 0)] }\n"
            "            half3[] scales.timeSamples = { 0: [(1, 1, 1)] }\n        }\n    }\n}\n");
  WriteText(
      dir.path() / "shot.usda",
      "#usda 1.0\n(\n    subLayers = [\n        @./anim/walk.usda@ (offset = 24; scale = 2),\n"
      "        @./rig.usda@\n    ]\n)\n");
  const ToolRun info = RunSinew({"info", "shot.usda"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("mesh 0 '/Root/Body':\n  primitive 0: 3 vertices"), std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("clip 0 '/Root/Skel/Anim': 1.000..3.000 s"), std::string::npos)
      << info.out;
  EXPECT_EQ(info.out.find("warning"), std::string::npos) << info.out;
  // The layers it read beside the shot, as the sublayers name them, strongest first.
  EXPECT_NE(info.out.find("files read: anim/walk.usda rig.usda\n"), std::string::npos) << info.out;
  const ToolRun json = RunSinew({"info", "shot.usda", "--json"}, dir.path());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const JsonDocument doc(json.out);
  ASSERT_EQ(doc.root()["external_files"].size(), 2u);
  EXPECT_EQ(doc.root()["external_files"][0].String(), "anim/walk.usda");
  EXPECT_EQ(doc.root()["external_files"][1].String(), "rig.usda");
}

// A clip of no channels (Blender writes a SkelAnimation of blend-shape names without weights) is
// "0 channels", without an empty breakdown after it.
TEST(SinewInfo, ShowsAClipOfNoChannelsWithoutAnEmptyBreakdown) {
  ScratchDir dir;
  WriteText(
      dir.path() / "empty.usda",
      "#usda 1.0\ndef SkelRoot \"Root\"\n{\n"
      "    def Skeleton \"Skel\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n"
      "    {\n        uniform token[] joints = [\"a\"]\n"
      "        uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
      "        uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
      "        rel skel:animationSource = </Root/Skel/Anim>\n"
      "        def SkelAnimation \"Anim\"\n        {\n"
      "            uniform token[] blendShapes = [\"Key\"]\n"
      "            float[] blendShapeWeights\n        }\n    }\n}\n");
  const ToolRun info = RunSinew({"info", "empty.usda"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("0.000..0.000 s, 0 channels\n"), std::string::npos) << info.out;
}

// A key an hour and more away: `bake --format usda`, which holds a bake per time code until it
// writes the file, refuses the clip with its range instead of taking the machine's memory; a key
// past a float's range in seconds is skipped with a warning.
TEST(SinewBake, RefusesToWriteMoreTimeCodesThanItCanHoldAndSkipsKeysPastAFloat) {
  ScratchDir dir;
  WriteText(dir.path() / "far.usda", QuadWithAKeyAt("1e9"));
  const ToolRun far = RunSinew(
      {"bake", "far.usda", "--anim", "0", "--format", "usda", "--out", "baked"}, dir.path());
  EXPECT_EQ(far.exit_code, 1);
  EXPECT_NE(far.err.find("more than 100000 time codes"), std::string::npos) << far.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "baked.usda"));
  const ToolRun one = RunSinew(
      {"bake", "far.usda", "--anim", "0", "--time", "1", "--format", "usda", "--out", "baked"},
      dir.path());
  EXPECT_EQ(one.exit_code, 0) << one.err;
  WriteText(dir.path() / "beyond.usda", QuadWithAKeyAt("1e300"));
  const ToolRun info = RunSinew({"info", "beyond.usda", "--json"}, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("past a float's range"), std::string::npos) << info.out;
  const ToolRun baked = RunSinew(
      {"bake", "beyond.usda", "--anim", "0", "--format", "usda", "--out", "baked"}, dir.path());
  EXPECT_EQ(baked.exit_code, 0) << baked.err;
}

// convert from USD to USD keeps the stage's up axis, units and time codes a second (the
// coordinates and keys are in them), and keys at whole time codes stay whole; to G4MF, which has
// none of these, it warns.
TEST(SinewConvert, PassesAUsdStagesUpAxisUnitsAndTimeCodesOn) {
  ScratchDir dir;
  std::string text = QuadWithAKeyAt("14");
  text.insert(
      text.find('\n') + 1,
      "(\n    upAxis = \"Z\"\n    metersPerUnit = 0.0254\n    timeCodesPerSecond = 30\n)\n");
  WriteText(dir.path() / "zup.usda", text);
  const ToolRun run = RunSinew({"convert", "zup.usda", "copy.usda"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string copy = ReadText(dir.path() / "copy.usda");
  EXPECT_NE(copy.find("upAxis = \"Z\""), std::string::npos) << copy;
  EXPECT_NE(copy.find("metersPerUnit = 0.0254"), std::string::npos) << copy;
  EXPECT_NE(copy.find("timeCodesPerSecond = 30"), std::string::npos) << copy;
  EXPECT_NE(copy.find("endTimeCode = 14\n"), std::string::npos) << copy;
  const ToolRun g4mf = RunSinew({"convert", "zup.usda", "copy.g4tf"}, dir.path());
  ASSERT_EQ(g4mf.exit_code, 0) << g4mf.err;
  EXPECT_NE(g4mf.err.find("is Z-up with 0.0254 m a unit"), std::string::npos) << g4mf.err;
  // bake --format usda writes its scene-space points in the source's axis and units as well.
  const ToolRun bake = RunSinew(
      {"bake", "zup.usda", "--anim", "0", "--format", "usda", "--out", "baked"}, dir.path());
  ASSERT_EQ(bake.exit_code, 0) << bake.err;
  const std::string baked = ReadText(dir.path() / "baked.usda");
  EXPECT_NE(baked.find("upAxis = \"Z\""), std::string::npos) << baked;
  EXPECT_NE(baked.find("metersPerUnit = 0.0254"), std::string::npos) << baked;
  // A stage that does not say is in USD's fallbacks, Y up and centimetres, and the copy says so.
  WriteText(dir.path() / "plain.usda", QuadWithAKeyAt("14"));
  ASSERT_EQ(RunSinew({"convert", "plain.usda", "plain_copy.usda"}, dir.path()).exit_code, 0);
  const std::string plain = ReadText(dir.path() / "plain_copy.usda");
  EXPECT_NE(plain.find("metersPerUnit = 0.01"), std::string::npos) << plain;
  EXPECT_NE(plain.find("upAxis = \"Y\""), std::string::npos) << plain;
}

}  // namespace
}  // namespace sinew::testing
