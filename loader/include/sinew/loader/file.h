// Reading asset files into memory, padded so simdjson can parse them in place without a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

#include "sinew/core/error.h"

namespace sinew::loader {

// A file's bytes followed by at least ReadPadding() bytes (simdjson's SIMDJSON_PADDING): zeros
// where ReadFile, FileBytesOf or ReadFileWith added them.
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

// Reads a whole file for a loader, as ReadFile does: an engine that keeps its assets in an archive,
// a virtual file system or a platform's asset store gives its own to the loaders' options
// (GltfOptions, G4mfOptions, UsdOptions, AssetOptions::read_file), and they read every file
// through it, each by the path they resolved it to (a buffer's or a layer's URI against the file
// that names it, `.` and `..` folded away): the asset's own file when loaded by path, and the
// files beside it. Its errors are the load's, so it says what is missing where (kFileNotFound,
// naming the path). Its bytes need no padding (the loader pads them). Called on the loading
// thread, for each file a load reads (a file named twice may be read twice); the options hold it
// by value and the loaders copy it, so a reader with state keeps it behind a pointer, and one
// shared by loads on several threads must be safe to call from them.
using FileReader = std::function<Result<FileBytes>(const std::filesystem::path& path)>;

// `bytes` copied into a FileBytes, padded: what a FileReader that holds a file in memory returns.
FileBytes FileBytesOf(std::span<const uint8_t> bytes);

// The file read through `read`, or ReadFile where `read` is empty, its padding made up where a
// reader left it short (kFileReadFailed where the reader's `size` exceeds its storage).
Result<FileBytes> ReadFileWith(const FileReader& read, const std::filesystem::path& path);

}  // namespace sinew::loader
