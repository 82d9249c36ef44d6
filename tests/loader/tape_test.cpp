// The tape reader (common/tape.h) against simdjson's own DOM API: both walk the same documents and
// must agree on every value, and each getter accepts exactly what simdjson's accepts. This also
// guards against a simdjson whose tape layout differs from the one tape.h reads.
#include "common/tape.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "test_assets.h"

namespace sinew::loader {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// Compares `tape` with `dom` and everything below it; counts the values compared.
void ExpectSame(element dom, TapeValue tape, const std::string& where, size_t* values) {
  ++*values;
  // Every getter: same success, same value.
  int64_t i_dom = 0, i_tape = 0;
  const bool i_ok = dom.get_int64().get(i_dom) == simdjson::SUCCESS;
  ASSERT_EQ(tape.GetInt64(&i_tape), i_ok) << where;
  if (i_ok) {
    EXPECT_EQ(i_tape, i_dom) << where;
  }
  uint64_t u_dom = 0, u_tape = 0;
  const bool u_ok = dom.get_uint64().get(u_dom) == simdjson::SUCCESS;
  ASSERT_EQ(tape.GetUint64(&u_tape), u_ok) << where;
  if (u_ok) {
    EXPECT_EQ(u_tape, u_dom) << where;
  }
  double d_dom = 0, d_tape = 0;
  const bool d_ok = dom.get_double().get(d_dom) == simdjson::SUCCESS;
  ASSERT_EQ(tape.GetDouble(&d_tape), d_ok) << where;
  if (d_ok) {
    EXPECT_EQ(d_tape, d_dom) << where;
  }
  bool b_dom = false, b_tape = false;
  const bool b_ok = dom.get_bool().get(b_dom) == simdjson::SUCCESS;
  ASSERT_EQ(tape.GetBool(&b_tape), b_ok) << where;
  if (b_ok) {
    EXPECT_EQ(b_tape, b_dom) << where;
  }
  std::string_view s_dom, s_tape;
  const bool s_ok = dom.get_string().get(s_dom) == simdjson::SUCCESS;
  ASSERT_EQ(tape.GetString(&s_tape), s_ok) << where;
  if (s_ok) {
    EXPECT_EQ(s_tape, s_dom) << where;
  }

  simdjson::dom::object o_dom;
  TapeObject o_tape;
  const bool o_ok = dom.get_object().get(o_dom) == simdjson::SUCCESS;
  ASSERT_EQ(GetObject(tape, &o_tape), o_ok) << where;
  if (o_ok) {
    auto it = o_tape.begin();
    size_t k = 0;
    for (auto field : o_dom) {
      ASSERT_TRUE(it != o_tape.end()) << where << ": fewer fields on the tape";
      const TapeKeyValue f = *it;
      EXPECT_EQ(f.key, field.key) << where << " field " << k;
      ExpectSame(field.value, f.value, where + "/" + std::string(field.key), values);
      ++it;
      ++k;
    }
    EXPECT_FALSE(it != o_tape.end()) << where << ": more fields on the tape";
  }
  simdjson::dom::array a_dom;
  TapeArray a_tape;
  const bool a_ok = dom.get_array().get(a_dom) == simdjson::SUCCESS;
  ASSERT_EQ(GetArray(tape, &a_tape), a_ok) << where;
  if (a_ok) {
    EXPECT_EQ(a_tape.size(), a_dom.size()) << where;
    auto it = a_tape.begin();
    size_t k = 0;
    for (element entry : a_dom) {
      ASSERT_TRUE(it != a_tape.end()) << where << ": fewer entries on the tape";
      ExpectSame(entry, *it, where + "/" + std::to_string(k), values);
      ++it;
      ++k;
    }
    EXPECT_FALSE(it != a_tape.end()) << where << ": more entries on the tape";
  }
  // Exactly one of the kinds, as simdjson's type() says.
  const element_type type = dom.type();
  EXPECT_EQ(o_ok, type == element_type::OBJECT) << where;
  EXPECT_EQ(a_ok, type == element_type::ARRAY) << where;
  EXPECT_EQ(s_ok, type == element_type::STRING) << where;
  EXPECT_EQ(b_ok, type == element_type::BOOL) << where;
  EXPECT_EQ(tape.type() == 'n', type == element_type::NULL_VALUE) << where;
}

size_t CompareDocument(std::string_view json) {
  simdjson::dom::parser parser;
  element root;
  EXPECT_EQ(parser.parse(json.data(), json.size()).get(root), simdjson::SUCCESS) << json;
  size_t values = 0;
  ExpectSame(root, TapeValue::Root(parser), "", &values);
  return values;
}

TEST(Tape, ReadsEveryKindOfValueAsSimdjsonDoes) {
  const size_t values = CompareDocument(R"({
    "small": 5, "negative": -7, "zero": 0, "min": -9223372036854775808,
    "int64_max": 9223372036854775807, "uint64": 9223372036854775808,
    "uint64_max": 18446744073709551615, "double": 1.5, "exp": -2e-300, "whole double": 3.0,
    "true": true, "false": false, "null": null,
    "string": "text", "empty": "", "escaped": "a\"b\\c\u0000d\u00e9",
    "object": {"nested": {"deeper": [1, {"x": []}]}}, "empty object": {}, "empty array": [],
    "array": [1, -1, 2.5, "s", true, false, null, [], {}, [[[]]]],
    "duplicate": 1, "duplicate": 2
  })");
  // The root, its 22 fields, and 17 values nested in "object" and "array".
  EXPECT_EQ(values, 40u);
}

TEST(Tape, ReadsARootThatIsNotAnObject) {
  EXPECT_EQ(CompareDocument("[1, 2, 3]"), 4u);
  EXPECT_EQ(CompareDocument("42"), 1u);
  EXPECT_EQ(CompareDocument(R"("alone")"), 1u);
}

TEST(Tape, CountsAnArrayOfManyEntriesAsSimdjsonDoes) {
  std::string json = "[";
  for (int i = 0; i < 70000; ++i) json += i ? ",1" : "1";
  json += "]";
  EXPECT_EQ(CompareDocument(json), 70001u);
}

// The tape stores a count up to 0xFFFFFF (simdjson's array::size() stops there); TapeArray::size()
// counts a larger array, so that the loader never sizes its output short of what it iterates.
TEST(Tape, CountsAnArrayPastWhatTheTapeHolds) {
  const size_t entries = (size_t{1} << 24) + 2;
  std::string json = "[";
  json.reserve(2 * entries + 2);
  for (size_t i = 0; i < entries; ++i) json += i ? ",0" : "0";
  json += "]";
  simdjson::dom::parser parser;
  element root;
  ASSERT_EQ(parser.parse(json.data(), json.size()).get(root), simdjson::SUCCESS);
  TapeArray array;
  ASSERT_TRUE(GetArray(TapeValue::Root(parser), &array));
  EXPECT_EQ(simdjson::dom::array(root).size(), size_t{0xFFFFFF});
  EXPECT_EQ(array.size(), entries);
}

// Every shared glTF asset's JSON (the .gltf files; a .glb's JSON chunk is read by the loader
// tests), value by value.
TEST(Tape, ReadsEverySharedGltfDocumentAsSimdjsonDoes) {
  size_t files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(sinew::testing::TestAssets())) {
    if (entry.path().extension() != ".gltf") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(entry.path().string());
    EXPECT_GT(CompareDocument(json), 10u);
    ++files;
  }
  EXPECT_GE(files, 5u);
}

}  // namespace
}  // namespace sinew::loader
