// Writing an output whole or not at all: a write that fails part way (a full disk, a file size
// limit) removes what it wrote, so that no truncated file is left looking like a result.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace sinew::tool {

// Writes `bytes` to `path`. False when any of it could not be written, the file then removed;
// errno stays the failure's (WhyWritingFailed).
bool WriteOutputFile(const std::string& path, std::string_view bytes);

// Closes `file`, opened to write `path`: true when every write and the close succeeded; else the
// file is removed, errno kept.
bool CloseOutputFile(std::FILE* file, const std::string& path);

// ": " and the system's reason for the write that failed, when it gave one (errno, cleared before
// the write); "" otherwise.
std::string WhyWritingFailed();

}  // namespace sinew::tool
