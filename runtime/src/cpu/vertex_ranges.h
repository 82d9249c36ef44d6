// Splitting a skinning job's vertices over threads (the jobs' `threads` field): contiguous ranges,
// the calling thread taking the first. Each vertex is computed by the same code whichever thread
// runs it and writes only its own outputs, so the result does not depend on the split.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "sinew/cpu/skin_run.h"

namespace sinew::cpu::detail {

// Fewer vertices than this per thread cost more to hand out than they take to skin.
inline constexpr size_t kMinVerticesPerThread = 4096;

// Calls body(begin, end) over [0, count) in at most ThreadsFor(threads) contiguous ranges.
template <typename Body>
void ForEachVertexRange(size_t count, uint32_t threads, const Body& body) {
  const size_t most = std::max<size_t>(1, count / kMinVerticesPerThread);
  const size_t parts = std::min<size_t>(ThreadCount(threads), most);
  if (parts <= 1) {
    body(size_t(0), count);
    return;
  }
  const size_t step = (count + parts - 1) / parts;
  std::vector<std::thread> workers;
  size_t started = 1;  // ranges handed to a thread, after the calling thread's first
  try {
    workers.reserve(parts - 1);
    for (; started < parts; ++started) {
      const size_t begin = std::min(count, started * step), end = std::min(count, begin + step);
      workers.emplace_back([&body, begin, end] { body(begin, end); });
    }
  } catch (...) {
    // No thread (or no memory) for the rest: the calling thread runs them below.
  }
  body(size_t(0), std::min(count, step));
  for (size_t p = started; p < parts; ++p) {
    const size_t begin = std::min(count, p * step);
    body(begin, std::min(count, begin + step));
  }
  for (std::thread& t : workers) t.join();
}

// Whether check(begin, end) holds on every range of [0, count), run as ForEachVertexRange runs
// its body: on the same threads.
template <typename Check>
bool AllVertexRanges(size_t count, uint32_t threads, const Check& check) {
  std::atomic<bool> fine{true};
  ForEachVertexRange(count, threads, [&](size_t begin, size_t end) {
    if (!check(begin, end)) fine.store(false, std::memory_order_relaxed);
  });
  return fine.load(std::memory_order_relaxed);
}

}  // namespace sinew::cpu::detail
