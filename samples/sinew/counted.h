// A count with its noun in the tool's messages: "1 primitive", "3 primitives", "1 vertex".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sinew::tool {

// `n` and `noun`, plural but for 1: `plural` when given, else `noun` with an s.
inline std::string Counted(size_t n, std::string_view noun, std::string_view plural = {}) {
  const std::string many = plural.empty() ? std::string(noun) + "s" : std::string(plural);
  return std::to_string(n) + " " + (n == 1 ? std::string(noun) : many);
}

}  // namespace sinew::tool
