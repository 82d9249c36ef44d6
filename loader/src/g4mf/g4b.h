// The G4MF binary container (.g4b; G4MF specification, binary_file_format.md; docs/G4MF.md): a
// 16-byte header (magic "G4MF", u32 version 0, u64 file size) and chunks, each with a 16-byte
// header (FourCC type, FourCC encoding, u64 data size) aligned to 16 bytes, data padded to 16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader::g4mf {

inline constexpr uint32_t kG4bMagic = 0x464D3447;         // "G4MF"
inline constexpr uint32_t kG4bChunkJson = 0x4E4F534A;     // "JSON"
inline constexpr uint32_t kG4bChunkBlob = 0x424F4C42;     // "BLOB"
inline constexpr uint32_t kG4bEncodingNone = 0x00000000;  // plain bytes
inline constexpr uint32_t kG4bEncodingZstd = 0x6474735A;  // "Zstd"

struct G4bChunk {
  uint32_t type = 0;  // FourCC, little-endian as in the file (kG4bChunkJson, kG4bChunkBlob, ...)
  uint32_t encoding = 0;          // kG4bEncodingNone or kG4bEncodingZstd
  std::span<const uint8_t> data;  // The stored (possibly encoded) bytes, without padding.
  size_t offset = 0;              // File offset of the chunk's header, for error messages.
};

struct G4bFile {
  std::vector<G4bChunk> chunks;  // Every chunk in file order; buffer "chunk": i indexes this.
  size_t json_chunk = 0;         // Index of the first chunk of type JSON.
};

// True when `bytes` starts with the magic "G4MF".
bool IsG4b(std::span<const uint8_t> bytes);

// Checks the header (magic, version 0, file size == bytes.size(), size MSB clear) and each chunk
// (header 16-byte aligned and inside the file, data size MSB clear, data inside the file, encoding
// not 0xFFFFFFFF and one sinew knows: none or Zstd), and that a JSON chunk exists. Padding after
// the last chunk's data up to the next 16-byte boundary is allowed but not required at the end of
// the file. Errors: kInvalidG4b with where = "byte <offset>" of the offending field.
Result<G4bFile> ParseG4b(std::span<const uint8_t> bytes);

// Decodes a chunk's data into exactly `decoded_size` bytes, followed by `padding` zero bytes
// that are not counted (simdjson needs them after JSON). A plain chunk must hold exactly
// decoded_size bytes; a Zstd chunk must be one or more complete Zstd frames (magic kept) that
// decode to exactly that many. decoded_size == kFromFrame takes the size from the Zstd frame
// headers (the JSON chunk has no buffer byteLength to say it; a plain chunk then keeps its size;
// a frame that does not declare its size is an error). The size is checked against
// `max_decoded_size` before anything is allocated (the caller bounds it, e.g. by a small multiple
// of the file size).
// Errors: kInvalidG4b (where = "byte <chunk header offset>"): wrong size, corrupt or truncated
// Zstd data, undeclared frame size with kFromFrame, decoded size above the bound.
inline constexpr size_t kFromFrame = ~size_t(0);
Result<std::vector<uint8_t>> DecodeG4bChunk(const G4bChunk& chunk, size_t decoded_size,
                                            size_t max_decoded_size, size_t padding = 0);

}  // namespace sinew::loader::g4mf
