// What the USD fuzz targets (.usda, .usdc/.usdz) share: an opener that serves the input for
// every file it names; and what they ask of what they read: a layer keeps the model's
// invariants; an asset the UsdSkel loader accepted poses at the start of its first clip, every
// drawn primitive deforms on the CPU reference and every rigid binding is placed, all without an
// error (an error there means the loader let through something it should have refused).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/rigid_transform_job.h"
#include "sinew/loader/usd.h"
#include "usd/layer.h"
#include "usd/read_layer.h"

namespace sinew::fuzz {

// An opener that serves the fuzz input itself for every file a layer names, read again under
// that name: cycles, diamonds, nesting and layer offsets across files are reached.
inline loader::usd::LayerOpener SelfOpener(std::span<const uint8_t> bytes,
                                           const loader::usd::UsdcOptions& options = {}) {
  return [bytes, options](const std::string& name) -> Result<loader::usd::OpenedLayer> {
    return loader::usd::ReadNamedLayer(bytes, name, options);
  };
}

// The options the targets compose and load with: references may compose 32 MiB
// (reference_expansion 1), within the fuzzer's memory and time limits under the sanitizers; a
// selection and fallbacks for set names the corpus and the dictionary use, so that the choices a
// caller gives are composed too.
inline loader::UsdOptions FuzzUsdOptions() {
  loader::UsdOptions options;
  options.reference_expansion = 1;
  options.variant_selections = {{"/Hero", "rig", "full"}, {"/A", "v", "b"}};
  options.variant_fallbacks = {{"lod", {"low", "high"}}, {"detail", {"fine"}}, {"v", {"x", "a"}}};
  return options;
}

// Each prim is found at its path, and parents and children agree.
inline bool KeepsItsInvariants(const loader::usd::Layer& layer) {
  const auto& prims = layer.prims;
  for (uint32_t i = 0; i < prims.size(); ++i) {
    if (layer.FindPrim(prims[i].path) != &prims[i]) return false;
    for (uint32_t child : prims[i].children) {
      if (child >= prims.size() || prims[child].parent != int32_t(i)) return false;
    }
  }
  // A composed layer's variant sets are its prims', their variants by name, each once.
  for (const loader::UsdVariantSet& set : layer.variant_sets) {
    if (layer.FindPrim(set.prim) == nullptr ||
        std::adjacent_find(set.variants.begin(), set.variants.end(), std::greater_equal<>()) !=
            set.variants.end()) {
      return false;
    }
  }
  return true;
}

// A composed layer (compose_stage.h) has no sublayers, references, payloads or variants left.
inline bool LeavesNoArcs(const loader::usd::Layer& layer) {
  for (const loader::usd::Prim& p : layer.prims) {
    if (p.references.BringsAny() || p.payloads.BringsAny() || p.variants ||
        p.path.find('{') != std::string::npos) {
      return false;
    }
  }
  return layer.sub_layers.empty();
}

inline bool PosesAndDeforms(const Asset& a) {
  auto scene = cpu::EvaluateScene(a, a.animations.empty() ? -1 : 0, 0);
  if (!scene) return false;
  for (const cpu::DrawnMesh& drawn : cpu::DrawnMeshes(a)) {
    std::vector<Float3x4> palette;
    if (drawn.skin >= 0) {
      auto p = cpu::NodePalette(a, drawn.node, scene->world);
      if (!p) return false;
      palette = std::move(p.value());
    }
    for (uint32_t k = 0; k < a.meshes[drawn.mesh].primitives.size(); ++k) {
      cpu::DeformedPrimitive out;
      if (!cpu::DeformPrimitive(a, drawn.node, k, scene->world, scene->pose.weights[drawn.node],
                                palette, &out)) {
        return false;
      }
    }
  }
  return cpu::RigidTransforms(a, scene->world).ok();
}

}  // namespace sinew::fuzz
