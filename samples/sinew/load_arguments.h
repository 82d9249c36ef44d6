// The command-line options that choose how a file is loaded, which `sinew info`, `bake`, `render`,
// `convert` and `bench FILE` share: which variants a USD stage's variant sets take
// (loader::UsdOptions).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "sinew/loader/load_asset.h"

namespace sinew::tool {

// What a Parse...Argument function did with args[*i].
enum class Parsed { kNotMine, kTaken, kBad };

// If args[*i] is one of
//   --usd-variant /PRIM{SET=VARIANT}   a selection stronger than the stage's (VARIANT may be
//                                      empty: none), UsdOptions::variant_selections
//   --usd-fallback SET=V1[,V2...]      the variants a set nothing selects in takes, the first it
//                                      holds, UsdOptions::variant_fallbacks
// takes it and its value (advancing *i past it): kTaken, or kBad after a message naming
// `command`. kNotMine for any other argument. Each may be given more than once.
Parsed ParseLoadArgument(const char* command, std::span<const std::string_view> args, size_t* i,
                         loader::AssetOptions* o);

}  // namespace sinew::tool
