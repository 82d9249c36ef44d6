// The values half of the .usda reader (usda_reader.h): values typed as they are read, time
// samples, untyped metadata values, dictionaries and paths.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "usd/usda_reader.h"

namespace sinew::loader::usd {
namespace {

// What a number of `scalar` is called in a message.
std::string_view NumberWhat(Scalar scalar) noexcept {
  switch (scalar) {
    case Scalar::kBool:
      return "true, false, 1 or 0";
    case Scalar::kUChar:
    case Scalar::kInt:
    case Scalar::kUInt:
    case Scalar::kInt64:
    case Scalar::kUInt64:
      return "an integer";
    default:
      return "a number";
  }
}

bool IsNonFiniteWord(const Token& token) noexcept {
  return token.kind == TokenKind::kIdentifier && (token.text == "inf" || token.text == "nan");
}

// Whether a number token whose value is beyond its type's range is so because it is too small:
// the decimal place of its first significant digit (1 for 1.5, 0 for 0.5, -1 for 0.05) plus its
// exponent is not above 0.
bool Underflows(std::string_view number) noexcept {
  const size_t n = number.size();
  auto digit = [&](size_t i) { return i < n && number[i] >= '0' && number[i] <= '9'; };
  size_t i = n != 0 && number[0] == '-' ? 1 : 0;
  long place = 0;
  bool significant = false;
  for (; digit(i); ++i) {
    significant |= number[i] != '0';
    if (significant) ++place;
  }
  if (i < n && number[i] == '.') {
    for (++i; digit(i); ++i) {
      if (significant) continue;
      significant = number[i] != '0';
      if (!significant) --place;
    }
  }
  if (!significant) return true;  // zero is in every range
  long exponent = 0;
  if (i < n && (number[i] == 'e' || number[i] == 'E')) {
    ++i;
    const bool negative = i < n && number[i] == '-';
    if (i < n && (number[i] == '-' || number[i] == '+')) ++i;
    for (; digit(i); ++i) exponent = std::min(exponent * 10 + (number[i] - '0'), 1000000L);
    if (negative) exponent = -exponent;
  }
  return place + exponent <= 0;
}

}  // namespace

bool UsdaReader::Malformed(const Token& token) {
  return Fail(token.offset, Error::kUsdaSyntax, "malformed number '" + Excerpt(token.text) + "'");
}

template <typename T>
bool UsdaReader::Convert(const Token& token, Scalar scalar, T* out) {
  const char* first = token.text.data();
  const char* last = first + token.text.size();
  if constexpr (std::is_floating_point_v<T>) {
    if (token.kind != TokenKind::kNumber && !IsNonFiniteWord(token)) {
      return Mismatch(token, NumberWhat(scalar));
    }
    // The lexer gives a number token's extent only: from_chars says whether it is one.
    T value{};
    const auto [p, ec] = std::from_chars(first, last, value);
    if (p != last || ec == std::errc::invalid_argument) return Malformed(token);
    if (ec == std::errc::result_out_of_range) {
      if (!Underflows(token.text)) {
        return Fail(token.offset, Error::kInvalidValue,
                    Excerpt(token.text) + " is out of range for " +
                        (std::is_same_v<T, float> ? "float" : "double"));
      }
      value = token.text[0] == '-' ? -T(0) : T(0);
    }
    if constexpr (std::is_same_v<T, float>) {
      if (scalar == Scalar::kHalf) {
        const float half = RoundToHalf(value);
        if (std::isinf(half) && !std::isinf(value)) {
          return Fail(token.offset, Error::kInvalidValue,
                      Excerpt(token.text) + " is out of range for half");
        }
        value = half;
      }
    }
    *out = value;
    return true;
  } else {
    if (scalar == Scalar::kBool && token.kind == TokenKind::kIdentifier &&
        (token.text == "true" || token.text == "false")) {
      *out = token.text == "true" ? 1 : 0;
      return true;
    }
    if (token.kind != TokenKind::kNumber) return Mismatch(token, NumberWhat(scalar));
    // Parsed as int64 whatever the storage, then checked against the scalar's own range.
    int64_t value = 0;
    const auto [p, ec] = std::from_chars(first, last, value);
    if (ec == std::errc::invalid_argument || p != last) {
      // A number, but not an integer (a fraction, an exponent, inf), or not a number at all.
      double number = 0;
      const auto [q, number_ec] = std::from_chars(first, last, number);
      if (q != last || number_ec == std::errc::invalid_argument) return Malformed(token);
      return Fail(token.offset, Error::kWrongType,
                  "expected " + std::string(NumberWhat(scalar)) + ", found " + Describe(token));
    }
    const bool out_of_range = ec == std::errc::result_out_of_range;
    int64_t low = std::numeric_limits<int64_t>::min(), high = std::numeric_limits<int64_t>::max();
    std::string_view name = "int64";
    switch (scalar) {
      case Scalar::kBool:
        low = 0, high = 1, name = "bool";
        break;
      case Scalar::kUChar:
        low = 0, high = 255, name = "uchar";
        break;
      case Scalar::kInt:
        low = INT32_MIN, high = INT32_MAX, name = "int";
        break;
      case Scalar::kUInt:
        low = 0, high = UINT32_MAX, name = "uint";
        break;
      case Scalar::kUInt64:
        low = 0, name = "uint64 (stored as int64)";
        break;
      default:
        break;
    }
    if (out_of_range || value < low || value > high) {
      return Fail(token.offset, Error::kInvalidValue,
                  Excerpt(token.text) + " is out of range for " + std::string(name));
    }
    *out = static_cast<T>(value);
    return true;
  }
}

template <typename T>
bool UsdaReader::Number(Scalar scalar, const Token& token, std::vector<T>* out) {
  T value{};
  if (!Convert(token, scalar, &value)) return false;
  out->push_back(value);
  return true;
}

template <typename T>
bool UsdaReader::Tuple(const ValueTypeInfo& info, size_t count, const Token& open,
                       std::vector<T>* out) {
  const bool row = info.rows != 0;
  if (open.kind != TokenKind::kLeftParen) {
    return Mismatch(
        open, "'(' to start " + std::string(row ? "a row of a " : "a ") + std::string(info.name));
  }
  size_t n = 0;
  auto number = [&](const Token& token) { return ++n, Number(info.scalar, token, out); };
  if (!Items(open, TokenKind::kRightParen, number)) return false;
  if (n != count) {
    return Fail(open.offset, Error::kWrongType,
                (row ? "a row of a " : "a ") + std::string(info.name) + " has " +
                    std::to_string(count) + " numbers, found " + std::to_string(n));
  }
  return true;
}

template <typename T>
bool UsdaReader::Element(const ValueTypeInfo& info, const Token& first, std::vector<T>* out) {
  if (info.components == 1) return Number(info.scalar, first, out);
  if (info.rows == 0) return Tuple(info, info.components, first, out);
  // A matrix: `rows` tuples of components / rows numbers each.
  if (first.kind != TokenKind::kLeftParen) {
    return Mismatch(first, "'(' to start a " + std::string(info.name));
  }
  const size_t columns = info.components / info.rows;
  size_t rows = 0;
  auto row = [&](const Token& open) { return ++rows, Tuple(info, columns, open, out); };
  if (!Items(first, TokenKind::kRightParen, row)) return false;
  if (rows != info.rows) {
    return Fail(first.offset, Error::kWrongType,
                "a " + std::string(info.name) + " has " + std::to_string(info.rows) +
                    " rows, found " + std::to_string(rows));
  }
  return true;
}

template <typename T>
bool UsdaReader::Numbers(const ValueTypeInfo& info, bool array, std::vector<T>* out) {
  Token first;
  if (!Next(&first)) return false;
  if (!array) return Element(info, first, out);
  if (first.kind != TokenKind::kLeftBracket) {
    return Mismatch(first, "'[' to start a " + std::string(info.name) + "[]");
  }
  return Items(first, TokenKind::kRightBracket,
               [&](const Token& token) { return Element(info, token, out); });
}

void UsdaReader::AppendContents(const Token& token, std::string* out) {
  if (token.escaped) {
    AppendUnescaped(token.text, out);
  } else {
    out->append(token.text);
  }
}

bool UsdaReader::StringElement(Scalar scalar, const Token& token, std::vector<std::string>* out) {
  if (scalar == Scalar::kPath) {
    if (token.kind != TokenKind::kPath) return Mismatch(token, "a path <...>");
    return AbsolutePath(token, anchor_, &out->emplace_back());
  }
  const TokenKind kind = scalar == Scalar::kAsset ? TokenKind::kAsset : TokenKind::kString;
  if (token.kind != kind) {
    return Mismatch(token, kind == TokenKind::kAsset ? "an asset path @...@" : "a string");
  }
  AppendContents(token, &out->emplace_back());
  return true;
}

bool UsdaReader::Strings(const ValueTypeInfo& info, bool array, std::vector<std::string>* out) {
  Token first;
  if (!Next(&first)) return false;
  if (!array) return StringElement(info.scalar, first, out);
  if (first.kind != TokenKind::kLeftBracket) {
    return Mismatch(first, "'[' to start a " + std::string(info.name) + "[]");
  }
  return Items(first, TokenKind::kRightBracket,
               [&](const Token& token) { return StringElement(info.scalar, token, out); });
}

bool UsdaReader::TypedValue(ValueType type, bool array, Value* out) {
  const ValueTypeInfo& info = Info(type);
  out->type = type;
  out->array = array;
  out->blocked = false;
  out->components = info.components;
  Token token;
  if (!Peek(&token)) return false;
  const bool blocked = IsWord(token, "None");
  if (blocked) {
    Next(&token);
    out->blocked = true;
  }
  // Numbers into the vector of T that `out` holds from here on.
  auto numbers = [&](auto zero) {
    auto& v = out->data.emplace<std::vector<decltype(zero)>>();
    return blocked || Numbers(info, array, &v);
  };
  switch (StorageOf(info.scalar)) {
    case Storage::kInt32:
      return numbers(int32_t(0));
    case Storage::kInt64:
      return numbers(int64_t(0));
    case Storage::kFloat:
      return numbers(0.0f);
    case Storage::kDouble:
      return numbers(0.0);
    case Storage::kString: {
      auto& v = out->data.emplace<std::vector<std::string>>();
      return blocked || Strings(info, array, &v);
    }
    case Storage::kDictionary:
      out->data.emplace<Dictionary>();
      if (blocked) return true;
      if (array) {
        return Fail(token.offset, Error::kUnsupportedFeature, "an array of dictionaries");
      }
      return DictionaryValue(out);
  }
  return Fail(token.offset, Error::kInvalidValue, "a value of an unknown storage");
}

bool UsdaReader::TimeSamples(ValueType type, bool array, std::vector<TimeSample>* out) {
  Token open;
  if (!Expect(TokenKind::kLeftBrace, "'{' to start the time samples", &open)) return false;
  bool ascending = true;
  auto sample = [&](const Token& token) {
    double time = 0;
    if (token.kind != TokenKind::kNumber && !IsNonFiniteWord(token)) {
      return Close(TokenKind::kRightBrace, open, token, "a time code");
    }
    if (!Convert(token, Scalar::kDouble, &time)) return false;
    if (!std::isfinite(time)) {
      return Fail(token.offset, Error::kInvalidValue,
                  "a sample at time " + Excerpt(token.text) + ": times are finite");
    }
    if (!Expect(TokenKind::kColon, "':' after the time code")) return false;
    if (!out->empty() && time <= out->back().time) ascending = false;
    TimeSample& s = out->emplace_back();
    s.time = time;
    return TypedValue(type, array, &s.value);
  };
  if (!Items(open, TokenKind::kRightBrace, sample)) return false;
  if (ascending) return true;
  // Out of order: sort, stably so that samples at one time stay in file order, and keep the last
  // of each time (a later sample replaces an earlier one, as in a map).
  std::vector<size_t> order(out->size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return (*out)[a].time < (*out)[b].time; });
  std::vector<TimeSample> sorted;
  sorted.reserve(out->size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i + 1 < order.size() && (*out)[order[i + 1]].time == (*out)[order[i]].time) continue;
    sorted.push_back(std::move((*out)[order[i]]));
  }
  *out = std::move(sorted);
  return true;
}

