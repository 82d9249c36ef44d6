#include "g4mf/accessor.h"

#include <type_traits>

namespace sinew::loader::g4mf {

Result<NumericType> ParseComponentType(std::string_view name) {
  struct Named {
    std::string_view name;
    NumericType type;
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

std::vector<float> ReadFloats(const Accessor& a) {
  const size_t n = a.count * a.vector_size;
  std::vector<float> out(n);
  if (n) DecodePacked(a.type, a.bytes.data(), n, out.data());
  return out;
}

namespace {

// n integers of type T (signed, or 64-bit) at src into out, each checked to be an index: not
// negative, below 2^32.
template <typename T>
LoadStatus Indices(const uint8_t* src, size_t n, const Path& where, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const T value = LoadComponent<T>(src + i * sizeof(T));
    if constexpr (std::is_unsigned_v<T>) {
      if (value > 0xFFFFFFFFu) {
        return {Error::kInvalidValue,
                "value " + std::to_string(value) + " at element " + std::to_string(i) +
                    " does not fit in 32 bits",
                where.ToString()};
      }
    } else if (value < 0 || int64_t(value) > int64_t(0xFFFFFFFFu)) {
      return {Error::kInvalidValue,
              "value " + std::to_string(int64_t(value)) + " at element " + std::to_string(i) +
                  " is not a 32-bit unsigned index",
              where.ToString()};
    }
    out[i] = uint32_t(value);
  }
  return {};
}

}  // namespace

LoadStatus ReadUints(const Accessor& a, const Path& where, std::vector<uint32_t>* out) {
  if (a.is_float()) {
    return {Error::kInvalidValue, "indices must be integers, not " + std::string(a.type_name),
            where.ToString()};
  }
  const size_t n = a.count * a.vector_size;
  out->resize(n);
  if (n == 0) return {};
  if (a.is_unsigned() && a.type.bytes <= 4) {  // Every value is an index.
    DecodePacked(a.type, a.bytes.data(), n, out->data());
    return {};
  }
  LoadStatus status;
  VisitNumericType(a.type, [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && (std::is_signed_v<T> || sizeof(T) == 8)) {
      status = Indices<T>(a.bytes.data(), n, where, out->data());
    }
  });
  return status;
}

}  // namespace sinew::loader::g4mf
