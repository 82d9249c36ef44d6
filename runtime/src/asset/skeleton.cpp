#include "sinew/asset/skeleton.h"

namespace sinew {

Status Skeleton::Validate() const {
  const size_t n = joint_count();
  if (rest_local.size() != n) {
    return {Error::kSizeMismatch,
            "rest_local has " + std::to_string(rest_local.size()) + " entries, expected " +
                std::to_string(n),
            "skeleton/rest_local"};
  }
  if (inverse_binds.size() != n) {
    return {Error::kSizeMismatch,
            "inverse_binds has " + std::to_string(inverse_binds.size()) + " entries, expected " +
                std::to_string(n),
            "skeleton/inverse_binds"};
  }
  if (!names.empty() && names.size() != n) {
    return {Error::kSizeMismatch,
            "names has " + std::to_string(names.size()) + " entries, expected 0 or " +
                std::to_string(n),
            "skeleton/names"};
  }
  for (size_t i = 0; i < n; ++i) {
    const int32_t parent = parents[i];
    if (parent != kNoParent && (parent < 0 || static_cast<size_t>(parent) >= i)) {
      return {Error::kInvalidHierarchy,
              "joint " + std::to_string(i) + " has parent " + std::to_string(parent) +
                  "; parents must come first",
              "skeleton/parents/" + std::to_string(i)};
    }
    if (!IsFinite(rest_local[i])) {
      return {Error::kNonFiniteValue, "rest transform is not finite",
              "skeleton/rest_local/" + std::to_string(i)};
    }
    if (!IsFinite(inverse_binds[i])) {
      return {Error::kNonFiniteValue, "inverse bind matrix is not finite",
              "skeleton/inverse_binds/" + std::to_string(i)};
    }
  }
  return {};
}

}  // namespace sinew
