// libFuzzer target for binary USD: the .usdc (crate) reader and .usdz packages
// (loader/src/usd/read_layer.h), the composition of the layers their root layer sublayers and
// references, and the UsdSkel loader on what they read (sinew/loader/usd.h).
// Any input must read or be refused with an error that says where, never crash, hang or read out
// of bounds (built with ASan + UBSan), nor allocate past the reader's limit; a layer must keep the
// model's invariants, and an asset the loader gives must pose and deform on the CPU reference.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "sinew/loader/usd.h"
#include "usd/read_layer.h"
#include "usd_fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  sinew::loader::usd::UsdcOptions options;
  options.max_decoded_bytes = 64u << 20;  // well under libFuzzer's memory limit
  auto layer = sinew::loader::usd::ReadLayer(bytes, options);
  if (!layer) {
    if (layer.error().code == sinew::Error::kNone || layer.error().where.empty()) __builtin_trap();
    return 0;
  }
  if (!sinew::fuzz::KeepsItsInvariants(*layer)) __builtin_trap();
  // The layers a package's root layer references or sublayers, read within the same limit and
  // composed with FuzzUsdOptions; the composed layer keeps the invariants too. A crate file's
  // own sublayers and references are each the input itself (SelfOpener).
  const sinew::loader::UsdOptions load = sinew::fuzz::FuzzUsdOptions();
  auto composed =
      sinew::loader::usd::DetectLayerEncoding(bytes) == sinew::loader::usd::LayerEncoding::kUsdz
          ? sinew::loader::usd::ReadComposedLayer(bytes, "", load, options)
          : sinew::loader::usd::ComposeStage(*layer, "", sinew::fuzz::SelfOpener(bytes, options),
                                             load);
  if (!composed) {
    if (composed.error().code == sinew::Error::kNone || composed.error().where.empty())
      __builtin_trap();
    return 0;
  }
  if (!sinew::fuzz::KeepsItsInvariants(*composed) || !sinew::fuzz::LeavesNoArcs(*composed))
    __builtin_trap();
  // Every layer read within the limit, so the loader's own reads (default limits) allocate no
  // more, nor does its composition of the same references.
  auto loaded = sinew::loader::LoadUsdFromMemory(bytes, load);
  if (!loaded) {
    if (loaded.error().code == sinew::Error::kNone || loaded.error().where.empty())
      __builtin_trap();
    return 0;
  }
  if (!sinew::fuzz::PosesAndDeforms(loaded->asset)) __builtin_trap();
  return 0;
}
