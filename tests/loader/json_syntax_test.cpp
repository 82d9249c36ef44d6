// Where a JSON text goes wrong (loader/src/common/json_syntax.h): the line and column of the
// fault simdjson's DOM parser found, for every kind of fault the loaders meet in broken files.
#include "common/json_syntax.h"

#include <gtest/gtest.h>

#include <string>

namespace sinew::loader {
namespace {

// The error the DOM parser gives `text`, located; `text` padded as the loaders pad it.
ErrorInfo Located(const std::string& text) {
  const simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  const simdjson::error_code error = parser.parse(padded).error();
  EXPECT_NE(error, simdjson::SUCCESS) << text;
  const std::span<const uint8_t> json(reinterpret_cast<const uint8_t*>(padded.data()),
                                      padded.size());
  return JsonSyntaxError(json, error);
}

TEST(JsonSyntax, NamesTheLineAndColumnOfTheFault) {
  // A comma too many.
  EXPECT_EQ(Located(R"({"a": [1, 2,, 3]})").where, "line 1, column 13");
  // An atom that is not true, false or null, on the third line (columns count from its start).
  EXPECT_EQ(Located("{\n  \"a\": 1,\n  \"b\": [tru]\n}").where, "line 3, column 9");
  // A number that is not one.
  EXPECT_EQ(Located(R"({"a": {"b": 1.5e}})").where, "line 1, column 13");
  // A key without its colon.
  EXPECT_EQ(Located(R"({"a" 1})").where, "line 1, column 6");
}

TEST(JsonSyntax, NamesWhereAStringLeftOpenBegins) {
  // The quotes escaped inside the first string do not end it.
  const ErrorInfo e = Located(R"({"a": "say \"hi\"", "b": "open})");
  EXPECT_EQ(e.code, Error::kJsonSyntax);
  EXPECT_EQ(e.where, "line 1, column 26");
  EXPECT_NE(e.message.find("never closed"), std::string::npos) << e.message;
}

TEST(JsonSyntax, NamesWhatFollowsTheDocumentAndWhereATruncatedOneEnds) {
  EXPECT_EQ(Located(R"({"a": 1} })").where, "line 1, column 10");
  EXPECT_EQ(Located("{\"asset\": ").where, "line 1, column 11");  // just past the text
  EXPECT_EQ(Located("[").where, "line 1, column 2");
}

// simdjson checks the whole text is UTF-8 before it parses, and says only that it is not; the
// place named is the first byte of the first sequence that is not: a lead byte without its
// continuation, a stray continuation byte, an overlong form, a surrogate, or beyond U+10FFFF.
TEST(JsonSyntax, NamesTheFirstByteThatIsNotUtf8) {
  const ErrorInfo cut = Located("{\"a\": \"caf\xC3\"}");
  EXPECT_EQ(cut.code, Error::kJsonSyntax);
  EXPECT_NE(cut.message.find("UTF-8"), std::string::npos) << cut.message;
  EXPECT_EQ(cut.where, "line 1, column 11");
  // Valid two-, three- and four-byte sequences before the fault count one column a byte.
  EXPECT_EQ(Located("{\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\": \n [\x80]}").where,
            "line 2, column 3");
  EXPECT_EQ(Located("[\"\xC0\xAF\"]").where, "line 1, column 3");              // overlong '/'
  EXPECT_EQ(Located("[\"ok\", \"\xED\xA0\x80\"]").where, "line 1, column 9");  // a surrogate
  EXPECT_EQ(Located("[\"\xF4\x90\x80\x80\"]").where, "line 1, column 3");      // beyond U+10FFFF
}

// A control character inside a string must be escaped; simdjson says so without saying where.
TEST(JsonSyntax, NamesAControlCharacterLeftUnescapedInAString) {
  const ErrorInfo tab = Located("{\"a\": \"x\ty\"}");
  EXPECT_EQ(tab.code, Error::kJsonSyntax);
  EXPECT_EQ(tab.where, "line 1, column 9");
  // Between strings a tab is whitespace; after an escaped quote the string goes on.
  EXPECT_EQ(Located("{\t\"a\": \"say \\\"\x01\"}").where, "line 1, column 15");
}

// An integer beyond 64 bits is refused by the DOM parser; the walk must not read it as a double
// and go on to name the end of the text.
TEST(JsonSyntax, NamesAnIntegerTooLargeForSixtyFourBits) {
  EXPECT_EQ(Located(R"({"scene": 18446744073709551616, "nodes": [1, 2, 3]})").where,
            "line 1, column 11");
}

TEST(JsonSyntax, SaysWhatWithoutWhereWhenThereIsNoPlaceToName) {
  const ErrorInfo empty = Located("   ");
  EXPECT_EQ(empty.code, Error::kJsonSyntax);
  EXPECT_EQ(empty.where, "");
  EXPECT_FALSE(empty.message.empty());
}

// Nesting deeper than simdjson reads (1,024 levels) is walked no further than that, so a hostile
// file cannot exhaust the stack: the place named is where the 1,025th level opens.
TEST(JsonSyntax, WalksNoDeeperThanSimdjsonReads) {
  const ErrorInfo deep = Located(std::string(100000, '[') + "1");
  EXPECT_EQ(deep.code, Error::kJsonSyntax);
  EXPECT_EQ(deep.where, "line 1, column 1025");
}

}  // namespace
}  // namespace sinew::loader
