#include "common/base64.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sinew::loader {
namespace {

// The library's encoder (checked against the RFC's vectors below), optionally without padding.
std::string Encode(const std::vector<uint8_t>& bytes, bool pad) {
  std::string text = EncodeBase64(bytes);
  if (!pad) text.erase(text.find_last_not_of('=') + 1);
  return text;
}

std::vector<uint8_t> Bytes(std::string_view text) { return {text.begin(), text.end()}; }

// Decodes into a buffer of exactly the bound's size and returns the written bytes.
Result<std::vector<uint8_t>> Decode(std::string_view text) {
  std::vector<uint8_t> out(Base64DecodedSizeBound(text.size()));
  auto written = DecodeBase64(text, out);
  if (!written.ok()) return written.error();
  out.resize(*written);
  return out;
}

void ExpectError(std::string_view text, Error code, std::string_view where) {
  auto decoded = Decode(text);
  ASSERT_FALSE(decoded.ok()) << "'" << text << "' decoded";
  EXPECT_EQ(decoded.code(), code) << text << ": " << decoded.error().ToString();
  EXPECT_EQ(decoded.error().where, where) << text << ": " << decoded.error().ToString();
}

TEST(DecodeBase64, DecodesTheRfc4648TestVectors) {
  const std::pair<std::string_view, std::string_view> kVectors[] = {{"", ""},
                                                                    {"Zg==", "f"},
                                                                    {"Zm8=", "fo"},
                                                                    {"Zm9v", "foo"},
                                                                    {"Zm9vYg==", "foob"},
                                                                    {"Zm9vYmE=", "fooba"},
                                                                    {"Zm9vYmFy", "foobar"}};
  for (const auto& [encoded, plain] : kVectors) {
    auto decoded = Decode(encoded);
    ASSERT_TRUE(decoded.ok()) << encoded << ": " << decoded.error().ToString();
    EXPECT_EQ(*decoded, Bytes(plain)) << encoded;
  }
}

TEST(EncodeBase64, EncodesTheRfc4648TestVectors) {
  const std::pair<std::string_view, std::string_view> kVectors[] = {{"", ""},
                                                                    {"f", "Zg=="},
                                                                    {"fo", "Zm8="},
                                                                    {"foo", "Zm9v"},
                                                                    {"foob", "Zm9vYg=="},
                                                                    {"fooba", "Zm9vYmE="},
                                                                    {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : kVectors) EXPECT_EQ(EncodeBase64(Bytes(plain)), encoded);
}

TEST(DecodeBase64, DecodesTheRfc4648TestVectorsWithoutPadding) {
  const std::pair<std::string_view, std::string_view> kVectors[] = {
      {"", ""},           {"Zg", "f"},          {"Zm8", "fo"},         {"Zm9v", "foo"},
      {"Zm9vYg", "foob"}, {"Zm9vYmE", "fooba"}, {"Zm9vYmFy", "foobar"}};
  for (const auto& [encoded, plain] : kVectors) {
    auto decoded = Decode(encoded);
    ASSERT_TRUE(decoded.ok()) << encoded << ": " << decoded.error().ToString();
    EXPECT_EQ(*decoded, Bytes(plain)) << encoded;
  }
}

TEST(DecodeBase64, RoundTripsEveryByteValueAtEveryAlignment) {
  std::vector<uint8_t> all(256);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint8_t>(i);
  // Each length from 256 down to 250 ends the data in a different kind of final group, and
  // the long run goes through the 16-character fast path.
  for (size_t drop = 0; drop < 6; ++drop) {
    const std::vector<uint8_t> bytes(all.begin() + static_cast<ptrdiff_t>(drop), all.end());
    for (bool pad : {true, false}) {
      const std::string text = Encode(bytes, pad);
      auto decoded = Decode(text);
      ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
      EXPECT_EQ(*decoded, bytes) << "drop " << drop << " pad " << pad;
    }
  }
}

TEST(DecodeBase64, RoundTripsEveryLengthUpTo100) {
  std::mt19937 rng(7);
  for (size_t length = 0; length <= 100; ++length) {
    std::vector<uint8_t> bytes(length);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    for (bool pad : {true, false}) {
      auto decoded = Decode(Encode(bytes, pad));
      ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
      EXPECT_EQ(*decoded, bytes) << "length " << length << " pad " << pad;
    }
  }
}

TEST(DecodeBase64, WritesExactlyTheDecodedSizeIntoAnExactBuffer) {
  // No scratch byte past the decoded data: the fast path's 4-byte stores must stop in time.
  const std::vector<uint8_t> bytes(48, 0xAB);
  const std::string text = Encode(bytes, true);  // 64 characters, 4 fast-path blocks.
  std::vector<uint8_t> out(48 + 1, 0x5A);
  auto written = DecodeBase64(text, std::span<uint8_t>(out).first(48));
  ASSERT_TRUE(written.ok()) << written.error().ToString();
  EXPECT_EQ(*written, 48u);
  EXPECT_EQ(out[48], 0x5A);
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + 48), bytes);
}

TEST(DecodeBase64, AcceptsNonZeroUnusedBitsInTheLastGroup) {
  // "Zh==" carries 'f' plus 4 stray bits; RFC 4648 §3.5 lets a decoder ignore them.
  auto decoded = Decode("Zh==");
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, Bytes("f"));
}

