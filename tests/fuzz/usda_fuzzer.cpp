// libFuzzer target for the .usda reader (loader/src/usd/usda_parser.h): any input must read or be
// refused with an error that says where, never crash, hang, recurse without bound or read out of
// bounds (built with ASan + UBSan). The reader has no public entry point yet: the target reaches it
// through the loader's private headers (the sinew_loader_internal target, loader/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "usd/usda_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The input as it is: no terminator or padding after it, so a read past its end is caught.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto layer = sinew::loader::usd::ReadUsda(text);
  if (!layer) {
    if (layer.error().code == sinew::Error::kNone || layer.error().where.empty()) __builtin_trap();
    return 0;
  }
  // The model's own invariants: each prim is found at its path, and parents and children agree.
  const auto& prims = layer->prims;
  for (uint32_t i = 0; i < prims.size(); ++i) {
    if (layer->FindPrim(prims[i].path) != &prims[i]) __builtin_trap();
    for (uint32_t child : prims[i].children) {
      if (child >= prims.size() || prims[child].parent != int32_t(i)) __builtin_trap();
    }
  }
  return 0;
}
