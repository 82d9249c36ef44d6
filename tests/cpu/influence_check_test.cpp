// Influences checked once (sinew/cpu/influence_check.h): the checks and errors it makes when it is
// made, and how SkinDenseJob and SkinSparseJob use it: the same outputs as without it, bit for
// bit, on any number of threads; a check of other streams refused; a palette too small for the
// checked joints named as without a check.
#include "sinew/cpu/influence_check.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "cpu/mesh_outputs.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/skin_dense_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/skin_sparse_job.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"

namespace sinew::cpu {
namespace {

using Outputs = sinew::testing::MeshOutputs;

// The procedural character of 3,000 vertices, K = 4, and a pose of its crowd.
struct Fixture {
  procedural::Character character;
  std::vector<Float3x4> palette;
  SparseInfluences sparse;

  Fixture() {
    procedural::CharacterOptions options;
    options.vertex_count = 3000;
    character = std::move(procedural::MakeCharacter(options).value());
    palette.resize(character.skeleton.joint_count());
    EXPECT_TRUE(procedural::CrowdPalette(character.skeleton, 0.4f, 1, palette).ok());
    sparse = DenseToSparse(mesh().vertex_count(), mesh().influences, palette.size()).value();
  }
  const Primitive& mesh() const { return character.mesh; }

  SkinDenseJob Dense(Outputs& out, uint32_t threads) const {
    return Bind(SkinDenseJobFor(mesh(), palette), out, threads);
  }
  // The group palette is the bone palette itself: DenseToSparse keeps joint indices as groups.
  SkinSparseJob Sparse(Outputs& out, uint32_t threads) const {
    SkinSparseJob job;
    job.positions = mesh().positions;
    job.normals = mesh().normals;
    job.tangents = mesh().tangents;
    job.influences = &sparse;
    job.palette = palette;
    return Bind(job, out, threads);
  }
  // `job` writing to `out` on `threads` threads (ranges of 256 vertices at least).
  template <typename Job>
  static Job Bind(Job job, Outputs& out, uint32_t threads) {
    job.run.threads = threads;
    job.run.min_vertices_per_thread = 256;
    job.out_positions = out.positions;
    job.out_normals = out.normals;
    job.out_tangents = out.tangents;
    return job;
  }
};

TEST(InfluenceCheck, ADenseJobGivenItWritesWhatItWritesWithout) {
  const Fixture f;
  const auto check = InfluenceCheck::Of(f.mesh());
  ASSERT_TRUE(check.ok()) << check.error().ToString();
  for (uint32_t threads : {1u, 3u}) {
    for (bool vectorized : {false, true}) {
      Outputs plain(f.mesh()), checked(f.mesh());
      SkinDenseJob job = f.Dense(plain, threads);
      job.run.vectorized = vectorized;
      ASSERT_TRUE(job.Run().ok());
      job = f.Dense(checked, threads);
      job.run.vectorized = vectorized;
      job.checked = &*check;
      ASSERT_TRUE(job.Validate().ok());
      ASSERT_TRUE(job.Run().ok());
      EXPECT_TRUE(plain == checked) << threads << " threads, vectorized " << vectorized;
    }
  }
}

TEST(InfluenceCheck, ASparseJobGivenItWritesWhatItWritesWithout) {
  const Fixture f;
  const auto check = InfluenceCheck::Sparse(f.mesh().vertex_count(), f.sparse);
  ASSERT_TRUE(check.ok()) << check.error().ToString();
  EXPECT_EQ(check->palette_size_needed(), f.sparse.group_count);
  for (uint32_t threads : {1u, 3u}) {
    Outputs plain(f.mesh()), checked(f.mesh());
    ASSERT_TRUE(f.Sparse(plain, threads).Run().ok());
    SkinSparseJob job = f.Sparse(checked, threads);
    job.checked = &*check;
    ASSERT_TRUE(job.Validate().ok());
    ASSERT_TRUE(job.Run().ok());
    EXPECT_TRUE(plain == checked) << threads << " threads";
  }
}

// A job given a check does not read the slots again: a weight made negative after the check goes
// unseen. (The check's contract is that the streams do not change; this only shows it is used.)
TEST(InfluenceCheck, SparesTheJobsFromReadingEverySlotAgain) {
  Fixture f;
  const auto dense_check = InfluenceCheck::Of(f.mesh());
  const auto sparse_check = InfluenceCheck::Sparse(f.mesh().vertex_count(), f.sparse);
  ASSERT_TRUE(dense_check.ok() && sparse_check.ok());
  f.character.mesh.influences.weights[5] = -0.25f;
  f.sparse.weights[5] = -0.25f;
  Outputs out(f.mesh());
  SkinDenseJob dense = f.Dense(out, 1);
  EXPECT_EQ(dense.Run().code(), Error::kNegativeWeight);
  dense.checked = &*dense_check;
  EXPECT_TRUE(dense.Run().ok());
  SkinSparseJob sparse = f.Sparse(out, 1);
  EXPECT_EQ(sparse.Run().code(), Error::kNegativeWeight);
  sparse.checked = &*sparse_check;
  EXPECT_TRUE(sparse.Run().ok());
}

TEST(InfluenceCheck, SkinMeshHandsItToTheJob) {
  Fixture f;
  const auto check = InfluenceCheck::Of(f.mesh());
  ASSERT_TRUE(check.ok());
  f.character.mesh.influences.weights[5] = -0.25f;  // unseen with the check, as above
  Outputs out(f.mesh());
  EXPECT_EQ(SkinMesh(f.mesh(), f.palette, {}, out.positions, out.normals, out.tangents).code(),
            Error::kNegativeWeight);
  EXPECT_TRUE(
      SkinMesh(f.mesh(), f.palette, {}, out.positions, out.normals, out.tangents, {}, &*check)
          .ok());
}

TEST(InfluenceCheck, RecordsTheLargestJointIndexAsThePaletteItNeeds) {
  const std::vector<uint16_t> joints = {0, 7, 2, 0, 3, 0, 0, 0};
  const std::vector<float> weights = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0};
  const auto check = InfluenceCheck::Dense(2, 4, joints, weights);
  ASSERT_TRUE(check.ok()) << check.error().ToString();
  EXPECT_EQ(check->palette_size_needed(), 8u);
  EXPECT_TRUE(check->IsOf(4, joints, weights));
  EXPECT_FALSE(check->IsOf(8, joints, weights));
  const std::vector<uint16_t> copy = joints;
  EXPECT_FALSE(check->IsOf(4, copy, weights)) << "the same values elsewhere are not checked";
  EXPECT_FALSE(check->IsOf(4, std::span(joints).first(4), weights));
  EXPECT_FALSE(InfluenceCheck().IsOf(4, joints, weights));
  EXPECT_EQ(InfluenceCheck().palette_size_needed(), 0u);

