#include "output_paths.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

namespace sinew::tool {
namespace {

namespace fs = std::filesystem;

// `text` with its %XX escapes decoded (a URI's spelling of a file name).
std::string PercentDecoded(std::string_view text) {
  const auto hex = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
  };
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += char(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Whether `input` names the file `output` is (the same file, however reached: a symlink, a hard
// link, another spelling). Every string the input quotes ("…", a glTF's or G4MF's URIs) or puts
// between @…@ (a .usda's asset paths) is taken for a path relative to the input's folder, as the
// loaders resolve buffers, and compared with the output by file identity.
bool InputNames(const fs::path& input, const fs::path& output) {
  std::ifstream file(input, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const fs::path folder = input.parent_path();
  constexpr size_t kLongestName = 4096;
  std::error_code ec;
  for (size_t open = bytes.find_first_of("\"@"); open != std::string::npos;) {
    const size_t close = bytes.find(bytes[open], open + 1);
    if (close == std::string::npos) break;
    const std::string_view name(bytes.data() + open + 1, close - open - 1);
    if (!name.empty() && name.size() <= kLongestName && name.find('\0') == std::string::npos &&
        fs::equivalent(folder / PercentDecoded(name), output, ec)) {
      return true;
    }
    open = bytes.find_first_of("\"@", close + 1);
  }
  return false;
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
  } else if (InputNames(in, out)) {
    why = "is a file the input names, which would be overwritten: choose another output";
  } else {
    return true;
  }
  std::fprintf(stderr, "sinew %s: %s %s\n", command, output.c_str(), why);
  return false;
}

bool HasExtension(std::string_view path, std::string_view extension) {
  if (path.size() < extension.size()) return false;
  const std::string_view end = path.substr(path.size() - extension.size());
  for (size_t i = 0; i < end.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(end[i])) !=
        std::tolower(static_cast<unsigned char>(extension[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace sinew::tool