bool UsdaReader::DictionaryValue(Value* out) {
  Token open, token;
  if (!Expect(TokenKind::kLeftBrace, "'{' to start a dictionary", &open)) return false;
  if (!Enter(open.offset)) return false;
  out->type = ValueType::kDictionary;
  out->components = 1;
  auto& entries = out->data.emplace<Dictionary>();
  std::unordered_map<std::string_view, size_t> keys;  // key as written -> index in entries
  while (true) {
    if (!Next(&token)) return false;
    if (token.kind == TokenKind::kRightBrace) break;
    if (token.kind == TokenKind::kSemicolon) continue;
    if (token.kind != TokenKind::kIdentifier) {
      return Close(TokenKind::kRightBrace, open, token, "a value type");
    }
    const std::optional<ValueType> type = FindValueType(token.text);
    if (!type) {
      return Fail(token.offset, Error::kUnsupportedFeature,
                  "unknown value type '" + std::string(token.text) + "'");
    }
    bool array = false;
    if (!ArraySuffix(&array) || !Next(&token)) return false;
    if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kString) {
      return Expected(token, "a dictionary key");
    }
    // A key written again replaces its value.
    const auto [it, added] = keys.try_emplace(token.text, entries.size());
    DictionaryEntry& entry = added ? entries.emplace_back() : entries[it->second];
    if (!added) {
      entry.value = Value();
    } else if (token.kind == TokenKind::kString) {
      AppendContents(token, &entry.key);
    } else {
      entry.key = token.text;
    }
    if (!Expect(TokenKind::kEquals, "'=' after the dictionary key")) return false;
    if (!TypedValue(*type, array, &entry.value)) return false;
  }
  Leave();
  return true;
}

