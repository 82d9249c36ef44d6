// The tool's rule for the files it writes: never over the file it reads, nor over a file beside it
// that the input names (a .gltf's external buffer, a USD layer's sublayer), which a bake's
// PREFIX.bin or a conversion's OUT would otherwise replace without a word.
#pragma once

#include <string>

namespace sinew::tool {

// Whether writing `output` would replace `input`, or an existing file in `input`'s folder whose
// name the input's bytes contain; if so, says which on stderr, naming `command` ("bake").
bool WritesOverInput(const char* command, const std::string& input, const std::string& output);

}  // namespace sinew::tool
