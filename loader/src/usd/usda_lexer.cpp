#include "usd/usda_lexer.h"

#include <array>
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

// What a byte starts, for the scanner's dispatch: one table lookup per token instead of a chain
// of comparisons.
enum class Starts : uint8_t {
  kNothing,  // a byte no token starts with
  kSpace,
  kComment,
  kIdentifier,
  kNumber,  // a digit or '-'
  kDot,     // '.': a number when a digit follows
  kString,
  kAsset,
  kPath,
  kPunctuation,  // one byte: kPunctuationKinds says which token
};

constexpr std::array<Starts, 256> kStarts = [] {
  std::array<Starts, 256> t{};
  for (int c = 0; c < 256; ++c) {
    if (IsIdentifierStart(char(c))) t[size_t(c)] = Starts::kIdentifier;
    if (IsDigit(char(c))) t[size_t(c)] = Starts::kNumber;
  }
  for (char c : {' ', '\t', '\n', '\r'}) t[size_t(c)] = Starts::kSpace;
  for (char c : {'(', ')', '[', ']', '{', '}', '=', ',', ':', ';'}) {
    t[size_t(c)] = Starts::kPunctuation;
  }
  t['#'] = Starts::kComment;
  t['-'] = Starts::kNumber;
  t['.'] = Starts::kDot;
  t['"'] = t['\''] = Starts::kString;
  t['@'] = Starts::kAsset;
  t['<'] = Starts::kPath;
  return t;
}();

constexpr std::array<TokenKind, 128> kPunctuationKinds = [] {
  std::array<TokenKind, 128> t{};
  t['('] = TokenKind::kLeftParen;
  t[')'] = TokenKind::kRightParen;
  t['['] = TokenKind::kLeftBracket;
  t[']'] = TokenKind::kRightBracket;
  t['{'] = TokenKind::kLeftBrace;
  t['}'] = TokenKind::kRightBrace;
  t['='] = TokenKind::kEquals;
  t[','] = TokenKind::kComma;
  t[':'] = TokenKind::kColon;
  t[';'] = TokenKind::kSemicolon;
  t['.'] = TokenKind::kDot;
  return t;
}();

// The bytes a number token runs on through (see ScanNumber).
constexpr std::array<bool, 256> kInNumber = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[size_t(c)] = IsIdentifierChar(char(c));
  t['.'] = t['+'] = t['-'] = true;
  return t;
}();

// A hexadecimal digit's value; -1 for any other character.
int HexValue(char c) noexcept {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
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
  Starts starts = Starts::kNothing;
  for (; pos_ < size; ++pos_) {
    starts = kStarts[static_cast<unsigned char>(data[pos_])];
    if (starts == Starts::kComment) {
      while (pos_ + 1 < size && data[pos_ + 1] != '\n') ++pos_;
    } else if (starts != Starts::kSpace) {
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
  switch (starts) {
    case Starts::kPunctuation:
      token->kind = kPunctuationKinds[size_t(data[pos_])];
      token->text = text_.substr(pos_, 1);
      ++pos_;
      return true;
    case Starts::kNumber:
      return ScanNumber(token);
    case Starts::kIdentifier: {
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
    case Starts::kDot:
      if (pos_ + 1 < size && IsDigit(data[pos_ + 1])) return ScanNumber(token);
      token->kind = TokenKind::kDot;
      token->text = text_.substr(pos_, 1);
      ++pos_;
      return true;
    case Starts::kString:
      return ScanString(token);
    case Starts::kAsset:
      return ScanAsset(token);
    case Starts::kPath:
      return ScanPath(token);
    default:
      break;
  }
  char message[48];
  const auto byte = static_cast<unsigned char>(data[pos_]);
  if (byte >= 0x20 && byte < 0x7f) {
    std::snprintf(message, sizeof(message), "unexpected character '%c'", data[pos_]);
  } else {
    std::snprintf(message, sizeof(message), "unexpected byte 0x%02x", byte);
  }
  return Fail(pos_, message);
}

bool UsdaLexer::ScanNumber(Token* token) {
  // The extent only: a number runs on through letters, digits, '.', '+' and '-' (1.5e-7, -inf,
  // and malformed ones such as 1.2.3 or 2x whole). Whether it is a number is for std::from_chars
  // to say when the parser converts it: scanning its syntax here too would read it twice.
  const char* const data = text_.data();
  const size_t size = text_.size();
  size_t end = pos_ + 1;
  while (end < size && kInNumber[static_cast<unsigned char>(data[end])]) ++end;
  token->kind = TokenKind::kNumber;
  token->text = text_.substr(pos_, end - pos_);
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

std::string Excerpt(std::string_view text, size_t max) {
  return text.size() <= max ? std::string(text) : std::string(text.substr(0, max)) + "...";
}

bool IsIdentifier(std::string_view name) noexcept {
  if (name.empty() || !IsIdentifierStart(name[0])) return false;
  for (char c : name) {
    if (!IsIdentifierChar(c)) return false;
  }
  return true;
}

bool IsVariantName(std::string_view name) noexcept {
  if (name.starts_with('.')) name.remove_prefix(1);
  if (name.empty()) return false;
  for (const char c : name) {
    if (!IsIdentifierChar(c) && c != '|' && c != '-') return false;
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
    out.append(kind).append(1, open).append(Excerpt(token.text)).append(1, close);
    return out;
  };
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of file";
    case TokenKind::kIdentifier:
      return quoted("identifier ", '\'', '\'');
    case TokenKind::kNumber:
      return out.append("number ").append(Excerpt(token.text));
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
