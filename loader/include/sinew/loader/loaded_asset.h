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
  // G4MF's external buffers; data: URIs and a GLB's or .g4b's chunks are not files; a USD stage's
  // sublayers and the layers its references and payloads name, each once, resolved against the
  // path it was loaded from; the layers inside a .usdz are not files), in the order read: what the
  // asset depends on, for an engine that reloads it when they change, or a tool that must not
  // write over them.
  std::vector<std::filesystem::path> external_files;
};

}  // namespace sinew::loader
