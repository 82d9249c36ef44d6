// The order DenseToSparse puts a vertex's influences in (docs/semantics.md, "Sparse skinning"), for
// tests that compare dense and sparse layouts of the same character.
#pragma once

#include <cstddef>

#include "sinew/asset/dense_influences.h"

namespace sinew::testing {

// Whether vertex v's K dense slots are already in the sparse order: weights descending, ties by
// lower joint, zeros last. Then DenseToSparse keeps the nonzero slots in slot order.
inline bool InSparseOrder(const DenseInfluences& dense, size_t v) {
  const size_t k = dense.influences_per_vertex;
  for (size_t i = v * k + 1; i < (v + 1) * k; ++i) {
    const float w = dense.weights[i], previous = dense.weights[i - 1];
    if (w > previous || (w == previous && w != 0.0f && dense.joints[i] < dense.joints[i - 1])) {
      return false;
    }
  }
  return true;
}

}  // namespace sinew::testing
