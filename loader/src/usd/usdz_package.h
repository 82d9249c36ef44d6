// USD's package format (.usdz): an uncompressed zip archive whose first file is the root layer
// (.usdc or .usda), every file's data starting at a multiple of 64 bytes. sinew reads the root
// layer in place (docs/usdc.md, "Packages").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader::usd {

struct PackagedFile {
  std::string name;                // as the archive names it: "Character.usdc"
  std::span<const uint8_t> bytes;  // a view into the package
};

// The package's first file. kInvalidUsdc (where: "usdz at byte N") for a malformed or truncated
// archive; kUnsupportedFeature for a compressed or encrypted entry, or one whose sizes follow its
// data (the package format forbids all three).
Result<PackagedFile> UsdzRootLayer(std::span<const uint8_t> package);

// Every packaged file, in the archive's order, found by walking the local headers from the first
// (each checked as UsdzRootLayer checks the first): UsdzRootLayer's errors for a malformed entry
// on the way.
Result<std::vector<PackagedFile>> UsdzFiles(std::span<const uint8_t> package);

// A package of `files` in order, the first the root layer: stored entries, each file's data
// aligned to 64 bytes by padding the local header's extra field, CRC-32s, a central directory.
std::vector<uint8_t> PackageUsdz(std::span<const PackagedFile> files);

}  // namespace sinew::loader::usd
