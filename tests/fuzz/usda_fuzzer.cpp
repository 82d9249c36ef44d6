// libFuzzer target for the .usda reader (loader/src/usd/usda_parser.h) and the UsdSkel loader on
// top of it (sinew/loader/usd.h): any input must read or be refused with an error that says where,
// never crash, hang, recurse without bound or read out of bounds (built with ASan + UBSan); an
// asset the loader gives must pose and deform on the CPU reference without an error. The reader
// has no public entry point: the target reaches it through the loader's private headers (the
// sinew_loader_internal target, loader/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/rigid_transform_job.h"
#include "sinew/loader/usd.h"
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
  // The UsdSkel loader: an error says where; an asset poses (at the start of its first clip),
  // every drawn primitive deforms and every rigid binding is placed.
  auto loaded = sinew::loader::LoadUsdaFromMemory(std::span(data, size));
  if (!loaded) {
    if (loaded.error().code == sinew::Error::kNone || loaded.error().where.empty())
      __builtin_trap();
    return 0;
  }
  const sinew::Asset& a = loaded->asset;
  auto scene = sinew::cpu::EvaluateScene(a, a.animations.empty() ? -1 : 0, 0);
  if (!scene) __builtin_trap();
  for (const sinew::cpu::DrawnMesh& drawn : sinew::cpu::DrawnMeshes(a)) {
    std::vector<sinew::Float3x4> palette;
    if (drawn.skin >= 0) {
      auto p = sinew::cpu::NodePalette(a, drawn.node, scene->world);
      if (!p) __builtin_trap();
      palette = std::move(p.value());
    }
    for (uint32_t k = 0; k < a.meshes[drawn.mesh].primitives.size(); ++k) {
      sinew::cpu::DeformedPrimitive out;
      if (!sinew::cpu::DeformPrimitive(a, drawn.node, k, scene->world,
                                       scene->pose.weights[drawn.node], palette, &out)) {
        __builtin_trap();
      }
    }
  }
  if (!sinew::cpu::RigidTransforms(a, scene->world)) __builtin_trap();
  return 0;
}
