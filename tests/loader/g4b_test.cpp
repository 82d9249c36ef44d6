// The .g4b container: one small file per rule and bad-input case, with the exact error and byte.
#include "g4mf/g4b.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

namespace sinew::loader::g4mf {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr uint32_t kXtra = 0x41525458;  // "XTRA", a chunk type sinew does not know.
constexpr uint32_t kBrot = 0x746F7242;  // "Brot", an encoding sinew does not know.

struct ChunkSpec {
  uint32_t type = kG4bChunkBlob;
  uint32_t encoding = kG4bEncodingNone;
  Bytes data;
  uint64_t size_field = ~uint64_t(0);  // Written as the data size when set; else data.size().
};

void PutU32(Bytes& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }
void PutU64(Bytes& b, size_t at, uint64_t v) { std::memcpy(b.data() + at, &v, 8); }

Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }

// A .g4b file: header, then each chunk's header and data padded to 16 bytes (JSON with spaces,
// the rest with zeros); the last chunk's padding is left out when pad_last is false.
Bytes MakeG4b(const std::vector<ChunkSpec>& chunks, bool pad_last = true) {
  Bytes b(16, 0);
  PutU32(b, 0, kG4bMagic);
  for (size_t i = 0; i < chunks.size(); ++i) {
    const ChunkSpec& c = chunks[i];
    const size_t at = b.size();
    b.resize(at + 16);
    PutU32(b, at, c.type);
    PutU32(b, at + 4, c.encoding);
    PutU64(b, at + 8, c.size_field != ~uint64_t(0) ? c.size_field : c.data.size());
    b.insert(b.end(), c.data.begin(), c.data.end());
    if (pad_last || i + 1 < chunks.size()) {
      b.resize((b.size() + 15) / 16 * 16, c.type == kG4bChunkJson ? ' ' : 0);
    }
  }
  PutU64(b, 8, b.size());
  return b;
}

Bytes Zstd(const Bytes& data, int level = 3) {
  Bytes out(ZSTD_compressBound(data.size()));
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level);
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  out.resize(n);
  return out;
}

// A Zstd frame written by the streaming API without a pledged size, so its header does not
// declare the content size. The input goes in with ZSTD_e_continue first: a first call with
// ZSTD_e_end sees the whole input and writes the size into the header anyway.
Bytes ZstdWithoutContentSize(const Bytes& data) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  Bytes out(ZSTD_compressBound(data.size()) + 64);
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  ZSTD_inBuffer input{data.data(), data.size(), 0};
  while (input.pos < input.size) {
    const size_t r = ZSTD_compressStream2(cctx, &output, &input, ZSTD_e_continue);
    EXPECT_FALSE(ZSTD_isError(r)) << ZSTD_getErrorName(r);
    if (ZSTD_isError(r)) break;
  }
  ZSTD_inBuffer none{nullptr, 0, 0};
  size_t left = 1;
  while (left != 0) {
    left = ZSTD_compressStream2(cctx, &output, &none, ZSTD_e_end);
    EXPECT_FALSE(ZSTD_isError(left)) << ZSTD_getErrorName(left);
    if (ZSTD_isError(left)) break;
  }
  ZSTD_freeCCtx(cctx);
  out.resize(output.pos);
  return out;
}

// Compressible bytes long enough that Zstd really compresses them.
Bytes Pattern(size_t n, uint8_t seed = 0) {
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>((i * 7 + seed) % 23);
  return b;
}

Bytes Concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const Bytes kJson = Text(R"({"asset":{"dialect":"G4MF"}})");  // 28 bytes: padded to 32.

void ExpectParseError(const Bytes& file, const std::string& where) {
  auto parsed = ParseG4b(file);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.code(), Error::kInvalidG4b);
  EXPECT_EQ(parsed.error().where, where) << parsed.error().message;
}

void ExpectDecodeError(const Result<Bytes>& decoded, const std::string& where,
                       const std::string& message_part) {
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.code(), Error::kInvalidG4b);
  EXPECT_EQ(decoded.error().where, where);
  EXPECT_NE(decoded.error().message.find(message_part), std::string::npos)
      << decoded.error().message;
}

G4bChunk ZstdChunk(const Bytes& stored, size_t offset = 48) {
  G4bChunk chunk;
  chunk.type = kG4bChunkBlob;
  chunk.encoding = kG4bEncodingZstd;
  chunk.data = stored;
  chunk.offset = offset;
  return chunk;
}

// ---------------------------------------------------------------------------------------------
// Container

