#include "g4b.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace sinew::loader::g4mf {
namespace {

constexpr size_t kHeaderSize = 16;
constexpr size_t kChunkHeaderSize = 16;
constexpr size_t kAlignment = 16;
constexpr uint64_t kSizeMsb = uint64_t(1) << 63;
constexpr uint32_t kReservedEncoding = 0xFFFFFFFF;

// G4MF is little-endian, as are the hosts sinew supports; memcpy keeps unaligned reads defined.
uint32_t ReadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

uint64_t ReadU64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

ErrorInfo Bad(size_t offset, std::string message) {
  return {Error::kInvalidG4b, std::move(message), "byte " + std::to_string(offset), 0};
}

// "Brot" when the four bytes are printable ASCII, else 0x12345678 (as the little-endian u32).
std::string FourCcName(uint32_t fourcc) {
  std::string text(4, ' ');
  std::memcpy(text.data(), &fourcc, 4);
  for (char ch : text) {
    if (ch < 0x20 || ch > 0x7E) {
      char hex[11];
      std::snprintf(hex, sizeof hex, "0x%08X", fourcc);
      return hex;
    }
  }
  return "\"" + text + "\"";
}

bool IsKnownEncoding(uint32_t encoding) {
  return encoding == kG4bEncodingNone || encoding == kG4bEncodingZstd;
}

// Checks `size` (decoded, without padding) against the caller's bound and allocates it plus
// `padding` zero bytes. Nothing is allocated for a size over the bound.
Result<std::vector<uint8_t>> Allocate(const G4bChunk& chunk, size_t size, size_t max_decoded_size,
                                      size_t padding) {
  if (size > max_decoded_size) {
    return Bad(chunk.offset, "chunk decodes to " + std::to_string(size) +
                                 " bytes, more than the allowed " +
                                 std::to_string(max_decoded_size));
  }
  if (padding > SIZE_MAX - size) {
    return Bad(chunk.offset, "chunk size " + std::to_string(size) + " plus padding " +
                                 std::to_string(padding) + " overflows");
  }
  return std::vector<uint8_t>(size + padding, 0);
}

Result<std::vector<uint8_t>> DecodePlain(const G4bChunk& chunk, size_t decoded_size,
                                         size_t max_decoded_size, size_t padding) {
  const size_t size = chunk.data.size();
  if (decoded_size != kFromFrame && decoded_size != size) {
    return Bad(chunk.offset, "plain chunk holds " + std::to_string(size) + " bytes, expected " +
                                 std::to_string(decoded_size));
  }
  auto out = Allocate(chunk, size, max_decoded_size, padding);
  if (!out) return out;
  if (size != 0) std::memcpy(out->data(), chunk.data.data(), size);
  return out;
}

Result<std::vector<uint8_t>> DecodeZstd(const G4bChunk& chunk, size_t decoded_size,
                                        size_t max_decoded_size, size_t padding) {
  const std::span<const uint8_t> data = chunk.data;
  if (data.empty()) return Bad(chunk.offset, "Zstd chunk holds no Zstd frame");

  // Walk the frames first: each must be complete, and their declared sizes bound the output
  // before anything is allocated.
  uint64_t declared = 0;  // Sum of the declared content sizes (saturates past max_decoded_size).
  bool undeclared = false;
  for (size_t pos = 0; pos < data.size();) {
    const size_t left = data.size() - pos;
    const std::string at = "Zstd frame at data byte " + std::to_string(pos);
    if (left < 4) return Bad(chunk.offset, at + " is truncated");
    const uint32_t magic = ReadU32(data.data() + pos);
    if (magic != ZSTD_MAGICNUMBER &&
        (magic & ZSTD_MAGIC_SKIPPABLE_MASK) != ZSTD_MAGIC_SKIPPABLE_START) {
      return Bad(chunk.offset, at + " does not start with the Zstd magic number");
    }
    const size_t frame_size = ZSTD_findFrameCompressedSize(data.data() + pos, left);
    if (ZSTD_isError(frame_size)) {
      return Bad(chunk.offset, at + " is truncated or corrupt (" +
                                   std::string(ZSTD_getErrorName(frame_size)) + ")");
    }
    const unsigned long long content = ZSTD_getFrameContentSize(data.data() + pos, left);
    if (content == ZSTD_CONTENTSIZE_ERROR) return Bad(chunk.offset, at + " has a corrupt header");
    if (content == ZSTD_CONTENTSIZE_UNKNOWN) {
      undeclared = true;
    } else {
      // Saturate rather than overflow; any sum past the bound is rejected below.
      declared = content > kSizeMsb - declared ? kSizeMsb : declared + content;
    }
    pos += frame_size;
  }

  size_t size = decoded_size;
  if (decoded_size == kFromFrame) {
    if (undeclared) {
      return Bad(chunk.offset,
                 "a Zstd frame does not declare its content size, and no decoded size is given");
    }
    if (declared > max_decoded_size) {
      return Bad(chunk.offset, "Zstd frames declare " + std::to_string(declared) +
                                   " bytes, more than the allowed " +
                                   std::to_string(max_decoded_size));
    }
    size = static_cast<size_t>(declared);
  } else if (undeclared ? declared > decoded_size : declared != decoded_size) {
    return Bad(chunk.offset, "Zstd frames declare " + std::to_string(declared) +
                                 " bytes, expected " + std::to_string(decoded_size));
  }

  auto out = Allocate(chunk, size, max_decoded_size, padding);
  if (!out) return out;
  // ZSTD_decompress decodes every concatenated frame (skippable ones included), never writes past
  // `size`, and checks each frame's declared size and checksum when present.
  uint8_t empty = 0;
  void* dst = size != 0 ? static_cast<void*>(out->data()) : &empty;
  const size_t written = ZSTD_decompress(dst, size, data.data(), data.size());
  if (ZSTD_isError(written)) {
    if (ZSTD_getErrorCode(written) == ZSTD_error_dstSize_tooSmall) {
      return Bad(chunk.offset, "Zstd data decodes to more than " + std::to_string(size) + " bytes");
    }
    return Bad(chunk.offset, "corrupt Zstd data (" + std::string(ZSTD_getErrorName(written)) + ")");
  }
  if (written != size) {
    return Bad(chunk.offset, "Zstd data decodes to " + std::to_string(written) +
                                 " bytes, expected " + std::to_string(size));
  }
  return out;
}

}  // namespace

