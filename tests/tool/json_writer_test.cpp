// The tool's JSON writer (samples/sinew/json_writer.h): layout, commas, escaping, numbers, and
// misuse caught rather than written.
#include "json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "tool/tool_run.h"

namespace sinew::tool {
namespace {

TEST(JsonWriter, IndentsBlocksAndKeepsInlineContainersOnOneLine) {
  std::string out;
  JsonWriter json(&out);
  json.BeginObject();
  json.Key("name").String("crowd");
  json.Key("empty").BeginArray().EndArray();
  json.Key("rows").BeginArray();
  json.BeginObject(JsonWriter::kInline).Key("a").Int(1).Key("b").BeginArray().Int(2).Int(3);
  json.EndArray().EndObject();
  json.BeginObject(JsonWriter::kInline).EndObject();
  json.EndArray();
  json.Key("none").Null();
  json.EndObject();
  EXPECT_TRUE(json.Done());
  EXPECT_EQ(out,
            "{\n"
            "  \"name\": \"crowd\",\n"
            "  \"empty\": [],\n"
            "  \"rows\": [\n"
            "    {\"a\": 1, \"b\": [2, 3]},\n"
            "    {}\n"
            "  ],\n"
            "  \"none\": null\n"
            "}\n");
}

TEST(JsonWriter, IndentZeroWritesOneLineWithoutSpaces) {
  std::string out;
  JsonWriter json(&out, 0);
  json.BeginObject().Key("a").BeginArray().Bool(true).Bool(false).EndArray();
  json.Key("b").BeginObject().Key("c").Int(-7).EndObject().EndObject();
  EXPECT_TRUE(json.Done());
  EXPECT_EQ(out, "{\"a\":[true,false],\"b\":{\"c\":-7}}\n");
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControlCharactersInStringsAndKeys) {
  std::string out;
  JsonWriter json(&out, 0);
  json.BeginObject().Key("k\"ey").String("a\\b\"c\n\x01\xc3\xa9").EndObject();
  EXPECT_EQ(out, "{\"k\\\"ey\":\"a\\\\b\\\"c\\u000a\\u0001\xc3\xa9\"}\n");
  EXPECT_EQ(JsonEscape("tab\there"), "tab\\u0009here");
}

TEST(JsonWriter, WritesNumbersShortestFixedOrSignificantAndNonFiniteAsNull) {
  std::string out;
  JsonWriter json(&out, 0);
  json.BeginArray();
  json.Number(0.1).Number(0.7f).Number(1.25);
  json.Number(0.5, JsonWriter::Fixed(3)).Number(1.25e-7, JsonWriter::Significant(3));
  json.Number(2.0, JsonWriter::Significant(3)).Number(INFINITY).Number(std::nan(""));
  json.Number(-INFINITY, JsonWriter::Fixed(2)).Int(int64_t(1) << 40);
  json.EndArray();
  EXPECT_EQ(out, "[0.1,0.7,1.25,0.500,1.25e-07,2,null,null,null,1099511627776]\n");
}

TEST(JsonWriter, ATopLevelScalarIsADocument) {
  std::string out;
  JsonWriter json(&out);
  json.String("alone");
  EXPECT_TRUE(json.Done());
  EXPECT_EQ(out, "\"alone\"\n");
}

TEST(JsonWriter, MisuseFailsTheWriterAndStopsIt) {
  {
    std::string out;
    JsonWriter json(&out);
    json.BeginObject().Int(1);  // a value without a key
    json.Key("a").Int(2).EndObject();
    EXPECT_FALSE(json.Done());
    EXPECT_EQ(out, "{");
  }
  {
    std::string out;
    JsonWriter json(&out);
    json.BeginArray().Key("a");  // a key in an array
    EXPECT_FALSE(json.Done());
  }
  {
    std::string out;
    JsonWriter json(&out);
    json.BeginObject().EndArray();  // mismatched end
    EXPECT_FALSE(json.Done());
  }
  {
    std::string out;
    JsonWriter json(&out);
    json.BeginObject().Key("a").EndObject();  // a key without its value
    EXPECT_FALSE(json.Done());
  }
  {
    std::string out;
    JsonWriter json(&out);
    json.Int(1).Int(2);  // a second document
    EXPECT_FALSE(json.Done());
    EXPECT_EQ(out, "1\n");
  }
  {
    std::string out;
    JsonWriter json(&out);
    json.BeginObject();  // never closed
    EXPECT_FALSE(json.Done());
  }
}

TEST(JsonWriter, WritesToAFileAsItGoes) {
  testing::ScratchDir dir;
  const std::string path = dir.Prefix("out.json");
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  JsonWriter json(f);
  json.BeginArray(JsonWriter::kInline).String("x").Number(1.5).EndArray();
  EXPECT_TRUE(json.Done());
  ASSERT_EQ(std::fclose(f), 0);
  EXPECT_EQ(testing::ReadText(path), "[\"x\", 1.5]\n");
}

// What the writer writes parses back to the same values.
TEST(JsonWriter, ItsTextParsesBackToTheValuesWritten) {
  std::string out;
  JsonWriter json(&out);
  json.BeginObject();
  json.Key("s").String("q\"\\\x1f");
  json.Key("n").Number(0.1);
  json.Key("f").Number(3.0f / 7.0f);
  json.Key("list").BeginArray(JsonWriter::kInline).Int(-1).Null().Bool(true).EndArray();
  json.EndObject();
  const testing::JsonDocument doc(out);
  EXPECT_EQ(doc.root()["s"].String(), "q\"\\\x1f");
  EXPECT_EQ(doc.root()["n"].Number(), 0.1);
  EXPECT_EQ(float(doc.root()["f"].Number()), 3.0f / 7.0f);
  EXPECT_EQ(doc.root()["list"][0].Int(), -1);
  EXPECT_TRUE(doc.root()["list"][1].IsNull());
  EXPECT_TRUE(doc.root()["list"][2].Bool());
}

}  // namespace
}  // namespace sinew::tool
