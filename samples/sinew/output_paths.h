// The tool's rule for the files it writes: into a folder that exists, never over a folder, and
// never over what it reads: the input file, or a file beside it that the input names (a .gltf's
// external buffer, a USD layer's sublayer), which a bake's PREFIX.bin or a conversion's OUT would
// otherwise replace without a word.
#pragma once

#include <string>

namespace sinew::tool {

// Whether `output` may be written for `input`: its folder exists, it is not a folder, and it is
// neither `input` nor an existing file in `input`'s folder whose name the input's bytes contain.
// Otherwise false, after saying why on stderr, naming `command` ("bake").
bool CanWriteOutput(const char* command, const std::string& input, const std::string& output);

}  // namespace sinew::tool
