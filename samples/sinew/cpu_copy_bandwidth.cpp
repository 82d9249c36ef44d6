#include "cpu_copy_bandwidth.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "bench_util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sinew::tool {
namespace {

// `bytes` (a multiple of 64) from `source` to `destination`, four 16-byte loads then four stores.
void CopyLoop(unsigned char* destination, const unsigned char* source, size_t bytes) {
#if defined(__SSE2__)
  for (size_t at = 0; at < bytes; at += 64) {
    const auto* from = reinterpret_cast<const __m128i*>(source + at);
    auto* to = reinterpret_cast<__m128i*>(destination + at);
    const __m128i a = _mm_loadu_si128(from), b = _mm_loadu_si128(from + 1);
    const __m128i c = _mm_loadu_si128(from + 2), d = _mm_loadu_si128(from + 3);
    _mm_storeu_si128(to, a);
    _mm_storeu_si128(to + 1, b);
    _mm_storeu_si128(to + 2, c);
    _mm_storeu_si128(to + 3, d);
  }
#else
  std::memcpy(destination, source, bytes);
#endif
}

}  // namespace

CpuCopyBandwidth MeasureCpuCopy(uint64_t moved, int runs) {
  moved = std::clamp<uint64_t>(moved, 128, kMaxCpuCopyMoved);
  const size_t bytes = size_t(moved / 2 / 64 * 64);
  std::vector<unsigned char> source(bytes), destination(bytes);
  for (size_t i = 0; i < bytes; ++i) source[i] = static_cast<unsigned char>(i * 131u + 7u);
  CopyLoop(destination.data(), source.data(), bytes);
  std::vector<double> seconds;
  for (int run = 0; run < std::max(runs, 1); ++run) {
    const auto start = std::chrono::steady_clock::now();
    CopyLoop(destination.data(), source.data(), bytes);
    // The copy's result is never read: keep the compiler from leaving it out or moving it past
    // the clock.
    asm volatile("" : : "r"(destination.data()) : "memory");
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return {2.0 * double(bytes) / Median(seconds) / 1e9, bytes};
}

}  // namespace sinew::tool
