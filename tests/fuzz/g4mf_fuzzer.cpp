// libFuzzer target for the G4MF loader (.g4tf JSON and .g4b with Zstd chunks): any input must load
// or fail with an error, never crash, hang, or read out of bounds (built with ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The loader's contract: ReadPadding() readable bytes after the input (as ReadFile provides).
  std::vector<uint8_t> padded(size + sinew::loader::ReadPadding(), 0);
  if (size) std::memcpy(padded.data(), data, size);
  // Buffers may decode to at most 64 MiB here, so a tiny Zstd bomb is refused, not allocated.
  sinew::loader::G4mfOptions options;
  options.max_buffer_bytes = size_t(64) << 20;
  // External URIs resolve inside a folder that does not exist: the fuzzer reads no real files.
  auto loaded =
      sinew::loader::LoadG4mfFromMemory({padded.data(), size}, "/nonexistent/sinew-fuzz", options);
  if (!loaded && loaded.error().code == sinew::Error::kNone) __builtin_trap();
  return 0;
}
