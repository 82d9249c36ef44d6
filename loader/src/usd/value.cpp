#include "usd/value.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace sinew::loader::usd {
namespace {

using S = Scalar;

// Indexed by ValueType: its name, scalar, numbers per element and matrix rows.
constexpr std::array<ValueTypeInfo, size_t(ValueType::kDictionary) + 1> kTypes = {{
    {"bool", S::kBool, 1, 0},
    {"uchar", S::kUChar, 1, 0},
    {"int", S::kInt, 1, 0},
    {"uint", S::kUInt, 1, 0},
    {"int64", S::kInt64, 1, 0},
    {"uint64", S::kUInt64, 1, 0},
    {"half", S::kHalf, 1, 0},
    {"float", S::kFloat, 1, 0},
    {"double", S::kDouble, 1, 0},
    {"timecode", S::kDouble, 1, 0},
    {"string", S::kString, 1, 0},
    {"token", S::kToken, 1, 0},
    {"asset", S::kAsset, 1, 0},
    {"int2", S::kInt, 2, 0},
    {"int3", S::kInt, 3, 0},
    {"int4", S::kInt, 4, 0},
    {"half2", S::kHalf, 2, 0},
    {"half3", S::kHalf, 3, 0},
    {"half4", S::kHalf, 4, 0},
    {"float2", S::kFloat, 2, 0},
    {"float3", S::kFloat, 3, 0},
    {"float4", S::kFloat, 4, 0},
    {"double2", S::kDouble, 2, 0},
    {"double3", S::kDouble, 3, 0},
    {"double4", S::kDouble, 4, 0},
    {"point3h", S::kHalf, 3, 0},
    {"point3f", S::kFloat, 3, 0},
    {"point3d", S::kDouble, 3, 0},
    {"normal3h", S::kHalf, 3, 0},
    {"normal3f", S::kFloat, 3, 0},
    {"normal3d", S::kDouble, 3, 0},
    {"vector3h", S::kHalf, 3, 0},
    {"vector3f", S::kFloat, 3, 0},
    {"vector3d", S::kDouble, 3, 0},
    {"color3h", S::kHalf, 3, 0},
    {"color3f", S::kFloat, 3, 0},
    {"color3d", S::kDouble, 3, 0},
    {"color4h", S::kHalf, 4, 0},
    {"color4f", S::kFloat, 4, 0},
    {"color4d", S::kDouble, 4, 0},
    {"texCoord2h", S::kHalf, 2, 0},
    {"texCoord2f", S::kFloat, 2, 0},
    {"texCoord2d", S::kDouble, 2, 0},
    {"texCoord3h", S::kHalf, 3, 0},
    {"texCoord3f", S::kFloat, 3, 0},
    {"texCoord3d", S::kDouble, 3, 0},
    {"quath", S::kHalf, 4, 0},
    {"quatf", S::kFloat, 4, 0},
    {"quatd", S::kDouble, 4, 0},
    {"matrix2d", S::kDouble, 4, 2},
    {"matrix3d", S::kDouble, 9, 3},
    {"matrix4d", S::kDouble, 16, 4},
    {"frame4d", S::kDouble, 16, 4},
    {"path", S::kPath, 1, 0},
    {"dictionary", S::kDictionary, 1, 0},
}};

template <typename T>
std::span<const T> Span(const Value& value) noexcept {
  const auto* v = std::get_if<std::vector<T>>(&value.data);
  return v ? std::span<const T>(*v) : std::span<const T>();
}

}  // namespace

Storage StorageOf(Scalar scalar) noexcept {
  switch (scalar) {
    case Scalar::kBool:
    case Scalar::kUChar:
    case Scalar::kInt:
      return Storage::kInt32;
    case Scalar::kUInt:
    case Scalar::kInt64:
    case Scalar::kUInt64:
      return Storage::kInt64;
    case Scalar::kHalf:
    case Scalar::kFloat:
      return Storage::kFloat;
    case Scalar::kDouble:
      return Storage::kDouble;
    case Scalar::kString:
    case Scalar::kToken:
    case Scalar::kAsset:
    case Scalar::kPath:
      return Storage::kString;
    case Scalar::kDictionary:
      return Storage::kDictionary;
  }
  return Storage::kString;
}

const ValueTypeInfo& Info(ValueType type) noexcept {
  const size_t i = size_t(type);
  return kTypes[i < kTypes.size() ? i : size_t(ValueType::kToken)];
}

std::optional<ValueType> FindValueType(std::string_view name) noexcept {
  // A linear search of 55 short names: a few hundred byte compares per attribute declaration,
  // nothing beside the values that follow it.
  for (size_t i = 0; i < kTypes.size(); ++i) {
    if (kTypes[i].name == name) return ValueType(i);
  }
  return std::nullopt;
}

