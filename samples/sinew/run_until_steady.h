// How the tool's benchmarks bring a GPU to its steady state before they time it: a step (a batch
// of copies, a frame) run again and again until its time stops changing.
#pragma once

#include <chrono>
#include <cmath>
#include <functional>

#include "sinew/core/error.h"

namespace sinew::tool {

// Milliseconds since some fixed point, from a steady clock.
inline double SteadyNowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Calls `run` (one timed step, returning its time in ms) for at least `min_ms` and until two steps
// in a row agree within 3 %, for at most `max_ms` (of `now_ms`, a clock in ms; the steady clock
// unless a test gives its own). The first error of `run` ends it and is returned.
inline Status RunUntilSteady(const std::function<Result<double>()>& run, double min_ms,
                             double max_ms, const std::function<double()>& now_ms = SteadyNowMs) {
  const double start = now_ms();
  double previous = 0;
  for (;;) {
    auto t = run();
    if (!t) return t.status();
    const double elapsed = now_ms() - start;
    const bool steady = previous > 0 && std::fabs(*t - previous) <= 0.03 * previous;
    if (elapsed >= max_ms || (elapsed >= min_ms && steady)) return {};
    previous = *t;
  }
}

}  // namespace sinew::tool
