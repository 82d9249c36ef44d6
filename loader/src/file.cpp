#include "sinew/loader/file.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>

namespace sinew::loader {

size_t ReadPadding() noexcept { return simdjson::SIMDJSON_PADDING; }

Result<FileBytes> ReadFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    const char* what = std::filesystem::is_directory(path, ec) ? "a directory, not a file"
                       : std::filesystem::exists(path, ec)     ? "not a regular file"
                                                               : "no such file";
    return ErrorInfo{Error::kFileNotFound, what, path.string(), 0};
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return ErrorInfo{Error::kFileReadFailed, ec.message(), path.string(), 0};
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return ErrorInfo{Error::kFileReadFailed, "cannot open the file", path.string(), 0};
  FileBytes out;
  out.size = static_cast<size_t>(size);
  out.storage.assign(out.size + ReadPadding(), 0);
  if (out.size != 0 && std::fread(out.storage.data(), 1, out.size, file.get()) != out.size) {
    return ErrorInfo{Error::kFileReadFailed,
                     "read fewer than " + std::to_string(out.size) + " bytes", path.string(), 0};
  }
  return out;
}

FileBytes FileBytesOf(std::span<const uint8_t> bytes) {
  FileBytes out;
  out.size = bytes.size();
  out.storage.assign(out.size + ReadPadding(), 0);
  std::copy(bytes.begin(), bytes.end(), out.storage.begin());
  return out;
}

Result<FileBytes> ReadFileWith(const FileReader& read, const std::filesystem::path& path) {
  if (!read) return ReadFile(path);
  Result<FileBytes> file = read(path);
  if (!file) return file;
  if (file->size > file->storage.size()) {
    return ErrorInfo{Error::kFileReadFailed,
                     "the file reader gave " + std::to_string(file->storage.size()) +
                         " bytes for a file of " + std::to_string(file->size),
                     path.string(), 0};
  }
  if (file->storage.size() < file->size + ReadPadding()) {
    file->storage.resize(file->size + ReadPadding(), 0);
  }
  return file;
}

}  // namespace sinew::loader
