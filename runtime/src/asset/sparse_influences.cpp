#include "sinew/asset/sparse_influences.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "influence_prepass.h"

namespace sinew {
namespace {

// One sparse entry while converting.
struct Entry {
  uint32_t group;
  float weight;
};

// The CSR order within a vertex: heavier first, ties by lower group first.
bool Before(const Entry& a, const Entry& b) {
  return detail::EntryBefore(a.group, a.weight, b.group, b.weight);
}

std::string EntryWhere(const char* stream, size_t e) {
  return std::string("sparse_influences/") + stream + "/" + std::to_string(e);
}

}  // namespace

Status ValidateSparseInfluenceLayout(size_t vertex_count, const SparseInfluences& influences) {
  const std::vector<uint32_t>& offsets = influences.offsets;
  if (offsets.empty() || offsets.size() - 1 != vertex_count) {  // (vertex_count + 1 may wrap.)
    return {Error::kSizeMismatch,
            "offsets has " + std::to_string(offsets.size()) + " entries, expected " +
                std::to_string(vertex_count + 1) + " (vertex count + 1)",
            "sparse_influences/offsets"};
  }
  if (offsets[0] != 0) {
    return {Error::kSizeMismatch, "offsets starts at " + std::to_string(offsets[0]) + ", not 0",
            EntryWhere("offsets", 0)};
  }
  for (size_t v = 0; v < vertex_count; ++v) {
    if (offsets[v + 1] < offsets[v]) {
      return {Error::kSizeMismatch,
              "offsets decreases from " + std::to_string(offsets[v]) + " to " +
                  std::to_string(offsets[v + 1]) + " at vertex " + std::to_string(v),
              EntryWhere("offsets", v + 1)};
    }
  }
  // The offsets define the entry count; both entry streams must hold exactly that many.
  const size_t entry_count = offsets[vertex_count];
  if (influences.groups.size() != entry_count) {
    return {Error::kSizeMismatch,
            "groups has " + std::to_string(influences.groups.size()) + " entries, offsets end at " +
                std::to_string(entry_count),
            "sparse_influences/groups"};
  }
  if (influences.weights.size() != entry_count) {
    return {Error::kSizeMismatch,
            "weights has " + std::to_string(influences.weights.size()) +
                " entries, offsets end at " + std::to_string(entry_count),
            "sparse_influences/weights"};
  }
  if (influences.group_count == 0) {
    return {Error::kEmptyPalette, "group_count is 0: the group palette would be empty",
            "sparse_influences/group_count"};
  }
  return {};
}

Status ValidateSparseInfluences(size_t vertex_count, const SparseInfluences& influences) {
  if (Status s = ValidateSparseInfluenceLayout(vertex_count, influences); !s) return s;
  const std::vector<uint32_t>& offsets = influences.offsets;

  // Nothing wrong (influence_prepass.h): done; else the loop below names the first fault.
  if (detail::SparseEntriesFine(influences, 0, vertex_count)) return {};
  // One pass over the entries, vertex by vertex, so the order check knows where a vertex starts.
  // Checks run per entry, so the first bad entry is reported whatever is wrong with it.
  for (size_t v = 0; v < vertex_count; ++v) {
    for (size_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      const uint32_t group = influences.groups[e];
      const float weight = influences.weights[e];
      if (group >= influences.group_count) {
        return {Error::kJointIndexOutOfRange,
                "vertex " + std::to_string(v) + " names group " + std::to_string(group) +
                    " but group_count is " + std::to_string(influences.group_count),
                EntryWhere("groups", e)};
      }
      if (!std::isfinite(weight)) {
        return {Error::kNonFiniteValue, "weight is not finite", EntryWhere("weights", e)};
      }
      if (weight < 0.0f) {
        return {Error::kNegativeWeight, "weight " + std::to_string(weight) + " is negative",
                EntryWhere("weights", e)};
      }
      // Equal (group, weight) pairs are in order: a vertex may name a group twice (as a dense
      // vertex may name a joint twice), and DenseToSparse keeps such pairs.
      if (e > offsets[v] &&
          Before({group, weight}, {influences.groups[e - 1], influences.weights[e - 1]})) {
        return {Error::kInvalidArgument,
                "vertex " + std::to_string(v) + ": entry (group " + std::to_string(group) +
                    ", weight " + std::to_string(weight) +
                    ") must come before the previous one (weights descend, ties by lower group)",
                EntryWhere("weights", e)};
      }
    }
  }
  return {};
}

Result<SparseInfluences> DenseToSparse(size_t vertex_count, const DenseInfluences& dense,
                                       size_t palette_size) {
  const uint32_t k = dense.influences_per_vertex;
  if (Status s =
          ValidateDenseInfluences(vertex_count, k, dense.joints, dense.weights, palette_size);
      !s) {
    return s;
  }
  if (palette_size > std::numeric_limits<uint32_t>::max()) {
    return ErrorInfo{
        Error::kUnsupportedFeature,
        "palette_size " + std::to_string(palette_size) + " does not fit the 32-bit group_count",
        "palette_size", 0};
  }
  const size_t entry_count = static_cast<size_t>(
      std::count_if(dense.weights.begin(), dense.weights.end(), [](float w) { return w != 0.0f; }));
  if (entry_count > std::numeric_limits<uint32_t>::max()) {
    return ErrorInfo{Error::kUnsupportedFeature,
                     std::to_string(entry_count) + " nonzero weights do not fit 32-bit offsets",
                     "influences/weights", 0};
  }

  SparseInfluences sparse;
  sparse.group_count = static_cast<uint32_t>(palette_size);
  sparse.offsets.reserve(vertex_count + 1);
  sparse.groups.reserve(entry_count);
  sparse.weights.reserve(entry_count);
  sparse.offsets.push_back(0);
  std::vector<Entry> vertex(k);  // Scratch for one vertex's nonzero entries.
  for (size_t v = 0; v < vertex_count; ++v) {
    size_t n = 0;
    for (size_t slot = v * k; slot < (v + 1) * k; ++slot) {
      if (dense.weights[slot] != 0.0f) vertex[n++] = {dense.joints[slot], dense.weights[slot]};
    }
    std::sort(vertex.begin(), vertex.begin() + static_cast<std::ptrdiff_t>(n), Before);
    for (size_t i = 0; i < n; ++i) {
      sparse.groups.push_back(vertex[i].group);
      sparse.weights.push_back(vertex[i].weight);
    }
    sparse.offsets.push_back(static_cast<uint32_t>(sparse.groups.size()));
  }
  return sparse;
}

Result<DenseInfluences> SparseToDense(size_t vertex_count, const SparseInfluences& sparse,
                                      uint32_t influences_per_vertex) {
  const uint32_t k = influences_per_vertex;
  if (k == 0 || k % 4 != 0) {
    return ErrorInfo{
        Error::kInvalidInfluenceCount,
        "influences per vertex is " + std::to_string(k) + ", must be a positive multiple of 4",
        "influences_per_vertex", 0};
  }
  if (Status s = ValidateSparseInfluences(vertex_count, sparse); !s) return s;
  // Every group, kept or not: whether a stream converts should not depend on K.
  for (size_t e = 0; e < sparse.entry_count(); ++e) {
    if (sparse.groups[e] > std::numeric_limits<uint16_t>::max()) {
      return ErrorInfo{Error::kUnsupportedFeature,
                       "group " + std::to_string(sparse.groups[e]) +
                           " does not fit the 16-bit joint indices of dense influences",
                       EntryWhere("groups", e), 0};
    }
  }

  DenseInfluences dense;
  dense.influences_per_vertex = k;
  dense.joints.assign(vertex_count * k, 0);  // Unused slots: group 0, weight 0.
  dense.weights.assign(vertex_count * k, 0.0f);
  for (size_t v = 0; v < vertex_count; ++v) {
    const size_t begin = sparse.offsets[v], end = sparse.offsets[v + 1];
    const size_t kept = std::min<size_t>(end - begin, k);
    for (size_t i = 0; i < kept; ++i) {
      dense.joints[v * k + i] = static_cast<uint16_t>(sparse.groups[begin + i]);
      dense.weights[v * k + i] = sparse.weights[begin + i];
    }
    if (kept == end - begin) continue;  // Nothing dropped: weights exactly as authored.
    // Dropped entries: scale the kept ones so the vertex keeps its total. The sums are in double
    // so the factor is exact enough not to matter; the kept entries are the heaviest, so
    // kept_sum is 0 only when the whole vertex is (then nothing is scaled).
    double total = 0.0, kept_sum = 0.0;
    for (size_t e = begin; e < end; ++e) total += sparse.weights[e];
    for (size_t e = begin; e < begin + kept; ++e) kept_sum += sparse.weights[e];
    if (kept_sum > 0.0) {
      const double scale = total / kept_sum;
      for (size_t i = 0; i < kept; ++i) {
        dense.weights[v * k + i] = static_cast<float>(dense.weights[v * k + i] * scale);
      }
    }
  }
  return dense;
}

}  // namespace sinew
