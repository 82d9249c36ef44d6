// Typed access to simdjson DOM values with errors that carry a JSON pointer (RFC 6901).
// simdjson appears only inside the loader.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader {

using Element = simdjson::dom::element;
using Object = simdjson::dom::object;
using Array = simdjson::dom::array;

// parent + "/" + key (with '~' and '/' escaped), or parent + "/" + index.
std::string Pointer(std::string_view parent, std::string_view key);
std::string Pointer(std::string_view parent, size_t index);

// Each getter: a missing optional key leaves *out untouched and sets *present (when given) to
// false; a present key of the wrong JSON type is kWrongType at parent/key; Require* turn a missing
// key into kMissingProperty.
Status AsObject(Element value, std::string_view where, Object* out);
Status OptionalObject(Object o, std::string_view key, std::string_view where, Object* out,
                      bool* present);
Status OptionalArray(Object o, std::string_view key, std::string_view where, Array* out,
                     bool* present);
Status RequireArray(Object o, std::string_view key, std::string_view where, Array* out);
Status OptionalUint(Object o, std::string_view key, std::string_view where, uint64_t* out,
                    bool* present = nullptr);
Status RequireUint(Object o, std::string_view key, std::string_view where, uint64_t* out);
// An index into an array of `size` objects: kInvalidReference when >= size.
Status OptionalIndex(Object o, std::string_view key, std::string_view where, size_t size,
                     int32_t* out);
Status RequireIndex(Object o, std::string_view key, std::string_view where, size_t size,
                    uint32_t* out);
Status OptionalBool(Object o, std::string_view key, std::string_view where, bool* out);
Status OptionalString(Object o, std::string_view key, std::string_view where, std::string_view* out,
                      bool* present = nullptr);
Status RequireString(Object o, std::string_view key, std::string_view where, std::string_view* out);
// An array of strings (views into the parsed document).
Status OptionalStrings(Object o, std::string_view key, std::string_view where,
                       std::vector<std::string_view>* out, bool* present = nullptr);
// The length of the array o[key]; 0 when absent or not an array (its own pass reports that).
size_t ArraySize(Object o, std::string_view key);
// A finite number.
Status OptionalNumber(Object o, std::string_view key, std::string_view where, double* out,
                      bool* present = nullptr);
// A number array of exactly `count` entries (any count when count == 0), finite.
Status OptionalNumbers(Object o, std::string_view key, std::string_view where, size_t count,
                       std::vector<double>* out, bool* present = nullptr);
// An array of indices, each < size.
Status OptionalIndices(Object o, std::string_view key, std::string_view where, size_t size,
                       std::vector<uint32_t>* out, bool* present = nullptr);

}  // namespace sinew::loader
