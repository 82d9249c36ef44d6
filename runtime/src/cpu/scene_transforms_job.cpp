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
  std::vector<bool> done(nodes.size(), false);
  std::vector<size_t> chain;
  for (size_t i = 0; i < nodes.size(); ++i) {
    chain.clear();
    for (int32_t n = int32_t(i); n >= 0 && !done[size_t(n)]; n = nodes[size_t(n)].parent) {
      chain.push_back(size_t(n));
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Node& node = nodes[*it];
      const Float4x4 local = node.has_matrix ? node.matrix
                                             : ComposeTrs(pose->translations[*it],
                                                          pose->rotations[*it], pose->scales[*it]);
      output[*it] = node.parent < 0 ? local : Multiply(output[size_t(node.parent)], local);
      done[*it] = true;
    }
  }
  return {};
}

}  // namespace sinew::cpu
