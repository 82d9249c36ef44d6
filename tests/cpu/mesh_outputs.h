// Output streams sized like a mesh's, for tests that skin a whole Primitive.
#pragma once

#include <cstring>
#include <vector>

#include "sinew/asset/primitive.h"

namespace sinew::testing {

struct MeshOutputs {
  std::vector<float> positions, normals, tangents;

  explicit MeshOutputs(const Primitive& mesh)
      : positions(mesh.positions.size()),
        normals(mesh.normals.size()),
        tangents(mesh.tangents.size()) {}

  // Bit for bit the same (so NaNs of the same bits are equal, and 0 differs from -0).
  bool operator==(const MeshOutputs& o) const {
    const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
      return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    };
    return same(positions, o.positions) && same(normals, o.normals) && same(tangents, o.tangents);
  }
};

}  // namespace sinew::testing