bool UsdaReader::UntypedLeaf(const Token& token, Value* out, bool* typed) {
  ValueType type;
  if (token.kind == TokenKind::kNumber || IsNonFiniteWord(token)) {
    type = ValueType::kDouble;
  } else if (IsWord(token, "true") || IsWord(token, "false")) {
    type = ValueType::kBool;
  } else if (token.kind == TokenKind::kIdentifier) {
    type = ValueType::kToken;
  } else if (token.kind == TokenKind::kString) {
    type = ValueType::kString;
  } else if (token.kind == TokenKind::kAsset) {
    type = ValueType::kAsset;
  } else if (token.kind == TokenKind::kPath) {
    type = ValueType::kPath;
  } else {
    return Expected(token, "a number, string, word, path or asset path");
  }
  if (!*typed) {
    *typed = true;
    out->type = type;
    switch (StorageOf(Info(type).scalar)) {
      case Storage::kInt32:
        out->data.emplace<std::vector<int32_t>>();
        break;
      case Storage::kDouble:
        out->data.emplace<std::vector<double>>();
        break;
      default:
        out->data.emplace<std::vector<std::string>>();
        break;
    }
  } else if (type != out->type) {
    return Fail(token.offset, Error::kWrongType,
                "expected a " + std::string(Info(out->type).name) +
                    " like the value's first, found " + Describe(token));
  }
  switch (type) {
    case ValueType::kDouble: {
      double value = 0;
      if (!Convert(token, Scalar::kDouble, &value)) return false;
      std::get<std::vector<double>>(out->data).push_back(value);
      return true;
    }
    case ValueType::kBool:
      std::get<std::vector<int32_t>>(out->data).push_back(token.text == "true" ? 1 : 0);
      return true;
    case ValueType::kPath:
      return AbsolutePath(token, anchor_,
                          &std::get<std::vector<std::string>>(out->data).emplace_back());
    default:
      AppendContents(token, &std::get<std::vector<std::string>>(out->data).emplace_back());
      return true;
  }
}

