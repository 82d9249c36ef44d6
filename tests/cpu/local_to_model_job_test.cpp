#include "sinew/cpu/local_to_model_job.h"

#include <gtest/gtest.h>

#include "cpu/matrix_literals.h"

#include <vector>

namespace sinew::cpu {
namespace {

using testing::Columns;
using testing::Move;

void ExpectMatrixEq(const Float4x4& actual, const Float4x4& expected) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(actual.m[c][r], expected.m[c][r], 1e-6f) << "column " << c << " row " << r;
    }
  }
}

// 90° about +Z (x -> y, y -> -x) at (0, 2, 0).
const Float4x4 kTurnAt02 = Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {0, 2, 0, 1});

TEST(LocalToModelJob, ConcatenatesAChainParentsFirst) {
  const std::vector<int32_t> parents = {-1, 0, 1};
  const std::vector<Float4x4> locals = {Move(1, 0, 0), kTurnAt02, Move(3, 0, 0)};
  std::vector<Float4x4> models(3);
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.output = models;
  ASSERT_TRUE(job.Run().ok());
  ExpectMatrixEq(models[0], Move(1, 0, 0));
  // (1, 0, 0) + (0, 2, 0), turned.
  ExpectMatrixEq(models[1], Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 2, 0, 1}));
  // The child's (3, 0, 0) is turned into (0, 3, 0) by its parent: at (1, 5, 0), still turned.
  ExpectMatrixEq(models[2], Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 5, 0, 1}));
}

TEST(LocalToModelJob, AppliesTheRootTransformAboveEveryRoot) {
  // Two roots (0 and 2) and a child of the first; root = translation (0, 0, 10) after a scale 2.
  const std::vector<int32_t> parents = {-1, 0, -1};
  const std::vector<Float4x4> locals = {Move(1, 0, 0), kTurnAt02, Move(0, 0, 1)};
  std::vector<Float4x4> models(3);
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.root = Columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {0, 0, 10, 1});
  job.output = models;
  ASSERT_TRUE(job.Run().ok());
  ExpectMatrixEq(models[0], Columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {2, 0, 10, 1}));
  ExpectMatrixEq(models[1], Columns({0, 2, 0, 0}, {-2, 0, 0, 0}, {0, 0, 2, 0}, {2, 4, 10, 1}));
  ExpectMatrixEq(models[2], Columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {0, 0, 12, 1}));
}

TEST(LocalToModelJob, AcceptsAnEmptySkeleton) {
  LocalToModelJob job;
  EXPECT_TRUE(job.Run().ok());
}

TEST(LocalToModelJob, RejectsAParentListedAfterItsChild) {
  const std::vector<int32_t> parents = {-1, 2, 0};
  const std::vector<Float4x4> locals(3);
  std::vector<Float4x4> models(3, Move(7, 7, 7));
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.output = models;
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kInvalidHierarchy);
  EXPECT_EQ(status.error().where, "parents/1");
  // Run validated before writing anything.
  for (const Float4x4& m : models) ExpectMatrixEq(m, Move(7, 7, 7));
}

TEST(LocalToModelJob, RejectsAJointThatIsItsOwnParent) {
  const std::vector<int32_t> parents = {-1, 0, 2};
  const std::vector<Float4x4> locals(3);
  std::vector<Float4x4> models(3);
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.output = models;
  const Status status = job.Validate();
  EXPECT_EQ(status.code(), Error::kInvalidHierarchy);
  EXPECT_EQ(status.error().where, "parents/2");
}

TEST(LocalToModelJob, RejectsANegativeParentOtherThanNoParent) {
  const std::vector<int32_t> parents = {-1, -2};
  const std::vector<Float4x4> locals(2);
  std::vector<Float4x4> models(2);
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.output = models;
  const Status status = job.Validate();
  EXPECT_EQ(status.code(), Error::kInvalidHierarchy);
  EXPECT_EQ(status.error().where, "parents/1");
}

TEST(LocalToModelJob, RejectsLocalsOfTheWrongSize) {
  const std::vector<int32_t> parents = {-1, 0};
  const std::vector<Float4x4> locals(1);
  std::vector<Float4x4> models(2);
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.output = models;
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kSizeMismatch);
  EXPECT_EQ(status.error().where, "locals");
}

TEST(LocalToModelJob, RejectsAnOutputOfTheWrongSize) {
  const std::vector<int32_t> parents = {-1, 0};
  const std::vector<Float4x4> locals(2);
  std::vector<Float4x4> models(3);
  LocalToModelJob job;
  job.parents = parents;
  job.locals = locals;
  job.output = models;
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kSizeMismatch);
  EXPECT_EQ(status.error().where, "output");
}

}  // namespace
}  // namespace sinew::cpu
