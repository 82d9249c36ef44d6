#include "common/uri.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace sinew::loader {
namespace {

TEST(IsDataUri, RecognisesTheSchemeInAnyCase) {
  EXPECT_TRUE(IsDataUri("data:,"));
  EXPECT_TRUE(IsDataUri("DATA:application/octet-stream;base64,AA=="));
  EXPECT_TRUE(IsDataUri("Data:"));
  EXPECT_FALSE(IsDataUri("data"));
  EXPECT_FALSE(IsDataUri("buffer.bin"));
  EXPECT_FALSE(IsDataUri("./data:x"));
  EXPECT_FALSE(IsDataUri(""));
}

TEST(ParseDataUri, SplitsAnOctetStreamBase64Uri) {
  const std::string uri = "data:application/octet-stream;base64,AAAAPw==";
  auto parsed = ParseDataUri(uri);
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->media_type, "application/octet-stream");
  EXPECT_TRUE(parsed->base64);
  EXPECT_EQ(parsed->payload, "AAAAPw==");
  EXPECT_EQ(parsed->payload.data(), uri.data() + uri.find(',') + 1);  // A view into the URI.
}

TEST(ParseDataUri, SplitsAGltfBufferUri) {
  auto parsed = ParseDataUri("data:application/gltf-buffer;base64,AAEC");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->media_type, "application/gltf-buffer");
  EXPECT_TRUE(parsed->base64);
  EXPECT_EQ(parsed->payload, "AAEC");
}

TEST(ParseDataUri, LowercasesTheMediaTypeAndTheBase64Marker) {
  auto parsed = ParseDataUri("DATA:Application/Octet-Stream;BASE64,QQ==");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->media_type, "application/octet-stream");
  EXPECT_TRUE(parsed->base64);
  EXPECT_EQ(parsed->payload, "QQ==");
}

TEST(ParseDataUri, AcceptsAUriWithoutMediaTypeOrBase64) {
  auto parsed = ParseDataUri("data:,A%20brief%20note");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->media_type, "");
  EXPECT_FALSE(parsed->base64);
  EXPECT_EQ(parsed->payload, "A%20brief%20note");  // Not percent-decoded.
}

TEST(ParseDataUri, AcceptsBase64WithoutAMediaType) {
  auto parsed = ParseDataUri("data:;base64,Zm9v");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->media_type, "");
  EXPECT_TRUE(parsed->base64);
  EXPECT_EQ(parsed->payload, "Zm9v");
}

TEST(ParseDataUri, KeepsParametersAsWritten) {
  auto parsed = ParseDataUri("data:text/plain;charset=US-ASCII,hi");
  ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
  EXPECT_EQ(parsed->media_type, "text/plain;charset=US-ASCII");
  EXPECT_FALSE(parsed->base64);
  EXPECT_EQ(parsed->payload, "hi");
}

TEST(ParseDataUri, AcceptsAnEmptyPayloadAndCommasInThePayload) {
  auto empty = ParseDataUri("data:application/octet-stream;base64,");
  ASSERT_TRUE(empty.ok()) << empty.error().ToString();
  EXPECT_EQ(empty->payload, "");
  auto commas = ParseDataUri("data:,a,b");
  ASSERT_TRUE(commas.ok()) << commas.error().ToString();
  EXPECT_EQ(commas->payload, "a,b");
}

TEST(ParseDataUri, RejectsAUriThatIsNotData) {
  auto parsed = ParseDataUri("buffer.bin");
  EXPECT_EQ(parsed.code(), Error::kInvalidUri);
  EXPECT_EQ(parsed.error().where, "offset 0");
}

TEST(ParseDataUri, RejectsAUriWithoutAComma) {
  auto parsed = ParseDataUri("data:application/octet-stream;base64");
  EXPECT_EQ(parsed.code(), Error::kInvalidUri);
  EXPECT_EQ(parsed.error().where, "offset 36");  // The end, where the ',' was expected.
}

TEST(ParseDataUri, RejectsAMediaTypeWithoutASubtype) {
  auto parsed = ParseDataUri("data:application;base64,AA==");
  EXPECT_EQ(parsed.code(), Error::kInvalidUri);
  EXPECT_EQ(parsed.error().where, "offset 5");
  auto empty_subtype = ParseDataUri("data:application/;base64,AA==");
  EXPECT_EQ(empty_subtype.code(), Error::kInvalidUri);
  EXPECT_EQ(empty_subtype.error().where, "offset 17");
  auto empty_type = ParseDataUri("data:/octet-stream,AA==");
  EXPECT_EQ(empty_type.code(), Error::kInvalidUri);
  EXPECT_EQ(empty_type.error().where, "offset 5");
}

TEST(ParseDataUri, RejectsBase64ThatIsNotTheLastParameter) {
  auto parsed = ParseDataUri("data:application/octet-stream;base64;x=y,AA==");
  EXPECT_EQ(parsed.code(), Error::kInvalidUri);
  EXPECT_EQ(parsed.error().where, "offset 30");
}

TEST(ParseDataUri, RejectsAParameterWithoutAValue) {
  auto parsed = ParseDataUri("data:text/plain;charset,hi");
  EXPECT_EQ(parsed.code(), Error::kInvalidUri);
  EXPECT_EQ(parsed.error().where, "offset 16");
  auto trailing = ParseDataUri("data:text/plain;,hi");
  EXPECT_EQ(trailing.code(), Error::kInvalidUri);
  EXPECT_EQ(trailing.error().where, "offset 16");
}

TEST(PercentDecode, DecodesEscapesInEitherCase) {
  auto decoded = PercentDecode("a%20b%2fc%2Fd");
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, "a b/c/d");
}

