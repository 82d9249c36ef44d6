#include "output_paths.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace sinew::tool {
namespace {

namespace fs = std::filesystem;

// Whether the file at `path` contains `text` (false when it cannot be read).
bool FileContains(const fs::path& path, const std::string& text) {
  std::ifstream file(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return !text.empty() && bytes.find(text) != std::string::npos;
}

}  // namespace

bool CanWriteOutput(const char* command, const std::string& input, const std::string& output) {
  std::error_code ec;
  const fs::path out(output), in(input);
  const fs::path folder = out.parent_path();
  const char* why = nullptr;
  if (!out.has_filename() || fs::is_directory(out, ec)) {
    why = "is a folder: give a file name";
  } else if (!folder.empty() && !fs::is_directory(folder, ec)) {
    why = "is in a folder that does not exist";
  } else if (!fs::exists(out, ec)) {
    return true;
  } else if (fs::equivalent(in, out, ec)) {
    why = "is the input file, which would be overwritten: choose another output";
  } else if (fs::equivalent(fs::absolute(in, ec).parent_path(), fs::absolute(out, ec).parent_path(),
                            ec) &&
             FileContains(in, out.filename().string())) {
    why = "is a file the input names, which would be overwritten: choose another output";
  } else {
    return true;
  }
  std::fprintf(stderr, "sinew %s: %s %s\n", command, output.c_str(), why);
  return false;
}

}  // namespace sinew::tool