TEST(G4b, IsG4bLooksOnlyAtTheMagic) {
  EXPECT_TRUE(IsG4b(Text("G4MF")));
  EXPECT_TRUE(IsG4b(MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}})));
  EXPECT_FALSE(IsG4b(Text("G4M")));
  EXPECT_FALSE(IsG4b(Text("glTF....")));
  EXPECT_FALSE(IsG4b({}));
}

TEST(G4b, ParsesAJsonChunkAndABlobChunkWithTheirSpansAndOffsets) {
  const Bytes blob = {1, 2, 3, 4, 5};
  const Bytes file =
      MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kG4bEncodingNone, blob}});
  ASSERT_EQ(file.size(), 16u + 16 + 32 + 16 + 16);
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  ASSERT_EQ(parsed->chunks.size(), 2u);
  EXPECT_EQ(parsed->json_chunk, 0u);
  const G4bChunk& json = parsed->chunks[0];
  EXPECT_EQ(json.type, kG4bChunkJson);
  EXPECT_EQ(json.encoding, kG4bEncodingNone);
  EXPECT_EQ(json.offset, 16u);
  EXPECT_EQ(json.data.data(), file.data() + 32);
  EXPECT_EQ(json.data.size(), kJson.size());
  const G4bChunk& bin = parsed->chunks[1];
  EXPECT_EQ(bin.type, kG4bChunkBlob);
  EXPECT_EQ(bin.offset, 64u);
  EXPECT_EQ(bin.data.data(), file.data() + 80);
  EXPECT_EQ(Bytes(bin.data.begin(), bin.data.end()), blob);
}

TEST(G4b, FindsTheJsonChunkWhenItIsNotTheFirstChunk) {
  const Bytes file = MakeG4b({{kG4bChunkBlob, kG4bEncodingNone, Pattern(20)},
                              {kXtra, kG4bEncodingNone, {}},
                              {kG4bChunkJson, kG4bEncodingNone, kJson},
                              {kG4bChunkJson, kG4bEncodingNone, Text("{}")}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  ASSERT_EQ(parsed->chunks.size(), 4u);
  EXPECT_EQ(parsed->json_chunk, 2u);  // The first JSON chunk; the second is kept as a chunk.
  EXPECT_EQ(parsed->chunks[0].offset, 16u);
  EXPECT_EQ(parsed->chunks[1].offset, 64u);
  EXPECT_EQ(parsed->chunks[1].type, kXtra);  // Unknown types are kept.
  EXPECT_TRUE(parsed->chunks[1].data.empty());
  EXPECT_EQ(parsed->chunks[2].offset, 80u);
  EXPECT_EQ(parsed->chunks[2].data.data(), file.data() + 96);
  EXPECT_EQ(parsed->chunks[3].offset, 128u);
}

TEST(G4b, KeepsTheEncodingOfAZstdChunk) {
  const Bytes stored = Zstd(Pattern(1000));
  auto parsed = ParseG4b(MakeG4b(
      {{kG4bChunkJson, kG4bEncodingZstd, Zstd(kJson)}, {kG4bChunkBlob, kG4bEncodingZstd, stored}}));
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->chunks[0].encoding, kG4bEncodingZstd);
  EXPECT_EQ(parsed->chunks[1].encoding, kG4bEncodingZstd);
  EXPECT_EQ(parsed->chunks[1].data.size(), stored.size());
}

TEST(G4b, AcceptsAFileThatEndsInsideTheLastChunksPadding) {
  const Bytes file = MakeG4b(
      {{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kG4bEncodingNone, {1, 2, 3}}},
      /*pad_last=*/false);
  ASSERT_EQ(file.size(), 16u + 16 + 32 + 16 + 3);
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->chunks[1].data.size(), 3u);
}

TEST(G4b, AcceptsTrailingPaddingShorterThanSixteenBytes) {
  Bytes file = MakeG4b(
      {{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kG4bEncodingNone, {1, 2, 3}}},
      /*pad_last=*/false);
  file.resize(file.size() + 5, 0);  // 8 of the 13 padding bytes.
  PutU64(file, 8, file.size());
  EXPECT_TRUE(ParseG4b(file).ok());
}

// ---------------------------------------------------------------------------------------------
// Header errors

TEST(G4b, RejectsABadMagic) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  file[3] = 'G';
  ExpectParseError(file, "byte 0");
}

TEST(G4b, RejectsAFileShorterThanTheHeader) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  file.resize(12);
  ExpectParseError(file, "byte 0");
}

