#include "load_arguments.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace sinew::tool {
namespace {

// "/PRIM{SET=VARIANT}": a prim path, then one variant selection as SdfPath writes one.
bool ParseSelection(std::string_view text, loader::UsdVariantSelection* out) {
  const size_t open = text.find('{');
  const size_t eq = text.find('=', open == std::string_view::npos ? 0 : open);
  if (!text.starts_with('/') || open == std::string_view::npos || open < 2 ||
      eq == std::string_view::npos || eq == open + 1 || !text.ends_with('}') ||
      text.find_first_of("{}=", eq + 1) != text.size() - 1) {
    return false;
  }
  out->prim = text.substr(0, open);
  out->set = text.substr(open + 1, eq - open - 1);
  out->variant = text.substr(eq + 1, text.size() - eq - 2);
  return true;
}

// "SET=V1,V2,...": a set's name and its fallbacks, none empty.
bool ParseFallback(std::string_view text, loader::UsdVariantFallback* out) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) return false;
  out->set = text.substr(0, eq);
  std::string_view rest = text.substr(eq + 1);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view variant = rest.substr(0, comma);
    if (variant.empty()) return false;
    out->variants.emplace_back(variant);
    if (comma == std::string_view::npos) return true;
    rest = rest.substr(comma + 1);
  }
}

}  // namespace

Parsed ParseLoadArgument(const char* command, std::span<const std::string_view> args, size_t* i,
                         loader::AssetOptions* o) {
  const std::string_view a = args[*i];
  if (a != "--usd-variant" && a != "--usd-fallback") return Parsed::kNotMine;
  if (*i + 1 >= args.size()) {
    std::fprintf(stderr, "sinew %s: %.*s needs a value\n", command, int(a.size()), a.data());
    return Parsed::kBad;
  }
  const std::string_view value = args[++*i];
  const bool selection = a == "--usd-variant";
  const bool parsed = selection ? ParseSelection(value, &o->usd.variant_selections.emplace_back())
                                : ParseFallback(value, &o->usd.variant_fallbacks.emplace_back());
  if (!parsed) {
    std::fprintf(stderr, "sinew %s: %s, not '%.*s'\n", command,
                 selection ? "--usd-variant /PRIM{SET=VARIANT} (a prim's path and one variant "
                             "selection, as USD writes one: /World/Hero{lod=low})"
                           : "--usd-fallback SET=VARIANT[,VARIANT...] (lod=low,medium)",
                 int(value.size()), value.data());
    return Parsed::kBad;
  }
  return Parsed::kTaken;
}

}  // namespace sinew::tool
