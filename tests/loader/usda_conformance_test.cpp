// Pixar's UsdSkel test scenes and their baked baselines (the shared conformance data, read in
// place: test_assets.h) read, with the counts and values written down from the files themselves.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "loader/usda_test_util.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/morph_targets_job.h"
#include "sinew/cpu/rigid_transform_job.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/cpu/sub_shape_weights_job.h"
#include "test_assets.h"
#include "usd/anim_mapper.h"
#include "usd/skel_animation.h"
#include "usd/skel_binding.h"
#include "usd/skel_blend_shapes.h"
#include "usd/skel_topology.h"
#include "usd/skel_transforms.h"
#include "usd/time_sampling.h"
#include "usd/usda_parser.h"

namespace sinew::loader::usd {
namespace {

using testing::Attr;
using testing::Default;
using testing::Targets;
using testing::Vec;
using Strings = std::vector<std::string>;

Layer ReadConformance(const char* relative) {
  const auto path = sinew::testing::TestConformance() / "usdskel" / relative;
  EXPECT_TRUE(std::filesystem::exists(path)) << path << " (set SINEW_TEST_CONFORMANCE)";
  auto layer = ReadUsdaFile(path);
  EXPECT_TRUE(layer.ok()) << path << ": " << layer.error().ToString();
  return layer.ok() ? std::move(layer.value()) : Layer();
}

// Every prim path of a layer, in order.
Strings PrimPaths(const Layer& layer) {
  Strings paths;
  for (const Prim& prim : layer.prims) paths.push_back(prim.path);
  return paths;
}

const char* const kFiles[] = {
    "lbs.usda",
    "dqs.usda",
    "blendshapes.usda",
    "blendshapesWithNormals.usda",
    "baseline/lbs.baked.usda",
    "baseline/dqs.baked.usda",
    "baseline/blendshapes.baked.usda",
    "baseline/blendshapesWithNormals.baked.usda",
};

TEST(UsdaConformance, EveryUsdSkelSceneAndBaselineReads) {
  for (const char* file : kFiles) {
    SCOPED_TRACE(file);
    const Layer layer = ReadConformance(file);
    EXPECT_FALSE(layer.prims.empty());
    for (uint32_t i = 0; i < layer.prims.size(); ++i) {
      EXPECT_EQ(layer.FindPrim(layer.prims[i].path), &layer.prims[i]);
    }
  }
}

TEST(UsdaConformance, LbsHasItsStageTimesAndPrims) {
  const Layer layer = ReadConformance("lbs.usda");
  EXPECT_EQ(layer.start_time_code, 1.0);
  EXPECT_EQ(layer.end_time_code, 30.0);
  EXPECT_EQ(layer.time_codes_per_second, 24.0);
  EXPECT_EQ(layer.up_axis, "Y");
  EXPECT_EQ(PrimPaths(layer),
            (Strings{"/Root", "/Root/Skeleton", "/Root/Skeleton/Animation", "/Root/Mesh",
                     "/Root/MeshWithFaceVaryingNormals", "/Root/MeshWithNormals", "/Root/Curves",
                     "/Root/Sphere", "/Root/Cube", "/Root/Cylinder"}));
  const Prim& root = *layer.FindPrim("/Root");
  EXPECT_EQ(root.type_name, "SkelRoot");
  EXPECT_EQ(root.kind, "component");
  EXPECT_EQ(root.api_schemas.prepended, Strings{"SkelBindingAPI"});
  EXPECT_EQ(Targets(layer, "/Root.skel:skeleton"), Strings{"/Root/Skeleton"});
  EXPECT_EQ(Attr(layer, "/Root.extentsHint").time_samples.size(), 30u);
}

TEST(UsdaConformance, LbsSkeletonHasItsJointsAndBindTransforms) {
  const Layer layer = ReadConformance("lbs.usda");
  EXPECT_EQ(layer.FindPrim("/Root/Skeleton")->type_name, "Skeleton");
  const Strings joints{"joint1", "joint1/joint2", "joint1/joint2/joint3"};
  EXPECT_EQ(Vec(Default(layer, "/Root/Skeleton.joints").strings()), joints);
  EXPECT_EQ(Attr(layer, "/Root/Skeleton.joints").variability, Variability::kUniform);
  const Value& bind = Default(layer, "/Root/Skeleton.bindTransforms");
  EXPECT_EQ(bind.type, ValueType::kMatrix4d);
  ASSERT_EQ(bind.size(), 3u);
  EXPECT_EQ(Vec(bind.doubles(), 0, 16),
            (std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
  EXPECT_EQ(Vec(bind.doubles(), 32, 16),
            (std::vector<double>{0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1}));
  EXPECT_EQ(Default(layer, "/Root/Skeleton.restTransforms").doubles()[44], 1.0);  // last x
  // `<Animation>` is relative to the Skeleton.
  EXPECT_EQ(Targets(layer, "/Root/Skeleton.skel:animationSource"),
            Strings{"/Root/Skeleton/Animation"});
}

TEST(UsdaConformance, LbsAnimationHasThirtySamplesOfEachJointTransform) {
  const Layer layer = ReadConformance("lbs.usda");
  const Attribute& rotations = Attr(layer, "/Root/Skeleton/Animation.rotations");
  EXPECT_EQ(rotations.type, ValueType::kQuatf);
  ASSERT_EQ(rotations.time_samples.size(), 30u);
  EXPECT_EQ(rotations.time_samples.front().time, 1.0);
  EXPECT_EQ(rotations.time_samples.back().time, 30.0);
  EXPECT_EQ(Vec(rotations.time_samples[0].value.floats()),
            (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f, 1, 0, 0, 0, 0.5f, -0.5f, -0.5f, -0.5f}));
  EXPECT_EQ(Vec(rotations.time_samples[29].value.floats(), 4, 4),
            (std::vector<float>{0.9087012f, -0.34889027f, 0.08619322f, 0.21238756f}));
  const Attribute& scales = Attr(layer, "/Root/Skeleton/Animation.scales");
  EXPECT_EQ(scales.type, ValueType::kHalf3);
  EXPECT_EQ(scales.time_samples.size(), 30u);
  const Attribute& translations = Attr(layer, "/Root/Skeleton/Animation.translations");
  ASSERT_EQ(translations.time_samples.size(), 30u);
  EXPECT_EQ(Vec(translations.time_samples[0].value.floats(), 0, 3), (std::vector<float>{0, -1, 0}));
  EXPECT_EQ(Attr(layer, "/Root/Skeleton/Animation.extent").time_samples[0].value.floats()[0],
            -8.881784e-16f);
}

TEST(UsdaConformance, LbsMeshesHaveTheirInfluencesAndGeometry) {
  const Layer layer = ReadConformance("lbs.usda");
  const Attribute& indices = Attr(layer, "/Root/Mesh.primvars:skel:jointIndices");
  EXPECT_EQ(indices.element_size, 3);
  EXPECT_EQ(indices.interpolation, "vertex");
  EXPECT_EQ(indices.default_value->size(), 120u);
  const Attribute& weights = Attr(layer, "/Root/Mesh.primvars:skel:jointWeights");
  EXPECT_EQ(weights.element_size, 3);
  EXPECT_EQ(Vec(weights.default_value->floats(), 6, 3), (std::vector<float>{0.5f, 0.5f, 0}));
  EXPECT_EQ(Default(layer, "/Root/Mesh.points").size(), 40u);
  EXPECT_EQ(Default(layer, "/Root/Mesh.faceVertexCounts").size(), 10u);
  EXPECT_EQ(Vec(Default(layer, "/Root/Mesh.primvars:skel:geomBindTransform").doubles(), 12, 4),
            (std::vector<double>{1, 0, 0, 1}));
  EXPECT_EQ(Attr(layer, "/Root/MeshWithFaceVaryingNormals.normals").interpolation, "faceVarying");
  EXPECT_EQ(Attr(layer, "/Root/MeshWithFaceVaryingNormals.primvars:skel:jointIndices").element_size,
            2);
  // MeshWithNormals declares its topology and points twice: the later declaration is what USD
  // reads (the baked baseline has its points).
  EXPECT_EQ(Vec(Default(layer, "/Root/MeshWithNormals.points").floats(), 0, 3),
            (std::vector<float>{0.45f, -1, 0.55f}));
  EXPECT_EQ(Default(layer, "/Root/MeshWithNormals.faceVertexIndices").ints()[0], 1);
  EXPECT_EQ(Vec(Default(layer, "/Root/Cube.skel:joints").strings()),
            (Strings{"joint1", "joint1/joint2"}));
  EXPECT_EQ(Attr(layer, "/Root/Sphere.primvars:skel:jointIndices").interpolation, "constant");
  EXPECT_EQ(Default(layer, "/Root/Curves.curveVertexCounts").size(), 10u);
}

// The skeleton's joint paths become a hierarchy (usd/skel_topology.h), and the Cube's own joint
// order maps onto it (usd/anim_mapper.h): a run of the skeleton's first two joints.
TEST(UsdaConformance, LbsSkeletonJointsFormAChainTheCubesJointsMapOnto) {
  const Layer layer = ReadConformance("lbs.usda");
  const Strings joints = Vec(Default(layer, "/Root/Skeleton.joints").strings());
  const std::vector<int32_t> parents = JointParents(joints);
  EXPECT_EQ(parents, (std::vector<int32_t>{-1, 0, 1}));
  EXPECT_TRUE(ValidateTopology(parents, "/Root/Skeleton.joints").ok());
  const Strings cube = Vec(Default(layer, "/Root/Cube.skel:joints").strings());
  const AnimMapper map(joints, cube);
  EXPECT_FALSE(map.null());
  EXPECT_FALSE(map.identity());
  std::vector<int> slots;
  map.Remap<int>(std::vector<int>{0, 1, 2}, 1, -1, &slots);
  EXPECT_EQ(slots, (std::vector<int>{0, 1}));  // the Cube's joints are the skeleton's first two
}

// lbs.usda's skeleton at its rest pose: the rest transforms (joint-local) composed parents first
// give the bind transforms (world space), so every skinning transform is the identity.
TEST(UsdaConformance, LbsSkinningTransformsAtRestAreTheIdentity) {
  const Layer layer = ReadConformance("lbs.usda");
  const std::vector<int32_t> parents =
      JointParents(Vec(Default(layer, "/Root/Skeleton.joints").strings()));
  const auto matrices = [&](const char* path) {
    const std::span<const double> d = Default(layer, path).doubles();
    std::vector<Float4x4> out;
    for (size_t i = 0; i + 16 <= d.size(); i += 16) {
      out.push_back(FromUsdMatrix(std::span<const double, 16>(d.data() + i, 16)));
    }
    return out;
  };
  std::vector<Float4x4> skel, skinning;
  ASSERT_TRUE(SkinningTransforms(parents, matrices("/Root/Skeleton.restTransforms"),
                                 matrices("/Root/Skeleton.bindTransforms"), &skel, &skinning)
                  .ok());
  ASSERT_EQ(skinning.size(), 3u);
  for (const Float4x4& s : skinning) {
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(s.m[c][r], c == r ? 1.0f : 0.0f, 1e-6f);
  }
}

// SkelBindingAPI with inheritance: every gprim of lbs.usda takes its skeleton from the SkelRoot;
// the Mesh has vertex influences, three per point; the Sphere one constant (rigid) influence; the
// Cube its own joint order. dqs.usda's meshes inherit dualQuaternion from the SkelRoot.
TEST(UsdaConformance, BindingsInheritTheSkeletonAndTheSkinningMethodFromTheSkelRoot) {
  const Layer lbs = ReadConformance("lbs.usda");
  const auto binding = [](const Layer& layer, const char* path) {
    const Prim* prim = layer.FindPrim(path);
    EXPECT_NE(prim, nullptr) << path;
    auto b = ResolveBinding(layer, *prim);
    EXPECT_TRUE(b.ok()) << path << ": " << b.error().ToString();
    return b.ok() ? b.value() : SkelBinding();
  };
  const SkelBinding mesh = binding(lbs, "/Root/Mesh");
  ASSERT_NE(mesh.skeleton, nullptr);
  EXPECT_EQ(mesh.skeleton->path, "/Root/Skeleton");
  EXPECT_TRUE(mesh.has_influences);
  EXPECT_FALSE(mesh.rigid);
  EXPECT_EQ(mesh.influences_per_point, 3);
  EXPECT_NE(mesh.geom_bind_transform, nullptr);
  EXPECT_EQ(mesh.skinning_method, SkinningMethodToken::kClassicLinear);
  const SkelBinding sphere = binding(lbs, "/Root/Sphere");
  EXPECT_TRUE(sphere.has_influences);
  EXPECT_TRUE(sphere.rigid);
  EXPECT_NE(binding(lbs, "/Root/Cube").joints, nullptr);
  EXPECT_EQ(binding(lbs, "/Root/Mesh").joints, nullptr);
  const Layer dqs = ReadConformance("dqs.usda");
  EXPECT_EQ(binding(dqs, "/Root/Mesh").skinning_method, SkinningMethodToken::kDualQuaternion);
  EXPECT_EQ(binding(dqs, "/Root/Mesh").skeleton->path, "/Root/Skeleton");
}

// The whole chain on a scene's Mesh, every time code of its baked baseline: the skeleton's
// animated local transforms, its skinning transforms, the Mesh's binding (vertex influences,
// geomBindTransform), then the CPU reference (SkinDenseJob, the influences padded to a multiple
// of four; dual quaternions when the binding says dualQuaternion): Pixar's baked points within
// 1e-4 at every time code.
void ExpectMeshSkinsToTheBaseline(const char* scene, const char* baseline, size_t time_codes) {
  const Layer layer = ReadConformance(scene);
  const Layer baked = ReadConformance(baseline);
  const Prim& skeleton = *layer.FindPrim("/Root/Skeleton");
  const Prim& mesh = *layer.FindPrim("/Root/Mesh");
  const std::vector<int32_t> parents =
      JointParents(Vec(Default(layer, "/Root/Skeleton.joints").strings()));
  const std::vector<Float4x4> binds = MatricesOf(skeleton, "bindTransforms");
  auto binding = ResolveBinding(layer, mesh);
  ASSERT_TRUE(binding.ok());
  ASSERT_TRUE(binding->has_influences && !binding->rigid);
  const size_t e = size_t(binding->influences_per_point), k = (e + 3) / 4 * 4;
  const std::span<const int32_t> indices = binding->joint_indices->default_value->ints();
  const std::span<const float> weights = binding->joint_weights->default_value->floats();
  const Float4x4 geom_bind = FromUsdMatrix(std::span<const double, 16>(
      binding->geom_bind_transform->default_value->doubles().data(), 16));
  const std::span<const float> points = Default(layer, "/Root/Mesh.points").floats();
  const size_t n = points.size() / 3;
  // Bind-space points and K influences (slots past e with weight 0).
  std::vector<float> q(n * 3);
  std::vector<uint16_t> joints(n * k, 0);
  std::vector<float> slots(n * k, 0.0f);
  for (size_t v = 0; v < n; ++v) {
    const Float3 b =
        TransformPoint(geom_bind, {points[v * 3], points[v * 3 + 1], points[v * 3 + 2]});
    q[v * 3] = b.x, q[v * 3 + 1] = b.y, q[v * 3 + 2] = b.z;
    for (size_t i = 0; i < e; ++i) {
      joints[v * k + i] = uint16_t(indices[v * e + i]);
      slots[v * k + i] = weights[v * e + i];
    }
  }
  const Attribute& expected = Attr(baked, "/Root/Mesh.points");
  ASSERT_EQ(expected.time_samples.size(), time_codes);
  for (const TimeSample& sample : expected.time_samples) {
    SCOPED_TRACE(sample.time);
    auto locals = JointLocalTransforms(layer, skeleton, sample.time);
    ASSERT_TRUE(locals.ok()) << locals.error().ToString();
    std::vector<Float4x4> skel, skinning;
    ASSERT_TRUE(SkinningTransforms(parents, *locals, binds, &skel, &skinning).ok());
    std::vector<Float3x4> palette;
    for (const Float4x4& m : skinning) palette.push_back(ToFloat3x4(m));
    std::vector<cpu::DualQuaternion> dual_quaternions;
    if (binding->skinning_method == SkinningMethodToken::kDualQuaternion) {
      dual_quaternions.resize(palette.size());
      cpu::DualQuaternionPaletteJob convert;
      convert.palette = palette;
      convert.output = dual_quaternions;
      ASSERT_TRUE(convert.Run().ok());
    }
    std::vector<float> out(n * 3);
    cpu::SkinDenseJob job;
    job.influences_per_vertex = uint32_t(k);
    job.positions = q;
    job.joints = joints;
    job.weights = slots;
    job.palette = palette;
    job.dual_quaternions = dual_quaternions;
    job.out_positions = out;
    ASSERT_TRUE(job.Run().ok());
    const std::span<const float> want = sample.value.floats();
    ASSERT_EQ(want.size(), out.size());
    for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], want[i], 1e-4f) << "float " << i;
  }
}

// lbs.usda's Mesh: linear blend skinning (fails when the animation is ignored).
TEST(UsdaConformance, LbsMeshSkinsToTheBakedBaselineAtEveryTimeCode) {
  ExpectMeshSkinsToTheBaseline("lbs.usda", "baseline/lbs.baked.usda", 30);
}

// dqs.usda's Mesh: dual quaternions, the method inherited from the SkelRoot.
TEST(UsdaConformance, DqsMeshSkinsToTheBakedBaselineAtEveryTimeCode) {
  ExpectMeshSkinsToTheBaseline("dqs.usda", "baseline/dqs.baked.usda", 30);
}

// A scene's /TestPlane/Mesh: its blend shapes (no joints), driven by /TestPlane/Skel/Anim's
// weights mapped by name, resolved over the in-betweens (SubShapeWeightsJob) and applied
// (MorphTargetsJob, normals renormalized) at every baked time code: Pixar's points, and normals
// where the baseline has them, within 1e-4.
void ExpectBlendShapesMatchTheBaseline(const char* scene, const char* baseline, size_t blend_shapes,
                                       size_t targets) {
  const Layer layer = ReadConformance(scene);
  const Layer baked = ReadConformance(baseline);
  const Prim& mesh = *layer.FindPrim("/TestPlane/Mesh");
  auto binding = ResolveBinding(layer, mesh);
  ASSERT_TRUE(binding.ok()) << binding.error().ToString();
  ASSERT_NE(binding->skeleton, nullptr);
  const std::span<const float> points = Default(layer, "/TestPlane/Mesh.points").floats();
  const Attribute* rest_normals = mesh.FindAttribute("normals");
  const std::span<const float> normals =
      rest_normals ? rest_normals->default_value->floats() : std::span<const float>();
  const size_t n = points.size() / 3;
  auto shapes = ReadBlendShapes(layer, mesh, *binding, n);
  ASSERT_TRUE(shapes.ok()) << shapes.error().ToString();
  ASSERT_EQ(shapes->names.size(), blend_shapes);
  EXPECT_EQ(shapes->targets.size(), targets);
  const Prim& animation = *layer.FindPrim("/TestPlane/Skel/Anim");
  const AnimMapper map(Vec(Default(layer, "/TestPlane/Skel/Anim.blendShapes").strings()),
                       shapes->names);
  const Attribute& expected = Attr(baked, "/TestPlane/Mesh.points");
  const Attribute* expected_normals = baked.FindAttribute("/TestPlane/Mesh.normals");
  ASSERT_FALSE(expected.time_samples.empty());
  for (const TimeSample& sample : expected.time_samples) {
    SCOPED_TRACE(sample.time);
    const std::optional<Value> w =
        ValueAt(*animation.FindAttribute("blendShapeWeights"), sample.time);
    ASSERT_TRUE(w.has_value());
    std::vector<float> primary;  // the mesh's order, 0 for a shape the animation leaves out
    map.Remap<float>(w->floats(), 1, 0.0f, &primary);
    std::vector<float> weights(shapes->targets.size(), 0.0f), resolved(weights.size());
    std::copy(primary.begin(), primary.end(), weights.begin());
    cpu::SubShapeWeightsJob sub;
    sub.shapes = shapes->inbetweens;
    sub.weights = weights;
    sub.output = resolved;
    ASSERT_TRUE(sub.Run().ok());
    std::vector<float> out(n * 3), out_normals(normals.size());
    cpu::MorphTargetsJob morph;
    morph.positions = points;
    morph.normals = normals;
    morph.targets = shapes->targets;
    morph.weights = resolved;
    morph.out_positions = out;
    morph.out_normals = out_normals;
    ASSERT_TRUE(morph.Run().ok());
    const std::span<const float> want = sample.value.floats();
    ASSERT_EQ(want.size(), out.size());
    for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], want[i], 1e-4f) << "float " << i;
    if (!expected_normals) continue;
    const std::optional<Value> want_normals = ValueAt(*expected_normals, sample.time);
    ASSERT_TRUE(want_normals.has_value());
    ASSERT_EQ(want_normals->floats().size(), out_normals.size());
    for (size_t i = 0; i < out_normals.size(); ++i) {
      ASSERT_NEAR(out_normals[i], want_normals->floats()[i], 1e-4f) << "normal float " << i;
    }
  }
}

