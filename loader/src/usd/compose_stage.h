// The stage composed into one flattened layer (docs/usda.md, "Sublayers, references and
// payloads"): the root layer's sublayers, each a weaker layer of the same prims, strongest first;
// and every prim that references another prim — of the stage (`</Geometry>`), or of a layer file
// beside it (`@./geometries/Body.usda@</Body>`, or that layer's defaultPrim, with the file's own
// sublayers, and what its ancestors' references say of it) — takes the referenced prim's
// metadata, properties and children, its own opinions the stronger; paths inside the referenced
// prim are mapped to where it lands. Payloads are read as references, weaker than every one, as
// USD ranks them. A prim's variant sets bring the opinions of the variant the strongest opinion
// selects (docs/usda.md, "Variant sets"), weaker than the prim's own and stronger than its
// references. Layer offsets and the layers' rates re-time the time samples brought in. The
// loader runs this before reading UsdSkel from the layer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "sinew/core/error.h"
#include "sinew/loader/usd.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

// A layer file another layer references or sublayers: its layer, and its name (to which its own
// references and sublayers are relative).
struct OpenedLayer {
  Layer layer;
  std::string name;
};

// Opens the layer named `name`: a reference's or sublayer's asset path resolved against the layer
// that names it (ResolveAssetPath). Its errors name the file; ComposeStage adds who names it.
using LayerOpener = std::function<Result<OpenedLayer>(const std::string& name)>;

// The asset path `asset` against the layer named `anchor`: relative to anchor's folder unless it
// is absolute, with `.` and `..` folded away ("scenes/a.usda" and "../b.usda" give "b.usda").
std::string ResolveAssetPath(std::string_view anchor, std::string_view asset);

// `root` (named `root_name`) with its sublayers and every prim's references, payloads, variant
// sets and inherited and specialized classes composed in (with the classes USD implies across
// references and classes), and no arcs left (nor any variant's contents). Each variant set takes
// the variant that options.variant_selections selects for its prim, else the one the stage's
// strongest opinion selects, else the first of options.variant_fallbacks' variants for the set that
// it holds; the composed layer lists them in `variant_sets`. Prims and children are in their
// composed order, each opinion's `reorder nameChildren` and `reorder rootPrims` applied (and none
// left). Time samples brought in land where the layer offsets and the layers' timeCodesPerSecond
// (or framesPerSecond, where only that is authored) map them, as USD maps them. A prim reached
// again by another way through the references adds nothing (its opinions are there already); so
// does a layer met again in one layer stack. Errors, each at the referencing prim (at
// "<root_name>: subLayers" for the root layer's sublayers): a reference to a prim the layer stack
// lacks, to a layer without a defaultPrim when the reference names none, to the prim itself or one
// of its ancestors, an inherit or specialize of the prim itself, an ancestor or a descendant, a
// cycle of references, classes or sublayers, a class implied at the prim itself, an ancestor or a
// descendant (kInvalidReference); a class met inside a variant of a prim that an implied class
// references, which a referencing layer stack writes too (an implied class sinew does not compose,
// kUnsupportedFeature); a layer whose timeCodesPerSecond is not positive, or times mapped past a
// double's range (kInvalidValue); references or sublayers nested deeper than 32, prims (or a
// reference's target path) nested deeper than 256, or composing more than
// options.reference_expansion times the prims, properties and values of the layers read
// (kUnsupportedFeature: a bound against a few lines that would expand into billions of prims); the
// opener's error for a file it cannot open, its message naming the prim and the reference or the
// sublayer.
Result<Layer> ComposeStage(Layer root, std::string_view root_name, const LayerOpener& open,
                           const UsdOptions& options);

}  // namespace sinew::loader::usd
