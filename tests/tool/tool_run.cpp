#include "tool/tool_run.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sinew::testing {
namespace {

// `s` quoted for sh: in single quotes, each ' as '\''.
std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

ScratchDir::ScratchDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  path_ = std::filesystem::temp_directory_path() /
          ("sinew_" + std::string(info->test_suite_name()) + "_" + info->name());
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

ScratchDir::~ScratchDir() { std::filesystem::remove_all(path_); }

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteText(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), std::streamsize(text.size()));
  EXPECT_TRUE(out.good()) << "cannot write " << path;
}

ToolRun RunSinew(const std::vector<std::string>& args, const std::filesystem::path& dir) {
  const std::filesystem::path err_path = dir / "sinew_stderr.txt";
  // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) about "literal" + std::string.
  std::string command = "cd ";
  command += ShellQuote(dir.string());
  command += " && ";
  command += ShellQuote(SINEW_TOOL_PATH);
  for (const std::string& a : args) {
    command += ' ';
    command += ShellQuote(a);
  }
  command += " 2>";
  command += ShellQuote(err_path.string());
  ToolRun run;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0;) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadText(err_path);
  std::filesystem::remove(err_path);
  return run;
}

void JsonValue::Fail(const char* expected) const {
  std::ostringstream found;
  found << element_;
  std::string text = found.str();
  if (text.size() > 200) text = text.substr(0, 200) + "...";
  throw std::runtime_error("JSON " + (path_.empty() ? std::string("(root)") : path_) + ": " +
                           expected + ", found " + text);
}

JsonValue JsonValue::operator[](std::string_view key) const {
  simdjson::dom::object object;
  if (element_.get_object().get(object) != simdjson::SUCCESS) Fail("not an object");
  simdjson::dom::element member;
  if (object.at_key(key).get(member) != simdjson::SUCCESS) {
    Fail(("no member '" + std::string(key) + "'").c_str());
  }
  return {member, path_.empty() ? std::string(key) : path_ + "/" + std::string(key)};
}

JsonValue JsonValue::operator[](size_t index) const {
  simdjson::dom::array array;
  if (element_.get_array().get(array) != simdjson::SUCCESS) Fail("not an array");
  simdjson::dom::element item;
  if (array.at(index).get(item) != simdjson::SUCCESS) {
    Fail(("no element " + std::to_string(index)).c_str());
  }
  return {item, path_ + "/" + std::to_string(index)};
}

bool JsonValue::Has(std::string_view key) const {
  simdjson::dom::object object;
  simdjson::dom::element member;
  return element_.get_object().get(object) == simdjson::SUCCESS &&
         object.at_key(key).get(member) == simdjson::SUCCESS;
}

size_t JsonValue::size() const {
  simdjson::dom::array array;
  if (element_.get_array().get(array) == simdjson::SUCCESS) return array.size();
  simdjson::dom::object object;
  if (element_.get_object().get(object) == simdjson::SUCCESS) return object.size();
  Fail("not an array or object");
}

std::vector<JsonValue> JsonValue::Elements() const {
  std::vector<JsonValue> elements;
  for (size_t i = 0; i < size(); ++i) elements.push_back((*this)[i]);
  return elements;
}

std::string JsonValue::String() const {
  std::string_view s;
  if (element_.get_string().get(s) != simdjson::SUCCESS) Fail("not a string");
  return std::string(s);
}

double JsonValue::Number() const {
  double d = 0;
  if (element_.get_double().get(d) != simdjson::SUCCESS) Fail("not a number");
  return d;
}

int64_t JsonValue::Int() const {
  int64_t i = 0;
  if (element_.get_int64().get(i) != simdjson::SUCCESS) Fail("not an integer");
  return i;
}

bool JsonValue::Bool() const {
  bool b = false;
  if (element_.get_bool().get(b) != simdjson::SUCCESS) Fail("not true or false");
  return b;
}

bool JsonValue::IsNull() const { return element_.is_null(); }

JsonDocument::JsonDocument(const std::string& text)
    : parser_(std::make_unique<simdjson::dom::parser>()), text_(text) {
  const simdjson::error_code e = parser_->parse(text_).get(root_);
  if (e != simdjson::SUCCESS) error_ = simdjson::error_message(e);
}

JsonValue JsonDocument::root() const {
  if (!error_.empty()) {
    throw std::runtime_error("not JSON (" + error_ + "): " + text_.substr(0, 2000));
  }
  return {root_, ""};
}

}  // namespace sinew::testing
