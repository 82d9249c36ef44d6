// How the CPU skinning jobs run — never what they compute: every choice here gives the same
// outputs bit for bit (tests/cpu/skin_run_test.cpp). The skinning jobs, SkinAttributes,
// SkinMesh and DeformPrimitive take one.
#pragma once

#include <cstdint>

namespace sinew::cpu {

struct SkinRun {
  // Threads the vertices are split over, in contiguous ranges: 1 the calling thread alone, 0
  // every hardware thread (ThreadCount). Ranges are at least 4,096 vertices.
  uint32_t threads = 1;
  // Four vertices at a time with SSE2 where the CPU has it, for dense linear blending with the
  // blended-matrix normal rule (the other modes run one vertex at a time). False: the scalar code
  // for every vertex, the reference the vectorized code is compared with.
  bool vectorized = true;
};

// Whether this build has the four-vertex path (SSE2: every x86-64 build); without it `vectorized`
// runs the scalar code.
bool VectorizedSkinning() noexcept;

// `requested` threads, or every hardware thread for 0 (at least 1).
uint32_t ThreadCount(uint32_t requested) noexcept;

}  // namespace sinew::cpu
