#include "sinew/loader/file.h"

#include <simdjson.h>

#include <cstdio>
#include <memory>
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

}  // namespace sinew::loader
