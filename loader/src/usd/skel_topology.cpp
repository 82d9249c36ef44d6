#include "usd/skel_topology.h"

#include <unordered_map>

namespace sinew::loader::usd {
namespace {

// False for a path that cannot be a joint's: empty, "/", or with an empty or ".." element.
bool WellFormed(std::string_view path) {
  if (path.empty() || path == "/") return false;
  size_t start = path.front() == '/' ? 1 : 0;
  while (start <= path.size()) {
    const size_t end = std::min(path.find('/', start), path.size());
    const std::string_view element = path.substr(start, end - start);
    if (element.empty() || element == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

std::vector<int32_t> JointParents(std::span<const std::string> joints) {
  std::unordered_map<std::string_view, int32_t> index;  // path -> its last index
  for (size_t i = 0; i < joints.size(); ++i) {
    if (WellFormed(joints[i])) index[joints[i]] = int32_t(i);
  }
  std::vector<int32_t> parents(joints.size(), -1);
  for (size_t i = 0; i < joints.size(); ++i) {
    std::string_view path = joints[i];
    if (!WellFormed(path)) continue;
    // Up one element at a time until an ancestor is a joint.
    for (size_t slash = path.rfind('/'); slash != std::string_view::npos && slash > 0;
         slash = path.rfind('/')) {
      path = path.substr(0, slash);
      if (const auto it = index.find(path); it != index.end()) {
        parents[i] = it->second;
        break;
      }
    }
  }
  return parents;
}

Status ValidateTopology(std::span<const int32_t> parents, std::string_view where) {
  for (size_t i = 0; i < parents.size(); ++i) {
    const int32_t p = parents[i];
    if (p < 0) continue;
    if (size_t(p) == i) {
      return {Error::kInvalidHierarchy, "joint " + std::to_string(i) + " has itself as its parent",
              std::string(where) + "/" + std::to_string(i)};
    }
    if (size_t(p) > i) {
      return {Error::kInvalidHierarchy,
              "mis-ordered parent: joint " + std::to_string(i) + "'s parent is joint " +
                  std::to_string(p) + ", which comes after it",
              std::string(where) + "/" + std::to_string(i)};
    }
  }
  return {};
}

}  // namespace sinew::loader::usd