float RoundToHalf(float value) noexcept {
  if (!std::isfinite(value)) return value;
  const float magnitude = std::fabs(value);
  // Halves have 11 significant bits above 2^-14 and a fixed step of 2^-24 below it.
  constexpr float kMaxHalf = 65504.0f;
  constexpr float kMinNormal = 6.103515625e-05f;  // 2^-14
  float rounded;
  if (magnitude < kMinNormal) {
    rounded = std::nearbyint(magnitude * 16777216.0f) / 16777216.0f;  // multiples of 2^-24
  } else {
    // Drop the 13 low mantissa bits of the float, rounding to nearest, ties to even.
    uint32_t bits = std::bit_cast<uint32_t>(magnitude);
    const uint32_t lower = bits & 0x1fffu;
    bits &= ~0x1fffu;
    if (lower > 0x1000u || (lower == 0x1000u && (bits & 0x2000u))) bits += 0x2000u;
    rounded = std::bit_cast<float>(bits);
  }
  // Above the largest half, values that do not round down to it overflow to infinity (the
  // midpoint 65520 rounds to even: infinity).
  if (rounded > kMaxHalf) rounded = INFINITY;
  return std::signbit(value) ? -rounded : rounded;
}

float HalfToFloat(uint16_t bits) noexcept {
  const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  float magnitude;
  if (exponent == 0) {
    magnitude = float(mantissa) / 16777216.0f;  // subnormal: mantissa × 2^-24
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::bit_cast<float>(((exponent + 112u) << 23) | (mantissa << 13));
  }
  return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
}

uint16_t FloatToHalf(float value) noexcept {
  const uint16_t sign = std::signbit(value) ? 0x8000u : 0u;
  if (std::isnan(value)) return uint16_t(sign | 0x7e00u);
  const float magnitude = std::fabs(RoundToHalf(value));
  if (std::isinf(magnitude)) return uint16_t(sign | 0x7c00u);
  if (magnitude < 6.103515625e-05f) return uint16_t(sign | uint16_t(magnitude * 16777216.0f));
  const uint32_t bits = std::bit_cast<uint32_t>(magnitude);
  return uint16_t(sign | ((((bits >> 23) & 0xffu) - 112u) << 10) | ((bits >> 13) & 0x3ffu));
}

size_t Value::size() const noexcept {
  const size_t per = components ? components : 1;
  return std::visit(
      [per](const auto& v) -> size_t {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, Dictionary>) {
          return v.size();
        } else {
          return v.size() / per;
        }
      },
      data);
}

std::span<const int32_t> Value::ints() const noexcept { return Span<int32_t>(*this); }
std::span<const int64_t> Value::int64s() const noexcept { return Span<int64_t>(*this); }
std::span<const float> Value::floats() const noexcept { return Span<float>(*this); }
std::span<const double> Value::doubles() const noexcept { return Span<double>(*this); }
std::span<const std::string> Value::strings() const noexcept { return Span<std::string>(*this); }
const Dictionary* Value::dictionary() const noexcept { return std::get_if<Dictionary>(&data); }

std::optional<double> Value::AsDouble() const noexcept {
  if (blocked || components != 1) return std::nullopt;
  if (auto v = ints(); v.size() == 1) return double(v[0]);
  if (auto v = int64s(); v.size() == 1) return double(v[0]);
  if (auto v = floats(); v.size() == 1) return double(v[0]);
  if (auto v = doubles(); v.size() == 1) return v[0];
  return std::nullopt;
}

std::string_view Value::AsString() const noexcept {
  const auto v = strings();
  return v.size() == 1 && components == 1 ? std::string_view(v[0]) : std::string_view();
}

const Value* Find(const Dictionary& dictionary, std::string_view key) noexcept {
  for (const DictionaryEntry& entry : dictionary) {
    if (entry.key == key) return &entry.value;
  }
  return nullptr;
}

bool SameValue(const Value& a, const Value& b) noexcept {
  if (a.type != b.type || a.array != b.array || a.blocked != b.blocked ||
      a.components != b.components || a.data.index() != b.data.index() ||
      a.dictionary() != nullptr) {
    return false;
  }
  const auto same_bits = [](auto x, auto y) {
    return x.size() == y.size() &&
           (x.empty() || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
  };
  return same_bits(a.ints(), b.ints()) && same_bits(a.int64s(), b.int64s()) &&
         same_bits(a.floats(), b.floats()) && same_bits(a.doubles(), b.doubles()) &&
         std::ranges::equal(a.strings(), b.strings());
}

}  // namespace sinew::loader::usd
