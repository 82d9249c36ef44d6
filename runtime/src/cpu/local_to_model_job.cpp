#include "sinew/cpu/local_to_model_job.h"

#include <string>

namespace sinew::cpu {

Status LocalToModelJob::Validate() const {
  if (locals.size() != parents.size()) {
    return {Error::kSizeMismatch,
            "locals has " + std::to_string(locals.size()) + " entries for " +
                std::to_string(parents.size()) + " joints",
            "locals"};
  }
  if (output.size() != parents.size()) {
    return {Error::kSizeMismatch,
            "output has " + std::to_string(output.size()) + " entries for " +
                std::to_string(parents.size()) + " joints",
            "output"};
  }
  for (size_t i = 0; i < parents.size(); ++i) {
    if (parents[i] != -1 && (parents[i] < 0 || static_cast<size_t>(parents[i]) >= i)) {
      return {Error::kInvalidHierarchy,
              "joint " + std::to_string(i) + " has parent " + std::to_string(parents[i]),
              "parents/" + std::to_string(i)};
    }
  }
  return {};
}

Status LocalToModelJob::Run() const {
  if (Status s = Validate(); !s) return s;
  for (size_t i = 0; i < parents.size(); ++i) {
    const Float4x4& parent = parents[i] < 0 ? root : output[static_cast<size_t>(parents[i])];
    output[i] = Multiply(parent, locals[i]);
  }
  return {};
}

}  // namespace sinew::cpu