TEST(G4b, RejectsAVersionOtherThanZero) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  PutU32(file, 4, 1);
  ExpectParseError(file, "byte 4");
}

TEST(G4b, RejectsAFileSizeThatDiffersFromTheFile) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  PutU64(file, 8, file.size() + 16);
  ExpectParseError(file, "byte 8");
  PutU64(file, 8, file.size() - 1);
  ExpectParseError(file, "byte 8");
}

TEST(G4b, RejectsAFileSizeWithTheMostSignificantBitSet) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  PutU64(file, 8, (uint64_t(1) << 63) | file.size());
  ExpectParseError(file, "byte 8");
  EXPECT_NE(ParseG4b(file).error().message.find("most significant bit"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Chunk errors

TEST(G4b, RejectsAChunkHeaderThatRunsPastTheEnd) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});  // 64 bytes.
  file.resize(file.size() + 8, 0);  // Half a chunk header at byte 64.
  PutU64(file, 8, file.size());
  ExpectParseError(file, "byte 64");
}

TEST(G4b, RejectsAFileWithOnlyPartOfTheFirstChunkHeader) {
  Bytes file = MakeG4b({});
  file.resize(20, 0);
  PutU64(file, 8, file.size());
  ExpectParseError(file, "byte 16");
}

TEST(G4b, RejectsChunkDataThatRunsPastTheEnd) {
  Bytes file = MakeG4b(
      {{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kG4bEncodingNone, Pattern(16)}});
  ASSERT_EQ(file.size(), 96u);
  PutU64(file, 64 + 8, 17);
  ExpectParseError(file, "byte 72");
  PutU64(file, 64 + 8, 16);
  EXPECT_TRUE(ParseG4b(file).ok());
}

TEST(G4b, RejectsAHugeChunkDataSizeWithoutOverflowing) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  PutU64(file, 16 + 8, (uint64_t(1) << 63) - 8);  // MSB clear, offset + size would wrap.
  ExpectParseError(file, "byte 24");
}

TEST(G4b, RejectsAChunkDataSizeWithTheMostSignificantBitSet) {
  Bytes file =
      MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kG4bEncodingNone, {7}}});
  PutU64(file, 64 + 8, (uint64_t(1) << 63) | 1);
  ExpectParseError(file, "byte 72");
  EXPECT_NE(ParseG4b(file).error().message.find("most significant bit"), std::string::npos);
}

TEST(G4b, RejectsTheReservedEncoding) {
  Bytes file =
      MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, 0xFFFFFFFF, {7}}});
  ExpectParseError(file, "byte 68");
  EXPECT_NE(ParseG4b(file).error().message.find("reserved"), std::string::npos);
}

TEST(G4b, RejectsAnUnknownEncodingAsUnsupported) {
  Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kBrot, {7}}});
  ExpectParseError(file, "byte 68");
  const std::string message = ParseG4b(file).error().message;
  EXPECT_NE(message.find("unsupported"), std::string::npos) << message;
  EXPECT_NE(message.find("\"Brot\""), std::string::npos) << message;
}

TEST(G4b, NamesAnUnprintableEncodingInHex) {
  Bytes file = MakeG4b({{kG4bChunkJson, 0x00000001, kJson}});
  ExpectParseError(file, "byte 20");
  EXPECT_NE(ParseG4b(file).error().message.find("0x00000001"), std::string::npos);
}

TEST(G4b, RejectsAFileWithoutAJsonChunk) {
  ExpectParseError(MakeG4b({{kG4bChunkBlob, kG4bEncodingNone, Pattern(40)}}), "byte 16");
  ExpectParseError(MakeG4b({}), "byte 16");  // The header alone.
}

// ---------------------------------------------------------------------------------------------
// DecodeG4bChunk: plain

TEST(G4b, DecodesAPlainChunkAndAppendsZeroPadding) {
  const Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  auto decoded = DecodeG4bChunk(parsed->chunks[0], kJson.size(), 1 << 20, /*padding=*/64);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  ASSERT_EQ(decoded->size(), kJson.size() + 64);
  EXPECT_EQ(Bytes(decoded->begin(), decoded->begin() + kJson.size()), kJson);
  for (size_t i = kJson.size(); i < decoded->size(); ++i) EXPECT_EQ((*decoded)[i], 0) << i;
}

TEST(G4b, RequiresAPlainChunkToHoldExactlyTheDecodedSize) {
  const Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok());
  ExpectDecodeError(DecodeG4bChunk(parsed->chunks[0], kJson.size() + 1, 1 << 20), "byte 16",
                    "expected 29");
  ExpectDecodeError(DecodeG4bChunk(parsed->chunks[0], kJson.size() - 1, 1 << 20), "byte 16",
                    "expected 27");
}

