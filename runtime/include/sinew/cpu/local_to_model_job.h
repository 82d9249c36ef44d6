// Concatenates joint-local transforms into model (skeleton/scene) space, parents first.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

struct LocalToModelJob {
  // Validate() checks: locals and output sized like parents (kSizeMismatch); each parent is
  // Skeleton::kNoParent (-1) or less than its joint's index (kInvalidHierarchy).
  Status Validate() const;
  // Validates, then writes output[i] = root * output[parent] * locals[i] (root for parentless
  // joints).
  Status Run() const;

  // Parent of each joint, parents first (see Skeleton::parents). Required.
  std::span<const int32_t> parents;
  // Parent-relative transform of each joint. Required, one per joint.
  std::span<const Float4x4> locals;
  // Transform applied above every root joint. Default identity.
  Float4x4 root = Float4x4::Identity();
  // Model-space transform of each joint. Required, one per joint; may not alias locals.
  std::span<Float4x4> output;
};

}  // namespace sinew::cpu
