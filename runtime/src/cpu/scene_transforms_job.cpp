#include "sinew/cpu/scene_transforms_job.h"

#include <string>
#include <vector>

namespace sinew::cpu {

Status SceneTransformsJob::Validate() const {
  if (Status s = ValidatePose(nodes, pose); !s) return s;
  if (output.size() != nodes.size()) {
    return Status(Error::kSizeMismatch, "output must have one matrix per node", "output");
  }
  return {};
}

Status SceneTransformsJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const auto evaluate = [&](size_t i) {
    const Node& node = nodes[i];
    const Float4x4 local =
        node.has_matrix ? node.matrix
                        : ComposeTrs(pose->translations[i], pose->rotations[i], pose->scales[i]);
    output[i] = node.parent < 0 ? local : Multiply(output[size_t(node.parent)], local);
  };
  // Every parent listed before its children (most files): one pass, nothing allocated.
  bool parents_first = true;
  for (size_t i = 0; i < nodes.size() && parents_first; ++i) {
    parents_first = nodes[i].parent < int32_t(i);
  }
  if (parents_first) {
    for (size_t i = 0; i < nodes.size(); ++i) evaluate(i);
    return {};
  }
  // Otherwise each node's chain of not yet evaluated ancestors, root first.
  std::vector<bool> done(nodes.size(), false);
  std::vector<size_t> chain;
  for (size_t i = 0; i < nodes.size(); ++i) {
    chain.clear();
    for (int32_t n = int32_t(i); n >= 0 && !done[size_t(n)]; n = nodes[size_t(n)].parent) {
      chain.push_back(size_t(n));
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      evaluate(*it);
      done[*it] = true;
    }
  }
  return {};
}

}  // namespace sinew::cpu
