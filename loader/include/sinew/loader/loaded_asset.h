// What every loader returns: the asset and the warnings collected on the way (what each loader
// warns about: docs/gltf.md, docs/G4MF.md).
#pragma once

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
};

}  // namespace sinew::loader
