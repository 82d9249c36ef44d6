// UsdSkel's joint hierarchy from a Skeleton's `joints` tokens (docs/usda.md, "UsdSkel
// building blocks"): each joint's parent is the nearest ancestor path that is itself a joint.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader::usd {

// The parent of each joint, or -1 for a root. A joint's parent is the joint whose path is its
// nearest ancestor among the tokens ("A" is the parent of "A/B/C" when "A/B" is not a joint); a
// path that appears twice resolves to its last index; an empty token, "/", and a token with an
// empty or ".." element are roots.
std::vector<int32_t> JointParents(std::span<const std::string> joints);

// Parents precede their joints: kInvalidHierarchy at "<where>/<i>" for a joint that is its own
// parent ("has itself as its parent") or whose parent comes after it ("mis-ordered parent"),
// which also rules out cycles.
Status ValidateTopology(std::span<const int32_t> parents, std::string_view where);

}  // namespace sinew::loader::usd