// blendshapes.usda: six shapes, C and D with two in-betweens, E and F one (F's at a negative
// weight). Fails without the in-betweens.
TEST(UsdaConformance, BlendShapesWithInbetweensMatchTheBakedBaselineAtEveryTimeCode) {
  ExpectBlendShapesMatchTheBaseline("blendshapes.usda", "baseline/blendshapes.baked.usda", 6,
                                    6 + 5);
}

// blendshapesWithNormals.usda: four twirls whose in-betweens offset only the normals.
TEST(UsdaConformance, BlendShapesWithNormalOffsetsMatchTheBakedBaselineAtEveryTimeCode) {
  ExpectBlendShapesMatchTheBaseline("blendshapesWithNormals.usda",
                                    "baseline/blendshapesWithNormals.baked.usda", 4, 4 + 4);
}

// lbs.usda's rigid prims: constant influences (the Sphere one joint, the Cube two at half weight,
// the Cylinder one), the Cube and the Cylinder in their own joint order (skel:joints, mapped from
// the skeleton's); each prim's skinned transform (cpu::RigidTransformJob over the skinning
// transforms UsdSkel's own chain gives, independent of the loader) matches the baked
// xformOp:transform within 1e-4 at every time code.
TEST(UsdaConformance, LbsRigidPrimsMatchTheBakedTransformsAtEveryTimeCode) {
  const Layer layer = ReadConformance("lbs.usda");
  const Layer baked = ReadConformance("baseline/lbs.baked.usda");
  const Prim& skeleton = *layer.FindPrim("/Root/Skeleton");
  const Strings skeleton_joints = Vec(Default(layer, "/Root/Skeleton.joints").strings());
  const std::vector<int32_t> parents = JointParents(skeleton_joints);
  const std::vector<Float4x4> binds = MatricesOf(skeleton, "bindTransforms");
  for (const char* path : {"/Root/Sphere", "/Root/Cube", "/Root/Cylinder"}) {
    SCOPED_TRACE(path);
    auto binding = ResolveBinding(layer, *layer.FindPrim(path));
    ASSERT_TRUE(binding.ok());
    ASSERT_TRUE(binding->has_influences && binding->rigid);
    const Float4x4 geom_bind = FromUsdMatrix(std::span<const double, 16>(
        binding->geom_bind_transform->default_value->doubles().data(), 16));
    const Attribute& expected = Attr(baked, std::string(path) + ".xformOp:transform");
    ASSERT_EQ(expected.time_samples.size(), 30u);
    for (const TimeSample& sample : expected.time_samples) {
      SCOPED_TRACE(sample.time);
      auto locals = JointLocalTransforms(layer, skeleton, sample.time);
      ASSERT_TRUE(locals.ok());
      std::vector<Float4x4> skel, skinning;
      ASSERT_TRUE(SkinningTransforms(parents, *locals, binds, &skel, &skinning).ok());
      if (binding->joints) {  // the prim's own order; joints it names that are not the skeleton's:
                              // identity
        std::vector<Float4x4> own;
        AnimMapper(skeleton_joints, Vec(binding->joints->default_value->strings()))
            .Remap<Float4x4>(skinning, 1, Float4x4{}, &own);
        skinning = std::move(own);
      }
      RigidBinding rigid;
      rigid.geom_bind = geom_bind;
      for (const int32_t j : binding->joint_indices->default_value->ints()) {
        rigid.joints.push_back(uint16_t(j));
      }
      const std::span<const float> weights = binding->joint_weights->default_value->floats();
      rigid.weights.assign(weights.begin(), weights.end());
      std::vector<Float3x4> palette;
      for (const Float4x4& m : skinning) palette.push_back(ToFloat3x4(m));
      Float4x4 x;
      cpu::RigidTransformJob job;
      job.binding = &rigid;
      job.palette = palette;
      job.output = &x;
      ASSERT_TRUE(job.Run().ok());
      const Float4x4 want =
          FromUsdMatrix(std::span<const double, 16>(sample.value.doubles().data(), 16));
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) ASSERT_NEAR(x.m[c][r], want.m[c][r], 1e-4f) << c << "," << r;
    }
  }
}

