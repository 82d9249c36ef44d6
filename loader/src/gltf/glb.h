// The GLB container (glTF 2.0 Specification, Binary glTF Layout): a 12-byte header, a JSON chunk,
// an optional BIN chunk.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/core/error.h"

namespace sinew::loader::gltf {

inline constexpr uint32_t kGlbMagic = 0x46546C67;      // "glTF"
inline constexpr uint32_t kGlbChunkJson = 0x4E4F534A;  // "JSON"
inline constexpr uint32_t kGlbChunkBin = 0x004E4942;   // "BIN\0"

struct GlbChunks {
  std::span<const uint8_t> json;
  std::span<const uint8_t> bin;  // Empty when the file has no BIN chunk.
  bool has_bin = false;
  size_t trailing = 0;  // Bytes after the header's declared length, ignored.
};

// True when `bytes` starts with the GLB magic.
bool IsGlb(std::span<const uint8_t> bytes);

// Checks the header (magic, version 2, a length within the file: bytes after it are counted in
// `trailing` and ignored) and the chunks (lengths within the declared length and multiples of 4,
// JSON first, at most one BIN right after it; unknown chunk types after them are skipped as the
// spec says). kInvalidGlb with where = "byte <offset>".
Result<GlbChunks> ParseGlb(std::span<const uint8_t> bytes);

}  // namespace sinew::loader::gltf