TEST(PercentDecode, KeepsTextWithoutEscapes) {
  auto decoded = PercentDecode("buffers/mesh 1.bin");
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, "buffers/mesh 1.bin");
  auto empty = PercentDecode("");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "");
}

TEST(PercentDecode, DecodesEveryByteValue) {
  auto decoded = PercentDecode("%00%7F%80%ff");
  ASSERT_TRUE(decoded.ok()) << decoded.error().ToString();
  EXPECT_EQ(*decoded, std::string("\x00\x7F\x80\xFF", 4));
}

TEST(PercentDecode, RejectsANonHexEscape) {
  auto decoded = PercentDecode("ab%G1");
  EXPECT_EQ(decoded.code(), Error::kInvalidUri);
  EXPECT_EQ(decoded.error().where, "offset 2");
  auto second = PercentDecode("%2G");
  EXPECT_EQ(second.code(), Error::kInvalidUri);
  EXPECT_EQ(second.error().where, "offset 0");
}

TEST(PercentDecode, RejectsATruncatedEscape) {
  auto decoded = PercentDecode("a%2");
  EXPECT_EQ(decoded.code(), Error::kInvalidUri);
  EXPECT_EQ(decoded.error().where, "offset 1");
  auto bare = PercentDecode("100%");
  EXPECT_EQ(bare.code(), Error::kInvalidUri);
  EXPECT_EQ(bare.error().where, "offset 3");
}

TEST(ResolveRelativeUri, DecodesTheUriAndJoinsItToTheBaseDirectory) {
  auto path = ResolveRelativeUri("/assets/fox", "a%20b.bin");
  ASSERT_TRUE(path.ok()) << path.error().ToString();
  EXPECT_EQ(*path, std::filesystem::path("/assets/fox/a b.bin"));
}

TEST(ResolveRelativeUri, AllowsParentDirectories) {
  auto path = ResolveRelativeUri("/assets/fox", "../x.bin");
  ASSERT_TRUE(path.ok()) << path.error().ToString();
  EXPECT_EQ(*path, std::filesystem::path("/assets/fox/../x.bin"));
}

TEST(ResolveRelativeUri, AllowsSubdirectories) {
  auto path = ResolveRelativeUri("/assets", "fox/buffers/mesh.bin");
  ASSERT_TRUE(path.ok()) << path.error().ToString();
  EXPECT_EQ(*path, std::filesystem::path("/assets/fox/buffers/mesh.bin"));
}

TEST(ResolveRelativeUri, RejectsAUriWithASchemeAndNamesIt) {
  auto http = ResolveRelativeUri("/assets", "http://example.com/x.bin");
  EXPECT_EQ(http.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(http.error().where, "offset 0");
  EXPECT_NE(http.error().message.find("'http:'"), std::string::npos) << http.error().message;
  auto file = ResolveRelativeUri("/assets", "file:///x.bin");
  EXPECT_EQ(file.code(), Error::kUnsupportedFeature);
  EXPECT_NE(file.error().message.find("'file:'"), std::string::npos) << file.error().message;
  auto custom = ResolveRelativeUri("/assets", "my+scheme.v2-x:thing");
  EXPECT_EQ(custom.code(), Error::kUnsupportedFeature);
  auto data = ResolveRelativeUri("/assets", "data:application/octet-stream;base64,AA==");
  EXPECT_EQ(data.code(), Error::kUnsupportedFeature);
}

TEST(ResolveRelativeUri, TreatsAColonAfterTheFirstSegmentAsPartOfThePath) {
  // "./a:b" and "dir/a:b" have no scheme (RFC 3986 §4.2).
  auto path = ResolveRelativeUri("/assets", "dir/a:b.bin");
  ASSERT_TRUE(path.ok()) << path.error().ToString();
  EXPECT_EQ(*path, std::filesystem::path("/assets/dir/a:b.bin"));
  EXPECT_TRUE(ResolveRelativeUri("/assets", "./a:b.bin").ok());
  EXPECT_TRUE(ResolveRelativeUri("/assets", "1a:b.bin").ok());  // A scheme starts with a letter.
}

TEST(ResolveRelativeUri, RejectsAnAbsolutePath) {
  auto path = ResolveRelativeUri("/assets", "/etc/passwd");
  EXPECT_EQ(path.code(), Error::kInvalidUri);
  EXPECT_EQ(path.error().where, "offset 0");
}

TEST(ResolveRelativeUri, RejectsAPercentEncodedAbsolutePath) {
  auto path = ResolveRelativeUri("/assets", "%2Fetc/passwd");
  EXPECT_EQ(path.code(), Error::kInvalidUri);
  EXPECT_EQ(path.error().where, "offset 0");
}

TEST(ResolveRelativeUri, RejectsAnEmptyUri) {
  auto path = ResolveRelativeUri("/assets", "");
  EXPECT_EQ(path.code(), Error::kInvalidUri);
  EXPECT_EQ(path.error().where, "offset 0");
}

TEST(ResolveRelativeUri, RejectsANulByte) {
  auto path = ResolveRelativeUri("/assets", "a.bin%00.png");
  EXPECT_EQ(path.code(), Error::kInvalidUri);
  EXPECT_EQ(path.error().where, "offset 5");
}

TEST(ResolveRelativeUri, PassesOnAMalformedEscape) {
  auto path = ResolveRelativeUri("/assets", "mesh%2.bin");
  EXPECT_EQ(path.code(), Error::kInvalidUri);
  EXPECT_EQ(path.error().where, "offset 4");
}

}  // namespace
}  // namespace sinew::loader
