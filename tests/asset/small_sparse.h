// A small sparse (CSR) influence stream that the sparse tests start from and change one thing in.
#pragma once

#include "sinew/asset/sparse_influences.h"

namespace sinew::testing {

// Three vertices, four groups: vertex 0 has two entries, vertex 1 none, vertex 2 a tie (lower
// group first).
inline SparseInfluences SmallSparse() {
  SparseInfluences s;
  s.offsets = {0, 2, 2, 4};
  s.groups = {2, 0, 1, 3};
  s.weights = {0.6f, 0.4f, 0.5f, 0.5f};
  s.group_count = 4;
  return s;
}

}  // namespace sinew::testing
