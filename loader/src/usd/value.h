// Typed values of a .usda layer (docs/usda.md, "The model"): USD's value types, and a value held as
// the numbers or strings its type stores, typed when it is read. A scalar is an array of one
// element; an element is `components` numbers (3 for a float3, 16 for a matrix4d).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sinew::loader::usd {

// The numbers or strings one component of a type is.
enum class Scalar : uint8_t {
  kBool,        // true / false / 1 / 0, stored as int32 1 / 0
  kUChar,       // 0..255, stored as int32
  kInt,         // int32
  kUInt,        // 0..4294967295, stored as int64
  kInt64,       // int64
  kUInt64,      // 0..9223372036854775807 (larger values are refused), stored as int64
  kHalf,        // rounded to the nearest half, stored as float
  kFloat,       // float
  kDouble,      // double
  kString,      // "..." (escapes decoded)
  kToken,       // "..." (escapes decoded)
  kAsset,       // @...@: the path between the @s
  kPath,        // <...>: a path literal in metadata, made absolute
  kDictionary,  // { type name = value ... } in metadata
};

// How a value keeps its elements.
enum class Storage : uint8_t { kInt32, kInt64, kFloat, kDouble, kString, kDictionary };

Storage StorageOf(Scalar scalar) noexcept;

// Every value type the reader knows: USD's attribute value types, plus path and dictionary for
// metadata. Roles (point, normal, color, ...) are kept as their own types: the UsdSkel layer reads
// them as their storage and a writer can give them back.
enum class ValueType : uint8_t {
  kBool,
  kUChar,
  kInt,
  kUInt,
  kInt64,
  kUInt64,
  kHalf,
  kFloat,
  kDouble,
  kTimeCode,
  kString,
  kToken,
  kAsset,
  kInt2,
  kInt3,
  kInt4,
  kHalf2,
  kHalf3,
  kHalf4,
  kFloat2,
  kFloat3,
  kFloat4,
  kDouble2,
  kDouble3,
  kDouble4,
  kPoint3h,
  kPoint3f,
  kPoint3d,
  kNormal3h,
  kNormal3f,
  kNormal3d,
  kVector3h,
  kVector3f,
  kVector3d,
  kColor3h,
  kColor3f,
  kColor3d,
  kColor4h,
  kColor4f,
  kColor4d,
  kTexCoord2h,
  kTexCoord2f,
  kTexCoord2d,
  kTexCoord3h,
  kTexCoord3f,
  kTexCoord3d,
  kQuath,  // (real, i, j, k) as written
  kQuatf,
  kQuatd,
  kMatrix2d,  // row-major as written: ((row 0), (row 1))
  kMatrix3d,
  kMatrix4d,
  kFrame4d,
  kPath,        // metadata only
  kDictionary,  // metadata only
};

// What a type is made of.
struct ValueTypeInfo {
  std::string_view name;  // as .usda writes it: "float3", "matrix4d"
  Scalar scalar;
  uint8_t components;  // numbers per element (1 for scalars and strings)
  uint8_t rows;        // matrices: written as `rows` tuples of components / rows; 0 otherwise
};

const ValueTypeInfo& Info(ValueType type) noexcept;

// The type a .usda type name names (without "[]"); nullopt for a name the reader does not know.
// "path" and "dictionary" are found too (dictionary entries may use them).
std::optional<ValueType> FindValueType(std::string_view name) noexcept;

// `value` rounded to the nearest half-precision number (ties to even), as a float. Beyond the
// largest half (65504) it is an infinity of the same sign, as converting to half gives.
float RoundToHalf(float value) noexcept;

// A half-precision number's 16 bits (IEEE 754 binary16) as the float it is, and back (rounded as
// RoundToHalf rounds). Binary USD files store halves as these bits.
float HalfToFloat(uint16_t bits) noexcept;
uint16_t FloatToHalf(float value) noexcept;

struct DictionaryEntry;
// A metadata dictionary's entries, in file order.
using Dictionary = std::vector<DictionaryEntry>;

// One value: an attribute's default or time sample, or a metadata value. Its numbers are stored
// as its type's storage (Storage): read them with ints() / int64s() / floats() / doubles() /
// strings(), which are empty for any other storage.
struct Value {
  // The declared type; for untyped metadata, what the text shows: numbers kDouble, strings
  // kString, bare words kToken (true / false: kBool), paths kPath, assets kAsset.
  ValueType type = ValueType::kToken;
  bool array = false;       // Declared (or written, in metadata) as an array: `[...]`.
  bool blocked = false;     // `None`: no value (the data is empty).
  uint16_t components = 1;  // Numbers (or strings) per element; Info(type).components when typed.
  std::variant<std::vector<int32_t>, std::vector<int64_t>, std::vector<float>, std::vector<double>,
               std::vector<std::string>, Dictionary>
      data;

  // Elements: numbers (or strings) / components; a dictionary's entries.
  size_t size() const noexcept;
  std::span<const int32_t> ints() const noexcept;
  std::span<const int64_t> int64s() const noexcept;
  std::span<const float> floats() const noexcept;
  std::span<const double> doubles() const noexcept;
  std::span<const std::string> strings() const noexcept;
  const Dictionary* dictionary() const noexcept;  // null unless a dictionary

  // A single number of any numeric storage (one element of one component), as double.
  std::optional<double> AsDouble() const noexcept;
  // A single string (token, string, asset, path); empty otherwise.
  std::string_view AsString() const noexcept;
};

struct DictionaryEntry {
  std::string key;
  Value value;
};

// Whether a and b are the same value: type, shape and every number (or string), bit for bit.
// Dictionaries (metadata only) never are.
bool SameValue(const Value& a, const Value& b) noexcept;

// The entry of `dictionary` named `key`; null when there is none.
const Value* Find(const Dictionary& dictionary, std::string_view key) noexcept;

}  // namespace sinew::loader::usd
