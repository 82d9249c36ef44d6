// The .usda lexer: a hand-written scanner over the text's bytes that hands out one token at a
// time. A token is a view into the text, never a copy; escapes in strings are decoded only when a
// value keeps the string (AppendUnescaped). Comments (`#` to the end of the line) and whitespace
// separate tokens; the `#usda 1.0` header is checked by the parser before the first token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sinew/core/error.h"

namespace sinew::loader::usd {

enum class TokenKind : uint8_t {
  kEnd,         // end of the text
  kIdentifier,  // [A-Za-z_][A-Za-z0-9_]*, namespaces joined by ':' ("primvars:skel:jointIndices")
  kNumber,      // from a digit, '-' or ".digit" on through letters, digits, '.', '+', '-': 1.5e-7,
                // .5, -inf (inf and nan alone are identifiers); std::from_chars checks the form
  kString,      // "..." '...' """...""" '''...''': the contents between the quotes, undecoded
  kAsset,       // @...@ or @@@...@@@: the contents between the @s, undecoded
  kPath,        // <...>: the contents between the angle brackets
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kLeftBrace,
  kRightBrace,
  kEquals,
  kComma,
  kColon,
  kSemicolon,
  kDot,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  bool escaped = false;   // kString, kAsset: the contents hold a backslash escape
  size_t offset = 0;      // byte offset of the token's first character in the text
  std::string_view text;  // the token (identifier, number) or its contents (string, asset, path)
};

class UsdaLexer {
 public:
  // Scans `text` from byte `start` (after the header). `text` must outlive the lexer.
  explicit UsdaLexer(std::string_view text, size_t start = 0) noexcept : text_(text), pos_(start) {}

  // The next token, consumed. False on malformed text (an unterminated string or path, a stray
  // character): error() then says what and where (kUsdaSyntax).
  bool Next(Token* token);
  // The next token without consuming it.
  bool Peek(Token* token);

  const ErrorInfo& error() const noexcept { return error_; }
  std::string_view text() const noexcept { return text_; }

 private:
  bool Scan(Token* token);
  bool ScanNumber(Token* token);
  bool ScanString(Token* token);
  bool ScanAsset(Token* token);
  bool ScanPath(Token* token);
  bool Fail(size_t offset, std::string message);

  std::string_view text_;
  size_t pos_ = 0;
  Token peeked_;
  bool has_peeked_ = false;
  ErrorInfo error_;
};

// Where a byte offset of `text` is: "line L, column C" (lines and columns count from 1, columns
// in bytes). Every error of the reader uses this form.
std::string Where(std::string_view text, size_t offset);

// Whether `name` is an identifier: a letter or '_' (or a UTF-8 byte), then letters, digits and
// '_'. Prim names are.
bool IsIdentifier(std::string_view name) noexcept;
// Identifiers joined by ':' ("primvars:skel:jointIndices"). Property names are.
bool IsNamespacedIdentifier(std::string_view name) noexcept;
// Whether `name` is a variant's name as SdfPath takes one: letters, digits, '_', '|' and '-',
// after an optional leading '.'. (A variant set's name is an identifier.)
bool IsVariantName(std::string_view name) noexcept;

// `text` cut to `max` bytes, with "..." when cut: for messages.
std::string Excerpt(std::string_view text, size_t max = 40);

// A token for a message: "identifier 'def'", "number 1.5", "string \"abc\"", "'('", "end of file".
// Long contents are cut.
std::string Describe(const Token& token);

// Appends `raw` (a string or asset token's contents) to `out` with its escapes decoded: \n \t \r
// \a \b \f \v \\ \" \' \xHH and octal \ooo; any other escaped character stands for itself.
void AppendUnescaped(std::string_view raw, std::string* out);

}  // namespace sinew::loader::usd
