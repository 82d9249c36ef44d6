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
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    // (A link that leads round in a loop, a folder on the way that may not be searched.)
    return ErrorInfo{Error::kFileReadFailed, ec.message(), path.string(), 0};
  }
  if (!std::filesystem::is_regular_file(status)) {
    const char* what = std::filesystem::is_directory(status) ? "a directory, not a file"
                       : std::filesystem::exists(status)     ? "not a regular file"
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
  if (out.size == 0) {
    // A size of 0 may be a file system's way of not knowing (Linux's /proc): read to the end.
    std::vector<uint8_t> chunk(64 * 1024);
    for (size_t got; (got = std::fread(chunk.data(), 1, chunk.size(), file.get())) > 0;) {
      out.storage.insert(out.storage.begin() + std::ptrdiff_t(out.size), chunk.begin(),
                         chunk.begin() + std::ptrdiff_t(got));
      out.size += got;
    }
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
