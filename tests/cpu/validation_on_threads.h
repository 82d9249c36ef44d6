// Checking that a skinning job's validation, which runs on the job's threads, names a fault as
// one thread does (tests/cpu/skin_dense_job_test.cpp, skin_sparse_job_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sinew/core/error.h"

namespace sinew::testing {

// The fewest vertices a thread is given in these tests (SkinRun::min_vertices_per_thread): small
// enough that their meshes of some thousands of vertices split over every thread asked for.
inline constexpr uint32_t kTestVerticesPerThread = 4096;

// Runs `skin`'s job (Skin::Job(): outputs filled with Skin::kSentinel) on 1, 2 and 4 threads and
// expects the error `code` at `where` each time, with nothing written.
template <typename Skin>
void ExpectTheSameFaultOnAnyThreads(Skin& skin, Error code, const std::string& where) {
  for (const uint32_t threads : {1u, 2u, 4u}) {
    auto job = skin.Job();
    job.run.threads = threads;
    job.run.min_vertices_per_thread = kTestVerticesPerThread;
    const Status status = job.Run();
    EXPECT_EQ(status.code(), code) << threads << " threads";
    EXPECT_EQ(status.error().where, where) << threads << " threads";
    for (float x : skin.out_positions) ASSERT_EQ(x, Skin::kSentinel) << threads << " threads";
  }
}

// Runs `skin`'s job on 1, 2 and 4 threads and expects it to succeed; the outputs stay in `skin`.
template <typename Skin>
void ExpectRunsOnAnyThreads(Skin& skin) {
  for (const uint32_t threads : {1u, 2u, 4u}) {
    auto job = skin.Job();
    job.run.threads = threads;
    job.run.min_vertices_per_thread = kTestVerticesPerThread;
    const Status status = job.Run();
    ASSERT_TRUE(status.ok()) << threads << " threads: " << status.error().ToString();
  }
}

}  // namespace sinew::testing
