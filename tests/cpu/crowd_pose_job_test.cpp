// Posing at crowd scale (sinew/cpu/crowd_pose_job.h): a range of characters posed by one
// CrowdPoseJob equals the per-character jobs run one after the other (SampleAnimationJob,
// SceneTransformsJob, SkinInstancePaletteJob, SubShapeWeightsJob) on every shared animated asset;
// the checks the plan takes over once, and the few the job keeps.
#include "sinew/cpu/crowd_pose_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/gltf.h"
#include "test_assets.h"

namespace sinew::cpu {
namespace {

// Within float rounding of the jobs' own arithmetic (the crowd path normalizes with one division,
// which moves a rotation by an ulp or so; long bones turn that into 1e-7 of the character's size).
void ExpectNear(const Float3x4& got, const Float3x4& want, float scale, const std::string& what) {
  for (int r = 0; r < 3; ++r) {
    const float g[4] = {got.row[r].x, got.row[r].y, got.row[r].z, got.row[r].w};
    const float w[4] = {want.row[r].x, want.row[r].y, want.row[r].z, want.row[r].w};
    for (int c = 0; c < 4; ++c) {
      ASSERT_NEAR(g[c], w[c], 1e-5f * scale) << what;
    }
  }
}

// The per-character jobs: the rest pose, the clip at `time`, scene matrices, InstancePalette of
// each drawn mesh, and the resolved weights of those with targets.
struct Reference {
  std::vector<std::vector<Float3x4>> palettes;
  std::vector<float> weights;
};
Reference PoseOne(const Asset& a, const PosePlan& plan, int32_t clip, float time, bool loop) {
  ScenePose pose = RestPose(a);
  if (clip >= 0) {
    SampleAnimationJob job;
    job.animation = &a.animations[size_t(clip)];
    job.time = time;
    job.loop = loop;
    job.pose = &pose;
    EXPECT_TRUE(job.Run().ok());
  }
  auto world = SceneTransforms(a, pose);
  EXPECT_TRUE(world.ok());
  Reference out;
  for (const DrawnMesh& d : plan.drawn()) {
    auto palette = InstancePalette(a, d.node, *world);
    EXPECT_TRUE(palette.ok());
    out.palettes.push_back(*palette);
    const Mesh& mesh = a.meshes[d.mesh];
    if (!mesh.primitives.empty() && !mesh.primitives[0].targets.empty()) {
      const std::vector<float> w = MorphWeightsFor(mesh, pose.weights[d.node]);
      out.weights.insert(out.weights.end(), w.begin(), w.end());
    }
  }
  return out;
}

class CrowdPoseAssets : public ::testing::TestWithParam<const char*> {};

// Five characters a clip, at times before, inside and past the clip (and looping), clip after
// clip through one scratch (so a node one clip animates and the next does not is reset).
TEST_P(CrowdPoseAssets, ARangeOfCharactersEqualsThePerCharacterJobs) {
  auto loaded = loader::LoadGltf(testing::TestAssets() / GetParam());
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Asset& a = loaded->asset;
  auto plan = PosePlan::Create(a);
  ASSERT_TRUE(plan.ok()) << plan.error().ToString();
  PoseScratch scratch = plan->MakeScratch();
  const size_t drawn = plan->drawn().size();
  ASSERT_GT(drawn, 0u);
  std::vector<int32_t> clips = {-1};
  for (size_t c = 0; c < a.animations.size(); ++c) clips.push_back(int32_t(c));
  clips.push_back(0 < a.animations.size() ? 0 : -1);  // back to the first clip
  for (const int32_t clip : clips) {
    const ClipRange range = clip >= 0 ? RangeOf(a.animations[size_t(clip)]) : ClipRange{};
    const std::vector<float> times = {range.start - 1, range.start + 0.3f * range.duration(),
                                      range.start + 0.77f * range.duration(), range.end + 0.5f,
                                      range.end + 0.25f * range.duration()};
    for (const bool loop : {false, true}) {
      std::vector<std::vector<Float3x4>> storage;
      std::vector<std::span<Float3x4>> spans;
      storage.reserve(times.size() * drawn);
      for (size_t c = 0; c < times.size(); ++c) {
        for (const DrawnMesh& d : plan->drawn()) {
          storage.emplace_back(d.palette_size);
          spans.push_back(storage.back());
        }
      }
      std::vector<float> weights(times.size() * plan->weight_count());
      CrowdPoseJob job;
      job.plan = &*plan;
      job.scratch = &scratch;
      job.animation = clip;
      job.loop = loop;
      job.times = times;
      job.palettes = spans;
      job.weights = weights;
      const Status s = job.Run();
      ASSERT_TRUE(s.ok()) << s.error().ToString();
      for (size_t c = 0; c < times.size(); ++c) {
        const Reference want = PoseOne(a, *plan, clip, times[c], loop);
        const std::string what = "clip " + std::to_string(clip) + " character " +
                                 std::to_string(c) + (loop ? " looping" : "");
        float scale = 1;  // the largest entry of the character's palettes
        for (const auto& palette : want.palettes) {
          for (const Float3x4& m : palette) {
            for (const Float4& r : m.row) {
              scale =
                  std::max({scale, std::fabs(r.x), std::fabs(r.y), std::fabs(r.z), std::fabs(r.w)});
            }
          }
        }
        for (size_t d = 0; d < drawn; ++d) {
          ASSERT_EQ(spans[c * drawn + d].size(), want.palettes[d].size());
          for (size_t e = 0; e < want.palettes[d].size(); ++e) {
            ExpectNear(spans[c * drawn + d][e], want.palettes[d][e], scale,
                       what + " drawn " + std::to_string(d) + " entry " + std::to_string(e));
          }
        }
        ASSERT_EQ(want.weights.size(), plan->weight_count());
        for (size_t w = 0; w < want.weights.size(); ++w) {
          EXPECT_NEAR(weights[c * plan->weight_count() + w], want.weights[w], 1e-5f) << what;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, CrowdPoseAssets,
                         ::testing::Values("Fox/Fox.glb", "CesiumMan/CesiumMan.glb",
                                           "three_RobotExpressive/RobotExpressive.glb",
                                           "SimpleSkin/SimpleSkin.gltf",
                                           "MorphStressTest/MorphStressTest.gltf",
                                           "AnimatedMorphCube/AnimatedMorphCube.gltf",
                                           "synthetic/SimpleSkin_interp_bindpose.gltf"));

Asset TwoNodes() {
  Asset a;
  a.nodes.resize(2);
  a.nodes[1].parent = 0;
  a.SetChildren(0, {1});
  a.nodes[1].mesh = 0;
  Primitive p;
  p.positions = {0, 0, 0};
  a.meshes.push_back({"m", {p}, {}, {}});
  return a;
}

TEST(PosePlan, RefusesACycleAndABadClipOnceWithTheirLocation) {
  Asset cyclic = TwoNodes();
  cyclic.nodes[0].parent = 1;
  EXPECT_EQ(PosePlan::Create(cyclic).code(), Error::kInvalidHierarchy);
  Asset bad_clip = TwoNodes();
  Animation clip;
  const std::vector<float> input = {0, 1}, output = {0, 0, 0, 1, 1, 1};
  clip.AddSampler(input, output, 3, Interpolation::kLinear);
  clip.channels.push_back({0, 7, AnimationPath::kTranslation});  // node 7 does not exist
  bad_clip.animations.push_back(clip);
  auto refused = PosePlan::Create(bad_clip);
  EXPECT_EQ(refused.code(), Error::kSizeMismatch);
  EXPECT_EQ(refused.error().where, "animations/0/channels/0");
}

TEST(CrowdPoseJob, ChecksOnlyWhatChangesPerCall) {
  const Asset a = TwoNodes();
  auto plan = PosePlan::Create(a).value();
  auto other = PosePlan::Create(a).value();
  PoseScratch scratch = plan.MakeScratch();
  PoseScratch foreign = other.MakeScratch();
  std::vector<Float3x4> palette(1);
  const std::span<Float3x4> spans[] = {palette};
  const float times[] = {0.0f};
  CrowdPoseJob job;
  job.plan = &plan;
  job.scratch = &scratch;
  job.times = times;
  job.palettes = spans;
  EXPECT_TRUE(job.Run().ok());
  EXPECT_EQ(palette[0].row[0].x, 1.0f) << "a rigid node: its world matrix, the identity";
  job.scratch = &foreign;
  EXPECT_EQ(job.Validate().code(), Error::kInvalidArgument);
  EXPECT_EQ(job.Validate().error().where, "scratch");
  EXPECT_NE(job.Validate().error().message.find("MakeScratch"), std::string::npos)
      << "says how to make a scratch that fits";
  PoseScratch unmade;
  job.scratch = &unmade;
  EXPECT_EQ(job.Validate().error().where, "scratch");
  job.scratch = &scratch;
  job.animation = 0;
  EXPECT_EQ(job.Validate().error().where, "animation");
  job.animation = -1;
  const float nan[] = {std::nanf("")};
  job.times = nan;
  EXPECT_EQ(job.Validate().error().where, "times/0");
  job.times = times;
  std::vector<Float3x4> two(2);
  const std::span<Float3x4> wrong[] = {two};
  job.palettes = wrong;
  EXPECT_EQ(job.Validate().error().where, "palettes/0");
  job.palettes = {};
  EXPECT_EQ(job.Validate().error().where, "palettes");
}

}  // namespace
}  // namespace sinew::cpu
