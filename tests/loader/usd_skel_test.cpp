// UsdSkel's building blocks on top of the .usda model: the joint hierarchy from joint paths
// (usd/skel_topology.h), the mapping between joint orders (usd/anim_mapper.h) and values at a
// time code (usd/time_sampling.h), one rule each.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "usd/anim_mapper.h"
#include "usd/skel_binding.h"
#include "usd/skel_topology.h"
#include "usd/skel_transforms.h"
#include "usd/time_sampling.h"
#include "usd/usda_parser.h"

namespace sinew::loader::usd {
namespace {

using Tokens = std::vector<std::string>;

TEST(JointParents, AreTheNearestAncestorPathThatIsAJoint) {
  const Tokens joints = {"A", "A/B", "A/B/C", "A/D/E", "F"};
  EXPECT_EQ(JointParents(joints), (std::vector<int32_t>{-1, 0, 1, 0, -1}));
}

TEST(JointParents, ResolveAPathGivenTwiceToItsLastIndex) {
  const Tokens joints = {"A", "A/B", "A", "A/C"};
  EXPECT_EQ(JointParents(joints), (std::vector<int32_t>{-1, 2, -1, 2}));
}

TEST(JointParents, MakeEmptyRootAndDotDotPathsRoots) {
  const Tokens joints = {"A", "", "/", "A/../B", "A//B", "/A", "/A/B"};
  EXPECT_EQ(JointParents(joints), (std::vector<int32_t>{-1, -1, -1, -1, -1, -1, 5}));
}

TEST(ValidateTopology, AcceptsParentsBeforeTheirJoints) {
  EXPECT_TRUE(ValidateTopology(JointParents(Tokens{"A", "A/B", "A/B/C"}), "joints").ok());
}

TEST(ValidateTopology, RefusesAParentAfterItsJointAndAJointItsOwnParent) {
  const Status late = ValidateTopology(JointParents(Tokens{"A/B", "A"}), "/Skel.joints");
  EXPECT_EQ(late.code(), Error::kInvalidHierarchy);
  EXPECT_EQ(late.error().where, "/Skel.joints/0");
  EXPECT_NE(late.error().message.find("mis-ordered"), std::string::npos);
  const std::vector<int32_t> self = {-1, 1};
  const Status own = ValidateTopology(self, "joints");
  EXPECT_EQ(own.error().where, "joints/1");
  EXPECT_NE(own.error().message.find("itself"), std::string::npos);
}

TEST(AnimMapper, IsNullWhenEitherOrderIsEmpty) {
  const Tokens some = {"A"};
  EXPECT_TRUE(AnimMapper({}, some).null());
  EXPECT_TRUE(AnimMapper(some, {}).null());
  std::vector<float> target = {7};
  AnimMapper(some, {}).Remap<float>(std::vector<float>{1}, 1, 0.0f, &target);
  EXPECT_TRUE(target.empty());
}

TEST(AnimMapper, IsTheIdentityForTheSameOrderAndCopies) {
  const Tokens joints = {"A", "A/B"};
  const AnimMapper map(joints, joints);
  EXPECT_TRUE(map.identity());
  EXPECT_FALSE(map.sparse());
  std::vector<float> target;
  map.Remap<float>(std::vector<float>{1, 2, 3, 4, 5, 6}, 3, 0.0f, &target);
  EXPECT_EQ(target, (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

// A source that is one run of the target writes that run; the rest keeps what the target held
// (the rest pose), and slots the target gains are filled with the fallback.
TEST(AnimMapper, CopiesAnOrderedRunAndKeepsTheRest) {
  const Tokens source = {"A/B", "A/B/C"}, target = {"A", "A/B", "A/B/C", "D"};
  const AnimMapper map(source, target);
  EXPECT_FALSE(map.identity());
  EXPECT_TRUE(map.sparse());
  std::vector<int> values = {10, 11};  // the target's first two slots, as the rest pose left them
  map.Remap<int>(std::vector<int>{1, 2}, 1, -1, &values);
  EXPECT_EQ(values, (std::vector<int>{10, 1, 2, -1}));
}

// Otherwise each source token goes to its target index (the last, for a repeated target token);
// tokens the target lacks go nowhere.
TEST(AnimMapper, MapsTokenByTokenOtherwise) {
  const Tokens source = {"C", "A", "X"}, target = {"A", "B", "C", "A"};
  const AnimMapper map(source, target);
  EXPECT_TRUE(map.sparse());  // B is written by nobody
  std::vector<int> values;
  map.Remap<int>(std::vector<int>{1, 1, 2, 2, 9, 9}, 2, 0, &values);
  EXPECT_EQ(values, (std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2}));
  const Tokens all = {"B", "A", "C"};
  EXPECT_FALSE(AnimMapper(all, Tokens{"A", "B", "C"}).sparse());
}

// One prim's attribute `name` of a small layer.
Attribute Read(const std::string& attributes, const char* name) {
  auto layer = ReadUsda("#usda 1.0\ndef Xform \"P\"\n{\n" + attributes + "\n}\n");
  EXPECT_TRUE(layer.ok()) << layer.error().ToString();
  const Attribute* a = layer.ok() ? layer->FindAttribute(std::string("/P.") + name) : nullptr;
  EXPECT_NE(a, nullptr) << name;
  return a ? *a : Attribute();
}

std::vector<float> FloatsAt(const Attribute& a, double time) {
  const std::optional<Value> v = ValueAt(a, time);
  EXPECT_TRUE(v.has_value());
  return v ? std::vector<float>(v->floats().begin(), v->floats().end()) : std::vector<float>();
}

TEST(ValueAt, IsTheDefaultWithoutTimeSamplesAndHeldOutsideThem) {
  const Attribute still = Read("float3[] t = [(1, 2, 3)]", "t");
  EXPECT_EQ(FloatsAt(still, 7), (std::vector<float>{1, 2, 3}));
  EXPECT_FALSE(ValueAt(Read("float3[] t", "t"), 0).has_value());
  const Attribute moving = Read("float3[] t.timeSamples = {1: [(0, 0, 0)], 3: [(2, 4, 6)]}", "t");
  EXPECT_EQ(FloatsAt(moving, -5), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(FloatsAt(moving, 9), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(FloatsAt(moving, 3), (std::vector<float>{2, 4, 6}));
}

TEST(ValueAt, LerpsNumbersAndRoundsHalvesToHalf) {
  const Attribute t = Read("float3[] t.timeSamples = {1: [(0, 0, 0)], 3: [(2, 4, 6)]}", "t");
  EXPECT_EQ(FloatsAt(t, 1.5), (std::vector<float>{0.5f, 1, 1.5f}));
  const Attribute h = Read("half3[] s.timeSamples = {0: [(1, 1, 1)], 1: [(2, 2, 2)]}", "s");
  EXPECT_EQ(FloatsAt(h, 0.3333)[0], RoundToHalf(1.3333f));
  const Attribute d = Read("double d.timeSamples = {0: 1, 10: 2}", "d");
  EXPECT_DOUBLE_EQ(*ValueAt(d, 5)->AsDouble(), 1.5);
}

// Quaternions (real, i, j, k) slerp the shortest way, without renormalization.
TEST(ValueAt, SlerpsQuaternionsTheShortestWay) {
  // The identity and 90° about z written negated (the same rotation): halfway is 45° about z,
  // not the long way round.
  const Attribute r = Read(
      "quatf[] r.timeSamples = {0: [(1, 0, 0, 0)], 1: [(-0.70710678, 0, 0, -0.70710678)]}", "r");
  const std::vector<float> half = FloatsAt(r, 0.5);
  EXPECT_NEAR(half[0], std::cos(0.3926991f), 1e-6f);
  EXPECT_NEAR(half[3], std::sin(0.3926991f), 1e-6f);
  // Nearly equal quaternions (1 − cos θ < 1e-5): linear weights.
  const Attribute n =
      Read("quatf[] r.timeSamples = {0: [(1, 0, 0, 0)], 1: [(0.999999, 0.001, 0, 0)]}", "r");
  EXPECT_FLOAT_EQ(FloatsAt(n, 0.5)[1], 0.0005f);
}

TEST(ValueAt, HoldsIntsMatricesBlockedNeighboursAndChangingSizes) {
  const Attribute i = Read("int[] i.timeSamples = {0: [0], 1: [10]}", "i");
  EXPECT_EQ(ValueAt(i, 0.7)->ints()[0], 0);
  const Attribute m = Read(
      "matrix4d m.timeSamples = {0: ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1)), "
      "1: ((2,0,0,0),(0,2,0,0),(0,0,2,0),(0,0,0,1))}",
      "m");
  EXPECT_EQ(ValueAt(m, 0.5)->doubles()[0], 1.0);
  const Attribute b = Read("float f.timeSamples = {0: 1, 1: None}", "f");
  EXPECT_EQ(ValueAt(b, 0.5)->floats()[0], 1.0f);
  EXPECT_TRUE(ValueAt(b, 1)->blocked);
  const Attribute s = Read("float[] f.timeSamples = {0: [1], 1: [2, 3]}", "f");
  EXPECT_EQ(FloatsAt(s, 0.5), (std::vector<float>{1}));
}

// One value at every time code: the default without samples; with samples, theirs when they all
// hold the same value (one sample, the way exporters write a static attribute, or repeats), the
// default beside them unread, as USD reads samples at any time code.
TEST(UnvaryingValue, IsTheDefaultOrTheValueEverySampleHolds) {
  const Attribute still = Read("float3[] t = [(1, 2, 3)]", "t");
  ASSERT_NE(UnvaryingValue(still), nullptr);
  EXPECT_EQ(UnvaryingValue(still)->floats()[2], 3.0f);
  const Attribute one =
      Read("float3[] t = [(1, 2, 3)]\n    float3[] t.timeSamples = {4: [(5, 6, 7)]}", "t");
  ASSERT_NE(UnvaryingValue(one), nullptr);
  EXPECT_EQ(UnvaryingValue(one)->floats()[0], 5.0f);
  const Attribute repeated = Read("int[] i.timeSamples = {0: [3, 4], 1: [3, 4], 9: [3, 4]}", "i");
  ASSERT_NE(UnvaryingValue(repeated), nullptr);
  EXPECT_EQ(UnvaryingValue(repeated)->ints()[1], 4);
}

TEST(UnvaryingValue, IsNullForNoValueABlockOrValuesThatChange) {
  EXPECT_EQ(UnvaryingValue(Read("float3[] t", "t")), nullptr);
  EXPECT_EQ(UnvaryingValue(Read("float3[] t = None", "t")), nullptr);
  EXPECT_EQ(UnvaryingValue(Read("float f.timeSamples = {0: None}", "f")), nullptr);
  EXPECT_EQ(UnvaryingValue(Read("float f.timeSamples = {0: 1, 1: None}", "f")), nullptr);
  EXPECT_EQ(UnvaryingValue(Read("float f.timeSamples = {0: 1, 1: 2}", "f")), nullptr);
  EXPECT_EQ(UnvaryingValue(Read("float[] f.timeSamples = {0: [1], 1: [1, 1]}", "f")), nullptr);
  // Samples are compared bit for bit: 0 and -0 differ.
  EXPECT_EQ(UnvaryingValue(Read("float f.timeSamples = {0: 0, 1: -0}", "f")), nullptr);
}

// USD's row-vector matrices are sinew's column-vector ones with the same numbers: the
// translation USD writes in the last row is sinew's last column.
TEST(FromUsdMatrix, TakesUsdsRowsAsSinewsColumns) {
  const double rows[16] = {0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 3, 4, 1};
  const Float4x4 m = FromUsdMatrix(rows);
  const Float3 p = TransformPoint(m, {1, 0, 0});  // x goes where USD's row 0 says: z
  EXPECT_EQ(p.x, 2.0f);
  EXPECT_EQ(p.y, 3.0f);
  EXPECT_EQ(p.z, 5.0f);
}

// Scale, then rotate, then translate; the quaternion (real, i, j, k) is used as written.
TEST(MakeTransform, ScalesRotatesThenTranslates) {
  const float c = std::sqrt(0.5f);
  const float t[3] = {1, 2, 3}, q[4] = {c, 0, 0, c}, s[3] = {2, 1, 1};  // 90° about z
  const Float3 p = TransformPoint(MakeTransform(t, q, s), {1, 0, 0});
  EXPECT_NEAR(p.x, 1.0f, 1e-6f);  // (2, 0, 0) rotated to (0, 2, 0), then moved
  EXPECT_NEAR(p.y, 4.0f, 1e-6f);
  EXPECT_NEAR(p.z, 3.0f, 1e-6f);
  const float doubled[4] = {2, 0, 0, 0};  // not normalized: 1 − 2(y² + z²) stays 1, so no change
  const Float3 same = TransformPoint(MakeTransform(t, doubled, s), {1, 0, 0});
  EXPECT_EQ(same.x, 3.0f);
}

TEST(SkinningTransforms, ConcatenateParentsFirstAndRefuseAWrongCount) {
  const std::vector<int32_t> parents = {-1, 0};
  const std::vector<Float4x4> locals = {Translation(1, 0, 0), Translation(0, 1, 0)};
  const std::vector<Float4x4> binds = {Translation(1, 0, 0), Translation(1, 0, 0)};
  std::vector<Float4x4> skel, skinning;
  ASSERT_TRUE(SkinningTransforms(parents, locals, binds, &skel, &skinning).ok());
  EXPECT_EQ(skel[1].m[3][0], 1.0f);
  EXPECT_EQ(skel[1].m[3][1], 1.0f);
  EXPECT_EQ(skinning[0].m[3][0], 0.0f);  // at its bind: the identity
  EXPECT_EQ(skinning[1].m[3][1], 1.0f);  // moved up by 1 from its bind
  EXPECT_EQ(SkinningTransforms(parents, std::span(locals).first(1), binds, &skel, &skinning)
                .error()
                .where,
            "locals");
}

// A small layer, /R a SkelRoot with `root` inside, and the binding of its mesh /R/M (which points
// into the layer, kept beside it).
struct Bound {
  std::unique_ptr<Layer> layer;
  Result<SkelBinding> binding = Status(Error::kInvalidArgument, "not resolved");
  const SkelBinding* operator->() const { return &binding.value(); }
  Error code() const { return binding.code(); }
};
Bound Bind(const std::string& root, const std::string& mesh) {
  auto layer =
      ReadUsda("#usda 1.0\ndef SkelRoot \"R\" (prepend apiSchemas = [\"SkelBindingAPI\"])\n{\n" +
               root + "\ndef Skeleton \"S\" {}\ndef Mesh \"M\" (prepend apiSchemas = " +
               "[\"SkelBindingAPI\"])\n{\n" + mesh + "\n}\n}\n");
  EXPECT_TRUE(layer.ok()) << layer.error().ToString();
  Bound out;
  if (!layer.ok()) return out;
  out.layer = std::make_unique<Layer>(std::move(layer.value()));
  out.binding = ResolveBinding(*out.layer, *out.layer->FindPrim("/R/M"));
  return out;
}

// An unknown skinning method is refused; a skeleton target that is no prim binds nothing (as
// UsdSkel binds nothing there), and the binding names it for the loader's warning.
TEST(ResolveBinding, RefusesAnUnknownSkinningMethodAndNamesASkeletonThatIsNoPrim) {
  const Bound method = Bind("uniform token primvars:skel:skinningMethod = \"blend\"", "");
  EXPECT_EQ(method.code(), Error::kInvalidValue);
  EXPECT_EQ(method.binding.error().where, "/R/M.primvars:skel:skinningMethod");
  const Bound skeleton = Bind("rel skel:skeleton = </R/Nothing>", "");
  ASSERT_TRUE(skeleton.binding.ok()) << skeleton.binding.error().ToString();
  EXPECT_EQ(skeleton.binding->skeleton, nullptr);
  EXPECT_EQ(skeleton.binding->missing_skeleton, "/R/Nothing");
}

// Influence primvars that disagree in elementSize or interpolation, or use an interpolation
// other than constant or vertex, are ignored (no influences), as UsdSkel ignores them, and the
// binding says why.
TEST(ResolveBinding, IgnoresInfluencePrimvarsThatDisagree) {
  const Bound agree = Bind("",
                           "int[] primvars:skel:jointIndices = [0, 0] (elementSize = 2\n"
                           "interpolation = \"vertex\")\nfloat[] primvars:skel:jointWeights ="
                           " [1, 0] (elementSize = 2\ninterpolation = \"vertex\")");
  ASSERT_TRUE(agree.binding.ok());
  EXPECT_TRUE(agree->has_influences);
  EXPECT_EQ(agree->influences_per_point, 2);
  EXPECT_EQ(agree->ignored_influences, "");
  const Bound sizes = Bind("",
                           "int[] primvars:skel:jointIndices = [0, 0] (elementSize = 2)\n"
                           "float[] primvars:skel:jointWeights = [1, 0]");
  ASSERT_TRUE(sizes.binding.ok());
  EXPECT_FALSE(sizes->has_influences);
  EXPECT_EQ(sizes->ignored_influences, "jointIndices' elementSize 2 and jointWeights' 1 differ");
  const Bound uniform = Bind("",
                             "int[] primvars:skel:jointIndices = [0] (interpolation = "
                             "\"uniform\")\nfloat[] primvars:skel:jointWeights = [1] ("
                             "interpolation = \"uniform\")");
  ASSERT_TRUE(uniform.binding.ok());
  EXPECT_FALSE(uniform->has_influences);
  EXPECT_EQ(uniform->ignored_influences, "interpolation uniform (constant or vertex)");
  const Bound rigid = Bind(
      "int[] primvars:skel:jointIndices = [0]\n"
      "float[] primvars:skel:jointWeights = [1]",
      "");
  ASSERT_TRUE(rigid.binding.ok());
  EXPECT_TRUE(rigid->has_influences);  // inherited from the SkelRoot, constant: rigid
  EXPECT_TRUE(rigid->rigid);
  EXPECT_EQ(rigid->ignored_influences, "");
}

}  // namespace
}  // namespace sinew::loader::usd
