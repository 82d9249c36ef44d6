// glTF 2.0 accessors: the structural rules of accessor / bufferView / sparse (glTF 2.0
// Specification, Buffers, Buffer Views, and Accessors) and decoding of their elements to float or
// uint32. Knows nothing about JSON: the JSON layer resolves indices into spans and fills an
// AccessorDesc.
//
// The component decoding itself is shared with G4MF (common/components.h); host requirement:
// little-endian, as there.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/components.h"
#include "sinew/core/error.h"

namespace sinew::loader::gltf {

// accessor.componentType (the values are glTF's).
enum class ComponentType : uint32_t {
  kByte = 5120,
  kUnsignedByte = 5121,
  kShort = 5122,
  kUnsignedShort = 5123,
  kUnsignedInt = 5125,
  kFloat = 5126
};

// accessor.type.
enum class AccessorType : uint8_t { kScalar, kVec2, kVec3, kVec4, kMat2, kMat3, kMat4 };

// Inline: the JSON layer calls these for every accessor of a file, and the decoders per accessor.
namespace detail {
// Rows of one column: the component count for scalars and vectors, the matrix dimension for
// matrices. 0 for a value outside the enum.
constexpr uint32_t RowCount(AccessorType type) noexcept {
  switch (type) {
    case AccessorType::kScalar:
      return 1;
    case AccessorType::kVec2:
    case AccessorType::kMat2:
      return 2;
    case AccessorType::kVec3:
    case AccessorType::kMat3:
      return 3;
    case AccessorType::kVec4:
    case AccessorType::kMat4:
      return 4;
  }
  return 0;
}

constexpr bool IsMatrix(AccessorType type) noexcept {
  return type == AccessorType::kMat2 || type == AccessorType::kMat3 || type == AccessorType::kMat4;
}

constexpr uint32_t ColumnCount(AccessorType type) noexcept {
  return IsMatrix(type) ? RowCount(type) : 1;
}
}  // namespace detail

// Parsing helpers for the JSON layer: false (and *out untouched) for an unknown value.
constexpr bool ParseComponentType(uint64_t value, ComponentType* out) noexcept {
  switch (value) {
    case 5120:
    case 5121:
    case 5122:
    case 5123:
    case 5125:
    case 5126:
      *out = static_cast<ComponentType>(value);
      return true;
    default:
      return false;
  }
}

constexpr bool ParseAccessorType(std::string_view name, AccessorType* out) noexcept {
  constexpr struct {
    std::string_view name;
    AccessorType type;
  } kTypes[] = {{"SCALAR", AccessorType::kScalar}, {"VEC2", AccessorType::kVec2},
                {"VEC3", AccessorType::kVec3},     {"VEC4", AccessorType::kVec4},
                {"MAT2", AccessorType::kMat2},     {"MAT3", AccessorType::kMat3},
                {"MAT4", AccessorType::kMat4}};
  for (const auto& entry : kTypes) {
    if (entry.name == name) {
      *out = entry.type;
      return true;
    }
  }
  return false;
}

// "FLOAT", "UNSIGNED_SHORT", ... and "SCALAR", "MAT4", ... (for messages); "?" when unknown.
const char* ComponentTypeName(ComponentType type) noexcept;
const char* AccessorTypeName(AccessorType type) noexcept;

// The component type as the decoders shared with G4MF know it (common/components.h); bytes 0 for a
// value outside the enum.
constexpr NumericType NumericTypeOf(ComponentType type) noexcept {
  switch (type) {
    case ComponentType::kByte:
      return {ComponentKind::kSigned, 1};
    case ComponentType::kUnsignedByte:
      return {ComponentKind::kUnsigned, 1};
    case ComponentType::kShort:
      return {ComponentKind::kSigned, 2};
    case ComponentType::kUnsignedShort:
      return {ComponentKind::kUnsigned, 2};
    case ComponentType::kUnsignedInt:
      return {ComponentKind::kUnsigned, 4};
    case ComponentType::kFloat:
      return {ComponentKind::kFloat, 4};
  }
  return {ComponentKind::kFloat, 0};
}

// Bytes of one component: 1, 2 or 4 (0 for a value outside the enum).
constexpr uint32_t ComponentSize(ComponentType type) noexcept { return NumericTypeOf(type).bytes; }
// Components of one element: 1..16 (0 for a value outside the enum).
constexpr uint32_t ComponentCount(AccessorType type) noexcept {
  return detail::RowCount(type) * detail::ColumnCount(type);
}
// Bytes of one element including matrix column padding: each matrix column starts on a 4-byte
// boundary, so MAT2/MAT3 of 1-byte components and MAT3 of 2-byte components are padded
// (MAT2 u8: 8, MAT3 u8: 12, MAT3 i16/u16: 24). This is the tightly-packed stride.
constexpr uint32_t ElementSize(ComponentType component, AccessorType type) noexcept {
  return detail::ColumnCount(type) *
         ColumnStride(ComponentSize(component), detail::RowCount(type), detail::IsMatrix(type));
}

// A resolved bufferView: its bytes (already bounds-checked against the buffer by the caller) and
// its byteStride.
struct ViewBytes {
  std::span<const uint8_t> bytes;  // bufferView.byteOffset .. + byteLength within its buffer.
  uint32_t byte_stride = 0;        // bufferView.byteStride; 0: not defined (tightly packed).
};

// accessor.sparse, with its two bufferViews resolved.
struct SparseDesc {
  uint32_t count = 0;  // sparse.count: 1..accessor count.
  // sparse.indices.componentType: kUnsignedByte, kUnsignedShort or kUnsignedInt.
  ComponentType index_type = ComponentType::kUnsignedInt;
  ViewBytes indices;  // sparse.indices.bufferView; byte_stride must be 0.
  uint64_t indices_byte_offset = 0;
  ViewBytes values;  // sparse.values.bufferView; byte_stride must be 0.
  uint64_t values_byte_offset = 0;
};

// One accessor, with its bufferView resolved.
struct AccessorDesc {
  ComponentType component_type = ComponentType::kFloat;
  AccessorType type = AccessorType::kScalar;
  bool normalized = false;
  uint64_t count = 0;             // Elements; >= 1.
  uint64_t byte_offset = 0;       // Into the view; must be 0 when there is no view.
  std::optional<ViewBytes> view;  // None: every element is zero (then sparse may apply).
  std::optional<SparseDesc> sparse;
  // Index in the file's accessors array: errors point at "/accessors/<index>/...". (An index, not
  // a string, so the loader allocates nothing per accessor for error reporting.)
  uint32_t index = 0;
};

// Checks every structural rule that can be checked in O(1) (it does not read sparse indices).
// Errors, where P = accessor.pointer:
//   kInvalidValue at P/componentType   a value outside ComponentType
//   kInvalidValue at P/type            a value outside AccessorType
//   kInvalidValue at P/count           count 0
//   kInvalidValue at P/normalized      normalized on FLOAT or UNSIGNED_INT
//   kInvalidValue at P/byteOffset      byteOffset without a view, or not a multiple of the
//                                      component size
//   kInvalidValue at P/bufferView      the view's byteStride outside 4..252, not a multiple of 4,
//                                      or smaller than ElementSize
//   kOutOfBounds  at P                 the elements reach past the end of the view
//   kInvalidValue at P/sparse/count    0, or more than the accessor's count
//   kInvalidValue at P/sparse/indices/componentType   not UNSIGNED_BYTE/SHORT/INT
//   kInvalidValue at P/sparse/{indices,values}/bufferView   a view with a byteStride
//   kInvalidValue at P/sparse/{indices,values}/byteOffset   not a multiple of the component size
//   kOutOfBounds  at P/sparse/{indices,values}              the data reaches past its view
// "Fits the view" means byteOffset + (count - 1) * stride + extent <= view size, where extent is
// ElementSize less the padding after a matrix's last column (the spec lets trailing padding be
// omitted when no data follows). Checking the view against its buffer, the 4-byte alignment of
// vertex attributes and the bufferView's own byteOffset alignment is the caller's job (they depend
// on how the accessor is used, and on the view's position in its buffer).
Status ValidateAccessor(const AccessorDesc& accessor);

// Decodes to float, count * ComponentCount(type) values, element after element, matrices column
// by column without their padding. Normalized integers map to [0, 1] (unsigned: c / (2^n - 1)) or
// [-1, 1] (signed: max(c / (2^(n-1) - 1), -1)); other integers convert as they are (UNSIGNED_INT
// above 2^24 rounds). Then sparse substitution applies.
// Validates first, then: kInvalidArgument (where P) when out.size() != count * components;
// kInvalidValue at P/sparse/indices when the sparse indices do not strictly increase or one is
// >= count. On failure the contents of `out` are unspecified.
Status ReadFloats(const AccessorDesc& accessor, std::span<float> out);

// The same for unsigned integer accessors (UNSIGNED_BYTE/SHORT/INT, not normalized): joints,
// indices. kInvalidValue at P/componentType for other component types, at P/normalized for a
// normalized accessor.
Status ReadUints(const AccessorDesc& accessor, std::span<uint32_t> out);

// True for FLOAT data, tightly packed (byteStride 0 or the element size; FLOAT matrices have no
// column padding), on a bufferView, without sparse substitution: its values are the view's bytes.
inline bool IsPackedFloat(const AccessorDesc& accessor) noexcept {
  return accessor.component_type == ComponentType::kFloat && accessor.view && !accessor.sparse &&
         (accessor.view->byte_stride == 0 ||
          accessor.view->byte_stride == ElementSize(accessor.component_type, accessor.type));
}

// ReadFloats / ReadUints without validating again, for an accessor that already passed
// ValidateAccessor (the loader validates each accessor once, when it reads the accessors array,
// then decodes it wherever it is used). Preconditions: out.size() == count * ComponentCount(type);
// for DecodeUints an UNSIGNED_BYTE/SHORT/INT accessor that is not normalized. The same decoding and
// the same sparse-index errors (kInvalidValue at P/sparse/indices).
Status DecodeFloats(const AccessorDesc& accessor, std::span<float> out);
Status DecodeUints(const AccessorDesc& accessor, std::span<uint32_t> out);

}  // namespace sinew::loader::gltf