bool UsdaReader::UntypedElement(const Token& first, Value* out, bool* typed, size_t* leaves) {
  if (first.kind != TokenKind::kLeftParen) {
    ++*leaves;
    return UntypedLeaf(first, out, typed);
  }
  // A tuple: its values (nested tuples flattened) are the element's components.
  if (!Enter(first.offset)) return false;
  auto element = [&](const Token& token) { return UntypedElement(token, out, typed, leaves); };
  if (!Items(first, TokenKind::kRightParen, element)) return false;
  Leave();
  return true;
}

bool UsdaReader::UntypedValue(Value* out) {
  *out = Value();
  out->data.emplace<std::vector<std::string>>();
  Token open;
  if (!Peek(&open)) return false;
  if (IsWord(open, "None")) {
    out->blocked = true;
    return Next(&open);
  }
  if (open.kind == TokenKind::kLeftBrace) return DictionaryValue(out);
  bool typed = false;
  size_t leaves = 0;
  Next(&open);
  if (open.kind != TokenKind::kLeftBracket) {
    if (!UntypedElement(open, out, &typed, &leaves)) return false;
  } else {
    // A list: every element has as many values as the first.
    out->array = true;
    if (!Enter(open.offset)) return false;
    size_t first = 0;
    auto element = [&](const Token& token) {
      size_t n = 0;
      if (!UntypedElement(token, out, &typed, &n)) return false;
      if (first == 0) first = n;
      if (n == first) return true;
      return Fail(token.offset, Error::kWrongType,
                  "an element of " + std::to_string(n) +
                      " values in a list whose first element has " + std::to_string(first));
    };
    if (!Items(open, TokenKind::kRightBracket, element)) return false;
    Leave();
    leaves = first;
  }
  if (leaves > std::numeric_limits<uint16_t>::max()) {
    return Fail(open.offset, Error::kUnsupportedFeature,
                "a tuple of " + std::to_string(leaves) + " values (at most 65535)");
  }
  out->components = uint16_t(leaves ? leaves : 1);
  return true;
}

