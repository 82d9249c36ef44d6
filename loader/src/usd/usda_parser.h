// Reads one .usda layer (USD's text format) into a Layer (layer.h). What it accepts and refuses,
// with the error for each: docs/usda.md. Every error's `where` is "line L, column C" in the text.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "sinew/core/error.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

struct UsdaOptions {
  // How deep prims, dictionaries and nested metadata values may nest, each level counting one,
  // before the layer is refused (kUnsupportedFeature). Bounds the reader's recursion, so a
  // hostile file cannot exhaust the stack.
  uint32_t max_depth = 128;
};

// Parses `text`, which must start with the `#usda 1.0` header. kUsdaSyntax for malformed text,
// kWrongType for a value that does not match its declared type, kInvalidValue for a number out of
// its type's range, a malformed path, a prim defined twice or a property redeclared with another
// type, kUnsupportedFeature for composition arcs, unknown value types, other versions and nesting
// deeper than options.max_depth.
Result<Layer> ReadUsda(std::string_view text, const UsdaOptions& options = {});

// ReadUsda on a file's bytes; kFileNotFound / kFileReadFailed (where = the path) when it cannot be
// read.
Result<Layer> ReadUsdaFile(const std::filesystem::path& path, const UsdaOptions& options = {});

}  // namespace sinew::loader::usd
