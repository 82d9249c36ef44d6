// Reads one binary USD layer (a .usdc "crate" file) into the same Layer model the .usda reader
// builds (layer.h), so that everything built on the model (the UsdSkel loader, the tools) reads
// either format. What it reads and refuses, section by section: docs/usdc.md.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/core/error.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

struct UsdcOptions {
  // How deep prims and dictionaries may nest before the layer is refused (kUnsupportedFeature):
  // bounds the reader's recursion and work, as UsdaOptions::max_depth does for text.
  uint32_t max_depth = 128;
  // The most bytes the read may decode in all: sections, tables, arrays and values, each charged
  // before it is allocated. A crate stores sizes that LZ4 can make up to 255 times larger than
  // the bytes holding them, and one value may be reached from many places; past this the file is
  // refused (kUnsupportedFeature).
  uint64_t max_decoded_bytes = uint64_t(4) << 30;
};

// Parses a crate file's bytes. Every offset and size is checked against the file (or the section
// holding it) before it is read. Errors: kInvalidUsdc for a malformed file (`where`: the section
// or the spec's path, and the byte offset), kOutOfBounds for a range past the end of the file,
// kUnsupportedFeature for versions outside 0.4.0 to 0.12.0, composition arcs, variants and
// attribute splines, paths nesting deeper than options.max_depth + 2, and reads past
// options.max_decoded_bytes; kWrongType for a value whose type is not its
// attribute's typeName; kInvalidValue for a uint64 beyond int64's range.
Result<Layer> ReadUsdc(std::span<const uint8_t> bytes, const UsdcOptions& options = {});

}  // namespace sinew::loader::usd
