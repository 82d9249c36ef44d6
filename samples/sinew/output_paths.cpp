#include "output_paths.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

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

// The strings a text names files with: each JSON string, escapes skipped over ("…", as a glTF's
// or G4MF's URIs are written), and, in a .usda, each asset path (@…@).
std::vector<std::string_view> QuotedNames(std::string_view text, bool usda) {
  std::vector<std::string_view> names;
  for (size_t i = 0; i < text.size(); ++i) {
    const char open = text[i];
    if (open != '"' && !(usda && open == '@')) continue;
    size_t close = i + 1;
    while (close < text.size() && text[close] != open) {
      close += open == '"' && text[close] == '\\' ? 2 : 1;
    }
    if (close >= text.size()) break;  // left open: nothing after it is a whole name
    names.push_back(text.substr(i + 1, close - i - 1));
    i = close;
  }
  return names;
}

// The part of the file `input` that can name other files, read from it alone: a GLB's JSON chunk
// (not its binary chunk), a .usda's or JSON file's text; nothing for the binary encodings (.g4b,
// .usdc, .usdz), whose names WritesNoFileItRead covers once they are loaded.
std::string NamingText(const fs::path& input) {
  std::ifstream file(input, std::ios::binary);
  std::string head(20, '\0');
  file.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(file.gcount()));
  if (head.starts_with("glTF")) {  // header (12 bytes), then the JSON chunk's length and type
    std::error_code ec;
    const uintmax_t size = fs::file_size(input, ec);
    if (head.size() < 20 || ec) return {};
    uint32_t length = 0;
    for (int b = 3; b >= 0; --b) length = length << 8 | uint8_t(head[12 + size_t(b)]);
    std::string json(std::min<uintmax_t>(length, size - 20), '\0');  // a length past the end: cut
    file.read(json.data(), std::streamsize(json.size()));
    json.resize(size_t(file.gcount()));
    return json;
  }
  if (head.starts_with("G4MF") || head.starts_with("PXR-USDC") || head.starts_with("PK")) {
    return {};
  }
  return head + std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// Whether the name `a` and the output `b` are one file: by identity when the output exists (a
// symlink, a hard link, another spelling), else, where their file names agree, by their paths made
// absolute with `..` and the links of the part that exists resolved (an output the input names
// that nothing has written yet).
bool SameFile(const fs::path& a, const fs::path& b, bool b_exists) {
  std::error_code ec;
  if (b_exists) return fs::equivalent(a, b, ec);
  if (a.filename() != b.filename()) return false;
  // (Absolute first: weakly_canonical leaves a relative path none of whose parts exist as it is.)
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  if (ec) return false;
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return !ec && ca == cb;
}

// Whether `input` names the file `output` is (SameFile). Each name the input's text holds
// (QuotedNames) is taken for a path relative to the input's folder, as the loaders resolve
// buffers, URI escapes decoded.
bool InputNames(const fs::path& input, const fs::path& output) {
  std::error_code ec;
  // Only a regular file names others (libstdc++ throws reading a folder through a stream); what
  // is not one is refused by the loader, which says so.
  if (!fs::is_regular_file(input, ec)) return false;
  const std::string text = NamingText(input);
  const bool usda = text.starts_with("#usda");
  const fs::path folder = input.parent_path();
  const bool output_exists = fs::exists(output, ec);
  constexpr size_t kLongestName = 4096;
  for (const std::string_view name : QuotedNames(text, usda)) {
    if (!name.empty() && name.size() <= kLongestName && name.find('\0') == std::string::npos &&
        SameFile(folder / PercentDecoded(name), output, output_exists)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool CanWriteOutput(const char* command, const std::string& input, const std::string& output) {
  std::error_code ec;
  const fs::path out(output), in(input);
  const fs::path folder = out.parent_path();
  const char* why = nullptr;
  if (IsFolderName(output)) {
    why = "is a folder: give a file name";
  } else if (!folder.empty() && !fs::is_directory(folder, ec)) {
    why = "is in a folder that does not exist";
  } else if (fs::exists(out, ec) && fs::equivalent(in, out, ec)) {
    why = "is the input file, which would be overwritten: choose another output";
  } else if (InputNames(in, out)) {
    why = "is a file the input names, which would be overwritten: choose another output";
  } else {
    return true;
  }
  std::fprintf(stderr, "sinew %s: %s %s\n", command, output.c_str(), why);
  return false;
}

bool WritesNoFileItRead(const char* command, const loader::LoadedAsset& loaded,
                        const std::string& output) {
  std::error_code ec;
  for (const fs::path& read : loaded.external_files) {
    if (fs::equivalent(read, output, ec)) {
      std::fprintf(stderr,
                   "sinew %s: %s is a file the input names, which would be overwritten: choose "
                   "another output\n",
                   command, output.c_str());
      return false;
    }
  }
  return true;
}

bool IsFolderName(const std::string& path) {
  std::error_code ec;
  return !fs::path(path).has_filename() || fs::is_directory(path, ec);
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
