// UsdSkel's building blocks on top of the .usda model: the joint hierarchy from joint paths
// (usd/skel_topology.h) and the mapping between joint orders (usd/anim_mapper.h), one rule each.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "usd/anim_mapper.h"
#include "usd/skel_topology.h"

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

}  // namespace
}  // namespace sinew::loader::usd
