#include "glb.h"

#include <cstring>
#include <string>

namespace sinew::loader::gltf {
namespace {

uint32_t ReadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);  // GLB is little-endian, as are the hosts sinew supports.
  return v;
}

ErrorInfo Bad(size_t offset, std::string message) {
  return {Error::kInvalidGlb, std::move(message), "byte " + std::to_string(offset), 0};
}

}  // namespace

bool IsGlb(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && ReadU32(bytes.data()) == kGlbMagic;
}

Result<GlbChunks> ParseGlb(std::span<const uint8_t> bytes) {
  if (bytes.size() < 12) return Bad(0, "shorter than the 12-byte GLB header");
  if (ReadU32(bytes.data()) != kGlbMagic) return Bad(0, "not a GLB file (magic)");
  const uint32_t version = ReadU32(bytes.data() + 4);
  if (version != 2) return Bad(4, "GLB version " + std::to_string(version) + ", expected 2");
  const uint32_t length = ReadU32(bytes.data() + 8);
  if (length > bytes.size() || length < 12) {
    return Bad(8, "header length " + std::to_string(length) + " but the file has " +
                      std::to_string(bytes.size()) + " bytes");
  }
  GlbChunks out;
  // Bytes past the declared length (some tools pad files) are not part of the GLB: ignored, and
  // the loader warns.
  out.trailing = bytes.size() - length;
  bytes = bytes.first(length);
  size_t offset = 12;
  size_t index = 0;
  bool have_json = false;
  while (offset < bytes.size()) {
    if (bytes.size() - offset < 8) return Bad(offset, "truncated chunk header");
    const uint32_t chunk_length = ReadU32(bytes.data() + offset);
    const uint32_t type = ReadU32(bytes.data() + offset + 4);
    const size_t data = offset + 8;
    if (chunk_length > bytes.size() - data) {
      return Bad(offset, "chunk of " + std::to_string(chunk_length) + " bytes runs past the file");
    }
    if (chunk_length % 4 != 0) {
      return Bad(offset,
                 "chunk length " + std::to_string(chunk_length) + " is not a multiple of 4");
    }
    const std::span<const uint8_t> payload = bytes.subspan(data, chunk_length);
    if (index == 0) {
      if (type != kGlbChunkJson) return Bad(offset + 4, "the first chunk must be JSON");
      out.json = payload;
      have_json = true;
    } else if (type == kGlbChunkJson) {
      return Bad(offset + 4, "a second JSON chunk");
    } else if (type == kGlbChunkBin) {
      if (out.has_bin) return Bad(offset + 4, "a second BIN chunk");
      if (index != 1) return Bad(offset + 4, "the BIN chunk must directly follow the JSON chunk");
      out.bin = payload;
      out.has_bin = true;
    }  // Other chunk types are ignored (glTF 2.0 Specification, Binary glTF Layout, Chunks).
    offset = data + chunk_length;
    ++index;
  }
  if (!have_json) return Bad(12, "no JSON chunk");
  return out;
}

}  // namespace sinew::loader::gltf
