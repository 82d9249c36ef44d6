// The tool's rule for the files it writes: into a folder that exists, never over a folder, and
// never over the input or a file the input names (a .gltf's external buffer or texture, by any
// path, link or URI escape), which a bake's PREFIX.bin or a picture would otherwise replace
// without a word.
#pragma once

#include <string>
#include <string_view>

#include "sinew/loader/loaded_asset.h"

namespace sinew::tool {

// Whether `output` may be written for `input`: its folder exists, it is not a folder, and it is
// neither `input` nor a file the input names (a string of its JSON, a GLB's JSON chunk included,
// or a .usda asset path, taken relative to its folder, URI escapes decoded), however the output
// reaches it: another spelling, a symlink, a hard link; whether or not that file exists yet. The
// names inside binary encodings (.g4b, .usdc, .usdz) are not looked for here: once the input is
// loaded, WritesNoFileItRead covers the files its loader read. Otherwise false, after saying why on
// stderr, naming `command` ("bake").
bool CanWriteOutput(const char* command, const std::string& input, const std::string& output);

// Whether `output` is none of the files the loader read beside the input
// (LoadedAsset::external_files: a .g4b's or a Zstd-compressed JSON's external buffers too, and the
// layers a USD stage composed, a crate's included), by file identity. Otherwise false, after saying
// why on stderr, as CanWriteOutput does.
bool WritesNoFileItRead(const char* command, const loader::LoadedAsset& loaded,
                        const std::string& output);

// Whether `path` names a folder rather than a file: it ends in a separator, or a folder is there.
bool IsFolderName(const std::string& path);

// Whether `path` ends with `extension` (".png"), letter case aside: an output's extension says
// what is written into it.
bool HasExtension(std::string_view path, std::string_view extension);

}  // namespace sinew::tool
