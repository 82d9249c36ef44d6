// What every loader returns: the asset and the warnings collected on the way (what each loader
// warns about: docs/gltf.md, docs/G4MF.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sinew/asset/asset.h"

namespace sinew::loader {

// Something worth knowing that did not stop the load.
struct Warning {
  std::string where;  // JSON pointer, e.g. "/meshes/0/primitives/1/attributes/WEIGHTS_0".
  std::string message;
};

// The axis an asset's coordinates have up.
enum class UpAxis : uint8_t { kY, kZ };

// "Y" or "Z", as USD's upAxis spells it.
constexpr const char* ToString(UpAxis axis) noexcept { return axis == UpAxis::kZ ? "Z" : "Y"; }

// A variant set of a prim on a composed USD stage: the variants it holds and the one composed in.
struct UsdVariantSet {
  std::string prim;                   // "/World/Hero"
  std::string set;                    // "lod"
  std::vector<std::string> variants;  // by name, each once, from every layer that holds the set
  // The variant composed in: the caller's selection, the stage's, or a fallback; "" for none. A
  // selection of a variant the set lacks is reported as written (the set brings nothing).
  std::string selected;
};

struct LoadedAsset {
  Asset asset;
  std::vector<Warning> warnings;
  // The files beside the asset's own that the loader read, as their URIs resolved them (a glTF's or
  // G4MF's external buffers; data: URIs and a GLB's or .g4b's chunks are not files; a USD stage's
  // sublayers and the layers its references and payloads name, each once, resolved against the
  // path it was loaded from; the layers inside a .usdz are not files), in the order read: what the
  // asset depends on, for an engine that reloads it when they change, or a tool that must not
  // write over them.
  std::vector<std::filesystem::path> external_files;
  // The frame the asset's coordinates are in, as its file says (no loader converts axes or units:
  // docs/semantics.md, "Units and axes"). glTF and G4MF prescribe +Y up and meters. A USD stage
  // says it in its upAxis and metersPerUnit, read as UsdGeom reads them: Y and 0.01 where
  // unauthored, or authored as something UsdGeom does not take (a warning names it). An engine
  // that is +Y up in meters turns a Z-up asset by -90 degrees about X and scales it by
  // meters_per_unit.
  UpAxis up_axis = UpAxis::kY;
  double meters_per_unit = 1.0;
  // A USD stage's time codes a second (its timeCodesPerSecond, or its framesPerSecond where only
  // that is authored, else USD's 24): the rate its keys were at before the clips were put in
  // seconds. None for glTF and G4MF, whose keys are in seconds.
  std::optional<double> time_codes_per_second;
  // A USD stage's variant sets, each prim's on the composed stage in the order the prims are, its
  // sets strongest first: what UsdOptions::variant_selections can choose between (an engine that
  // offers a character's LODs or outfits lists them here, then loads again with a selection).
  // None for glTF and G4MF (a glTF's KHR_materials_variants are Asset::variants).
  std::vector<UsdVariantSet> variant_sets;
};

}  // namespace sinew::loader