TEST(UsdaConformance, DqsInheritsItsSkinningMethodFromTheSkelRoot) {
  const Layer layer = ReadConformance("dqs.usda");
  EXPECT_EQ(layer.end_time_code, 30.0);
  const Attribute& method = Attr(layer, "/Root.primvars:skel:skinningMethod");
  EXPECT_EQ(method.type, ValueType::kToken);
  EXPECT_EQ(method.variability, Variability::kUniform);
  EXPECT_EQ(method.default_value->AsString(), "dualQuaternion");
}

TEST(UsdaConformance, BlendShapesHaveTheirTargetsAndInbetweenWeights) {
  const Layer layer = ReadConformance("blendshapes.usda");
  EXPECT_EQ(layer.default_prim, "TestPlane");
  EXPECT_EQ(layer.start_time_code, 1.0);
  EXPECT_EQ(layer.end_time_code, 131.0);
  EXPECT_EQ(layer.up_axis, "Z");
  const Strings shapes{"targetA", "targetB", "targetC", "targetD", "targetE", "targetF"};
  EXPECT_EQ(Vec(Default(layer, "/TestPlane/Mesh.skel:blendShapes").strings()), shapes);
  Strings targets;
  for (const std::string& s : shapes) targets.push_back("/TestPlane/Mesh/" + s);
  EXPECT_EQ(Targets(layer, "/TestPlane/Mesh.skel:blendShapeTargets"), targets);
  EXPECT_EQ(layer.FindPrim("/TestPlane/Mesh")->api_schemas.explicit_items,
            Strings{"SkelBindingAPI"});
  EXPECT_EQ(Targets(layer, "/TestPlane.skel:skeleton"), Strings{"/TestPlane/Skel"});

  const Attribute& half = Attr(layer, "/TestPlane/Mesh/targetC.inbetweens:targetC_0point5");
  EXPECT_EQ(half.type, ValueType::kPoint3f);
  EXPECT_EQ(half.weight, 0.5f);
  EXPECT_EQ(Vec(half.default_value->floats(), 0, 3), (std::vector<float>{-3.5f, 1.9999366f, 0}));
  EXPECT_EQ(Attr(layer, "/TestPlane/Mesh/targetC.inbetweens:targetC_1point5").weight, 1.5f);
  EXPECT_EQ(Attr(layer, "/TestPlane/Mesh/targetD.inbetweens:targetD_0point5").weight, 0.5f);
  EXPECT_EQ(Attr(layer, "/TestPlane/Mesh/targetE.inbetweens:targetE_1point5").weight, 1.5f);
  EXPECT_EQ(Attr(layer, "/TestPlane/Mesh/targetF.inbetweens:targetF_negative0point499").weight,
            -0.499f);
  const Attribute& offsets = Attr(layer, "/TestPlane/Mesh/targetA.offsets");
  EXPECT_EQ(offsets.type, ValueType::kVector3f);
  EXPECT_EQ(Vec(offsets.default_value->floats(), 0, 3), (std::vector<float>{0, 11.999916f, 0}));
  EXPECT_EQ(Default(layer, "/TestPlane/Mesh/targetA.pointIndices").size(),
            offsets.default_value->size());
}

