// The `sinew` tool on Pixar's UsdSkel scenes (the shared conformance data, found as test_assets.h
// says), which LoadAsset loads as .usda: `info` lists them, `bake` writes what Pixar baked and
// `bench` skins them.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_assets.h"
#include "tool/tool_run.h"
#include "usd/usda_parser.h"

namespace sinew::testing {
namespace {

std::string Scene(const char* name) { return (TestConformance() / "usdskel" / name).string(); }

// The rigid gprims are not loaded, and the cubic curves are drawn by their control points: warned.
TEST(SinewInfo, ListsAUsdSkelSceneAndWarnsAboutWhatItDoesNotLoad) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"info", Scene("lbs.usda"), "--json"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const JsonDocument doc(run.out);
  const JsonValue info = doc.root();
  EXPECT_TRUE(info["valid"].Bool());
  EXPECT_EQ(info["format"].String(), "USD (.usda)");
  EXPECT_EQ(info["meshes"].size(), 4u);
  EXPECT_EQ(info["skins"].size(), 4u);
  EXPECT_EQ(info["animations"].size(), 1u);
  std::vector<std::string> where;
  for (const JsonValue& w : info["warnings"].Elements()) where.push_back(w["where"].String());
  EXPECT_EQ(where, (std::vector<std::string>{"/Root/Sphere", "/Root/Cube", "/Root/Cylinder",
                                             "/Root/Curves"}));
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

// `--format usda` without --time: PREFIX.usda holds /Root/Mesh's points at every time code of the
// clip, as Pixar's UsdSkelBakeSkinning wrote them in the baseline: within 1e-4 at each of its
// time codes, for linear (lbs.usda) and dual-quaternion (dqs.usda) skinning.
TEST(SinewBake, WritesAUsdSkelSceneAsUsdaLikePixarsBakeAtEveryTimeCode) {
  for (const char* scene : {"lbs", "dqs"}) {
    SCOPED_TRACE(scene);
    ScratchDir dir;
    const ToolRun run = RunSinew({"bake", Scene((std::string(scene) + ".usda").c_str()), "--anim",
                                  "0", "--format", "usda", "--out", "baked"},
                                 dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto mine = loader::usd::ReadUsdaFile(dir.path() / "baked.usda");
    ASSERT_TRUE(mine.ok()) << mine.error().ToString();
    auto pixar = loader::usd::ReadUsdaFile(TestConformance() / "usdskel/baseline" /
                                           (std::string(scene) + ".baked.usda"));
    ASSERT_TRUE(pixar.ok()) << pixar.error().ToString();
    const loader::usd::Attribute* got = mine->FindAttribute("/Root/Mesh.points");
    const loader::usd::Attribute* want = pixar->FindAttribute("/Root/Mesh.points");
    ASSERT_NE(got, nullptr);
    ASSERT_NE(want, nullptr);
    ASSERT_EQ(got->time_samples.size(), want->time_samples.size());
    for (size_t s = 0; s < want->time_samples.size(); ++s) {
      SCOPED_TRACE(want->time_samples[s].time);
      ASSERT_EQ(got->time_samples[s].time, want->time_samples[s].time);
      const std::span<const float> a = got->time_samples[s].value.floats();
      const std::span<const float> b = want->time_samples[s].value.floats();
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < b.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-4f) << i;
    }
  }
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

}  // namespace
}  // namespace sinew::testing
