// What `sinew bench` holds the CPU fast path to, as it holds the GPU kernels to a copy kernel
// (copy_bandwidth.h): a plain copy loop from one buffer to another on the calling thread, 16
// bytes at a time with ordinary loads and stores, as the fast path writes its outputs (with SSE2,
// that is on every x86-64; elsewhere memcpy). Not memcpy where it can be helped: the C library's
// copy switches to non-temporal stores above a size of its own (on the development VM between 50
// and 200 MiB, where it then moved 1.5 times as many bytes a second), so it would hold small and
// large meshes to different things. The figure counts the bytes read and the bytes written, as the
// bench's GB/s column counts a row's bytes per vertex. It is a reference, not a bound: a loop over
// several streams can reach more.
#pragma once

#include <cstdint>

namespace sinew::tool {

struct CpuCopyBandwidth {
  double gb_per_s = 0;  // (read + written) bytes / median time of one copy
  uint64_t bytes = 0;   // bytes copied each time (each buffer's size)
};

// The most a CPU copy moves (read and written): 512 MiB, past every CPU's last-level cache.
inline constexpr uint64_t kMaxCpuCopyMoved = uint64_t(512) << 20;

// Copies half of `moved` bytes (`moved` taken between 128 and kMaxCpuCopyMoved, its half rounded
// down to 64) from one buffer to another once untimed, so that every page is in place, then
// `runs` times (at least 1), timed; the median.
CpuCopyBandwidth MeasureCpuCopy(uint64_t moved, int runs = 11);

}  // namespace sinew::tool
