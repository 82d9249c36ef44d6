#include "gltf/accessor.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "common/load_status.h"

namespace sinew::loader::gltf {

namespace {

using detail::ColumnCount;
using detail::IsMatrix;
using detail::RowCount;

constexpr uint32_t kMinByteStride = 4;
constexpr uint32_t kMaxByteStride = 252;

// Bytes an element actually occupies when nothing follows it: the padding after the last column
// may be omitted (Specification.adoc, "Data Alignment").
uint32_t ElementExtent(ComponentType component, AccessorType type) noexcept {
  const uint32_t size = ComponentSize(component);
  const uint32_t rows = RowCount(type);
  const uint32_t cols = ColumnCount(type);
  return (cols - 1) * ColumnStride(size, rows, IsMatrix(type)) + rows * size;
}

// True when [offset, offset + (count - 1) * stride + extent) lies within [0, size).
// count >= 1, stride >= 1; free of overflow for any 64-bit inputs (a product that overflows
// cannot fit), and of divisions (the loader checks every accessor).
bool Fits(uint64_t size, uint64_t offset, uint64_t count, uint64_t stride,
          uint64_t extent) noexcept {
  if (offset > size) return false;
  uint64_t room = size - offset;
  if (extent > room) return false;
  room -= extent;
  uint64_t span = 0;
  return !__builtin_mul_overflow(count - 1, stride, &span) && span <= room;
}

uint32_t SparseIndexSize(ComponentType type) noexcept {
  switch (type) {
    case ComponentType::kUnsignedByte:
      return 1;
    case ComponentType::kUnsignedShort:
      return 2;
    case ComponentType::kUnsignedInt:
      return 4;
    default:
      return 0;
  }
}

Status Fail(Error code, const AccessorDesc& accessor, const char* sub_path, std::string message) {
  return Status(code, std::move(message),
                "/accessors/" + std::to_string(accessor.index) + std::string(sub_path));
}

std::string Str(uint64_t value) { return std::to_string(value); }

std::string Describe(const AccessorDesc& accessor) {
  return std::string(AccessorTypeName(accessor.type)) + " of " +
         ComponentTypeName(accessor.component_type);
}

Status CheckOutSize(const AccessorDesc& accessor, size_t out_size) {
  const uint64_t components = ComponentCount(accessor.type);
  if (accessor.count > std::numeric_limits<size_t>::max() / components ||
      out_size != accessor.count * components) {
    return Fail(Error::kInvalidArgument, accessor, "",
                "the output holds " + Str(out_size) + " values; the accessor has " +
                    Str(accessor.count) + " x " + Str(components));
  }
  return {};
}

// ---- Decoding (the component decoder itself: common/components.h) --------------------------

// Where sparse substitution stopped, when the indices break the rules.
struct SparseFailure {
  bool failed = false;
  uint32_t position = 0;  // Into sparse.indices.
  uint64_t index = 0;
  uint64_t previous = 0;  // The index before it (position > 0).
};

template <typename Index, typename Src, uint32_t kRows, uint32_t kCols, class Conv, typename Dst>
SparseFailure ApplySparse(const SparseDesc& sparse, uint64_t count, Dst* out) noexcept {
  using L = Layout<Src, kRows, kCols>;
  const uint8_t* indices = sparse.indices.bytes.data() + sparse.indices_byte_offset;
  const uint8_t* values = sparse.values.bytes.data() + sparse.values_byte_offset;
  uint64_t previous = 0;
  for (uint32_t j = 0; j < sparse.count; ++j) {
    const uint64_t index = LoadComponent<Index>(indices + size_t{j} * sizeof(Index));
    if ((j > 0 && index <= previous) || index >= count) return {true, j, index, previous};
    DecodeElement<Src, kRows, kCols, Conv>(values + size_t{j} * L::kElementSize,
                                           out + index * L::kComponents);
    previous = index;
  }
  return {};
}

template <typename Src, uint32_t kRows, uint32_t kCols, class Conv, typename Dst>
SparseFailure DecodeAccessor(const AccessorDesc& accessor, Dst* out) noexcept {
  using L = Layout<Src, kRows, kCols>;
  const size_t count = static_cast<size_t>(accessor.count);
  if (accessor.view) {
    const uint8_t* src = accessor.view->bytes.data() + accessor.byte_offset;
    const size_t stride =
        accessor.view->byte_stride != 0 ? accessor.view->byte_stride : L::kElementSize;
    if (stride == L::kElementSize) {
      DecodeDense<Src, kRows, kCols, Conv, L::kElementSize>(src, stride, count, out);
    } else {
      DecodeDense<Src, kRows, kCols, Conv, 0>(src, stride, count, out);
    }
  } else {
    std::fill_n(out, count * L::kComponents, Dst{0});
  }
  if (!accessor.sparse) return {};
  const SparseDesc& sparse = *accessor.sparse;
  switch (sparse.index_type) {
    case ComponentType::kUnsignedByte:
      return ApplySparse<uint8_t, Src, kRows, kCols, Conv>(sparse, accessor.count, out);
    case ComponentType::kUnsignedShort:
      return ApplySparse<uint16_t, Src, kRows, kCols, Conv>(sparse, accessor.count, out);
    default:  // kUnsignedInt; anything else was rejected by ValidateAccessor.
      return ApplySparse<uint32_t, Src, kRows, kCols, Conv>(sparse, accessor.count, out);
  }
}

// Calls f.template operator()<Src, kRows, kCols>() for the accessor's layout: one switch per
// accessor, never per element.
template <typename Src, class F>
void VisitShape(AccessorType type, F& f) {
  switch (type) {
    case AccessorType::kScalar:
      return f.template operator()<Src, 1, 1>();
    case AccessorType::kVec2:
      return f.template operator()<Src, 2, 1>();
    case AccessorType::kVec3:
      return f.template operator()<Src, 3, 1>();
    case AccessorType::kVec4:
      return f.template operator()<Src, 4, 1>();
    case AccessorType::kMat2:
      return f.template operator()<Src, 2, 2>();
    case AccessorType::kMat3:
      return f.template operator()<Src, 3, 3>();
    case AccessorType::kMat4:
      return f.template operator()<Src, 4, 4>();
  }
}

// The C++ types glTF's componentTypes decode from (glTF 2.0 Specification, Accessors).
template <typename T>
constexpr bool kGltfComponent =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

template <class F>
void VisitLayout(ComponentType component, AccessorType type, F& f) {
  VisitNumericType(NumericTypeOf(component), [&]<typename Src>() {
    if constexpr (kGltfComponent<Src>) VisitShape<Src>(type, f);
  });
}

Status SparseStatus(const AccessorDesc& accessor, const SparseFailure& failure) {
  if (!failure.failed) return {};
  std::string message =
      "sparse index " + Str(failure.index) + " (position " + Str(failure.position) + ") ";
  if (failure.index >= accessor.count) {
    message += "is not below the accessor's count " + Str(accessor.count);
  } else {
    message += "does not follow the previous index " + Str(failure.previous) +
               "; indices must strictly increase";
  }
  return Fail(Error::kInvalidValue, accessor, "/sparse/indices", std::move(message));
}

}  // namespace

const char* ComponentTypeName(ComponentType type) noexcept {
  switch (type) {
    case ComponentType::kByte:
      return "BYTE";
    case ComponentType::kUnsignedByte:
      return "UNSIGNED_BYTE";
    case ComponentType::kShort:
      return "SHORT";
    case ComponentType::kUnsignedShort:
      return "UNSIGNED_SHORT";
    case ComponentType::kUnsignedInt:
      return "UNSIGNED_INT";
    case ComponentType::kFloat:
      return "FLOAT";
  }
  return "?";
}

const char* AccessorTypeName(AccessorType type) noexcept {
  switch (type) {
    case AccessorType::kScalar:
      return "SCALAR";
    case AccessorType::kVec2:
      return "VEC2";
    case AccessorType::kVec3:
      return "VEC3";
    case AccessorType::kVec4:
      return "VEC4";
    case AccessorType::kMat2:
      return "MAT2";
    case AccessorType::kMat3:
      return "MAT3";
    case AccessorType::kMat4:
      return "MAT4";
  }
  return "?";
}

namespace {

// The accessor's elements within its bufferView (byteStride, byteOffset, extent), or no
// byteOffset without one. Inline: the loader validates every accessor of a file.
[[gnu::always_inline]] inline LoadStatus ValidateViewRange(const AccessorDesc& accessor,
                                                           uint32_t component_size,
                                                           uint32_t element_size, uint32_t extent) {
  if (!accessor.view) {
    if (accessor.byte_offset != 0) {
      return Fail(Error::kInvalidValue, accessor, "/byteOffset",
                  "byteOffset " + Str(accessor.byte_offset) + " without a bufferView");
    }
    return {};
  }
  const ViewBytes& view = *accessor.view;
  if (view.byte_stride != 0) {
    if (view.byte_stride < kMinByteStride || view.byte_stride > kMaxByteStride) {
      return Fail(Error::kInvalidValue, accessor, "/bufferView",
                  "the bufferView's byteStride " + Str(view.byte_stride) + " is outside 4..252");
    }
    if (view.byte_stride % 4 != 0) {
      return Fail(
          Error::kInvalidValue, accessor, "/bufferView",
          "the bufferView's byteStride " + Str(view.byte_stride) + " is not a multiple of 4");
    }
    if (view.byte_stride < element_size) {
      return Fail(Error::kInvalidValue, accessor, "/bufferView",
                  "the bufferView's byteStride " + Str(view.byte_stride) +
                      " is smaller than one element (" + Str(element_size) + " bytes of " +
                      Describe(accessor) + ")");
    }
  }
  if ((accessor.byte_offset & (component_size - 1)) != 0) {  // component_size: 1, 2 or 4
    return Fail(Error::kInvalidValue, accessor, "/byteOffset",
                "byteOffset " + Str(accessor.byte_offset) +
                    " is not a multiple of the component size " + Str(component_size));
  }
  const uint32_t stride = view.byte_stride != 0 ? view.byte_stride : element_size;
  if (!Fits(view.bytes.size(), accessor.byte_offset, accessor.count, stride, extent)) {
    return Fail(Error::kOutOfBounds, accessor, "",
                Str(accessor.count) + " elements (" + Describe(accessor) + ", stride " +
                    Str(stride) + ") from byteOffset " + Str(accessor.byte_offset) +
                    " reach past the end of the bufferView (" + Str(view.bytes.size()) + " bytes)");
  }
  return {};
}

// One part of accessor.sparse, its indices or its values: its bufferView without byteStride, its
// byteOffset a multiple of `unit` bytes (the index or the component size), sparse.count items of
// `item_size` bytes (the last `extent` of them) within the view.
enum class SparsePart { kIndices, kValues };

LoadStatus ValidateSparsePart(const AccessorDesc& accessor, SparsePart part, uint32_t unit,
                              uint32_t item_size, uint32_t extent) {
  const SparseDesc& sparse = *accessor.sparse;
  const bool indices = part == SparsePart::kIndices;
  const ViewBytes& view = indices ? sparse.indices : sparse.values;
  const uint64_t byte_offset = indices ? sparse.indices_byte_offset : sparse.values_byte_offset;
  const char* name = indices ? "indices" : "values";
  if (view.byte_stride != 0) {
    return Fail(Error::kInvalidValue, accessor,
                indices ? "/sparse/indices/bufferView" : "/sparse/values/bufferView",
                std::string("the sparse ") + name + "' bufferView must not define byteStride");
  }
  if (byte_offset % unit != 0) {
    return Fail(Error::kInvalidValue, accessor,
                indices ? "/sparse/indices/byteOffset" : "/sparse/values/byteOffset",
                "byteOffset " + Str(byte_offset) + " is not a multiple of the " +
                    (indices ? "index size " : "component size ") + Str(unit));
  }
  if (!Fits(view.bytes.size(), byte_offset, sparse.count, item_size, extent)) {
    return Fail(Error::kOutOfBounds, accessor, indices ? "/sparse/indices" : "/sparse/values",
                Str(sparse.count) +
                    (indices ? " indices of " + Str(item_size) + " bytes"
                             : " values (" + Describe(accessor) + ")") +
                    " from byteOffset " + Str(byte_offset) +
                    " reach past the end of the bufferView (" + Str(view.bytes.size()) + " bytes)");
  }
  return {};
}

// accessor.sparse: its count, index type and both views' ranges.
LoadStatus ValidateSparse(const AccessorDesc& accessor, uint32_t component_size,
                          uint32_t element_size, uint32_t extent) {
  const SparseDesc& sparse = *accessor.sparse;
  if (sparse.count == 0) {
    return Fail(Error::kInvalidValue, accessor, "/sparse/count", "sparse.count must be at least 1");
  }
  if (sparse.count > accessor.count) {
    return Fail(Error::kInvalidValue, accessor, "/sparse/count",
                "sparse.count " + Str(sparse.count) + " exceeds the accessor's count " +
                    Str(accessor.count));
  }
  const uint32_t index_size = SparseIndexSize(sparse.index_type);
  if (index_size == 0) {
    return Fail(Error::kInvalidValue, accessor, "/sparse/indices/componentType",
                std::string("sparse indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or "
                            "UNSIGNED_INT, not ") +
                    ComponentTypeName(sparse.index_type));
  }
  SINEW_TRY(ValidateSparsePart(accessor, SparsePart::kIndices, index_size, index_size, index_size));
  return ValidateSparsePart(accessor, SparsePart::kValues, component_size, element_size, extent);
}

}  // namespace

Status ValidateAccessor(const AccessorDesc& accessor) {
  const uint32_t component_size = ComponentSize(accessor.component_type);
  if (component_size == 0) {
    return Fail(Error::kInvalidValue, accessor, "/componentType",
                "unknown componentType " + Str(static_cast<uint32_t>(accessor.component_type)));
  }
  if (ComponentCount(accessor.type) == 0) {
    return Fail(Error::kInvalidValue, accessor, "/type",
                "unknown type " + Str(static_cast<uint32_t>(accessor.type)));
  }
  if (accessor.count == 0) {
    return Fail(Error::kInvalidValue, accessor, "/count", "count must be at least 1");
  }
  if (accessor.normalized && (accessor.component_type == ComponentType::kFloat ||
                              accessor.component_type == ComponentType::kUnsignedInt)) {
    return Fail(Error::kInvalidValue, accessor, "/normalized",
                std::string("normalized must not be true for ") +
                    ComponentTypeName(accessor.component_type));
  }
  const uint32_t element_size = ElementSize(accessor.component_type, accessor.type);
  const uint32_t extent = ElementExtent(accessor.component_type, accessor.type);

  SINEW_TRY(ValidateViewRange(accessor, component_size, element_size, extent));
  if (accessor.sparse) SINEW_TRY(ValidateSparse(accessor, component_size, element_size, extent));
  return {};
}

Status ReadFloats(const AccessorDesc& accessor, std::span<float> out) {
  SINEW_TRY(ValidateAccessor(accessor));
  SINEW_TRY(CheckOutSize(accessor, out.size()));
  return DecodeFloats(accessor, out);
}

Status DecodeFloats(const AccessorDesc& accessor, std::span<float> out) {
  // The common case first: one copy.
  if (IsPackedFloat(accessor)) {
    std::memcpy(out.data(), accessor.view->bytes.data() + accessor.byte_offset,
                out.size() * sizeof(float));
    return {};
  }
  SparseFailure failure;
  auto decode = [&]<typename Src, uint32_t kRows, uint32_t kCols>() {
    if constexpr (std::is_integral_v<Src> && sizeof(Src) <= 2) {
      if (accessor.normalized) {
        failure = DecodeAccessor<Src, kRows, kCols, Normalize>(accessor, out.data());
        return;
      }
    }
    failure = DecodeAccessor<Src, kRows, kCols, Cast>(accessor, out.data());
  };
  VisitLayout(accessor.component_type, accessor.type, decode);
  return SparseStatus(accessor, failure);
}

Status ReadUints(const AccessorDesc& accessor, std::span<uint32_t> out) {
  SINEW_TRY(ValidateAccessor(accessor));
  if (accessor.component_type != ComponentType::kUnsignedByte &&
      accessor.component_type != ComponentType::kUnsignedShort &&
      accessor.component_type != ComponentType::kUnsignedInt) {
    return Fail(Error::kInvalidValue, accessor, "/componentType",
                std::string("expected UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT, not ") +
                    ComponentTypeName(accessor.component_type));
  }
  if (accessor.normalized) {
    return Fail(Error::kInvalidValue, accessor, "/normalized",
                "expected integer data, not normalized " + Describe(accessor));
  }
  SINEW_TRY(CheckOutSize(accessor, out.size()));
  return DecodeUints(accessor, out);
}

Status DecodeUints(const AccessorDesc& accessor, std::span<uint32_t> out) {
  SparseFailure failure;
  auto decode = [&]<typename Src, uint32_t kRows, uint32_t kCols>() {
    if constexpr (std::is_unsigned_v<Src>) {
      failure = DecodeAccessor<Src, kRows, kCols, Cast>(accessor, out.data());
    }
  };
  VisitLayout(accessor.component_type, accessor.type, decode);
  return SparseStatus(accessor, failure);
}

}  // namespace sinew::loader::gltf
