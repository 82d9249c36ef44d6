// The command-line options `sinew bake` and `sinew render` share: how the file is loaded
// (load_arguments.h), the pose (a clip at a time, a bind pose, explicit morph weights), the
// material variant and the skinning method.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bake.h"
#include "load_arguments.h"
#include "sinew/asset/asset.h"
#include "sinew/loader/load_asset.h"

namespace sinew::tool {

struct PoseArguments {
  loader::AssetOptions load;  // --usd-variant, --usd-fallback
  BakeOptions bake;
  bool time_given = false;  // --time was given
  std::string skinning;     // --skinning linear|dqs; empty: each primitive's own method
};

// If args[*i] is one of --anim, --time, --loop, --pose, --variant, --weights and --skinning, or
// one of ParseLoadArgument's,
// takes it (advancing *i past its value): kTaken, or kBad after a message naming `command`.
// kNotMine for any other argument.
Parsed ParsePoseArgument(const char* command, std::span<const std::string_view> args, size_t* i,
                         PoseArguments* o);

// The values' spelling (--pose, --skinning); false after a message naming `command`. A --time
// or --loop without --anim is a warning on stderr (no clip is sampled).
bool ValidPoseArguments(const char* command, const PoseArguments& o);

// --skinning linear|dqs: every skinned primitive and every rigid binding of `asset` blended that
// way (an engine chooses per primitive; the tool for the whole file). Without it, each keeps the
// method its file gives (a UsdSkel mesh's skel:skinningMethod; glTF and G4MF: linear).
void ApplySkinningArgument(const PoseArguments& o, Asset* asset);

// What the loader left out or repaired, which shapes what a command computes: on stderr, each
// warning with its place, as `sinew info` lists them, naming `command`.
void PrintLoaderWarnings(const char* command, const loader::LoadedAsset& loaded);

// Loads `file` (loader::LoadAsset, with --usd-variant and --usd-fallback), prints the loader's
// warnings on stderr and applies
// --skinning; null after a message naming `command`.
std::unique_ptr<loader::LoadedFile> LoadForCommand(const char* command, const std::string& file,
                                                   const PoseArguments& o);

// A finite decimal number, every character of `text` used ("0x10", "1.5s" and "" are not).
bool ParseFloat(std::string_view text, float* out);

}  // namespace sinew::tool
