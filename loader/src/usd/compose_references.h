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

// Opens the layer named `name`: a reference's asset path resolved against the referencing layer
// (ResolveAssetPath). Its errors name the file; ComposeReferences adds the referencing prim.
using LayerOpener = std::function<Result<OpenedLayer>(const std::string& name)>;

// The asset path `asset` against the layer named `anchor`: relative to anchor's folder unless it
// is absolute, with `.` and `..` folded away ("scenes/a.usda" and "../b.usda" give "b.usda").
std::string ResolveAssetPath(std::string_view anchor, std::string_view asset);

// `root` (named `root_name`) with every prim's references and payloads composed in, and no arcs
// left. Time samples of a referenced layer with another timeCodesPerSecond (or framesPerSecond,
// where only that is authored) are scaled to the root's, as USD maps a reference's time. A prim
// reached again by another way through the references adds nothing (its opinions are there
// already). Errors, each at the referencing prim: a reference to a prim the layer lacks, to a
// layer without a defaultPrim when the reference names none, to the prim itself or one of its
// ancestors, or a cycle of references (kInvalidReference); a referenced layer whose
// timeCodesPerSecond is not positive (kInvalidValue); references nested deeper than 32, or
// composing more than `expansion` times the prims, properties and values of the layers read
// (kUnsupportedFeature: a bound against a few lines that would expand into billions of prims);
// the opener's error for a file it cannot open, its message naming the prim and the reference.
Result<Layer> ComposeReferences(Layer root, std::string_view root_name, const LayerOpener& open,
                                uint32_t expansion);

}  // namespace sinew::loader::usd
