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
