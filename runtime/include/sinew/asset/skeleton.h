// A packed skeleton: joints in parents-first order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew {

// Joint i's parent is parents[i] < i, or kNoParent for a root. All arrays have one entry per joint.
struct Skeleton {
  static constexpr int32_t kNoParent = -1;

  // Parent joint index, strictly less than the joint's own index; kNoParent for roots.
  std::vector<int32_t> parents;
  // Local (parent-relative) rest transform of each joint; the pose at which the mesh was bound.
  std::vector<Float4x4> rest_local;
  // Inverse bind matrix of each joint: scene space -> joint space at bind time.
  // glTF's default when a skin has none is identity (fill with Float4x4{}).
  std::vector<Float4x4> inverse_binds;
  // Optional names (empty, or one per joint).
  std::vector<std::string> names;

  size_t joint_count() const { return parents.size(); }

  // Checks, in order:
  // - rest_local and inverse_binds have one entry per joint, names none or one per joint
  //   (kSizeMismatch);
  // - every parent is kNoParent or less than the joint's index (kInvalidHierarchy);
  // - every matrix entry is finite (kNonFiniteValue).
  Status Validate() const;
};

}  // namespace sinew
