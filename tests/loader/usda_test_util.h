// Reading .usda text in the loader tests: a layer that must read, or the exact error it must give.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "usd/usda_parser.h"

namespace sinew::loader::usd::testing {

// The layer `text` reads as; fails the test (and returns an empty layer) when it does not read.
inline Layer Read(std::string_view text, const UsdaOptions& options = {}) {
  auto layer = ReadUsda(text, options);
  EXPECT_TRUE(layer.ok()) << layer.error().ToString();
  return layer.ok() ? std::move(layer.value()) : Layer();
}

// `text` is refused with `code` at `where` ("line L, column C"), its message containing
// `message` (when not empty).
inline void ExpectError(std::string_view text, Error code, std::string_view where,
                        std::string_view message = {}, const UsdaOptions& options = {}) {
  auto layer = ReadUsda(text, options);
  ASSERT_FALSE(layer.ok()) << "read without an error:\n" << text;
  EXPECT_EQ(ErrorName(layer.code()), std::string(ErrorName(code))) << layer.error().ToString();
  EXPECT_EQ(layer.error().where, where) << layer.error().ToString();
  if (!message.empty()) {
    EXPECT_NE(layer.error().message.find(message), std::string::npos) << layer.error().ToString();
  }
}

// The header and a newline before `body`.
inline std::string Usda(std::string_view body) { return "#usda 1.0\n" + std::string(body); }

// A layer of one prim whose body is `line`, on the file's line 3 (from column 5).
inline std::string InPrim(std::string_view line) {
  return Usda("def \"A\" {\n    " + std::string(line) + "\n}\n");
}

// The prim at `path`; fails the test (and gives an empty prim) when there is none.
inline const Prim& At(const Layer& layer, std::string_view path) {
  static const Prim kNone;
  const Prim* prim = layer.FindPrim(path);
  EXPECT_NE(prim, nullptr) << path;
  return prim ? *prim : kNone;
}

// The attribute at "/prim/path.name"; fails the test when there is none.
inline const Attribute& Attr(const Layer& layer, std::string_view path) {
  static const Attribute kNone;
  const Attribute* attribute = layer.FindAttribute(path);
  EXPECT_NE(attribute, nullptr) << path;
  return attribute ? *attribute : kNone;
}

// The default value of the attribute at `path`; fails the test when it has none.
inline const Value& Default(const Layer& layer, std::string_view path) {
  static const Value kNone;
  const Attribute& attribute = Attr(layer, path);
  EXPECT_TRUE(attribute.default_value.has_value()) << path;
  return attribute.default_value ? *attribute.default_value : kNone;
}

// The targets of the relationship at "/prim/path.name" (ListOp::Resolved).
inline std::vector<std::string> Targets(const Layer& layer, std::string_view path) {
  const Relationship* relationship = layer.FindRelationship(path);
  EXPECT_NE(relationship, nullptr) << path;
  return relationship ? relationship->targets.Resolved() : std::vector<std::string>{};
}

// `count` elements of `s` from `first` (as many as there are), as a vector to compare.
template <typename T>
std::vector<T> Vec(std::span<const T> s, size_t first = 0, size_t count = SIZE_MAX) {
  s = s.subspan(std::min(first, s.size()));
  return std::vector<T>(s.begin(), s.begin() + std::min(count, s.size()));
}

}  // namespace sinew::loader::usd::testing