TEST(Base64DecodedSizeBound, BoundsTheDecodedSizeForEveryLength) {
  EXPECT_EQ(Base64DecodedSizeBound(0), 0u);
  EXPECT_EQ(Base64DecodedSizeBound(2), 1u);
  EXPECT_EQ(Base64DecodedSizeBound(3), 2u);
  EXPECT_EQ(Base64DecodedSizeBound(4), 3u);
  EXPECT_EQ(Base64DecodedSizeBound(8), 6u);
  EXPECT_EQ(Base64DecodedSizeBound(10), 7u);
  EXPECT_EQ(Base64DecodedSizeBound(SIZE_MAX), SIZE_MAX / 4 * 3 + 2);
}

TEST(DecodeBase64, RejectsABadCharacterInTheMiddleWithItsOffset) {
  // Offset 21 sits in the second 16-character block of the fast path.
  std::string text(32, 'A');
  text[21] = '!';
  ExpectError(text, Error::kInvalidBase64, "offset 21");
  auto decoded = Decode(text);
  EXPECT_NE(decoded.error().message.find("'!'"), std::string::npos) << decoded.error().message;
}

TEST(DecodeBase64, ReportsTheFirstOfSeveralBadCharacters) {
  ExpectError("AAAAAA-A_AAAAAAAAAAA", Error::kInvalidBase64, "offset 6");
}

TEST(DecodeBase64, RejectsABadCharacterInAFullGroupAfterTheFastPath) {
  ExpectError("AAAAAAAAAAAAAAAAAA.A", Error::kInvalidBase64, "offset 18");
}

TEST(DecodeBase64, RejectsABadCharacterInTheTail) {
  ExpectError("Zm9vY*", Error::kInvalidBase64, "offset 5");
  ExpectError("Zm9v*g==", Error::kInvalidBase64, "offset 4");
}

TEST(DecodeBase64, RejectsPaddingInTheMiddle) {
  ExpectError("Zg==Zm9v", Error::kInvalidBase64, "offset 2");
  auto decoded = Decode("Zg==Zm9v");
  EXPECT_NE(decoded.error().message.find("'='"), std::string::npos) << decoded.error().message;
}

TEST(DecodeBase64, RejectsPaddingThatDoesNotCompleteAGroup) {
  ExpectError("Zg=", Error::kInvalidBase64, "offset 2");
  ExpectError("Z===", Error::kInvalidBase64, "offset 1");
  ExpectError("====", Error::kInvalidBase64, "offset 0");
  ExpectError("Zm9v=", Error::kInvalidBase64, "offset 4");
}

TEST(DecodeBase64, RejectsALoneFinalCharacter) {
  ExpectError("Z", Error::kInvalidBase64, "offset 0");
  ExpectError("Zm9vY", Error::kInvalidBase64, "offset 4");
}

TEST(DecodeBase64, RejectsWhitespaceAndNamesIt) {
  ExpectError("Zm9v\nYmFy", Error::kInvalidBase64, "offset 4");
  auto decoded = Decode("Zm9v\nYmFy");
  EXPECT_NE(decoded.error().message.find("0x0A"), std::string::npos) << decoded.error().message;
  ExpectError("Zm9v YmFy", Error::kInvalidBase64, "offset 4");
}

TEST(DecodeBase64, RejectsTheUrlSafeAlphabet) {
  ExpectError("-_-_", Error::kInvalidBase64, "offset 0");
}

TEST(DecodeBase64, NamesANonPrintableByteInHex) {
  auto decoded = Decode(std::string_view("Zm\xC3\xA9", 4));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().where, "offset 2");
  EXPECT_NE(decoded.error().message.find("0xC3"), std::string::npos) << decoded.error().message;
}

TEST(DecodeBase64, RejectsAnOutputSmallerThanTheDecodedSize) {
  std::vector<uint8_t> out(5);
  auto written = DecodeBase64("Zm9vYmFy", out);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.code(), Error::kInvalidArgument);
  EXPECT_EQ(written.error().where, "");
  // Padding does not count: "Zg==" needs one byte, not three.
  std::vector<uint8_t> one(1);
  auto padded = DecodeBase64("Zg==", one);
  ASSERT_TRUE(padded.ok()) << padded.error().ToString();
  EXPECT_EQ(*padded, 1u);
  EXPECT_EQ(one[0], 'f');
}

TEST(DecodeBase64, SurvivesRandomInputIntoAnExactlySizedBuffer) {
  // Mostly-valid characters with a few others, so both the ok and the error paths run deep.
  constexpr std::string_view kChars =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::mt19937 rng(12345);
  size_t ok_count = 0;
  for (int round = 0; round < 10000; ++round) {
    const size_t length = rng() % 200;
    const unsigned bad_per_1000 = rng() % 4 == 0 ? 0 : rng() % 20;
    std::string text(length, 'A');
    for (auto& c : text) {
      c = rng() % 1000 < bad_per_1000 ? static_cast<char>(rng() % 256) : kChars[rng() % 64];
    }
    if (length > 0 && rng() % 3 == 0) text.back() = '=';
    if (length > 1 && rng() % 5 == 0) text[length - 2] = '=';
    // A heap buffer of exactly the bound, so AddressSanitizer sees any write past it.
    std::vector<uint8_t> out(Base64DecodedSizeBound(text.size()));
    auto written = DecodeBase64(text, out);
    if (written.ok()) {
      EXPECT_LE(*written, out.size());
      ++ok_count;
    } else {
      ASSERT_EQ(written.code(), Error::kInvalidBase64) << written.error().ToString();
      ASSERT_EQ(written.error().where.rfind("offset ", 0), 0u);
    }
  }
  EXPECT_GT(ok_count, 1000u);  // The generator must exercise successful decodes too.
}

}  // namespace
}  // namespace sinew::loader
