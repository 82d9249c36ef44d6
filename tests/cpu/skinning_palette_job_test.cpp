#include "sinew/cpu/skinning_palette_job.h"

#include <gtest/gtest.h>

#include "cpu/matrix_literals.h"

#include <vector>

namespace sinew::cpu {
namespace {

using testing::Columns;
using testing::Move;

// Compares a palette entry with its rows written out.
void ExpectRowsEq(const Float3x4& actual, std::array<std::array<float, 4>, 3> rows) {
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(actual.row[r].x, rows[r][0], 1e-6f) << "row " << r;
    EXPECT_NEAR(actual.row[r].y, rows[r][1], 1e-6f) << "row " << r;
    EXPECT_NEAR(actual.row[r].z, rows[r][2], 1e-6f) << "row " << r;
    EXPECT_NEAR(actual.row[r].w, rows[r][3], 1e-6f) << "row " << r;
  }
}

TEST(SkinningPaletteJob, MultipliesEachModelMatrixByItsInverseBind) {
  // Joint 0: turned 90° about +Z at (1, 2, 3), bound with inverse bind = move by (-1, 0, 0):
  // the palette moves by the turned (-1, 0, 0) = (0, -1, 0), then by (1, 2, 3).
  // Joint 1: uniform scale 2, inverse bind = move by (0, 0, -1): translation (0, 0, -2).
  const std::vector<Float4x4> models = {
      Columns({0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 1, 0}, {1, 2, 3, 1}),
      Columns({2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 1})};
  const std::vector<Float4x4> inverse_binds = {Move(-1, 0, 0), Move(0, 0, -1)};
  std::vector<Float3x4> palette(2);
  SkinningPaletteJob job;
  job.models = models;
  job.inverse_binds = inverse_binds;
  job.output = palette;
  ASSERT_TRUE(job.Run().ok());
  ExpectRowsEq(palette[0], {{{0, -1, 0, 1}, {1, 0, 0, 1}, {0, 0, 1, 3}}});
  ExpectRowsEq(palette[1], {{{2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, -2}}});
}

TEST(SkinningPaletteJob, IsTheIdentityWhenEachJointIsAtItsBindPose) {
  // A model matrix and its inverse written out: turned 90° about +X at (4, 5, 6).
  const std::vector<Float4x4> models = {
      Columns({1, 0, 0, 0}, {0, 0, 1, 0}, {0, -1, 0, 0}, {4, 5, 6, 1})};
  // Inverse: rotation transposed, translation -Rᵀ·t = -(4, 6, -5).
  const std::vector<Float4x4> inverse_binds = {
      Columns({1, 0, 0, 0}, {0, 0, -1, 0}, {0, 1, 0, 0}, {-4, -6, 5, 1})};
  std::vector<Float3x4> palette(1);
  SkinningPaletteJob job;
  job.models = models;
  job.inverse_binds = inverse_binds;
  job.output = palette;
  ASSERT_TRUE(job.Run().ok());
  ExpectRowsEq(palette[0], {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}});
}

TEST(SkinningPaletteJob, RejectsAnEmptySkeleton) {
  SkinningPaletteJob job;
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kEmptyPalette);
  EXPECT_EQ(status.error().where, "models");
}

TEST(SkinningPaletteJob, RejectsInverseBindsOfTheWrongSize) {
  const std::vector<Float4x4> models(2), inverse_binds(1);
  std::vector<Float3x4> palette(2);
  SkinningPaletteJob job;
  job.models = models;
  job.inverse_binds = inverse_binds;
  job.output = palette;
  const Status status = job.Validate();
  EXPECT_EQ(status.code(), Error::kSizeMismatch);
  EXPECT_EQ(status.error().where, "inverse_binds");
}

TEST(SkinningPaletteJob, RejectsAnOutputOfTheWrongSizeWithoutWritingIt) {
  const std::vector<Float4x4> models(2, Move(1, 1, 1)), inverse_binds(2);
  Float3x4 untouched;
  untouched.row[0].w = 42;
  std::vector<Float3x4> palette(1, untouched);
  SkinningPaletteJob job;
  job.models = models;
  job.inverse_binds = inverse_binds;
  job.output = palette;
  const Status status = job.Run();
  EXPECT_EQ(status.code(), Error::kSizeMismatch);
  EXPECT_EQ(status.error().where, "output");
  EXPECT_EQ(palette[0].row[0].w, 42.0f);
}

}  // namespace
}  // namespace sinew::cpu
