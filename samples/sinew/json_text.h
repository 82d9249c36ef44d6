// Writing JSON text in the tool's outputs (bench --json, bake manifests).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace sinew::tool {

// `s` escaped for a JSON string literal (quotes, backslashes, control characters as \u00XX).
inline std::string JsonEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace sinew::tool