TEST(G4b, KeepsAPlainChunksSizeUnderFromFrame) {
  const Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok());
  auto decoded = DecodeG4bChunk(parsed->chunks[0], kFromFrame, 1 << 20, 32);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(decoded->size(), kJson.size() + 32);
  EXPECT_EQ(Bytes(decoded->begin(), decoded->begin() + kJson.size()), kJson);
}

TEST(G4b, RejectsAPlainChunkAboveTheBound) {
  const Bytes file = MakeG4b({{kG4bChunkJson, kG4bEncodingNone, kJson}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok());
  ExpectDecodeError(DecodeG4bChunk(parsed->chunks[0], kFromFrame, kJson.size() - 1), "byte 16",
                    "more than the allowed 27");
  EXPECT_TRUE(DecodeG4bChunk(parsed->chunks[0], kFromFrame, kJson.size()).ok());
}

TEST(G4b, DecodesAnEmptyPlainChunk) {
  G4bChunk chunk;
  auto decoded = DecodeG4bChunk(chunk, 0, 0);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_TRUE(decoded->empty());
}

// ---------------------------------------------------------------------------------------------
// DecodeG4bChunk: Zstd

TEST(G4b, DecodesASingleZstdFrame) {
  const Bytes data = Pattern(5000);
  const Bytes file = MakeG4b(
      {{kG4bChunkJson, kG4bEncodingNone, kJson}, {kG4bChunkBlob, kG4bEncodingZstd, Zstd(data)}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  ASSERT_LT(parsed->chunks[1].data.size(), data.size());  // Really compressed.
  auto decoded = DecodeG4bChunk(parsed->chunks[1], data.size(), 1 << 20, 16);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  ASSERT_EQ(decoded->size(), data.size() + 16);
  EXPECT_EQ(Bytes(decoded->begin(), decoded->begin() + data.size()), data);
  for (size_t i = data.size(); i < decoded->size(); ++i) EXPECT_EQ((*decoded)[i], 0) << i;
}

TEST(G4b, DecodesTwoConcatenatedZstdFrames) {
  const Bytes a = Pattern(3000, 1);
  const Bytes b = Pattern(700, 5);
  auto decoded =
      DecodeG4bChunk(ZstdChunk(Concat(Zstd(a), Zstd(b, 19))), a.size() + b.size(), 1 << 20);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, Concat(a, b));
}

TEST(G4b, TakesTheZstdSizeFromTheFrameHeadersUnderFromFrame) {
  const Bytes a = Pattern(3000, 1);
  const Bytes b = Pattern(700, 5);
  const Bytes file = MakeG4b({{kG4bChunkBlob, kG4bEncodingNone, Pattern(3)},
                              {kG4bChunkJson, kG4bEncodingZstd, Concat(Zstd(a), Zstd(b))}});
  auto parsed = ParseG4b(file);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  const G4bChunk& json = parsed->chunks[parsed->json_chunk];
  auto decoded = DecodeG4bChunk(json, kFromFrame, 1 << 20, 8);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  ASSERT_EQ(decoded->size(), a.size() + b.size() + 8);
  EXPECT_EQ(Bytes(decoded->begin(), decoded->end() - 8), Concat(a, b));
  for (size_t i = decoded->size() - 8; i < decoded->size(); ++i) EXPECT_EQ((*decoded)[i], 0);
}

TEST(G4b, RejectsZstdFramesThatDecodeToADifferentSize) {
  const Bytes data = Pattern(1000);
  const Bytes stored = Zstd(data);
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), 999, 1 << 20), "byte 48", "expected 999");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), 1001, 1 << 20), "byte 48", "expected 1001");
}

TEST(G4b, RejectsAnEmptyZstdChunk) {
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk({}), 0, 1 << 20), "byte 48", "no Zstd frame");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk({}), kFromFrame, 1 << 20), "byte 48", "no Zstd frame");
}

TEST(G4b, RejectsATruncatedZstdFrame) {
  const Bytes data = Pattern(5000);
  Bytes stored = Zstd(data);
  stored.pop_back();
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), data.size(), 1 << 20), "byte 48",
                    "truncated or corrupt");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), kFromFrame, 1 << 20), "byte 48",
                    "truncated or corrupt");
  stored.resize(3);  // Not even the magic number.
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), kFromFrame, 1 << 20), "byte 48", "truncated");
}

