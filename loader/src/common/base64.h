// Base64 decoding (RFC 4648 §4, the standard alphabet) for data: URIs (glTF and G4MF).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sinew/core/error.h"

namespace sinew::loader {

// An upper bound on the bytes DecodeBase64 writes for `encoded_size` characters: 3 per started
// group of 4. Size the output with it before decoding; DecodeBase64 returns the exact count.
size_t Base64DecodedSizeBound(size_t encoded_size) noexcept;

// Decodes `encoded` into `out` and returns the number of bytes written.
//
// Accepted: the standard alphabet A-Z a-z 0-9 + /, with the final group either padded with '='
// to 4 characters or left unpadded (2 or 3 characters). Rejected: whitespace, line breaks, the
// URL-safe alphabet, '=' anywhere but the padding of the last group, and a final group of a
// single character (length % 4 == 1). Non-zero unused bits in the final group are accepted
// (RFC 4648 §3.5 lets decoders ignore them).
//
// Errors:
//   kInvalidArgument  `out` is smaller than the decoded size (checked before the content;
//                     Base64DecodedSizeBound(encoded.size()) is always enough). where is empty.
//   kInvalidBase64    where = "offset N", N the character offset of the first bad character
//                     (for a lone final character, that character); the message names it.
// On failure the contents of `out` are unspecified, but nothing outside it is written, and
// nothing outside `encoded` is read, whatever the input.
Result<size_t> DecodeBase64(std::string_view encoded, std::span<uint8_t> out) noexcept;

// Encodes `bytes` with the standard alphabet, padded with '=' (the inverse of DecodeBase64).
std::string EncodeBase64(std::span<const uint8_t> bytes);

}  // namespace sinew::loader
