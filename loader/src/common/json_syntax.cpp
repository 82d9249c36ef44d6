#include "common/json_syntax.h"

#include <algorithm>
#include <string_view>

namespace sinew::loader {
namespace {

using simdjson::error_code;
namespace ondemand = simdjson::ondemand;

// simdjson's DOM parser refuses documents nested deeper than this; the walk stops there too.
constexpr int kMaxDepth = 1024;

// Reads `value` and everything in it; the first error.
error_code Walk(ondemand::value value, int depth) {
  if (depth > kMaxDepth) return simdjson::DEPTH_ERROR;
  ondemand::json_type type;
  if (error_code e = value.type().get(type)) return e;
  switch (type) {
    case ondemand::json_type::object: {
      ondemand::object object;
      if (error_code e = value.get_object().get(object)) return e;
      for (auto field : object) {
        std::string_view key;
        ondemand::value child;
        if (error_code e = field.unescaped_key().get(key)) return e;
        if (error_code e = field.value().get(child)) return e;
        if (error_code e = Walk(child, depth + 1)) return e;
      }
      return simdjson::SUCCESS;
    }
    case ondemand::json_type::array: {
      ondemand::array array;
      if (error_code e = value.get_array().get(array)) return e;
      for (auto element : array) {
        ondemand::value child;
        if (error_code e = element.get(child)) return e;
        if (error_code e = Walk(child, depth + 1)) return e;
      }
      return simdjson::SUCCESS;
    }
    case ondemand::json_type::number: {
      // get_number, not get_double: an integer too large for 64 bits, which the DOM parser
      // refuses, is an error here too (get_double would read it as a double).
      ondemand::number number;
      return value.get_number().get(number);
    }
    case ondemand::json_type::string: {
      std::string_view text;
      return value.get_string().get(text);
    }
    case ondemand::json_type::boolean: {
      bool flag;
      return value.get_bool().get(flag);
    }
    case ondemand::json_type::null: {
      bool null;
      return value.is_null().get(null);
    }
  }
  return simdjson::SUCCESS;
}

// What a walk through `json`'s strings finds (json.size() for none): the first control character
// (below U+0020) inside a string, which JSON requires escaped, and the opening quote of a string
// the text leaves open.
struct StringWalk {
  size_t control = 0;
  size_t open = 0;
};
StringWalk WalkStrings(std::string_view json) {
  StringWalk found{json.size(), json.size()};
  bool in_string = false;
  size_t start = 0;
  for (size_t i = 0; i < json.size(); ++i) {
    if (!in_string) {
      in_string = json[i] == '"';
      start = i;
    } else if (uint8_t(json[i]) < 0x20) {
      found.control = std::min(found.control, i);
    } else if (json[i] == '\\') {
      ++i;  // the escaped character
    } else if (json[i] == '"') {
      in_string = false;
    }
  }
  if (in_string) found.open = start;
  return found;
}

// The first byte of the first sequence in `json` that is not UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing beyond U+10FFFF), or json.size() when every sequence is.
size_t FirstInvalidUtf8(std::string_view json) {
  const auto byte = [&](size_t i) { return i < json.size() ? uint8_t(json[i]) : uint8_t(0); };
  const auto continuation = [&](size_t i) { return (byte(i) & 0xC0) == 0x80; };
  for (size_t i = 0; i < json.size();) {
    const uint8_t lead = byte(i);
    size_t length = 0;
    uint8_t low = 0x80, high = 0xBF;  // the second byte's range
    if (lead < 0x80) {
      length = 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;   // overlong below U+0800
      if (lead == 0xED) high = 0x9F;  // the surrogates U+D800..U+DFFF
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;   // overlong below U+10000
      if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
    } else {
      return i;  // a continuation byte without a lead, or a lead that no sequence has
    }
    if (length > 1 && (byte(i + 1) < low || byte(i + 1) > high)) return i;
    for (size_t k = 2; k < length; ++k) {
      if (!continuation(i + k)) return i;
    }
    i += length;
  }
  return json.size();
}

}  // namespace

std::optional<size_t> JsonSyntaxOffset(std::span<const uint8_t> json, error_code error) {
  const std::string_view text(reinterpret_cast<const char*>(json.data()), json.size());
  if (error == simdjson::UNCLOSED_STRING) {
    const size_t start = WalkStrings(text).open;
    if (start < text.size()) return start;
    return std::nullopt;
  }
  // simdjson finds these in a pass over the whole text before it parses anything.
  if (error == simdjson::UTF8_ERROR || error == simdjson::UNESCAPED_CHARS) {
    const size_t at =
        error == simdjson::UTF8_ERROR ? FirstInvalidUtf8(text) : WalkStrings(text).control;
    if (at < text.size()) return at;
    return std::nullopt;
  }
  if (error == simdjson::DEPTH_ERROR || error == simdjson::EMPTY) return std::nullopt;
  ondemand::parser parser;
  ondemand::document document;
  const simdjson::padded_string_view padded(text.data(), text.size(),
                                            text.size() + simdjson::SIMDJSON_PADDING);
  if (parser.iterate(padded).get(document)) return std::nullopt;
  ondemand::json_type type;
  if (!document.type().get(type) &&
      (type == ondemand::json_type::object || type == ondemand::json_type::array)) {
    ondemand::value root;
    if (!document.get_value().get(root)) (void)Walk(root, 1);
  }
  // At the value the walk could not read, or, when it read them all, where the root value ends
  // and whatever follows it begins; out of bounds when the text ended first.
  const char* at = nullptr;
  const error_code where = document.current_location().get(at);
  if (where == simdjson::OUT_OF_BOUNDS) return json.size();
  if (where || at < text.data() || at > text.data() + text.size()) return std::nullopt;
  return size_t(at - text.data());
}

ErrorInfo JsonSyntaxError(std::span<const uint8_t> json, error_code error,
                          const std::string& context) {
  ErrorInfo out{Error::kJsonSyntax, simdjson::error_message(error), "", 0};
  const std::optional<size_t> offset = JsonSyntaxOffset(json, error);
  if (!offset) return out;
  const auto begin = json.begin(), at = json.begin() + ptrdiff_t(*offset);
  const size_t line = size_t(std::count(begin, at, uint8_t('\n'))) + 1;
  const auto line_start =
      std::find(std::make_reverse_iterator(at), std::make_reverse_iterator(begin), uint8_t('\n'))
          .base();
  out.where = context + "line " + std::to_string(line) + ", column " +
              std::to_string(size_t(at - line_start) + 1);
  return out;
}

bool SkipByteOrderMark(std::span<const uint8_t>* json, const std::string& where,
                       std::vector<Warning>* warnings) {
  if (json->size() < 3 || (*json)[0] != 0xEF || (*json)[1] != 0xBB || (*json)[2] != 0xBF) {
    return false;
  }
  *json = json->subspan(3);
  warnings->push_back({where, "a UTF-8 byte-order mark begins the JSON: ignored"});
  return true;
}

}  // namespace sinew::loader