TEST(G4b, RejectsATruncatedSecondZstdFrameAndSaysWhereItStarts) {
  const Bytes first = Zstd(Pattern(100));
  Bytes second = Zstd(Pattern(100, 3));
  second.resize(second.size() / 2);
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(Concat(first, second)), 200, 1 << 20), "byte 48",
                    "Zstd frame at data byte " + std::to_string(first.size()));
}

TEST(G4b, RejectsDataWithoutTheZstdMagicNumber) {
  Bytes stored = Zstd(Pattern(1000));
  stored[0] ^= 0xFF;
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), 1000, 1 << 20), "byte 48", "magic");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(Text("plain text, not Zstd")), kFromFrame, 1 << 20),
                    "byte 48", "magic");
}

TEST(G4b, RejectsCorruptZstdData) {
  // With a checksum, any corrupted byte of the compressed blocks is caught.
  const Bytes data = Pattern(20000);
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)));
  Bytes stored(ZSTD_compressBound(data.size()));
  const size_t n = ZSTD_compress2(cctx, stored.data(), stored.size(), data.data(), data.size());
  ZSTD_freeCCtx(cctx);
  ASSERT_FALSE(ZSTD_isError(n));
  stored.resize(n);
  ASSERT_TRUE(DecodeG4bChunk(ZstdChunk(stored), data.size(), 1 << 20).ok());
  stored[n - 6] ^= 0x5A;  // Inside the last block, before the 4-byte checksum.
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), data.size(), 1 << 20), "byte 48", "");
  stored[n - 6] ^= 0x5A;
  stored[n - 1] ^= 0x01;
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), data.size(), 1 << 20), "byte 48",
                    "corrupt Zstd data");
}

TEST(G4b, RejectsADecodedSizeAboveTheBound) {
  const Bytes data = Pattern(5000);
  const Bytes stored = Zstd(data);
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), data.size(), data.size() - 1), "byte 48",
                    "more than the allowed 4999");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), kFromFrame, data.size() - 1), "byte 48",
                    "more than the allowed 4999");
  EXPECT_TRUE(DecodeG4bChunk(ZstdChunk(stored), kFromFrame, data.size()).ok());
}

TEST(G4b, RejectsAHugeDeclaredFrameSizeBeforeAllocating) {
  // A hand-written frame: magic, descriptor 0xE0 (single segment, 8-byte content size), content
  // size 2^60, then one empty last raw block. Allocating 2^60 bytes would throw.
  Bytes frame = {0x28, 0xB5, 0x2F, 0xFD, 0xE0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00};
  PutU64(frame, 5, uint64_t(1) << 60);
  ASSERT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), uint64_t(1) << 60);
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(frame), kFromFrame, 1 << 20), "byte 48",
                    "more than the allowed");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(frame), 100, 1 << 20), "byte 48", "expected 100");
  // Two frames whose declared sizes would overflow 64 bits when added.
  PutU64(frame, 5, (uint64_t(1) << 63) + 5);
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(Concat(frame, frame)), kFromFrame, 1 << 20), "byte 48",
                    "more than the allowed");
}

TEST(G4b, RejectsAFrameWithoutADeclaredSizeUnderFromFrame) {
  const Bytes data = Pattern(3000);
  const Bytes stored = ZstdWithoutContentSize(data);
  ASSERT_EQ(ZSTD_getFrameContentSize(stored.data(), stored.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), kFromFrame, 1 << 20), "byte 48",
                    "does not declare its content size");
}

TEST(G4b, DecodesAFrameWithoutADeclaredSizeWhenTheSizeIsGiven) {
  const Bytes data = Pattern(3000);
  const Bytes stored = Concat(Zstd(Pattern(10)), ZstdWithoutContentSize(data));
  auto decoded = DecodeG4bChunk(ZstdChunk(stored), 10 + data.size(), 1 << 20);
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, Concat(Pattern(10), data));
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), 10 + data.size() - 1, 1 << 20), "byte 48",
                    "more than");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), 10 + data.size() + 1, 1 << 20), "byte 48",
                    "expected");
  ExpectDecodeError(DecodeG4bChunk(ZstdChunk(stored), 5, 1 << 20), "byte 48", "expected 5");
}

TEST(G4b, RejectsAnUnsupportedEncodingWhenDecoding) {
  G4bChunk chunk = ZstdChunk(Pattern(10), 96);
  chunk.encoding = kBrot;
  ExpectDecodeError(DecodeG4bChunk(chunk, 10, 1 << 20), "byte 96", "unsupported");
}

}  // namespace
}  // namespace sinew::loader::g4mf
