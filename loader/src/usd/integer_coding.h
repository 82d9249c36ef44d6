// The integer coding of USD's crate files (docs/usdc.md, "Compressed integers"): a run of 32- or
// 64-bit integers stored as differences from the previous one (the first from 0). The encoding is
// the most common difference (an int32 or int64), then a 2-bit code per integer (four to a byte,
// the first in the low bits), then the differences that are not the common one, each as the
// smallest of three widths that holds it:
//   code 0: the common difference; 1: int8 (int16 for 64-bit integers); 2: int16 (int32);
//   3: int32 (int64).
// On disk the encoding is LZ4-compressed (lz4_blocks.h) and preceded by its compressed size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sinew::loader::usd {

// The largest encoding of `count` integers of `width` bytes (4 or 8).
size_t MaxEncodedIntegersSize(size_t count, size_t width) noexcept;

// Decodes out.size() integers from `in` (the encoding, after decompression). False, with *why
// set, when `in` ends before them. T is int32_t, uint32_t, int64_t or uint64_t; unsigned values
// wrap as the signed ones do.
template <typename T>
bool DecodeIntegers(std::span<const uint8_t> in, std::span<T> out, std::string* why);

// The encoding of `values` (before compression).
template <typename T>
std::vector<uint8_t> EncodeIntegers(std::span<const T> values);

}  // namespace sinew::loader::usd
