// The one way the `sinew` tool writes JSON: `--json` reports on stdout, the bake manifest
// (docs/bake.md) and the loader benchmark's synthetic glTF. A streaming writer: values go out in
// order, with commas, indentation and escaping done here, so no caller builds JSON text by hand.
//
//   JsonWriter json(stdout);
//   json.BeginObject();
//   json.Key("device").String(name);
//   json.Key("results").BeginArray();
//   json.BeginObject(JsonWriter::kInline).Key("ms").Number(ms, JsonWriter::Fixed(4)).EndObject();
//   json.EndArray();
//   json.EndObject();  // the document is complete: a newline ends it
//
// gives
//
//   {
//     "device": "llvmpipe",
//     "results": [
//       {"ms": 1.2500}
//     ]
//   }
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace sinew::tool {

// `s` escaped for the inside of a JSON string literal: quotes and backslashes behind a backslash,
// control characters as \u00XX; other bytes (UTF-8 included) as they are.
std::string JsonEscape(std::string_view s);

// How JsonWriter writes a number. The default is the shortest text that reads back as the same
// double (or float, for JsonWriter::Number(float)); JsonWriter::Fixed and Significant make the
// others.
struct JsonNumberFormat {
  enum Kind { kShortest, kFixed, kSignificant } kind = kShortest;
  int digits = 0;
};

class JsonWriter {
 public:
  // How a container lays out its members when the writer indents (indent > 0); with indent 0
  // every container is written on one line without spaces.
  enum Layout {
    kBlock,   // one member per line, indented one step deeper than the container
    kInline,  // on one line: `{"a": 1, "b": 2}`; every container inside it is inline too
  };

  using Format = JsonNumberFormat;
  // printf's "%.Nf": N digits after the point, e.g. Fixed(3) writes 0.5 as 0.500.
  static Format Fixed(int decimals) { return {Format::kFixed, decimals}; }
  // printf's "%.Ng": N significant digits, trailing zeros dropped, e.g. Significant(3) writes
  // 1.25e-7 as 1.25e-07.
  static Format Significant(int digits) { return {Format::kSignificant, digits}; }

  // Appends to `*out`, which must outlive the writer. `indent`: spaces per level (0: one line).
  explicit JsonWriter(std::string* out, int indent = 2);
  // Writes to `out` (e.g. stdout) as it goes; the caller keeps it open and closes it.
  explicit JsonWriter(std::FILE* out, int indent = 2);

  // Containers. Inside an object every value is preceded by Key().
  JsonWriter& BeginObject(Layout layout = kBlock);
  JsonWriter& EndObject();
  JsonWriter& BeginArray(Layout layout = kBlock);
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);

  // Values. A non-finite number (which JSON cannot hold) is written as null.
  JsonWriter& String(std::string_view value);
  JsonWriter& Number(double value, Format format = {});
  JsonWriter& Number(float value, Format format = {});
  JsonWriter& Int(int64_t value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();

  // True once one complete value (the document) has been written and nothing was misused: a
  // value or Key() out of place, an End that does not match its Begin, a second document. A
  // misused writer writes nothing more.
  bool Done() const { return done_ && !failed_; }

 private:
  struct Level {
    bool object = false;
    bool inline_layout = false;
    bool empty = true;
    bool after_key = false;  // objects: Key() written, its value not yet
  };

  // Checks that a value may come here (after a Key() in an object) and writes the separator
  // before it. False when it may not (the writer is then failed).
  bool BeforeValue();
  // Writes the comma, line break and indentation (or space) before a member of `level`.
  void Separate(Level& level);
  // A number, string, true, false or null, already as JSON text.
  JsonWriter& Scalar(std::string_view text);
  JsonWriter& Begin(bool object, Layout layout);
  JsonWriter& End(bool object);
  void AfterValue();
  void Raw(std::string_view text);
  void NewLine(size_t depth);

  std::string* string_ = nullptr;
  std::FILE* file_ = nullptr;
  int indent_ = 2;
  std::vector<Level> levels_;
  bool done_ = false;
  bool failed_ = false;
};

}  // namespace sinew::tool
