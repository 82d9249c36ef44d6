// How the CPU skinning jobs run — never what they compute: every choice here gives the same
// outputs bit for bit (tests/cpu/skin_run_test.cpp). The skinning jobs, SkinAttributes,
// SkinMesh and DeformPrimitive take one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sinew::cpu {

struct SkinRun {
  // Threads the vertices are split over, in contiguous ranges: 1 the calling thread alone, 0
  // every hardware thread (ThreadCount). A job starts its threads each call, so a range is at
  // least min_vertices_per_thread vertices (a smaller mesh is skinned on the calling thread).
  uint32_t threads = 1;
  // Several vertices at a time: for linear blending (dense or sparse) with the blended-matrix
  // normal rule, eight with AVX where the CPU has it, else four with SSE2; for dual quaternions,
  // eight with AVX, else one; the other modes run one vertex at a time. False: the scalar code for
  // every vertex, the reference the vectorized code is compared with.
  bool vectorized = true;
  // At most this many vertices at a time (0: as many as the CPU allows; 4: SSE2's four even where
  // AVX would take eight). Every width gives the same outputs; this is for tests and benchmarks.
  uint32_t max_lanes = 0;
  // The fewest vertices a thread is given (0 counts as 1). 32,768: on a 2-vCPU VM, two threads
  // skinned meshes of 20,000 vertices 25 % slower than one, and meshes of 80,000 5-12 % faster
  // (BENCHMARKS.md).
  uint32_t min_vertices_per_thread = 32768;
  // Where linear blending goes eight vertices at a time and the CPU has AVX-512 (F and VL), those
  // eight are skinned with AVX-512: each vertex's joint matrices summed in one 512-bit register,
  // the rest with its 32 registers (about 1.1 times as fast, BENCHMARKS.md). False keeps to AVX:
  // for tests and benchmarks, or a host that avoids 512-bit instructions where they lower the
  // clock. The outputs are the same either way; cpu::SkinsWithAvx512 (skin_mesh.h) says whether a
  // mesh takes it.
  bool avx512 = true;
};

// The most vertices at a time this build skins on this CPU: 8 (AVX), 4 (SSE2: every x86-64
// build), or 1 (no vectorized path: `vectorized` runs the scalar code).
uint32_t WidestSkinLanes() noexcept;

// `requested` threads, or every hardware thread for 0 (at least 1).
uint32_t ThreadCount(uint32_t requested) noexcept;

// The threads, the calling one included, that a skinning job of `vertex_count` vertices runs on
// under `run`: ThreadCount(run.threads), but no more than ranges of min_vertices_per_thread fit
// (at least 1).
uint32_t SkinThreads(size_t vertex_count, const SkinRun& run) noexcept;

}  // namespace sinew::cpu
