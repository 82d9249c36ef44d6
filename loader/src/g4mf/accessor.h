// G4MF accessors (G4MF specification, data.md): a buffer view read as tightly packed vectors of
// `vectorSize` components of a named `componentType`, with no count (it follows from the view's
// length). The components decode with the decoder glTF's accessors use (common/components.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/components.h"
#include "common/json.h"
#include "sinew/core/error.h"

namespace sinew::loader::g4mf {

// The component type named `name` ("float32", "uint16", ...). sinew reads float16/32/64,
// int8..int64 and uint8..uint64 (the spec requires float32, int32, uint32). Errors:
// kUnsupportedFeature for a type the spec names but sinew does not read (float8, float128,
// int128, uint128), kInvalidValue for any other string; where is left empty for the caller.
Result<NumericType> ParseComponentType(std::string_view name);

struct Accessor {
  std::span<const uint8_t> bytes;  // count · vector_size · component bytes, tightly packed
  NumericType type;
  uint32_t vector_size = 1;
  size_t count = 0;  // vectors
  std::string_view type_name;
  bool is_float() const { return type.kind == ComponentKind::kFloat; }
  bool is_unsigned() const { return type.kind == ComponentKind::kUnsigned; }
};

// Every component widened to float (integers converted by value). Non-finite values are kept:
// callers that need finite numbers check.
std::vector<float> ReadFloats(const Accessor& a);

// Every component as u32, into *out. Errors (at `where`): kInvalidValue for a value that does not
// fit in 32 bits or a negative one (signed types); floats are kInvalidValue.
LoadStatus ReadUints(const Accessor& a, const Path& where, std::vector<uint32_t>* out);

}  // namespace sinew::loader::g4mf
