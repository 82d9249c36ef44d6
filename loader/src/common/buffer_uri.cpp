#include "common/buffer_uri.h"

#include <string>
#include <utility>

#include "common/base64.h"
#include "common/uri.h"
#include "sinew/loader/file.h"

namespace sinew::loader {

namespace {

// The error with `where` in front of its own location (an "offset N" inside the URI, if any).
ErrorInfo At(ErrorInfo err, std::string_view where) {
  err.where = std::string(where) + (err.where.empty() ? "" : " " + err.where);
  return err;
}

}  // namespace

Status ReadBufferUri(const std::filesystem::path& base_dir, std::string_view uri,
                     std::string_view where, std::vector<uint8_t>* out) {
  if (IsDataUri(uri)) {
    auto data = ParseDataUri(uri);
    if (!data) return At(data.error(), where);
    if (!data->base64) {
      return {Error::kUnsupportedFeature, "data: URIs must be base64-encoded", std::string(where)};
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
    err.where = std::string(where);
    return err;
  }
  auto file = ReadFile(*path);
  if (!file) {
    ErrorInfo err = file.error();
    err.message += " (" + path->string() + ")";
    err.where = std::string(where);
    return err;
  }
  *out = std::move(file->storage);
  out->resize(file->size);
  return {};
}

}  // namespace sinew::loader