bool IsG4b(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && ReadU32(bytes.data()) == kG4bMagic;
}

Result<G4bFile> ParseG4b(std::span<const uint8_t> bytes) {
  if (!IsG4b(bytes)) return Bad(0, "not a G4MF binary file (magic)");
  if (bytes.size() < kHeaderSize) return Bad(0, "shorter than the 16-byte G4MF header");
  const uint32_t version = ReadU32(bytes.data() + 4);
  if (version != 0) return Bad(4, "G4MF version " + std::to_string(version) + ", expected 0");
  const uint64_t file_size = ReadU64(bytes.data() + 8);
  if (file_size & kSizeMsb) return Bad(8, "file size has its most significant bit set");
  if (file_size != bytes.size()) {
    return Bad(8, "header file size " + std::to_string(file_size) + " but the file has " +
                      std::to_string(bytes.size()) + " bytes");
  }

  G4bFile out;
  bool have_json = false;
  size_t offset = kHeaderSize;  // Always a multiple of 16 here.
  while (offset < bytes.size()) {
    if (bytes.size() - offset < kChunkHeaderSize) {
      return Bad(offset, "truncated chunk header (" + std::to_string(bytes.size() - offset) +
                             " bytes left, a chunk header has 16)");
    }
    G4bChunk chunk;
    chunk.offset = offset;
    chunk.type = ReadU32(bytes.data() + offset);
    chunk.encoding = ReadU32(bytes.data() + offset + 4);
    const uint64_t data_size = ReadU64(bytes.data() + offset + 8);
    if (chunk.encoding == kReservedEncoding) {
      return Bad(offset + 4, "chunk encoding 0xFFFFFFFF is reserved as an error value");
    }
    if (!IsKnownEncoding(chunk.encoding)) {
      return Bad(offset + 4, "unsupported chunk encoding " + FourCcName(chunk.encoding) +
                                 " (sinew reads plain and \"Zstd\")");
    }
    if (data_size & kSizeMsb)
      return Bad(offset + 8, "chunk data size has its most significant bit set");
    const size_t data = offset + kChunkHeaderSize;
    if (data_size > bytes.size() - data) {
      return Bad(offset + 8, "chunk data of " + std::to_string(data_size) +
                                 " bytes runs past the end of the file");
    }
    const size_t data_end = data + static_cast<size_t>(data_size);
    chunk.data = bytes.subspan(data, static_cast<size_t>(data_size));
    if (!have_json && chunk.type == kG4bChunkJson) {
      out.json_chunk = out.chunks.size();
      have_json = true;
    }
    out.chunks.push_back(chunk);  // Chunks of other types are kept; buffers index all chunks.
    // Padding (contents unchecked) up to the next 16-byte boundary; the file may end inside it.
    const size_t pad = (kAlignment - data_end % kAlignment) % kAlignment;
    if (pad >= bytes.size() - data_end) break;
    offset = data_end + pad;
  }
  if (!have_json) return Bad(kHeaderSize, "no JSON chunk");
  return out;
}

Result<std::vector<uint8_t>> DecodeG4bChunk(const G4bChunk& chunk, size_t decoded_size,
                                            size_t max_decoded_size, size_t padding) {
  if (chunk.encoding == kG4bEncodingNone) {
    return DecodePlain(chunk, decoded_size, max_decoded_size, padding);
  }
  if (chunk.encoding == kG4bEncodingZstd) {
    return DecodeZstd(chunk, decoded_size, max_decoded_size, padding);
  }
  return Bad(chunk.offset, "unsupported chunk encoding " + FourCcName(chunk.encoding));
}

}  // namespace sinew::loader::g4mf
