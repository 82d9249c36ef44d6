// References and payloads, composed into one flattened layer (docs/usda.md, "References"): a prim
// that references another prim — of its own layer (`</Geometry>`), or of a layer file beside it
// (`@./geometries/Body.usda@</Body>`, or that layer's defaultPrim) — takes the referenced prim's
// metadata, properties and children, its own opinions the stronger; paths inside the referenced
// prim are mapped to where it lands. Payloads are read as references (after them, as USD ranks
// them). The loader runs this before reading UsdSkel from the layer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "sinew/core/error.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

// A layer file another layer references: its layer, and its name (to which its own references
// are relative).
struct OpenedLayer {
  Layer layer;
  std::string name;
};

// Opens the layer at `asset` (as a reference writes it), relative to the layer named `anchor`.
// Its errors name the file; ComposeReferences adds the referencing prim.
using LayerOpener =
    std::function<Result<OpenedLayer>(std::string_view anchor, std::string_view asset)>;

// The asset path `asset` against the layer named `anchor`: relative to anchor's folder unless it
// is absolute, with `.` and `..` folded away ("scenes/a.usda" and "../b.usda" give "b.usda").
std::string ResolveAssetPath(std::string_view anchor, std::string_view asset);

// `root` (named `root_name`) with every prim's references and payloads composed in, and no arcs
// left. Time samples of a referenced layer with another timeCodesPerSecond are scaled to the
// root's, as USD maps a reference's time. Errors, each at the referencing prim (or the item's
// line when a file cannot be opened): a reference to a prim the layer lacks, to a layer without
// a defaultPrim when the reference names none, to the prim itself or one of its ancestors, or
// cycles (kInvalidReference); references nested deeper than 32, or composing more than
// `max_elements` values, prims and properties in all (kUnsupportedFeature).
Result<Layer> ComposeReferences(Layer root, std::string_view root_name, const LayerOpener& open,
                                uint64_t max_elements);

}  // namespace sinew::loader::usd
