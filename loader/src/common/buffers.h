// Buffers and bufferViews as glTF 2.0 and G4MF both define them (glTF 2.0 Specification, Buffers
// and Buffer Views; G4MF specification, data.md): a buffer is bytes named by a URI (a base64 data:
// URI, or a file beside the asset) or held by the container (GLB's BIN chunk, a .g4b data chunk),
// at least its "byteLength" of them; a bufferView is "byteLength" bytes of one buffer from its
// "byteOffset". The formats' own rules (glTF's byteStride, G4MF's Zstd encoding, which properties
// are required) stay in their loaders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "common/json.h"
#include "sinew/core/error.h"
#include "sinew/loader/file.h"

namespace sinew::loader {

// Fills `out` with the bytes `uri` names: a base64 `data:` URI, or a relative reference resolved
// against `base_dir` (percent-decoded, `.` and `..` folded away) and read whole. `where` (the uri
// property) is put in front of every error's location. Errors: those of ParseDataUri, DecodeBase64,
// ResolveRelativeUri and ReadFileWith (through `read`; the message gains the resolved path);
// kUnsupportedFeature for a data: URI that is not base64. A file read is appended to `files_read`
// (LoadedAsset::external_files).
LoadStatus ReadBufferUri(const std::filesystem::path& base_dir, std::string_view uri,
                         const Path& where, const FileReader& read, std::vector<uint8_t>* out,
                         std::vector<std::filesystem::path>* files_read);

// A buffer's data of `size` bytes holds its byteLength: kOutOfBounds at buffer/byteLength if not.
LoadStatus CheckByteLength(uint64_t byte_length, size_t size, const Path& buffer);

// A bufferView, resolved within its buffer.
struct BufferView {
  std::span<const uint8_t> bytes;  // byteOffset .. + byteLength of its buffer.
  uint64_t byte_offset = 0;        // In its buffer, for the alignment rules.
  uint32_t byte_stride = 0;        // glTF's byteStride; 0: tightly packed (G4MF's always are).
};

// The view at `where`: bytes [byte_offset, byte_offset + byte_length) of `buffer` (buffer `index`
// of the file), into out->bytes and out->byte_offset. kOutOfBounds at where/byteLength when they
// reach past the buffer.
LoadStatus ResolveView(std::span<const uint8_t> buffer, size_t index, uint64_t byte_offset,
                       uint64_t byte_length, const Path& where, BufferView* out);

}  // namespace sinew::loader
