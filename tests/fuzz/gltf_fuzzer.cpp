// libFuzzer target for the glTF loader (.gltf JSON and .glb): any input must load or fail with an
// error, never crash, hang, or read out of bounds (built with ASan + UBSan).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sinew/loader/file.h"
#include "sinew/loader/gltf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The loader's contract: ReadPadding() readable bytes after the input (as ReadFile provides).
  std::vector<uint8_t> padded(size + sinew::loader::ReadPadding(), 0);
  if (size) std::memcpy(padded.data(), data, size);
  // External URIs resolve inside a folder that does not exist: the fuzzer reads no real files.
  auto loaded = sinew::loader::LoadGltfFromMemory({padded.data(), size}, "/nonexistent/sinew-fuzz");
  if (!loaded && loaded.error().code == sinew::Error::kNone) __builtin_trap();
  return 0;
}