TEST(UsdaConformance, BlendShapeWeightsAreSampledAtEveryFrame) {
  const Layer layer = ReadConformance("blendshapes.usda");
  EXPECT_EQ(Vec(Default(layer, "/TestPlane/Skel/Anim.blendShapes").strings()).size(), 6u);
  const Attribute& weights = Attr(layer, "/TestPlane/Skel/Anim.blendShapeWeights");
  ASSERT_EQ(weights.time_samples.size(), 131u);
  EXPECT_EQ(Vec(weights.time_samples[0].value.floats()), (std::vector<float>(6, 0.0f)));
  EXPECT_EQ(weights.time_samples.back().time, 131.0);
  EXPECT_EQ(Vec(weights.time_samples.back().value.floats()),
            (std::vector<float>{1.5f, 1.5f, 0, 0, 0, 0}));
  // The reference points kept beside the scene: 113 of the 131 frames.
  const Attribute& truth = Attr(layer, "/GroundTruth/Mesh.points");
  EXPECT_EQ(truth.time_samples.size(), 113u);
  EXPECT_EQ(truth.time_samples.back().time, 131.0);
  EXPECT_EQ(Attr(layer, "/GroundTruth/Mesh.primvars:displayColor").interpolation, "constant");
}

TEST(UsdaConformance, BlendShapesWithNormalsHaveNormalOffsetInbetweens) {
  const Layer layer = ReadConformance("blendshapesWithNormals.usda");
  EXPECT_EQ(layer.start_time_code, 1.0);
  EXPECT_EQ(layer.end_time_code, 17.0);
  // Relative targets, resolved against the mesh.
  EXPECT_EQ(Targets(layer, "/TestPlane/Mesh.skel:blendShapeTargets"),
            (Strings{"/TestPlane/Mesh/twirl_a", "/TestPlane/Mesh/twirl_b",
                     "/TestPlane/Mesh/twirl_c", "/TestPlane/Mesh/twirl_d"}));
  EXPECT_EQ(Targets(layer, "/TestPlane.skel:animationSource"), Strings{"/TestPlane/Skel/Anim"});
  // The weight written on the in-between's own line: `[...] (weight = 0.5)`.
  EXPECT_EQ(Attr(layer, "/TestPlane/Mesh/twirl_a.inbetweens:half").weight, 0.5f);
  EXPECT_FALSE(
      Attr(layer, "/TestPlane/Mesh/twirl_a.inbetweens:half:normalOffsets").weight.has_value());
  const Attribute& normals = Attr(layer, "/TestPlane/Mesh/twirl_a.inbetweens:half:normalOffsets");
  EXPECT_EQ(Vec(normals.default_value->floats(), 0, 3), (std::vector<float>{1, 0, 0}));
  EXPECT_EQ(Attr(layer, "/TestPlane/Skel/Anim.blendShapeWeights").time_samples.size(), 9u);
  EXPECT_EQ(Default(layer, "/TestPlane/Mesh/twirl_a.pointIndices").size(), 20u);
}

