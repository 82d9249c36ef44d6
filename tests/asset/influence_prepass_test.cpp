// The branch-free checks that validation and the skinning jobs run before skinning
// (runtime/src/asset/influence_prepass.h). They must say "fine" exactly when the exact
// per-entry loops (ValidateSparseInfluences) find nothing: saying "fine" wrongly lets bad input
// through, and saying "fault" wrongly sends every run down the slow path that names it.
#include "asset/influence_prepass.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "asset/small_sparse.h"
#include "sinew/asset/sparse_influences.h"

namespace sinew::detail {
namespace {

using sinew::testing::SmallSparse;

// SparseEntriesFine as the definition reads, vertex by vertex.
bool FineByDefinition(const SparseInfluences& in, size_t begin, size_t end) {
  for (size_t v = begin; v < end; ++v) {
    for (size_t e = in.offsets[v]; e < in.offsets[v + 1]; ++e) {
      if (in.groups[e] >= in.group_count || !(in.weights[e] >= 0.0f) ||
          in.weights[e] > std::numeric_limits<float>::max()) {
        return false;
      }
      if (e > in.offsets[v] &&
          EntryBefore(in.groups[e], in.weights[e], in.groups[e - 1], in.weights[e - 1])) {
        return false;
      }
    }
  }
  return true;
}

// `vertices` vertices of 0 to `most` entries each, in CSR order: weights descending, ties (which
// are frequent: weights are drawn from four values) by lower group first.
SparseInfluences RandomInOrder(std::mt19937& random, size_t vertices, uint32_t most) {
  SparseInfluences in;
  in.group_count = 50;
  in.offsets.push_back(0);
  for (size_t v = 0; v < vertices; ++v) {
    // Now and then a vertex of more entries than the check takes at a time.
    const uint32_t count = random() % 500 == 0 ? 4000 + random() % 2000 : random() % (most + 1);
    std::vector<std::pair<float, uint32_t>> entries;
    for (uint32_t e = 0; e < count; ++e) {
      entries.push_back({0.125f * float(1 + random() % 4), uint32_t(random() % in.group_count)});
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return EntryBefore(a.second, a.first, b.second, b.first);
    });
    for (const auto& [weight, group] : entries) {
      in.groups.push_back(group);
      in.weights.push_back(weight);
    }
    in.offsets.push_back(uint32_t(in.groups.size()));
  }
  return in;
}

TEST(SparseEntriesFine, AcceptsEntriesInOrderWithEmptyVerticesAndTies) {
  EXPECT_TRUE(SparseEntriesFine(SmallSparse(), 0, 3));
  EXPECT_TRUE(SparseEntriesFine(SmallSparse(), 1, 2)) << "an empty vertex alone";
  EXPECT_TRUE(SparseEntriesFine(SmallSparse(), 2, 2)) << "no vertex at all";
}

TEST(SparseEntriesFine, DoesNotCompareTheLastEntryOfAVertexWithTheFirstOfTheNext) {
  SparseInfluences in = SmallSparse();
  in.weights = {0.2f, 0.1f, 0.9f, 0.1f};  // 0.1 then 0.9, across the empty vertex
  EXPECT_TRUE(SparseEntriesFine(in, 0, 3));
  in.offsets = {0, 2, 4, 4};  // and across vertices 0 and 1 directly
  EXPECT_TRUE(SparseEntriesFine(in, 0, 3));
}

TEST(SparseEntriesFine, FindsEachKindOfFaultAtEitherEndOfTheRange) {
  const auto fine_with = [](auto change, size_t begin, size_t end) {
    SparseInfluences in = SmallSparse();
    change(in);
    return SparseEntriesFine(in, begin, end);
  };
  EXPECT_FALSE(fine_with([](auto& in) { in.groups[0] = 4; }, 0, 3)) << "a group out of range";
  EXPECT_FALSE(fine_with([](auto& in) { in.groups[3] = 4; }, 0, 3));
  EXPECT_FALSE(fine_with([](auto& in) { in.weights[0] = -0.0625f; }, 0, 3)) << "negative";
  EXPECT_FALSE(fine_with([](auto& in) { in.weights[3] = std::nanf(""); }, 0, 3));
  EXPECT_FALSE(fine_with([](auto& in) { in.weights[2] = INFINITY; }, 2, 3));
  EXPECT_FALSE(fine_with([](auto& in) { in.weights[1] = 0.7f; }, 0, 1)) << "ascending weights";
  EXPECT_FALSE(fine_with([](auto& in) { in.groups = {2, 0, 3, 1}; }, 2, 3)) << "a tie, 3 first";
  // The same faults outside the range are not looked at.
  EXPECT_TRUE(fine_with([](auto& in) { in.groups[3] = 4; }, 0, 2));
  EXPECT_TRUE(fine_with([](auto& in) { in.weights[1] = 0.7f; }, 1, 3));
}

TEST(SparseEntriesFine, FindsAFaultOnEitherSideOfEachRunOfEntries) {
  // 5,000 vertices of two entries each; the check works in runs of at most 4,096 entries.
  SparseInfluences in;
  in.group_count = 2;
  for (uint32_t v = 0; v <= 5000; ++v) in.offsets.push_back(2 * v);
  for (uint32_t v = 0; v < 5000; ++v) {
    in.groups.insert(in.groups.end(), {1, 0});
    in.weights.insert(in.weights.end(), {0.75f, 0.25f});
  }
  ASSERT_TRUE(SparseEntriesFine(in, 0, 5000));
  for (const uint32_t v : {0u, 1u, 2047u, 2048u, 2049u, 4095u, 4096u, 4999u}) {
    SparseInfluences ascending = in, out_of_range = in;
    std::swap(ascending.weights[2 * v], ascending.weights[2 * v + 1]);
    out_of_range.groups[2 * v + 1] = 2;
    EXPECT_FALSE(SparseEntriesFine(ascending, 0, 5000)) << "vertex " << v;
    EXPECT_FALSE(SparseEntriesFine(out_of_range, 0, 5000)) << "vertex " << v;
    EXPECT_FALSE(SparseEntriesFine(ascending, v, v + 1)) << "vertex " << v;
    EXPECT_TRUE(SparseEntriesFine(ascending, v + 1, 5000)) << "after vertex " << v;
  }
}

TEST(SparseEntriesFine, ChecksAVertexOfMoreEntriesThanARunHolds) {
  // Vertex 1 has 9,000 entries, descending; vertices 0 and 2 one each.
  SparseInfluences in;
  in.group_count = 9000;
  in.offsets = {0, 1, 9001, 9002};
  in.groups.push_back(0);
  in.weights.push_back(0.5f);
  for (uint32_t e = 0; e < 9000; ++e) {
    in.groups.push_back(e);
    in.weights.push_back(1.0f - float(e) / 16384.0f);
  }
  in.groups.push_back(0);
  in.weights.push_back(1.0f);
  ASSERT_TRUE(SparseEntriesFine(in, 0, 3));
  for (const uint32_t e : {2u, 4096u, 4097u, 9000u}) {
    SparseInfluences broken = in;
    std::swap(broken.weights[e], broken.weights[e - 1]);
    EXPECT_FALSE(SparseEntriesFine(broken, 0, 3)) << "entries " << e - 1 << " and " << e;
    EXPECT_FALSE(SparseEntriesFine(broken, 1, 2)) << "entries " << e - 1 << " and " << e;
  }
}

TEST(SparseEntriesFine, AgreesWithTheDefinitionOnRandomStreamsAndRanges) {
  std::mt19937 random(7);
  int faults = 0, faults_in_range = 0;
  for (int round = 0; round < 400; ++round) {
    // Up to 3,000 vertices, so that ranges cross the runs of 4,096 entries the check works in.
    const size_t vertices = 1 + random() % 3000;
    SparseInfluences in = RandomInOrder(random, vertices, round % 2 == 0 ? 4 : 9);
    // Most rounds break one entry: a group, a weight, or the order of two neighbours.
    if (round % 5 != 0 && !in.groups.empty()) {
      const size_t e = random() % in.groups.size();
      switch (random() % 4) {
        case 0:
          in.groups[e] = in.group_count + uint32_t(random() % 3);
          break;
        case 1:
          in.weights[e] = round % 3 == 0 ? -in.weights[e] : std::nanf("");
          break;
        default:  // swap it with the next entry, which may belong to the next vertex
          if (e + 1 < in.groups.size()) {
            std::swap(in.groups[e], in.groups[e + 1]);
            std::swap(in.weights[e], in.weights[e + 1]);
          }
      }
    }
    const size_t begin = random() % vertices;
    const size_t end = begin + random() % (vertices - begin + 1);
    const bool expected = FineByDefinition(in, begin, end);
    faults_in_range += int(!expected);
    ASSERT_EQ(SparseEntriesFine(in, begin, end), expected)
        << "round " << round << ", vertices [" << begin << ", " << end << ")";
    const bool whole = FineByDefinition(in, 0, vertices);
    faults += int(!whole);
    ASSERT_EQ(SparseEntriesFine(in, 0, vertices), whole) << "round " << round;
  }
  // The rounds must find faults as well as pass (205 and 53 with this seed).
  EXPECT_GT(faults, 150);
  EXPECT_GT(faults_in_range, 30);
}

}  // namespace
}  // namespace sinew::detail
