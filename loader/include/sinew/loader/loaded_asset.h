// What every loader returns: the asset and the warnings collected on the way (what each loader
// warns about: docs/gltf.md, docs/G4MF.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "sinew/asset/asset.h"

namespace sinew::loader {

// Something worth knowing that did not stop the load.
struct Warning {
  std::string where;  // JSON pointer, e.g. "/meshes/0/primitives/1/attributes/WEIGHTS_0".
  std::string message;
};

struct LoadedAsset {
  Asset asset;
  std::vector<Warning> warnings;
  // The files beside the asset's own that the loader read, as their URIs resolved them (a glTF's or
  // G4MF's external buffers; data: URIs and a GLB's or .g4b's chunks are not files), in the order
  // read: what the asset depends on, for an engine that reloads it when they change, or a tool
  // that must not write over them. Empty for UsdSkel, whose loader reads one layer.
  std::vector<std::filesystem::path> external_files;
};

}  // namespace sinew::loader
