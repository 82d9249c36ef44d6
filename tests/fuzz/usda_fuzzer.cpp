// libFuzzer target for the .usda reader (loader/src/usd/usda_parser.h), the composition of its
// sublayers and references (loader/src/usd/compose_stage.h) and the UsdSkel loader on top of them
// (sinew/loader/usd.h): any input must read or be refused with an error that says where,
// never crash, hang, recurse without bound or read out of bounds (built with ASan + UBSan); an
// asset the loader gives must pose and deform on the CPU reference without an error. The reader
// has no public entry point: the target reaches it through the loader's private headers (the
// sinew_loader_internal target, loader/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sinew/loader/usd.h"
#include "usd/compose_stage.h"
#include "usd/read_layer.h"
#include "usd/usda_parser.h"
#include "usd_fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The input as it is: no terminator or padding after it, so a read past its end is caught.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto layer = sinew::loader::usd::ReadUsda(text);
  if (!layer) {
    if (layer.error().code == sinew::Error::kNone || layer.error().where.empty()) __builtin_trap();
    return 0;
  }
  if (!sinew::fuzz::KeepsItsInvariants(*layer)) __builtin_trap();
  // Its sublayers and references composed keep them too, every file they name the input itself.
  const sinew::loader::UsdOptions options = sinew::fuzz::FuzzUsdOptions();
  auto composed = sinew::loader::usd::ComposeStage(
      *layer, "", sinew::fuzz::SelfOpener(std::span(data, size)), options);
  if (!composed) {
    if (composed.error().code == sinew::Error::kNone || composed.error().where.empty())
      __builtin_trap();
  } else if (!sinew::fuzz::KeepsItsInvariants(*composed) || !sinew::fuzz::LeavesNoArcs(*composed)) {
    __builtin_trap();
  }
  // The UsdSkel loader: an error says where; an asset poses (at the start of its first clip),
  // every drawn primitive deforms and every rigid binding is placed.
  auto loaded = sinew::loader::LoadUsdaFromMemory(std::span(data, size), options);
  if (!loaded) {
    if (loaded.error().code == sinew::Error::kNone || loaded.error().where.empty())
      __builtin_trap();
    return 0;
  }
  if (!sinew::fuzz::PosesAndDeforms(loaded->asset)) __builtin_trap();
  return 0;
}
