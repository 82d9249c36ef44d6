// Accessor components as glTF 2.0 and G4MF both store them: little-endian numbers of one kind
// (float, signed or unsigned integer) and size, tightly packed or at a stride, read into float or
// uint32 by one decoder. Each format maps its own names onto NumericType (glTF's componentType
// enums: gltf/accessor.h; G4MF's "float32", "uint16", ...: g4mf/accessor.h) and keeps its own rules
// (glTF's normalization, matrix padding and sparse substitution; G4MF's 64-bit range checks).
//
// Host requirement: little-endian (both formats' data is little-endian and is read with memcpy).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>

namespace sinew::loader {

static_assert(std::endian::native == std::endian::little,
              "the accessor decoders assume a little-endian host");

enum class ComponentKind : uint8_t { kFloat, kSigned, kUnsigned };

// A component's numeric type, whichever format named it.
struct NumericType {
  ComponentKind kind = ComponentKind::kFloat;
  uint32_t bytes = 4;  // 1, 2, 4 or 8 (a float: 2, 4 or 8); 0 for no type.
};

// IEEE 754 binary16 (G4MF's float16), as stored.
struct Half {
  uint16_t bits;
};

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const uint32_t exponent = (h >> 10) & 0x1F;
  const uint32_t mantissa = h & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(float(mantissa), -24);  // subnormal (or zero)
  } else if (exponent == 31) {
    magnitude =
        mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    magnitude = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  }
  uint32_t bits;
  std::memcpy(&bits, &magnitude, 4);
  bits |= sign;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

