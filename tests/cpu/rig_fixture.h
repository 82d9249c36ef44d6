// Small skeletons written out in the bind pose and retargeting tests: named nodes, one skin, and
// its bind poses as model-space matrices.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/math.h"
#include "sinew/cpu/scene_transforms_job.h"

namespace sinew::cpu::testing {

constexpr float kPi = 3.14159265358979f;

// Degrees about an axis.
inline Quat RotX(float degrees) { return AxisAngle(1, 0, 0, degrees * kPi / 180); }
inline Quat RotY(float degrees) { return AxisAngle(0, 1, 0, degrees * kPi / 180); }
inline Quat RotZ(float degrees) { return AxisAngle(0, 0, 1, degrees * kPi / 180); }

// A model-space matrix at `t`, rotated by r, scaled by s.
inline Float4x4 At(Float3 t, Quat r = {}, Float3 s = {1, 1, 1}) { return ComposeTrs(t, r, s); }

struct Rig {
  Asset asset;
  // The type AddJoint's matrices go to.
  PoseType type = PoseType::kTPose;

  explicit Rig(PoseType pose_type = PoseType::kTPose) : type(pose_type) {
    asset.skins.emplace_back();
    asset.skins[0].bind_poses.push_back({type, {}});
  }

  Skin& skin() { return asset.skins[0]; }

  // A node that is not a joint, with its own local transform. Returns its index.
  uint32_t AddNode(std::string name, int32_t parent, Float3 t = {}, Quat r = {},
                   Float3 s = {1, 1, 1}) {
    Node node;
    node.name = std::move(name);
    node.parent = parent;
    node.translation = t;
    node.rotation = r;
    node.scale = s;
    const uint32_t index = uint32_t(asset.nodes.size());
    if (parent >= 0) {
      // The parent's children, this one appended, packed anew at the end of node_children.
      const std::span<const uint32_t> siblings = asset.Children(size_t(parent));
      std::vector<uint32_t> children(siblings.begin(), siblings.end());
      children.push_back(index);
      asset.SetChildren(size_t(parent), children);
    }
    asset.nodes.push_back(std::move(node));
    return index;
  }

  // A joint of the skin whose matrix in the bind pose of `type` is `bind`. Its node's own TRS is
  // deliberately far off (the jobs must not depend on it). Returns its node index.
  uint32_t AddJoint(std::string name, int32_t parent, const Float4x4& bind) {
    const uint32_t node = AddNode(std::move(name), parent, {9, -9, 9}, RotX(77), {3, 3, 3});
    skin().joints.push_back(node);
    skin().inverse_binds.emplace_back();
    skin().bind_poses[0].matrices.push_back(bind);
    return node;
  }
};

// Scene matrices of every node of `asset` in `pose`.
inline std::vector<Float4x4> World(const Asset& asset, const ScenePose& pose) {
  std::vector<Float4x4> world(asset.nodes.size());
  SceneTransformsJob job;
  job.nodes = asset.nodes;
  job.pose = &pose;
  job.output = world;
  EXPECT_TRUE(job.Run().ok());
  return world;
}

inline void ExpectMatrixNear(const Float4x4& actual, const Float4x4& expected,
                             float tolerance = 1e-5f) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(actual.m[c][r], expected.m[c][r], tolerance) << "column " << c << " row " << r;
    }
  }
}

inline void ExpectNear(const Float3& actual, Float3 expected, float tolerance = 1e-5f) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
  EXPECT_NEAR(actual.z, expected.z, tolerance);
}

// q and -q are the same rotation.
inline void ExpectSameRotation(const Quat& a, const Quat& b, float tolerance = 1e-5f) {
  EXPECT_NEAR(std::fabs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w), 1.0f, tolerance)
      << "(" << a.x << ", " << a.y << ", " << a.z << ", " << a.w << ") vs (" << b.x << ", " << b.y
      << ", " << b.z << ", " << b.w << ")";
}

}  // namespace sinew::cpu::testing
