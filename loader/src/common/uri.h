// The URIs a glTF file uses for buffers and images: data: URIs (RFC 2397) with embedded
// payloads, and relative references to files beside the .gltf (RFC 3986, percent-encoded).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "sinew/core/error.h"

namespace sinew::loader {

// The parts of `data:[<mediatype>][;base64],<data>`.
struct DataUri {
  // The media type with its parameters, e.g. "application/octet-stream" or
  // "text/plain;charset=US-ASCII". type/subtype are lowercased (they are case-insensitive);
  // parameters are kept as written. Empty when the URI names none (RFC 2397 then means
  // "text/plain;charset=US-ASCII").
  std::string media_type;
  // True when the header ends in ";base64": the payload is base64 (see DecodeBase64).
  bool base64 = false;
  // Everything after the first ',', as written (not percent-decoded). Points into the string
  // given to ParseDataUri, so it is valid only while that string is.
  std::string_view payload;
};

// True when `uri` starts with "data:" (case-insensitive, as URI schemes are).
bool IsDataUri(std::string_view uri) noexcept;

// Splits a data: URI. kInvalidUri (where = "offset N") when it does not start with "data:", has
// no ',' after the header, or the header is malformed: a media type that is not type/subtype,
// or a parameter that is not attribute=value (";base64" is only recognised last).
Result<DataUri> ParseDataUri(std::string_view uri);

// Replaces each %XX (two hex digits, either case) with the byte it names; other characters are
// kept. A '%' not followed by two hex digits: kInvalidUri, where = "offset N" of the '%'.
Result<std::string> PercentDecode(std::string_view uri);

// The file a relative glTF URI (e.g. "buffers/a%20b.bin") names: base_dir / percent-decoded uri.
// ".." segments are allowed (assets use them to share files); the result is not normalised and
// not checked for existence. Characters are taken literally otherwise ('?' and '#' included:
// glTF assets name files, not queries or fragments).
// Errors (where = "offset N"):
//   kUnsupportedFeature  the URI has a scheme ("http:", "file:", "data:"...), named in the
//                        message. data: URIs go to ParseDataUri instead.
//   kInvalidUri          empty; an absolute path (leading '/', also when percent-encoded); a
//                        decoded NUL byte; a malformed %-escape.
Result<std::filesystem::path> ResolveRelativeUri(const std::filesystem::path& base_dir,
                                                 std::string_view uri);

}  // namespace sinew::loader
