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

bool WritesOverInput(const char* command, const std::string& input, const std::string& output) {
  std::error_code ec;
  const fs::path out(output), in(input);
  if (!fs::exists(out, ec)) return false;
  const char* what = nullptr;
  if (fs::equivalent(in, out, ec)) {
    what = "the input file";
  } else if (fs::equivalent(fs::absolute(in, ec).parent_path(), fs::absolute(out, ec).parent_path(),
                            ec) &&
             FileContains(in, out.filename().string())) {
    what = "a file the input names";
  }
  if (what == nullptr) return false;
  std::fprintf(stderr, "sinew %s: %s is %s, which would be overwritten: choose another output\n",
               command, output.c_str(), what);
  return true;
}

}  // namespace sinew::tool
