// The bandwidth `sinew bench` holds the skinning kernels to: a plain copy kernel
// (shaders/copy_bandwidth.comp) moving one buffer to another on the bench's device, timed with
// timestamps. The figure counts the bytes read and the bytes written, as the bench's
// GB/s column counts a kernel's bytes per vertex.
#pragma once

#include <memory>

#include <vulkan/vulkan_core.h>

#include "sinew/core/error.h"
#include "sinew/vk/context.h"

namespace sinew::tool {

struct CopyBandwidth {
  double gb_per_s = 0;            // (read + written) bytes / median time of one copy
  VkDeviceSize bytes = 0;         // size of each buffer
  uint32_t copies_per_batch = 0;  // copies timed together in one submission
};

// The copy kernel with its two buffers (`bytes`, rounded down to 16; at most the device's
// maxStorageBufferRange).
class CopyKernel {
 public:
  // kFeatureNotEnabled when the Context has no buffer device addresses; kVulkanCallFailed and the
  // buffer errors as they come.
  static Result<std::unique_ptr<CopyKernel>> Create(const vk::Context& ctx, VkDeviceSize bytes);
  ~CopyKernel();
  CopyKernel(const CopyKernel&) = delete;
  CopyKernel& operator=(const CopyKernel&) = delete;

  VkDeviceSize bytes() const;

  // Copies back to back until the GPU's time for a batch is steady (two batches in a row within
  // 3 %) after at least `min_ms` of wall time, or `max_ms` have passed: a GPU raises its clocks
  // under load and lowers them when idle, so the bench runs this before each timed GPU case (not
  // on a CPU device).
  Status WarmUp(double min_ms, double max_ms);

  // One untimed copy (the first fills the source with a pattern), then `batches` submissions of
  // back-to-back copies (about 20 ms each, 1 to 64 copies); the median time per copy. The copy is
  // checked: the destination's first and last words must hold the pattern (kVulkanCallFailed
  // otherwise).
  Result<CopyBandwidth> Measure(int batches = 5);

  // The copy as one dispatch that reads and writes `moved` bytes in all (half each way, rounded
  // down to 16; at most both buffers), timed alone `runs` times, one submission each: what a
  // single skinning dispatch moving as many bytes is up against, its launch and its last wave
  // included. The median; copies_per_batch is 1 and `bytes` the bytes copied.
  Result<CopyBandwidth> MeasureOneDispatch(VkDeviceSize moved, int runs = 11);

 private:
  CopyKernel();
  // Runs `copies` copies in one submission; their milliseconds on the GPU.
  Result<double> Run(uint32_t copies);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace sinew::tool
