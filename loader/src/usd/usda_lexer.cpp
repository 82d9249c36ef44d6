#include "usd/usda_lexer.h"

#include <cstdio>

namespace sinew::loader::usd {
namespace {

constexpr bool IsDigit(char c) noexcept { return c >= '0' && c <= '9'; }

// Bytes of UTF-8 sequences count as letters, so names in other scripts read as identifiers.
constexpr bool IsIdentifierStart(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

constexpr bool IsIdentifierChar(char c) noexcept { return IsIdentifierStart(c) || IsDigit(c); }

// What may not follow a number directly: letters, digits, '_' and '.' (as in `1.2.3`, `2x`).
constexpr bool GluesToNumber(char c) noexcept { return IsIdentifierChar(c) || c == '.'; }

// A hexadecimal digit's value; -1 for any other character.
int HexValue(char c) noexcept {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// At most `max` bytes of `s`, with "..." when cut.
std::string Cut(std::string_view s, size_t max = 40) {
  return s.size() <= max ? std::string(s) : std::string(s.substr(0, max)) + "...";
}

}  // namespace

bool UsdaLexer::Fail(size_t offset, std::string message) {
  if (error_.code == Error::kNone) {
    error_ = ErrorInfo{Error::kUsdaSyntax, std::move(message), Where(text_, offset), 0};
  }
  return false;
}

bool UsdaLexer::Next(Token* token) {
  if (has_peeked_) {
    has_peeked_ = false;
    *token = peeked_;
    return true;
  }
  return Scan(token);
}

bool UsdaLexer::Peek(Token* token) {
  if (!has_peeked_) {
    if (!Scan(&peeked_)) return false;
    has_peeked_ = true;
  }
  *token = peeked_;
  return true;
}

bool UsdaLexer::Scan(Token* token) {
  const char* const data = text_.data();
  const size_t size = text_.size();
  // Whitespace and comments.
  while (pos_ < size) {
    const char c = data[pos_];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < size && data[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
  token->offset = pos_;
  token->escaped = false;
  if (pos_ >= size) {
    token->kind = TokenKind::kEnd;
    token->text = {};
    return true;
  }
  const char c = data[pos_];
  if (IsIdentifierStart(c)) {
    size_t end = pos_ + 1;
    while (true) {
      while (end < size && IsIdentifierChar(data[end])) ++end;
      // A namespace separator joins the next identifier: `skel:jointIndices`.
      if (end + 1 < size && data[end] == ':' && IsIdentifierStart(data[end + 1])) {
        end += 2;
        continue;
      }
      break;
    }
    token->kind = TokenKind::kIdentifier;
    token->text = text_.substr(pos_, end - pos_);
    pos_ = end;
    return true;
  }
  if (IsDigit(c) || c == '-' || (c == '.' && pos_ + 1 < size && IsDigit(data[pos_ + 1]))) {
    return ScanNumber(token);
  }
  TokenKind kind;
  switch (c) {
    case '"':
    case '\'':
      return ScanString(token);
    case '@':
      return ScanAsset(token);
    case '<':
      return ScanPath(token);
    case '(':
      kind = TokenKind::kLeftParen;
      break;
    case ')':
      kind = TokenKind::kRightParen;
      break;
    case '[':
      kind = TokenKind::kLeftBracket;
      break;
    case ']':
      kind = TokenKind::kRightBracket;
      break;
    case '{':
      kind = TokenKind::kLeftBrace;
      break;
    case '}':
      kind = TokenKind::kRightBrace;
      break;
    case '=':
      kind = TokenKind::kEquals;
      break;
    case ',':
      kind = TokenKind::kComma;
      break;
    case ':':
      kind = TokenKind::kColon;
      break;
    case ';':
      kind = TokenKind::kSemicolon;
      break;
    case '.':
      kind = TokenKind::kDot;
      break;
    default: {
      char message[48];
      const auto byte = static_cast<unsigned char>(c);
      if (byte >= 0x20 && byte < 0x7f) {
        std::snprintf(message, sizeof(message), "unexpected character '%c'", c);
      } else {
        std::snprintf(message, sizeof(message), "unexpected byte 0x%02x", byte);
      }
      return Fail(pos_, message);
    }
  }
  token->kind = kind;
  token->text = text_.substr(pos_, 1);
  ++pos_;
  return true;
}

bool UsdaLexer::ScanNumber(Token* token) {
  const char* const data = text_.data();
  const size_t size = text_.size();
  const size_t start = pos_;
  size_t end = pos_;
  if (data[end] == '-') ++end;
  auto bad = [&](size_t at) {
    size_t stop = at;
    while (stop < size && (GluesToNumber(data[stop]) || data[stop] == '-' || data[stop] == '+')) {
      ++stop;
    }
    return Fail(start, "malformed number '" + Cut(text_.substr(start, stop - start)) + "'");
  };
  // -inf, -nan: USD writes non-finite numbers so.
  if (text_.substr(end, 3) == "inf" || text_.substr(end, 3) == "nan") {
    end += 3;
  } else {
    size_t digits = 0;
    while (end < size && IsDigit(data[end])) ++end, ++digits;
    if (end < size && data[end] == '.') {
      ++end;
      while (end < size && IsDigit(data[end])) ++end, ++digits;
    }
    if (digits == 0) return bad(end);
    if (end < size && (data[end] == 'e' || data[end] == 'E')) {
      ++end;
      if (end < size && (data[end] == '+' || data[end] == '-')) ++end;
      size_t exponent_digits = 0;
      while (end < size && IsDigit(data[end])) ++end, ++exponent_digits;
      if (exponent_digits == 0) return bad(end);
    }
  }
  if (end < size && GluesToNumber(data[end])) return bad(end);
  token->kind = TokenKind::kNumber;
  token->text = text_.substr(start, end - start);
  pos_ = end;
  return true;
}

bool UsdaLexer::ScanString(Token* token) {
  const char* const data = text_.data();
  const size_t size = text_.size();
  const size_t start = pos_;
  const char quote = data[pos_];
  const bool triple = pos_ + 2 < size && data[pos_ + 1] == quote && data[pos_ + 2] == quote;
  const size_t open = triple ? 3 : 1;
  size_t i = pos_ + open;
  bool escaped = false;
  while (i < size) {
    const char c = data[i];
    if (c == '\\') {
      escaped = true;
      i += 2;
      continue;
    }
    if (c == quote && (!triple || (i + 2 < size && data[i + 1] == quote && data[i + 2] == quote))) {
      token->kind = TokenKind::kString;
      token->escaped = escaped;
      token->text = text_.substr(start + open, i - start - open);
      pos_ = i + open;
      return true;
    }
    if (c == '\n' && !triple) {
      return Fail(start, std::string("unterminated string: no closing ") + quote +
                             " before the end of the line");
    }
    ++i;
  }
  return Fail(start, std::string("unterminated string: no closing ") + (triple ? "triple " : "") +
                         quote + " before the end of the file");
}

bool UsdaLexer::ScanAsset(Token* token) {
  const char* const data = text_.data();
  const size_t size = text_.size();
  const size_t start = pos_;
  const bool triple = text_.substr(pos_, 3) == "@@@";
  const size_t open = triple ? 3 : 1;
  bool escaped = false;
  for (size_t i = pos_ + open; i < size; ++i) {
    const char c = data[i];
    if (triple && c == '\\') {
      escaped = true;
      ++i;
      continue;
    }
    if (c == '@' && (!triple || text_.substr(i, 3) == "@@@")) {
      token->kind = TokenKind::kAsset;
      token->escaped = escaped;
      token->text = text_.substr(start + open, i - start - open);
      pos_ = i + open;
      return true;
    }
    if (c == '\n' && !triple) break;
  }
  return Fail(start, triple ? "unterminated asset path: no closing @@@"
                            : "unterminated asset path: no closing @ before the end of the line");
}

bool UsdaLexer::ScanPath(Token* token) {
  const char* const data = text_.data();
  const size_t size = text_.size();
  const size_t start = pos_;
  for (size_t i = pos_ + 1; i < size && data[i] != '\n'; ++i) {
    if (data[i] == '>') {
      token->kind = TokenKind::kPath;
      token->text = text_.substr(start + 1, i - start - 1);
      pos_ = i + 1;
      return true;
    }
  }
  return Fail(start, "unterminated path: no closing > before the end of the line");
}

bool IsIdentifier(std::string_view name) noexcept {
  if (name.empty() || !IsIdentifierStart(name[0])) return false;
  for (char c : name) {
    if (!IsIdentifierChar(c)) return false;
  }
  return true;
}

bool IsNamespacedIdentifier(std::string_view name) noexcept {
  size_t start = 0;
  while (true) {
    const size_t colon = name.find(':', start);
    if (!IsIdentifier(name.substr(start, colon - start))) return false;
    if (colon == std::string_view::npos) return true;
    start = colon + 1;
  }
}

std::string Where(std::string_view text, size_t offset) {
  if (offset > text.size()) offset = text.size();
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

std::string Describe(const Token& token) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&&.
  std::string out;
  auto quoted = [&](const char* kind, char open, char close) {
    out.append(kind).append(1, open).append(Cut(token.text)).append(1, close);
    return out;
  };
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of file";
    case TokenKind::kIdentifier:
      return quoted("identifier ", '\'', '\'');
    case TokenKind::kNumber:
      return out.append("number ").append(Cut(token.text));
    case TokenKind::kString:
      return quoted("string ", '"', '"');
    case TokenKind::kAsset:
      return quoted("asset path ", '@', '@');
    case TokenKind::kPath:
      return quoted("path ", '<', '>');
    default:
      return quoted("", '\'', '\'');
  }
}

void AppendUnescaped(std::string_view raw, std::string* out) {
  out->reserve(out->size() + raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out->push_back(raw[i]);
      continue;
    }
    const char c = raw[++i];
    // One-letter escapes: \n \t \r \a \b \f \v.
    constexpr std::string_view kLetters = "ntrabfv";
    constexpr std::string_view kMeanings = "\n\t\r\a\b\f\v";
    if (const size_t k = kLetters.find(c); k != std::string_view::npos) {
      out->push_back(kMeanings[k]);
    } else if (c == 'x' && i + 1 < raw.size() && HexValue(raw[i + 1]) >= 0) {
      // \xH or \xHH
      int value = HexValue(raw[++i]);
      if (i + 1 < raw.size() && HexValue(raw[i + 1]) >= 0) value = value * 16 + HexValue(raw[++i]);
      out->push_back(static_cast<char>(value));
    } else if (c >= '0' && c <= '7') {
      // \o, \oo or \ooo
      unsigned value = unsigned(c - '0');
      for (int n = 1; n < 3 && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7'; ++n) {
        value = value * 8 + unsigned(raw[++i] - '0');
      }
      out->push_back(static_cast<char>(value & 0xffu));
    } else {
      out->push_back(c);  // \\ \" \' and anything else: the character itself
    }
  }
}

}  // namespace sinew::loader::usd