bool UsdaReader::StringList(std::vector<std::string>* out) {
  out->clear();
  Token token;
  if (!Peek(&token)) return false;
  if (IsWord(token, "None")) return Next(&token);
  Value value;
  if (!TypedValue(ValueType::kToken, token.kind == TokenKind::kLeftBracket, &value)) return false;
  *out = std::move(std::get<std::vector<std::string>>(value.data));
  return true;
}

bool UsdaReader::PathList(std::string_view anchor, std::vector<std::string>* out) {
  out->clear();
  Token token;
  if (!Peek(&token)) return false;
  if (IsWord(token, "None")) return Next(&token);
  const std::string_view saved = anchor_;
  anchor_ = anchor;
  Value value;
  const bool ok = TypedValue(ValueType::kPath, token.kind == TokenKind::kLeftBracket, &value);
  anchor_ = saved;
  if (!ok) return false;
  *out = std::move(std::get<std::vector<std::string>>(value.data));
  return true;
}

bool UsdaReader::AbsolutePath(const Token& token, std::string_view anchor, std::string* out) {
  const std::string_view path = token.text;
  auto bad = [&](const std::string& why) {
    return Fail(token.offset, Error::kInvalidValue,
                "path <" + std::string(path.substr(0, 80)) + ">: " + why);
  };
  if (path.empty()) return bad("empty");
  if (path.find_first_of("{}[]") != std::string_view::npos) {
    return Fail(token.offset, Error::kUnsupportedFeature,
                "path <" + std::string(path.substr(0, 80)) +
                    "> names a variant or a relationship target: sinew reads prim and property "
                    "paths only");
  }
  std::vector<std::string_view> names;
  size_t i = 0;
  if (path[0] == '/') {
    i = 1;
  } else {
    for (size_t a = 1; a < anchor.size();) {
      const size_t slash = std::min(anchor.find('/', a), anchor.size());
      names.push_back(anchor.substr(a, slash - a));
      a = slash + 1;
    }
  }
  std::string_view property;
  while (i < path.size()) {
    const size_t slash = std::min(path.find('/', i), path.size());
    std::string_view name = path.substr(i, slash - i);
    const bool last = slash == path.size();
    if (name.empty()) return bad("an empty name between slashes");
    if (name == "..") {
      if (names.empty()) return bad("'..' above the root");
      // Inside a variant ("/A{v=x}", anchors only) it climbs out of the last selection first:
      // Sdf's parent of </A{v=x}> is </A>.
      if (std::string_view& name_above = names.back(); name_above.ends_with('}')) {
        name_above = name_above.substr(0, name_above.rfind('{'));
      } else {
        names.pop_back();
      }
    } else if (name != ".") {
      if (const size_t dot = name.find('.'); dot != std::string_view::npos) {
        if (!last) return bad("a property before the last '/'");
        property = name.substr(dot + 1);
        name = name.substr(0, dot);
        if (!IsNamespacedIdentifier(property)) {
          return bad("'" + std::string(property) + "' is not a property name");
        }
      }
      if (!name.empty()) {
        if (!IsIdentifier(name)) return bad("'" + std::string(name) + "' is not a prim name");
        names.push_back(name);
      }
    }
    i = slash + 1;
  }
  if (!property.empty() && names.empty()) return bad("a property of the root");
  out->clear();
  for (std::string_view name : names) {
    out->push_back('/');
    out->append(name);
  }
  if (names.empty()) out->push_back('/');
  if (!property.empty()) {
    out->push_back('.');
    out->append(property);
  }
  return true;
}

}  // namespace sinew::loader::usd
