#include "common/base64.h"

#include <array>
#include <bit>
#include <cstring>
#include <string>

namespace sinew::loader {
namespace {

// Speed (glTF embeds whole vertex buffers in data: URIs) comes from decoding 4 characters with
// 4 table lookups OR-ed together: kGroupTables[k][c] holds character c's 6 bits already moved to
// where they land in the 3 output bytes when c is the k-th character of a group, laid out as a
// little-endian word (byte 0 = first output byte). A character outside the alphabet maps to
// kInvalid, whose bits lie outside the low 24, so one test per block finds any bad character.
constexpr uint32_t kInvalid = 0xFF000000u;

constexpr int SextetOf(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

constexpr std::array<uint32_t, 256> MakeGroupTable(int position) {
  std::array<uint32_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const int sextet = SextetOf(static_cast<unsigned char>(c));
    if (sextet < 0) {
      table[c] = kInvalid;
      continue;
    }
    // The group's 24 bits big-endian (first character highest), then reordered so the first
    // output byte is the word's lowest.
    const uint32_t bits = static_cast<uint32_t>(sextet) << (18 - 6 * position);
    table[c] = ((bits >> 16) & 0xFF) | (bits & 0xFF00) | ((bits & 0xFF) << 16);
  }
  return table;
}

constexpr std::array<std::array<uint32_t, 256>, 4> kGroupTables = {
    MakeGroupTable(0), MakeGroupTable(1), MakeGroupTable(2), MakeGroupTable(3)};

uint32_t DecodeGroup(const unsigned char* in) noexcept {
  return kGroupTables[0][in[0]] | kGroupTables[1][in[1]] | kGroupTables[2][in[2]] |
         kGroupTables[3][in[3]];
}

// Writes the low 4 bytes of `word` (3 decoded bytes and one scratch byte that the next group
// overwrites). The caller guarantees 4 writable bytes at `out`.
void Store4(uint8_t* out, uint32_t word) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, &word, 4);
  } else {
    out[0] = static_cast<uint8_t>(word);
    out[1] = static_cast<uint8_t>(word >> 8);
    out[2] = static_cast<uint8_t>(word >> 16);
    out[3] = static_cast<uint8_t>(word >> 24);
  }
}

void Store3(uint8_t* out, uint32_t word) noexcept {
  out[0] = static_cast<uint8_t>(word);
  out[1] = static_cast<uint8_t>(word >> 8);
  out[2] = static_cast<uint8_t>(word >> 16);
}

std::string Hex2(unsigned char c) {
  constexpr char kDigits[] = "0123456789ABCDEF";
  return std::string("0x") + kDigits[c >> 4] + kDigits[c & 0xF];
}

ErrorInfo BadCharacter(std::string_view encoded, size_t offset) {
  const auto c = static_cast<unsigned char>(encoded[offset]);
  std::string message;
  if (c == '=') {
    message = "'=' is only allowed as padding at the end";
  } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
    message = "invalid base64 character " + (c == ' ' ? std::string("' '") : Hex2(c)) +
              " (whitespace is not allowed)";
  } else if (c > 0x20 && c < 0x7F) {
    message = std::string("invalid base64 character '") + static_cast<char>(c) + "'";
  } else {
    message = "invalid base64 character " + Hex2(c);
  }
  return {Error::kInvalidBase64, std::move(message), "offset " + std::to_string(offset), 0};
}

// The first character at or after `from` that is not in the alphabet. The caller knows one is
// there (a block's OR-ed word had kInvalid bits).
size_t FindBadCharacter(std::string_view encoded, size_t from) noexcept {
  while (SextetOf(static_cast<unsigned char>(encoded[from])) >= 0) ++from;
  return from;
}

// Decoded bytes for a final group of `tail` characters (0, 2 or 3; 1 is an error).
constexpr size_t TailBytes(size_t tail) noexcept { return tail >= 2 ? tail - 1 : 0; }

}  // namespace

size_t Base64DecodedSizeBound(size_t encoded_size) noexcept {
  return encoded_size / 4 * 3 + TailBytes(encoded_size % 4);
}

Result<size_t> DecodeBase64(std::string_view encoded, std::span<uint8_t> out) noexcept {
  // Padding is only recognised where it completes the last group; any other '=' is reported as
  // a bad character by the loops below.
  size_t length = encoded.size();
  if (length % 4 == 0 && length > 0 && encoded[length - 1] == '=') {
    --length;
    if (encoded[length - 1] == '=') --length;
  }
  const size_t tail = length % 4;
  const size_t body = length - tail;  // Characters in complete 4-character groups.
  const size_t decoded_size = body / 4 * 3 + TailBytes(tail);
  if (out.size() < decoded_size) {
    return ErrorInfo{Error::kInvalidArgument,
                     "the output holds " + std::to_string(out.size()) +
                         " bytes but the base64 data decodes to " + std::to_string(decoded_size),
                     {},
                     0};
  }

  const auto* in = reinterpret_cast<const unsigned char*>(encoded.data());
  uint8_t* dst = out.data();
  size_t i = 0;
  size_t o = 0;
  // 16 characters per step with 4-byte stores; each store's 4th byte is overwritten by the next
  // group, and the step only runs while `out` has a byte to spare after its 12.
  while (body - i >= 16 && out.size() - o >= 13) {
    const uint32_t w0 = DecodeGroup(in + i);
    const uint32_t w1 = DecodeGroup(in + i + 4);
    const uint32_t w2 = DecodeGroup(in + i + 8);
    const uint32_t w3 = DecodeGroup(in + i + 12);
    if (((w0 | w1 | w2 | w3) & kInvalid) != 0) {
      return BadCharacter(encoded, FindBadCharacter(encoded, i));
    }
    Store4(dst + o, w0);
    Store4(dst + o + 3, w1);
    Store4(dst + o + 6, w2);
    Store4(dst + o + 9, w3);
    i += 16;
    o += 12;
  }
  for (; i < body; i += 4, o += 3) {
    const uint32_t w = DecodeGroup(in + i);
    if ((w & kInvalid) != 0) return BadCharacter(encoded, FindBadCharacter(encoded, i));
    Store3(dst + o, w);
  }

  if (tail == 0) return o;
  for (size_t k = body; k < length; ++k) {
    if (SextetOf(in[k]) < 0) return BadCharacter(encoded, k);
  }
  if (tail == 1) {
    return ErrorInfo{Error::kInvalidBase64,
                     "a final group of one character (length % 4 == 1) holds no whole byte",
                     "offset " + std::to_string(body), 0};
  }
  // The missing characters decode as zero bits; the tables place the present ones as usual.
  uint32_t w = kGroupTables[0][in[body]] | kGroupTables[1][in[body + 1]];
  if (tail == 3) w |= kGroupTables[2][in[body + 2]];
  dst[o++] = static_cast<uint8_t>(w);
  if (tail == 3) dst[o++] = static_cast<uint8_t>(w >> 8);
  return o;
}

std::string EncodeBase64(std::span<const uint8_t> bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t w = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    out += kAlphabet[w >> 18];
    out += kAlphabet[(w >> 12) & 63];
    out += kAlphabet[(w >> 6) & 63];
    out += kAlphabet[w & 63];
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const uint32_t w = uint32_t(bytes[i]) << 16 | (two ? uint32_t(bytes[i + 1]) << 8 : 0);
    out += kAlphabet[w >> 18];
    out += kAlphabet[(w >> 12) & 63];
    out += two ? kAlphabet[(w >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace sinew::loader