TEST(UsdaConformance, BakedBaselinesHaveTheBakedSamples) {
  const Layer lbs = ReadConformance("baseline/lbs.baked.usda");
  EXPECT_EQ(lbs.FindPrim("/Root")->type_name, "Xform");
  EXPECT_EQ(Attr(lbs, "/Root/Mesh.points").time_samples.size(), 30u);
  const Attribute& transform = Attr(lbs, "/Root/Sphere.xformOp:transform");
  EXPECT_EQ(transform.type, ValueType::kMatrix4d);
  EXPECT_EQ(transform.time_samples.size(), 30u);
  EXPECT_EQ(Vec(Default(lbs, "/Root/Sphere.xformOpOrder").strings()), Strings{"xformOp:transform"});
  EXPECT_EQ(Targets(lbs, "/Root/Skeleton.skel:animationSource"),
            Strings{"/Root/Skeleton/Animation"});
  const Layer dqs = ReadConformance("baseline/dqs.baked.usda");
  EXPECT_EQ(Attr(dqs, "/Root/Mesh.points").time_samples.size(), 30u);

  const Layer shapes = ReadConformance("baseline/blendshapes.baked.usda");
  const Attribute& points = Attr(shapes, "/TestPlane/Mesh.points");
  EXPECT_TRUE(points.default_value.has_value());
  EXPECT_EQ(points.time_samples.size(), 131u);
  const Layer normals = ReadConformance("baseline/blendshapesWithNormals.baked.usda");
  EXPECT_EQ(Attr(normals, "/TestPlane/Mesh/twirl_a.inbetweens:half").weight, 0.5f);
  EXPECT_EQ(Attr(normals, "/TestPlane/Mesh.normals").time_samples.size(), 17u);
}

}  // namespace
}  // namespace sinew::loader::usd
