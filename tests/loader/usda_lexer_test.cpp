// The .usda lexer (loader/src/usd/usda_lexer.h): each kind of token, comments, escapes, the
// "line L, column C" of an offset, and what it refuses.
#include "usd/usda_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace sinew::loader::usd {
namespace {

// Every token of `text` as "kind:text" (punctuation as its character alone; a string with
// escapes as "esc:"), up to the end.
std::vector<std::string> Tokens(std::string_view text) {
  UsdaLexer lexer(text);
  std::vector<std::string> out;
  Token token;
  while (lexer.Next(&token) && token.kind != TokenKind::kEnd) {
    const bool punctuation = token.kind >= TokenKind::kLeftParen;
    const char* const kNames[] = {"", "id:", "num:", "str:", "asset:", "path:"};
    const std::string kind = punctuation ? "" : token.escaped ? "esc:" : kNames[size_t(token.kind)];
    out.push_back(kind + std::string(token.text));
  }
  EXPECT_EQ(lexer.error().code, Error::kNone) << lexer.error().ToString();
  return out;
}

// The error the lexer gives somewhere in `text`.
ErrorInfo LexError(std::string_view text) {
  UsdaLexer lexer(text);
  Token token;
  while (lexer.Next(&token)) {
    if (token.kind == TokenKind::kEnd) {
      ADD_FAILURE() << "no error in: " << text;
      break;
    }
  }
  return lexer.error();
}

using Strings = std::vector<std::string>;

TEST(UsdaLexer, ReadsPunctuationIdentifiersAndNamespacedNames) {
  EXPECT_EQ(Tokens("def Mesh \"m\" ( ) { } [ ] = , : ; ."),
            (Strings{"id:def", "id:Mesh", "str:m", "(", ")", "{", "}", "[", "]", "=", ",", ":", ";",
                     "."}));
  EXPECT_EQ(Tokens("primvars:skel:jointIndices.timeSamples"),
            (Strings{"id:primvars:skel:jointIndices", ".", "id:timeSamples"}));
  EXPECT_EQ(Tokens("float3[] inbetweens:smile_half"),
            (Strings{"id:float3", "[", "]", "id:inbetweens:smile_half"}));
  EXPECT_EQ(Tokens("1: x"), (Strings{"num:1", ":", "id:x"}));
}

TEST(UsdaLexer, SkipsCommentsToTheEndOfTheLine) {
  EXPECT_EQ(Tokens("a # b c\n  d#e\r\n\tf #"), (Strings{"id:a", "id:d", "id:f"}));
}

TEST(UsdaLexer, ReadsNumbersInEveryFormUsdWritesThem) {
  EXPECT_EQ(Tokens("0 -2 1.5 .5 1. -0.25 9.536743e-7 1E+3 -8.881784e-16 -inf -nan"),
            (Strings{"num:0", "num:-2", "num:1.5", "num:.5", "num:1.", "num:-0.25",
                     "num:9.536743e-7", "num:1E+3", "num:-8.881784e-16", "num:-inf", "num:-nan"}));
  // inf and nan alone are words; the parser reads them as numbers where a number is expected.
  EXPECT_EQ(Tokens("inf nan"), (Strings{"id:inf", "id:nan"}));
}

TEST(UsdaLexer, ReadsSingleDoubleAndTripleQuotedStrings) {
  EXPECT_EQ(Tokens(R"("a b" 'c' "" """multi
line "quoted" """ '''x''')"),
            (Strings{"str:a b", "str:c", "str:", "str:multi\nline \"quoted\" ", "str:x"}));
}

TEST(UsdaLexer, MarksStringsWithEscapesAndDecodesThem) {
  EXPECT_EQ(Tokens(R"("a\"b" 'it\'s')"), (Strings{"esc:a\\\"b", "esc:it\\'s"}));
  std::string out;
  AppendUnescaped(R"(q\"\\\n\t\x41\101\q\)", &out);
  EXPECT_EQ(out, "q\"\\\n\tAAq\\");
}

TEST(UsdaLexer, ReadsAssetPathsAndPathLiterals) {
  EXPECT_EQ(
      Tokens("@./tex.png@ @@@a@b@@@ </Root/Skel> <Anim> <../x.y>"),
      (Strings{"asset:./tex.png", "asset:a@b", "path:/Root/Skel", "path:Anim", "path:../x.y"}));
}

TEST(UsdaLexer, PeeksWithoutConsuming) {
  UsdaLexer lexer("a b");
  Token token;
  ASSERT_TRUE(lexer.Peek(&token));
  EXPECT_EQ(token.text, "a");
  ASSERT_TRUE(lexer.Peek(&token));
  EXPECT_EQ(token.text, "a");
  ASSERT_TRUE(lexer.Next(&token));
  EXPECT_EQ(token.text, "a");
  ASSERT_TRUE(lexer.Next(&token));
  EXPECT_EQ(token.text, "b");
  EXPECT_EQ(token.offset, 2u);
  ASSERT_TRUE(lexer.Next(&token));
  EXPECT_EQ(token.kind, TokenKind::kEnd);
}

TEST(UsdaLexer, CountsLinesAndColumnsFromOne) {
  EXPECT_EQ(Where("abc", 0), "line 1, column 1");
  EXPECT_EQ(Where("abc\ndef", 5), "line 2, column 2");
  EXPECT_EQ(Where("a\n\n", 3), "line 3, column 1");
  EXPECT_EQ(Where("ab", 99), "line 1, column 3");  // past the end: the end
}

TEST(UsdaLexer, RefusesAnUnterminatedStringAtItsOpeningQuote) {
  ErrorInfo e = LexError("a \"abc\ndef\"");
  EXPECT_EQ(e.code, Error::kUsdaSyntax);
  EXPECT_EQ(e.where, "line 1, column 3");
  EXPECT_NE(e.message.find("end of the line"), std::string::npos) << e.message;
  e = LexError("\n  '''never closed");
  EXPECT_EQ(e.where, "line 2, column 3");
  EXPECT_NE(e.message.find("end of the file"), std::string::npos) << e.message;
  EXPECT_EQ(LexError("\"ends in an escape\\\"").where, "line 1, column 1");
}

TEST(UsdaLexer, ReadsAMalformedNumberWholeForTheParserToRefuse) {
  // A number runs on through letters, digits, '.', '+' and '-'; std::from_chars judges it.
  EXPECT_EQ(Tokens("1.2.3 2x - 1e+ 1_0 -information (1,-2)"),
            (Strings{"num:1.2.3", "num:2x", "num:-", "num:1e+", "num:1_0", "num:-information", "(",
                     "num:1", ",", "num:-2", ")"}));
}

TEST(UsdaLexer, RefusesStrayCharactersAndBytes) {
  ErrorInfo e = LexError("a\n $");
  EXPECT_EQ(e.code, Error::kUsdaSyntax);
  EXPECT_EQ(e.where, "line 2, column 2");
  EXPECT_EQ(e.message, "unexpected character '$'");
  e = LexError(std::string_view("a\0", 2));
  EXPECT_EQ(e.where, "line 1, column 2");
  EXPECT_EQ(e.message, "unexpected byte 0x00");
}

TEST(UsdaLexer, RefusesUnterminatedAssetPathsAndPaths) {
  EXPECT_EQ(LexError("@a.png\n@").where, "line 1, column 1");
  EXPECT_EQ(LexError("x @@@a@").where, "line 1, column 3");
  EXPECT_EQ(LexError("</a/b\n>").where, "line 1, column 1");
}

TEST(UsdaLexer, AcceptsUtf8InIdentifiers) {
  EXPECT_EQ(Tokens("caf\xc3\xa9 x"), (Strings{"id:caf\xc3\xa9", "id:x"}));
  for (std::string_view name : {"caf\xc3\xa9", "_x1", "Joint_2"}) EXPECT_TRUE(IsIdentifier(name));
  for (std::string_view name : {"1abc", "a b", "", "a:b"}) EXPECT_FALSE(IsIdentifier(name));
  for (std::string_view name : {"primvars:skel:jointIndices", "x"}) {
    EXPECT_TRUE(IsNamespacedIdentifier(name)) << name;
  }
  for (std::string_view name : {"primvars::x", "x:", ":x", "a:1b"}) {
    EXPECT_FALSE(IsNamespacedIdentifier(name)) << name;
  }
}

}  // namespace
}  // namespace sinew::loader::usd
