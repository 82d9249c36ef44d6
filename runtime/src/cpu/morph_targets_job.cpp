#include "sinew/cpu/morph_targets_job.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/math.h"

namespace sinew::cpu {

namespace {

Status Sized(const char* name, size_t got, size_t expected) {
  if (got == expected) return {};
  return Status(Error::kSizeMismatch,
                std::string(name) + " has " + std::to_string(got) + " floats, expected " +
                    std::to_string(expected),
                name);
}

}  // namespace

Status MorphTargetsJob::Validate() const {
  if (positions.size() % 3 != 0)
    return Sized("positions", positions.size(), positions.size() / 3 * 3);
  const size_t v = positions.size() / 3;
  if (!normals.empty()) {
    if (Status s = Sized("normals", normals.size(), v * 3); !s) return s;
  }
  if (!tangents.empty()) {
    if (Status s = Sized("tangents", tangents.size(), v * 4); !s) return s;
  }
  if (Status s = Sized("out_positions", out_positions.size(), positions.size()); !s) return s;
  if (Status s = Sized("out_normals", out_normals.size(), normals.size()); !s) return s;
  if (Status s = Sized("out_tangents", out_tangents.size(), tangents.size()); !s) return s;
  if (weights.size() != targets.size()) {
    return Status(Error::kSizeMismatch,
                  std::to_string(weights.size()) + " weights for " +
                      std::to_string(targets.size()) + " targets",
                  "weights");
  }
  for (size_t t = 0; t < targets.size(); ++t) {
    const std::string where = "targets/" + std::to_string(t) + "/";
    const MorphTarget& m = targets[t];
    for (const auto& [stream, name] :
         {std::pair{&m.positions, "positions"}, std::pair{&m.normals, "normals"},
          std::pair{&m.tangents, "tangents"}}) {
      if (!stream->empty() && stream->size() != v * 3) {
        return Status(Error::kSizeMismatch,
                      std::string(name) + " offsets for " + std::to_string(stream->size() / 3) +
                          " vertices, the primitive has " + std::to_string(v),
                      where + name);
      }
    }
    if (!std::isfinite(weights[t])) {
      return Status(Error::kNonFiniteValue, "weight is not finite", "weights/" + std::to_string(t));
    }
  }
  return {};
}

bool MorphTargetsJob::Inactive() const {
  return std::all_of(weights.begin(), weights.end(), [](float w) { return w == 0.0f; });
}

Status MorphTargetsJob::Run() const {
  if (Status s = Validate(); !s) return s;
  std::copy(positions.begin(), positions.end(), out_positions.begin());
  std::copy(normals.begin(), normals.end(), out_normals.begin());
  std::copy(tangents.begin(), tangents.end(), out_tangents.begin());
  // No nonzero weight: no offset applied, nothing renormalized (the GPU skips the stage too).
  if (Inactive()) return {};
  const size_t v = positions.size() / 3;
  for (size_t t = 0; t < targets.size(); ++t) {
    const float w = weights[t];
    if (w == 0.0f) continue;
    const MorphTarget& m = targets[t];
    for (size_t i = 0; i < m.positions.size(); ++i) out_positions[i] += w * m.positions[i];
    if (!normals.empty()) {
      for (size_t i = 0; i < m.normals.size(); ++i) out_normals[i] += w * m.normals[i];
    }
    if (!tangents.empty()) {
      for (size_t i = 0; i < m.tangents.size() / 3; ++i) {
        for (size_t c = 0; c < 3; ++c) out_tangents[i * 4 + c] += w * m.tangents[i * 3 + c];
      }
    }
  }
  for (size_t i = 0; i < v && !normals.empty(); ++i) {
    const Float3 n =
        NormalizeOrKeep({out_normals[i * 3], out_normals[i * 3 + 1], out_normals[i * 3 + 2]});
    out_normals[i * 3] = n.x, out_normals[i * 3 + 1] = n.y, out_normals[i * 3 + 2] = n.z;
  }
  for (size_t i = 0; i < v && !tangents.empty(); ++i) {
    const Float3 t =
        NormalizeOrKeep({out_tangents[i * 4], out_tangents[i * 4 + 1], out_tangents[i * 4 + 2]});
    out_tangents[i * 4] = t.x, out_tangents[i * 4 + 1] = t.y, out_tangents[i * 4 + 2] = t.z;
  }
  return {};
}

}  // namespace sinew::cpu
