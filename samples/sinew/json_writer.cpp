#include "json_writer.h"

#include <charconv>
#include <cmath>

namespace sinew::tool {
namespace {

// `value` as `format` says; "null" when it is not finite.
template <typename T>
std::string FormatNumber(T value, JsonWriter::Format format) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  switch (format.kind) {
    case JsonWriter::Format::kFixed:
      std::snprintf(text, sizeof(text), "%.*f", format.digits, double(value));
      return text;
    case JsonWriter::Format::kSignificant:
      std::snprintf(text, sizeof(text), "%.*g", format.digits, double(value));
      return text;
    case JsonWriter::Format::kShortest:
      break;
  }
  const std::to_chars_result r = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, r.ptr);
}

}  // namespace

std::string JsonEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out;
}

JsonWriter::JsonWriter(std::string* out, int indent) : string_(out), indent_(indent) {}

JsonWriter::JsonWriter(std::FILE* out, int indent) : file_(out), indent_(indent) {}

void JsonWriter::Raw(std::string_view text) {
  if (string_) {
    string_->append(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), file_);
  }
}

void JsonWriter::NewLine(size_t depth) {
  Raw("\n");
  Raw(std::string(depth * size_t(indent_), ' '));
}

void JsonWriter::Separate(Level& level) {
  if (!level.empty) Raw(",");
  if (indent_ > 0 && !level.inline_layout) {
    NewLine(levels_.size());
  } else if (indent_ > 0 && !level.empty) {
    Raw(" ");
  }
  level.empty = false;
}

bool JsonWriter::BeforeValue() {
  if (failed_ || done_) {
    failed_ = true;
    return false;
  }
  if (levels_.empty()) return true;  // the document itself
  Level& level = levels_.back();
  if (level.object) {
    if (!level.after_key) {
      failed_ = true;
      return false;
    }
    level.after_key = false;  // the Key() wrote the separator
    return true;
  }
  Separate(level);
  return true;
}

void JsonWriter::AfterValue() {
  if (levels_.empty()) {
    done_ = true;
    Raw("\n");
  }
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  if (failed_ || levels_.empty() || !levels_.back().object || levels_.back().after_key) {
    failed_ = true;
    return *this;
  }
  Level& level = levels_.back();
  Separate(level);
  level.after_key = true;
  Raw("\"");
  Raw(JsonEscape(key));
  Raw(indent_ > 0 ? "\": " : "\":");
  return *this;
}

JsonWriter& JsonWriter::Begin(bool object, Layout layout) {
  if (!BeforeValue()) return *this;
  const bool inside_inline = !levels_.empty() && levels_.back().inline_layout;
  levels_.push_back({object, layout == kInline || inside_inline});
  Raw(object ? "{" : "[");
  return *this;
}

JsonWriter& JsonWriter::End(bool object) {
  if (failed_ || levels_.empty() || levels_.back().object != object || levels_.back().after_key) {
    failed_ = true;
    return *this;
  }
  const Level level = levels_.back();
  levels_.pop_back();
  if (indent_ > 0 && !level.inline_layout && !level.empty) NewLine(levels_.size());
  Raw(object ? "}" : "]");
  AfterValue();
  return *this;
}

JsonWriter& JsonWriter::BeginObject(Layout layout) { return Begin(true, layout); }
JsonWriter& JsonWriter::EndObject() { return End(true); }
JsonWriter& JsonWriter::BeginArray(Layout layout) { return Begin(false, layout); }
JsonWriter& JsonWriter::EndArray() { return End(false); }

JsonWriter& JsonWriter::Scalar(std::string_view text) {
  if (BeforeValue()) {
    Raw(text);
    AfterValue();
  }
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) about "literal" + std::string.
  std::string text(1, '"');
  text += JsonEscape(value);
  text += '"';
  return Scalar(text);
}

JsonWriter& JsonWriter::Number(double value, Format format) {
  return Scalar(FormatNumber(value, format));
}

JsonWriter& JsonWriter::Number(float value, Format format) {
  return Scalar(FormatNumber(value, format));
}

JsonWriter& JsonWriter::Int(int64_t value) { return Scalar(std::to_string(value)); }

JsonWriter& JsonWriter::Bool(bool value) { return Scalar(value ? "true" : "false"); }

JsonWriter& JsonWriter::Null() { return Scalar("null"); }

}  // namespace sinew::tool
