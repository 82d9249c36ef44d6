// Where a JSON text that simdjson refused goes wrong. simdjson's DOM parser, which the loaders read
// with, says what is wrong (a stray comma, an atom that is not true, false or null, a string left
// open) but not where; an engine programmer looking at a broken file needs the place.
#pragma once

#include <simdjson.h>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/loader/loaded_asset.h"

namespace sinew::loader {

// The byte of `json` where `error` (the DOM parser's) is found: json.size() where the text ends
// before the document does; none when no place is found. `json` must be followed by
// simdjson::SIMDJSON_PADDING readable bytes. The text is walked with simdjson's On-Demand API,
// value by value, to the first one it cannot read (or past the root value, for content after it);
// a string left open is found from its opening quote. Depth beyond simdjson's default limit is not
// walked.
std::optional<size_t> JsonSyntaxOffset(std::span<const uint8_t> json, simdjson::error_code error);

// kJsonSyntax with simdjson's message and, where JsonSyntaxOffset finds the place, "line L,
// column C" (from 1; columns count bytes), after `context` ("JSON chunk, " for a GLB's).
ErrorInfo JsonSyntaxError(std::span<const uint8_t> json, simdjson::error_code error,
                          const std::string& context = "");

// What a place in a container's JSON chunk (a GLB's, a .g4b's) is prefixed with: "JSON chunk, ";
// "" for a JSON file.
inline const char* JsonContext(bool in_chunk) { return in_chunk ? "JSON chunk, " : ""; }

// A UTF-8 byte-order mark (EF BB BF) at the start of `json`, which JSON texts must not carry but
// some Windows tools write and which changes nothing (RFC 8259 lets a reader ignore it): steps
// past it and warns at `where`. False when there is none.
bool SkipByteOrderMark(std::span<const uint8_t>* json, const std::string& where,
                       std::vector<Warning>* warnings);

}  // namespace sinew::loader
