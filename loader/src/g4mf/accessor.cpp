#include "g4mf/accessor.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace sinew::loader::g4mf {

Result<ComponentType> ParseComponentType(std::string_view name) {
  struct Named {
    std::string_view name;
    ComponentType type;
  };
  static constexpr Named kRead[] = {
      {"float16", {ComponentKind::kFloat, 2}},   {"float32", {ComponentKind::kFloat, 4}},
      {"float64", {ComponentKind::kFloat, 8}},   {"int8", {ComponentKind::kSigned, 1}},
      {"int16", {ComponentKind::kSigned, 2}},    {"int32", {ComponentKind::kSigned, 4}},
      {"int64", {ComponentKind::kSigned, 8}},    {"uint8", {ComponentKind::kUnsigned, 1}},
      {"uint16", {ComponentKind::kUnsigned, 2}}, {"uint32", {ComponentKind::kUnsigned, 4}},
      {"uint64", {ComponentKind::kUnsigned, 8}},
  };
  for (const Named& n : kRead) {
    if (n.name == name) return n.type;
  }
  for (std::string_view unread : {"float8", "float128", "int128", "uint128"}) {
    if (unread == name) {
      return Status(Error::kUnsupportedFeature,
                    "componentType \"" + std::string(name) +
                        "\" is valid G4MF but sinew reads only float16/32/64 and (u)int8..64");
    }
  }
  return Status(Error::kInvalidValue, "unknown componentType \"" + std::string(name) + "\"");
}

namespace {

float HalfToFloat(uint16_t h) {
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

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Component i as double (exact for every integer up to 2^53; wider ones are range-checked by
// the callers that need integers through ReadUints' own path).
double Component(const Accessor& a, size_t i) {
  const uint8_t* p = a.bytes.data() + i * a.type.bytes;
  switch (a.type.kind) {
    case ComponentKind::kFloat:
      if (a.type.bytes == 2) return HalfToFloat(Load<uint16_t>(p));
      if (a.type.bytes == 4) return Load<float>(p);
      return Load<double>(p);
    case ComponentKind::kSigned:
      if (a.type.bytes == 1) return Load<int8_t>(p);
      if (a.type.bytes == 2) return Load<int16_t>(p);
      if (a.type.bytes == 4) return Load<int32_t>(p);
      return double(Load<int64_t>(p));
    case ComponentKind::kUnsigned:
      if (a.type.bytes == 1) return Load<uint8_t>(p);
      if (a.type.bytes == 2) return Load<uint16_t>(p);
      if (a.type.bytes == 4) return Load<uint32_t>(p);
      return double(Load<uint64_t>(p));
  }
  return 0;
}

}  // namespace

std::vector<float> ReadFloats(const Accessor& a) {
  const size_t n = a.count * a.vector_size;
  std::vector<float> out(n);
  if (a.type.kind == ComponentKind::kFloat && a.type.bytes == 4) {
    if (n) std::memcpy(out.data(), a.bytes.data(), n * 4);
    return out;
  }
  for (size_t i = 0; i < n; ++i) out[i] = float(Component(a, i));
  return out;
}

LoadStatus ReadUints(const Accessor& a, const Path& where, std::vector<uint32_t>* out) {
  if (a.is_float()) {
    return {Error::kInvalidValue, "indices must be integers, not " + std::string(a.type_name),
            where.ToString()};
  }
  const size_t n = a.count * a.vector_size;
  out->resize(n);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = a.bytes.data() + i * a.type.bytes;
    int64_t value;
    if (a.type.kind == ComponentKind::kUnsigned && a.type.bytes == 8) {
      const uint64_t u = Load<uint64_t>(p);
      if (u > 0xFFFFFFFFu) {
        return {Error::kInvalidValue,
                "value " + std::to_string(u) + " at element " + std::to_string(i) +
                    " does not fit in 32 bits",
                where.ToString()};
      }
      value = int64_t(u);
    } else if (a.type.kind == ComponentKind::kSigned && a.type.bytes == 8) {
      value = Load<int64_t>(p);
    } else {
      value = int64_t(Component(a, i));
    }
    if (value < 0 || value > int64_t(0xFFFFFFFFu)) {
      return {Error::kInvalidValue,
              "value " + std::to_string(value) + " at element " + std::to_string(i) +
                  " is not a 32-bit unsigned index",
              where.ToString()};
    }
    (*out)[i] = uint32_t(value);
  }
  return {};
}

}  // namespace sinew::loader::g4mf
