#include "common/buffers.h"

#include <string>
#include <utility>

#include "common/base64.h"
#include "common/uri.h"
#include "sinew/loader/file.h"

namespace sinew::loader {

namespace {

// The error with `where` in front of its own location (an "offset N" inside the URI, if any).
ErrorInfo At(ErrorInfo err, const Path& where) {
  err.where = where.ToString() + (err.where.empty() ? "" : " " + err.where);
  return err;
}

}  // namespace

LoadStatus ReadBufferUri(const std::filesystem::path& base_dir, std::string_view uri,
                         const Path& where, const FileReader& read, std::vector<uint8_t>* out,
                         std::vector<std::filesystem::path>* files_read) {
  if (IsDataUri(uri)) {
    auto data = ParseDataUri(uri);
    if (!data) return At(data.error(), where);
    if (!data->base64) {
      return {Error::kUnsupportedFeature, "data: URIs must be base64-encoded", where.ToString()};
    }
    out->resize(Base64DecodedSizeBound(data->payload.size()));
    auto decoded = DecodeBase64(data->payload, *out);
    if (!decoded) return At(decoded.error(), where);
    out->resize(*decoded);
    return {};
  }
  auto path = ResolveRelativeUri(base_dir, uri);
  if (!path) {
    ErrorInfo err = path.error();
    err.where = where.ToString();
    return err;
  }
  *path = path->lexically_normal();  // "models/../buffers/a.bin" is "buffers/a.bin"
  auto file = ReadFileWith(read, *path);
  if (!file) {
    ErrorInfo err = file.error();
    err.message += " (" + path->string() + ")";
    err.where = where.ToString();
    return err;
  }
  *out = std::move(file->storage);
  out->resize(file->size);
  files_read->push_back(std::move(*path));
  return {};
}

LoadStatus CheckByteLength(uint64_t byte_length, size_t size, const Path& buffer) {
  if (size >= byte_length) return {};
  return {Error::kOutOfBounds,
          "byteLength " + std::to_string(byte_length) + " but the data has " +
              std::to_string(size) + " bytes",
          Path(buffer, "byteLength").ToString()};
}

LoadStatus ResolveView(std::span<const uint8_t> buffer, size_t index, uint64_t byte_offset,
                       uint64_t byte_length, const Path& where, BufferView* out) {
  const uint64_t size = buffer.size();
  if (byte_offset > size || byte_length > size - byte_offset) {
    return {Error::kOutOfBounds,
            "bytes [" + std::to_string(byte_offset) + ", " +
                std::to_string(byte_offset + byte_length) + ") reach past buffer " +
                std::to_string(index) + " (" + std::to_string(size) + " bytes)",
            Path(where, "byteLength").ToString()};
  }
  out->bytes = buffer.subspan(size_t(byte_offset), size_t(byte_length));
  out->byte_offset = byte_offset;
  return {};
}

}  // namespace sinew::loader
