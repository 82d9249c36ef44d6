// Reading a buffer named by a URI, for every format that stores buffers this way (glTF, G4MF):
// a base64 data: URI decoded in memory, or a file beside the asset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader {

// Fills `out` with the bytes `uri` names: a base64 `data:` URI, or a relative reference resolved
// against `base_dir` (percent-decoded) and read whole. `where` (a JSON pointer to the uri
// property) is put in front of every error's location. Errors: those of ParseDataUri,
// DecodeBase64, ResolveRelativeUri and ReadFile (whose message gains the resolved path);
// kUnsupportedFeature for a data: URI that is not base64.
Status ReadBufferUri(const std::filesystem::path& base_dir, std::string_view uri,
                     std::string_view where, std::vector<uint8_t>* out);

}  // namespace sinew::loader