// The component at p (any alignment).
template <typename T>
inline T LoadComponent(const uint8_t* p) noexcept {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

namespace detail {
// Calls f.template operator()<T>() with T the type of `bytes` bytes among T1, T2, T4 and T8 (void:
// none of that size).
template <typename T1, typename T2, typename T4, typename T8, class F>
void VisitBySize(uint32_t bytes, F& f) {
  const auto visit = [&f]<typename T>() {
    if constexpr (!std::is_void_v<T>) f.template operator()<T>();
  };
  switch (bytes) {
    case 1:
      return visit.template operator()<T1>();
    case 2:
      return visit.template operator()<T2>();
    case 4:
      return visit.template operator()<T4>();
    case 8:
      return visit.template operator()<T8>();
  }
}
}  // namespace detail

// Calls f.template operator()<T>() with T the C++ type of `type`'s components (Half for a 2-byte
// float); nothing for a type that is none of them. One switch per accessor, never per element.
template <class F>
void VisitNumericType(NumericType type, F&& f) {
  switch (type.kind) {
    case ComponentKind::kFloat:
      return detail::VisitBySize<void, Half, float, double>(type.bytes, f);
    case ComponentKind::kSigned:
      return detail::VisitBySize<int8_t, int16_t, int32_t, int64_t>(type.bytes, f);
    case ComponentKind::kUnsigned:
      return detail::VisitBySize<uint8_t, uint16_t, uint32_t, uint64_t>(type.bytes, f);
  }
}

// Component conversions, chosen at compile time.
struct Cast {
  // By value: integers as they are (UNSIGNED_INT above 2^24 rounds; 64-bit integers go through
  // double, exact to 2^53), halves widened.
  template <typename Dst, typename Src>
  static Dst Apply(Src value) noexcept {
    if constexpr (std::is_same_v<Src, Half>) {
      return static_cast<Dst>(HalfToFloat(value.bits));
    } else if constexpr (std::is_integral_v<Src> && sizeof(Src) == 8) {
      return static_cast<Dst>(static_cast<double>(value));
    } else {
      return static_cast<Dst>(value);
    }
  }
};

struct Normalize {
  // glTF's formulas (glTF 2.0 Specification, Animations, normalized integers): unsigned
  // c / (2^n - 1), signed max(c / (2^(n-1) - 1), -1). A true division (not a multiply by the
  // reciprocal) keeps 255 -> 1.0 and friends exact.
  template <typename Dst, typename Src>
  static Dst Apply(Src value) noexcept {
    static_assert(std::is_integral_v<Src> && sizeof(Src) <= 2 && std::is_same_v<Dst, float>);
    constexpr float kMax = static_cast<float>(std::numeric_limits<Src>::max());
    if constexpr (std::is_signed_v<Src>) {
      return std::max(static_cast<float>(value) / kMax, -1.0f);
    } else {
      return static_cast<float>(value) / kMax;
    }
  }
};

// Bytes from the start of one matrix column to the next: columns start on 4-byte boundaries (glTF
// 2.0 Specification, Data Alignment). A vector is one column, unpadded.
constexpr uint32_t ColumnStride(uint32_t component_size, uint32_t rows, bool matrix) noexcept {
  return matrix ? (rows * component_size + 3u) & ~3u : rows * component_size;
}

// Layout of one element of kCols columns of kRows components, everything known at compile time.
template <typename Src, uint32_t kRows, uint32_t kCols>
struct Layout {
  static constexpr size_t kComponents = size_t{kRows} * kCols;
  static constexpr size_t kColumnStride = ColumnStride(sizeof(Src), kRows, /*matrix=*/kCols > 1);
  static constexpr size_t kElementSize = kColumnStride * kCols;
  static constexpr bool kUnpadded = kColumnStride == kRows * sizeof(Src);
};

// One element at src into out[0 .. kComponents), column by column without padding.
template <typename Src, uint32_t kRows, uint32_t kCols, class Conv, typename Dst>
inline void DecodeElement(const uint8_t* src, Dst* out) noexcept {
  using L = Layout<Src, kRows, kCols>;
  if constexpr (std::is_same_v<Src, Dst> && std::is_same_v<Conv, Cast> && L::kUnpadded) {
    std::memcpy(out, src, L::kComponents * sizeof(Src));
  } else {
    for (size_t c = 0; c < kCols; ++c) {
      for (size_t r = 0; r < kRows; ++r) {
        out[c * kRows + r] = Conv::template Apply<Dst>(
            LoadComponent<Src>(src + c * L::kColumnStride + r * sizeof(Src)));
      }
    }
  }
}

// `count` elements from src, one every `stride` bytes, into out. kFixedStride != 0: the stride is
// that constant (lets the compiler vectorize packed data; packed data of the output's own type is
// one copy). count >= 1.
template <typename Src, uint32_t kRows, uint32_t kCols, class Conv, size_t kFixedStride,
          typename Dst>
void DecodeDense(const uint8_t* src, size_t stride, size_t count, Dst* out) noexcept {
  using L = Layout<Src, kRows, kCols>;
  if constexpr (std::is_same_v<Src, Dst> && std::is_same_v<Conv, Cast> && L::kUnpadded &&
                kFixedStride == L::kElementSize) {
    std::memcpy(out, src, count * L::kElementSize);
  } else {
    const size_t step = kFixedStride != 0 ? kFixedStride : stride;
    for (size_t i = 0; i < count; ++i) {
      DecodeElement<Src, kRows, kCols, Conv>(src + i * step, out + i * L::kComponents);
    }
  }
}

// `count` tightly packed components of `type` at src, by value, into out (count >= 1).
template <typename Dst>
void DecodePacked(NumericType type, const uint8_t* src, size_t count, Dst* out) noexcept {
  VisitNumericType(type, [&]<typename Src>() {
    DecodeDense<Src, 1, 1, Cast, sizeof(Src)>(src, sizeof(Src), count, out);
  });
}

// The index of the first value that is NaN or an infinity, or values.size(): one branch-free pass
// (vectorized) for the common all-finite case; the value is searched for only when there is one.
inline size_t FindNonFinite(std::span<const float> values) {
  uint32_t bad = 0;
  for (const float v : values) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    bad |= uint32_t((bits & 0x7F800000u) == 0x7F800000u);
  }
  if (!bad) return values.size();
  return size_t(
      std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); }) -
      values.begin());
}

}  // namespace sinew::loader
