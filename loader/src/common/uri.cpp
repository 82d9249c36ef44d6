#include "common/uri.h"

namespace sinew::loader {
namespace {

constexpr std::string_view kDataScheme = "data:";

ErrorInfo Fail(Error code, size_t offset, std::string message) {
  return {code, std::move(message), "offset " + std::to_string(offset), 0};
}

char ToLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ToLower(a[i]) != ToLower(b[i])) return false;
  }
  return true;
}

bool IsAlpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A MIME token (RFC 2045 §5.1): printable ASCII except space and the tspecials.
bool IsTokenChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u <= 0x20 || u >= 0x7F) return false;
  return std::string_view("()<>@,;:\\\"/[]?=").find(c) == std::string_view::npos;
}

// The index of the first non-token character in `text`, or npos when there is none (callers
// check for an empty token themselves).
size_t FirstNonToken(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (!IsTokenChar(text[i])) return i;
  }
  return std::string_view::npos;
}

// The length of the scheme plus ':' at the start of `uri` (RFC 3986 §3.1:
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), or 0 when there is none.
size_t SchemeLength(std::string_view uri) {
  if (uri.empty() || !IsAlpha(uri[0])) return 0;
  for (size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return i + 1;
    if (!IsAlpha(c) && !IsDigit(c) && c != '+' && c != '-' && c != '.') return 0;
  }
  return 0;
}

}  // namespace

bool IsDataUri(std::string_view uri) noexcept {
  return uri.size() >= kDataScheme.size() &&
         EqualsIgnoringCase(uri.substr(0, kDataScheme.size()), kDataScheme);
}

Result<DataUri> ParseDataUri(std::string_view uri) {
  if (!IsDataUri(uri)) return Fail(Error::kInvalidUri, 0, "not a data: URI");
  const size_t header_begin = kDataScheme.size();
  const size_t comma = uri.find(',', header_begin);
  if (comma == std::string_view::npos) {
    return Fail(Error::kInvalidUri, uri.size(), "data: URI without a ',' before its data");
  }
  DataUri result;
  result.payload = uri.substr(comma + 1);

  // The header: [type/subtype] *(;attribute=value) [;base64], each part at offset `begin`.
  std::string_view header = uri.substr(header_begin, comma - header_begin);
  constexpr std::string_view kBase64Suffix = ";base64";
  if (header.size() >= kBase64Suffix.size() &&
      EqualsIgnoringCase(header.substr(header.size() - kBase64Suffix.size()), kBase64Suffix)) {
    result.base64 = true;
    header.remove_suffix(kBase64Suffix.size());
  }
  size_t begin = 0;
  bool first = true;
  while (begin <= header.size()) {
    size_t end = header.find(';', begin);
    if (end == std::string_view::npos) end = header.size();
    const std::string_view part = header.substr(begin, end - begin);
    const size_t part_offset = header_begin + begin;
    if (first) {
      // The media type may be absent ("data:,x" or "data:;charset=utf-8,x").
      if (!part.empty()) {
        const size_t slash = part.find('/');
        if (slash == std::string_view::npos) {
          return Fail(Error::kInvalidUri, part_offset,
                      "media type '" + std::string(part) + "' is not type/subtype");
        }
        const std::string_view type = part.substr(0, slash);
        const std::string_view subtype = part.substr(slash + 1);
        if (type.empty() || FirstNonToken(type) != std::string_view::npos) {
          return Fail(Error::kInvalidUri, part_offset,
                      "media type '" + std::string(part) + "' has an invalid type");
        }
        if (subtype.empty() || FirstNonToken(subtype) != std::string_view::npos) {
          return Fail(Error::kInvalidUri, part_offset + slash + 1,
                      "media type '" + std::string(part) + "' has an invalid subtype");
        }
        for (char c : part) result.media_type += ToLower(c);
      }
      first = false;
    } else {
      const size_t equals = part.find('=');
      if (equals == std::string_view::npos || equals == 0 ||
          FirstNonToken(part.substr(0, equals)) != std::string_view::npos) {
        return Fail(Error::kInvalidUri, part_offset,
                    "data: URI parameter '" + std::string(part) + "' is not attribute=value");
      }
      result.media_type += ';';
      result.media_type += part;
    }
    if (end == header.size()) break;
    begin = end + 1;
  }
  return result;
}

Result<std::string> PercentDecode(std::string_view uri) {
  std::string decoded;
  decoded.reserve(uri.size());
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      decoded += uri[i];
      continue;
    }
    const int high = i + 1 < uri.size() ? HexValue(uri[i + 1]) : -1;
    const int low = i + 2 < uri.size() ? HexValue(uri[i + 2]) : -1;
    if (high < 0 || low < 0) {
      return Fail(Error::kInvalidUri, i, "'%' must be followed by two hex digits");
    }
    decoded += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return decoded;
}

Result<std::filesystem::path> ResolveRelativeUri(const std::filesystem::path& base_dir,
                                                 std::string_view uri) {
  if (uri.empty()) return Fail(Error::kInvalidUri, 0, "empty URI");
  if (const size_t scheme = SchemeLength(uri); scheme != 0) {
    std::string message = "URI scheme '" + std::string(uri.substr(0, scheme)) +
                          "' is not supported (only relative paths and data: URIs)";
    if (IsDataUri(uri)) message += "; decode data: URIs with ParseDataUri";
    return Fail(Error::kUnsupportedFeature, 0, std::move(message));
  }
  if (uri[0] == '/') {
    return Fail(Error::kInvalidUri, 0, "absolute path; glTF URIs are relative to the asset");
  }
  auto decoded = PercentDecode(uri);
  if (!decoded.ok()) return decoded.error();
  if (decoded->front() == '/') {  // Non-empty: a non-empty URI never decodes to nothing.
    // Only "%2F..." gets here; base_dir / "/x" would silently drop base_dir.
    return Fail(Error::kInvalidUri, 0, "absolute path once percent-decoded");
  }
  if (decoded->find('\0') != std::string::npos) {
    return Fail(Error::kInvalidUri, uri.find("%00"), "NUL byte (%00) in a file path");
  }
  std::filesystem::path relative(*decoded);
  if (relative.has_root_path()) {
    // Platforms with drive letters or UNC names: a path that does not stay under base_dir.
    return Fail(Error::kInvalidUri, 0, "absolute path; glTF URIs are relative to the asset");
  }
  return base_dir / relative;
}

}  // namespace sinew::loader
