// Splitting a skinning job's vertices over threads (the jobs' `threads` field): contiguous ranges,
// the calling thread taking the first. Each vertex is computed by the same code whichever thread
// runs it and writes only its own outputs, so the result does not depend on the split.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "sinew/cpu/skin_run.h"

namespace sinew::cpu::detail {

// How [0, count) is split for `run`: `parts` contiguous ranges of `step` vertices (the last
// shorter), one a thread (SkinThreads).
struct VertexSplit {
  size_t count, parts, step;
  size_t begin(size_t part) const { return std::min(count, part * step); }
  size_t end(size_t part) const { return std::min(count, begin(part) + step); }
};

inline VertexSplit SplitVertices(size_t count, const SkinRun& run) {
  const size_t parts = SkinThreads(count, run);
  return {count, parts, parts <= 1 ? count : (count + parts - 1) / parts};
}

// Runs participate(parts) for the split's parts: part 0 on the calling thread, each other part on
// a thread of its own, or on the calling thread too where no thread could be started (then the
// calling thread's call takes several parts). Returns once every call has.
template <typename Participate>
void RunSplit(const VertexSplit& split, const Participate& participate) {
  std::vector<std::thread> workers;
  size_t started = 1;  // parts handed to a thread, after the calling thread's first
  try {
    workers.reserve(split.parts - 1);
    for (; started < split.parts; ++started) {
      workers.emplace_back([&participate, part = started] {
        const size_t one[1] = {part};
        participate(std::span<const size_t>(one));
      });
    }
  } catch (...) {
    // No thread (or no memory) for the rest: the calling thread runs them.
  }
  std::vector<size_t> own{0};
  for (size_t part = started; part < split.parts; ++part) own.push_back(part);
  participate(std::span<const size_t>(own));
  for (std::thread& t : workers) t.join();
}

// Calls body(begin, end) over [0, count) in SplitVertices(count, run)'s ranges.
template <typename Body>
void ForEachVertexRange(size_t count, const SkinRun& run, const Body& body) {
  const VertexSplit split = SplitVertices(count, run);
  if (split.parts <= 1) {
    body(size_t(0), count);
    return;
  }
  RunSplit(split, [&](std::span<const size_t> parts) {
    for (size_t part : parts) body(split.begin(part), split.end(part));
  });
}

// check(begin, end) on every range of [0, count), then, only if every check held, body(begin,
// end) on every range: ForEachVertexRange's ranges and threads, the threads started once for
// both steps (each thread's body waits until every range is checked). Returns whether every
// check held; body has run on no range when one did not. With `checked_already` (the inputs were
// checked once before, cpu::InfluenceCheck) there is nothing to wait for: ForEachVertexRange.
template <typename Check, typename Body>
bool CheckThenForEachVertexRange(size_t count, const SkinRun& run, bool checked_already,
                                 const Check& check, const Body& body) {
  if (checked_already) {
    ForEachVertexRange(count, run, body);
    return true;
  }
  const VertexSplit split = SplitVertices(count, run);
  if (split.parts <= 1) {
    if (!check(size_t(0), count)) return false;
    body(size_t(0), count);
    return true;
  }
  std::atomic<bool> fine{true};
  std::mutex mutex;
  std::condition_variable checked;
  size_t unchecked = split.parts;
  RunSplit(split, [&](std::span<const size_t> parts) {
    bool mine = true;
    for (size_t part : parts) mine = check(split.begin(part), split.end(part)) && mine;
    if (!mine) fine.store(false, std::memory_order_relaxed);
    {
      std::unique_lock lock(mutex);
      unchecked -= parts.size();
      if (unchecked == 0) {
        checked.notify_all();
      } else {
        checked.wait(lock, [&] { return unchecked == 0; });
      }
    }
    if (!fine.load(std::memory_order_relaxed)) return;
    for (size_t part : parts) body(split.begin(part), split.end(part));
  });
  return fine.load(std::memory_order_relaxed);
}

// Whether check(begin, end) holds on every range of [0, count), run as ForEachVertexRange runs
// its body: on the same threads.
template <typename Check>
bool AllVertexRanges(size_t count, const SkinRun& run, const Check& check) {
  std::atomic<bool> fine{true};
  ForEachVertexRange(count, run, [&](size_t begin, size_t end) {
    if (!check(begin, end)) fine.store(false, std::memory_order_relaxed);
  });
  return fine.load(std::memory_order_relaxed);
}

}  // namespace sinew::cpu::detail
