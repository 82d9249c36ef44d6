// Writes a Layer (layer.h) as a binary USD crate file (.usdc) of version 0.8.0, the version the
// packages in the wild use (0.9.0 when a timecode value needs its type): what `sinew convert IN
// OUT.usdc` writes (through sinew/loader/usda_writer.h's WriteUsdc), and
// how the tests turn any .usda into a crate file to read back. docs/usdc.md, "Writing .usdc",
// lists what is written and how; crate_reader.h reads it.
#pragma once

#include <cstdint>
#include <vector>

#include "sinew/core/error.h"
#include "usd/layer.h"

namespace sinew::loader::usd {

// The file's bytes. kInvalidArgument for a layer the model allows but a crate cannot hold: a path
// that is not absolute, or more than 2^32 tokens, strings, paths or fields.
Result<std::vector<uint8_t>> WriteCrate(const Layer& layer);

}  // namespace sinew::loader::usd
