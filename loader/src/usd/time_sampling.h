// An attribute's value at a time code, as UsdSkel reads animation (docs/usda.md, "UsdSkel
// building blocks"): held outside the samples, interpolated between them.
#pragma once

#include <optional>

#include "usd/layer.h"
#include "usd/value.h"

namespace sinew::loader::usd {

// The value of `attribute` at time code `time`:
// - without time samples, its default (nullopt when it has none);
// - at or before the first sample, the first; at or after the last, the last (held);
// - between two samples, at u = (time − t0) / (t1 − t0): half, float and double values (scalars,
//   vectors, points, normals...) lerp per number (half results rounded to half); quaternions slerp
//   per element the shortest way, with linear weights when 1 − cos θ < 1e-5 and no
//   renormalization; every other type (ints, tokens, matrices), a blocked neighbour, or two
//   samples of different sizes hold the earlier sample.
// A blocked value (`None`) is returned as it is.
std::optional<Value> ValueAt(const Attribute& attribute, double time);

// The value `attribute` has at every time code, where it has one: without time samples, its
// default; with them, the value every sample holds when they all hold the same one, unblocked
// (compared bit for bit). Exporters write a static attribute as one sample at their first frame,
// which USD holds at every time. A default beside samples is not read, as USD reads the samples
// at any time code. Null where there is no value, a block, or values that change over time.
const Value* UnvaryingValue(const Attribute& attribute) noexcept;

// Two samples `lo` and `hi` interpolated at u (0 at lo, 1 at hi), as ValueAt interpolates between
// them; nullopt where ValueAt holds `lo` instead (a type that does not interpolate, a blocked
// value, different sizes).
std::optional<Value> Interpolate(const Value& lo, const Value& hi, double u);

}  // namespace sinew::loader::usd
