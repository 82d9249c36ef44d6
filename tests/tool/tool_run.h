// Running the built `sinew` tool from a test and reading what it prints: its exit code, its
// stdout and stderr, and stdout parsed as JSON (`--json`) with paths in every failure message.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sinew::testing {

// A scratch directory per test (under the system's temporary directory, named after the test),
// empty at the start and removed at the end.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // path()/name as a string.
  std::string Prefix(const char* name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// What one run of the tool gave.
struct ToolRun {
  int exit_code = -1;  // -1 when it did not exit normally
  std::string out, err;
};

// Runs the built `sinew` (SINEW_TOOL_PATH) with `args` in `dir`, and waits for it.
ToolRun RunSinew(const std::vector<std::string>& args, const std::filesystem::path& dir);

// The contents of a file ("" when it cannot be read).
std::string ReadText(const std::filesystem::path& path);
// Writes `text` as the file's whole contents (a test failure when it cannot).
void WriteText(const std::filesystem::path& path, std::string_view text);

// A JSON value in a parsed document, with the path that led to it ("results/3/layout"). Reading a
// member that is absent, or a value of another type, throws std::runtime_error naming the path
// and what was found, which fails the test with that message.
class JsonValue {
 public:
  JsonValue(simdjson::dom::element element, std::string path)
      : element_(element), path_(std::move(path)) {}
  JsonValue operator[](std::string_view key) const;
  JsonValue operator[](size_t index) const;
  bool Has(std::string_view key) const;
  size_t size() const;  // an array's elements or an object's members
  std::vector<JsonValue> Elements() const;
  std::string String() const;
  double Number() const;  // any JSON number
  int64_t Int() const;
  bool Bool() const;
  bool IsNull() const;
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void Fail(const char* expected) const;

  simdjson::dom::element element_;
  std::string path_;
};

// A JSON document parsed from `text` (the parser stays with it, so its values do too).
class JsonDocument {
 public:
  explicit JsonDocument(const std::string& text);
  // The root value; throws std::runtime_error (with the text) when the text is not JSON.
  JsonValue root() const;

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
  simdjson::dom::element root_;
  std::string error_;  // "" when parsed
  std::string text_;
};

}  // namespace sinew::testing