  // A stream long enough for the vectorized pass, its largest index the largest there is.
  std::vector<uint16_t> many(4 * 1001, 3);
  many[4 * 517 + 2] = 65535;
  const auto widest = InfluenceCheck::Dense(1001, 4, many, std::vector<float>(4 * 1001, 0.25f));
  ASSERT_TRUE(widest.ok()) << widest.error().ToString();
  EXPECT_EQ(widest->palette_size_needed(), 65536u);
}

TEST(InfluenceCheck, RefusesWhatValidationRefusesWithTheSameErrors) {
  const std::vector<uint16_t> joints = {0, 1, 0, 0};
  EXPECT_EQ(InfluenceCheck::Dense(1, 4, joints, std::vector<float>{1, 0, 0}).status().code(),
            Error::kSizeMismatch);
  EXPECT_EQ(InfluenceCheck::Dense(1, 3, joints, std::vector<float>{1, 0, 0, 0}).status().code(),
            Error::kInvalidInfluenceCount);
  EXPECT_EQ(InfluenceCheck::Dense(1, 4, joints, std::vector<float>{1, -1, 0, 0}).status().code(),
            Error::kNegativeWeight);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto not_finite = InfluenceCheck::Dense(1, 4, joints, std::vector<float>{1, nan, 0, 0});
  EXPECT_EQ(not_finite.status().code(), Error::kNonFiniteValue);
  EXPECT_EQ(
      not_finite.error().where,
      ValidateDenseInfluences(1, 4, joints, std::vector<float>{1, nan, 0, 0}, 2).error().where);

  SparseInfluences ascending;
  ascending.offsets = {0, 2};
  ascending.groups = {0, 1};
  ascending.weights = {0.25f, 0.75f};
  ascending.group_count = 2;
  const auto sparse = InfluenceCheck::Sparse(1, ascending);
  EXPECT_EQ(sparse.status().code(), ValidateSparseInfluences(1, ascending).code());
  EXPECT_FALSE(sparse.ok());

  Primitive rigid;
  rigid.positions = {0, 0, 0};
  const auto none = InfluenceCheck::Of(rigid);
  EXPECT_EQ(none.status().code(), Error::kInvalidArgument);
  EXPECT_EQ(none.error().where, "influences");
}

TEST(InfluenceCheck, JobsRefuseACheckOfOtherStreams) {
  const Fixture f;
  const auto dense_check = InfluenceCheck::Of(f.mesh());
  const auto sparse_check = InfluenceCheck::Sparse(f.mesh().vertex_count(), f.sparse);
  ASSERT_TRUE(dense_check.ok() && sparse_check.ok());
  Outputs out(f.mesh());
  const Outputs untouched = out;

  SkinDenseJob dense = f.Dense(out, 1);
  dense.checked = &*sparse_check;
  EXPECT_EQ(dense.Validate().code(), Error::kInvalidArgument);
  EXPECT_EQ(dense.Run().error().where, "checked");
  const std::vector<float> weights(f.mesh().influences.weights);  // the same values, elsewhere
  dense.checked = &*dense_check;
  dense.weights = weights;
  EXPECT_EQ(dense.Run().error().where, "checked");

  SkinSparseJob sparse = f.Sparse(out, 1);
  sparse.checked = &*dense_check;
  EXPECT_EQ(sparse.Validate().code(), Error::kInvalidArgument);
  EXPECT_EQ(sparse.Run().error().where, "checked");
  const InfluenceCheck nothing;
  sparse.checked = &nothing;
  EXPECT_EQ(sparse.Run().error().where, "checked");
  const SparseInfluences copy = f.sparse;  // the same values, elsewhere
  sparse.checked = &*sparse_check;
  sparse.influences = &copy;
  EXPECT_EQ(sparse.Run().error().where, "checked");
  SparseInfluences fewer_groups = f.sparse;
  const auto fewer_check = InfluenceCheck::Sparse(f.mesh().vertex_count(), fewer_groups);
  ASSERT_TRUE(fewer_check.ok());
  fewer_groups.group_count -= 1;  // the vectors stay where they were
  sparse.checked = &*fewer_check;
  sparse.influences = &fewer_groups;
  EXPECT_EQ(sparse.Run().error().where, "checked");
  EXPECT_TRUE(out == untouched) << "nothing written";
}

// The check holds the offsets' length, so a job over more (or fewer) vertices than were checked
// is refused rather than reading offsets that are not there.
TEST(InfluenceCheck, ASparseJobOverAnotherVertexCountRefusesIt) {
  const Fixture f;
  const auto check = InfluenceCheck::Sparse(f.mesh().vertex_count(), f.sparse);
  ASSERT_TRUE(check.ok());
  for (const size_t vertices : {f.mesh().vertex_count() - 1, f.mesh().vertex_count() + 1}) {
    const std::vector<float> positions(vertices * 3, 0.5f);
    std::vector<float> out(vertices * 3);
    SkinSparseJob job;
    job.positions = positions;
    job.influences = &f.sparse;
    job.palette = f.palette;
    job.out_positions = out;
    job.checked = &*check;
    EXPECT_EQ(job.Validate().error().where, "checked") << vertices << " vertices";
    EXPECT_EQ(job.Run().error().where, "checked") << vertices << " vertices";
  }
}

TEST(InfluenceCheck, APaletteTooSmallForTheCheckedJointsIsNamedAsWithoutACheck) {
  const Fixture f;
  const auto check = InfluenceCheck::Of(f.mesh());
  ASSERT_TRUE(check.ok());
  ASSERT_EQ(check->palette_size_needed(), f.palette.size()) << "the character uses every joint";
  Outputs out(f.mesh());
  const Outputs untouched = out;
  SkinDenseJob job = f.Dense(out, 3);
  job.palette = std::span(f.palette).first(f.palette.size() - 1);
  const Status plain = job.Run();
  job.checked = &*check;
  const Status validated = job.Validate(), ran = job.Run();
  EXPECT_EQ(plain.code(), Error::kJointIndexOutOfRange);
  EXPECT_EQ(validated.error().where, plain.error().where);
  EXPECT_EQ(ran.error().where, plain.error().where);
  EXPECT_EQ(ran.error().message, plain.error().message);
  EXPECT_TRUE(out == untouched) << "nothing written";

  SkinSparseJob sparse = f.Sparse(out, 1);
  sparse.palette = std::span(f.palette).first(f.sparse.group_count - 1);
  const auto sparse_check = InfluenceCheck::Sparse(f.mesh().vertex_count(), f.sparse);
  sparse.checked = &*sparse_check;
  EXPECT_EQ(sparse.Run().error().where, "palette");
}

}  // namespace
}  // namespace sinew::cpu
