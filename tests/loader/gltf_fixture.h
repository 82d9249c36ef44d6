// A small valid glTF (skinned, animated, data: URI buffer) and helpers for loader tests that
// change one piece of it and assert the exact error.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/loader/gltf.h"

namespace sinew::loader::testing {

std::string Base64(const std::vector<uint8_t>& bytes);

// Appends the bytes of `values` (little-endian host).
template <typename T>
void Append(std::vector<uint8_t>* out, std::initializer_list<T> values) {
  const size_t at = out->size();
  out->resize(at + values.size() * sizeof(T));
  std::memcpy(out->data() + at, values.begin(), values.size() * sizeof(T));
}

// The fixture's buffer as a data: URI. Layout (bytes): positions 3 x VEC3 float [0, 36);
// joints 3 x VEC4 u8 [36, 48); weights 3 x VEC4 float [48, 96); key times 2 floats [96, 104);
// rotations 2 x VEC4 [104, 136).
std::string BufferUri();
// The same buffer's bytes, and any bytes as a data: URI (to build a variant of the buffer).
std::vector<uint8_t> BufferBytes();
std::string DataUri(const std::vector<uint8_t>& bytes);

// A valid skinned, animated asset: nodes root -> tip, a skinned mesh node; one clip.
std::string ValidGltf();

// `text` with the first `from` replaced by `to` (a test failure when `from` is absent).
std::string Replace(std::string text, const std::string& from, const std::string& to);

// Loads `bytes` from memory (padded as the loader requires), external files relative to ".".
Result<LoadedAsset> LoadBytes(const std::string& bytes);

// Loading `json` fails with exactly `code` at `where`.
void ExpectError(const std::string& json, Error code, const std::string& where);

}  // namespace sinew::loader::testing
