// Reading asset files into memory, padded so simdjson can parse them in place without a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader {

// A file's bytes followed by at least kReadPadding zero bytes (simdjson's SIMDJSON_PADDING).
struct FileBytes {
  std::vector<uint8_t> storage;  // size() + padding bytes
  size_t size = 0;               // bytes of the file itself

  const uint8_t* data() const { return storage.data(); }
};

// Bytes of zero padding after every file read (>= simdjson::SIMDJSON_PADDING).
size_t ReadPadding() noexcept;

// Reads a whole file. kFileNotFound (where = the path) when it does not exist or is not a regular
// file; kFileReadFailed when it cannot be opened or read completely.
Result<FileBytes> ReadFile(const std::filesystem::path& path);

}  // namespace sinew::loader
