#include "gltf/accessor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace sinew::loader::gltf {
namespace {

using Bytes = std::vector<uint8_t>;

const std::string kPointer = "/accessors/7";
constexpr float kUntouched = 12345.0f;  // What the output holds before a read.

// Appends each value's bytes (the host is little-endian, like glTF).
template <typename T>
void Append(Bytes& bytes, std::initializer_list<T> values) {
  for (const T value : values) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
}

AccessorDesc OnView(ComponentType component, AccessorType type, uint64_t count, const Bytes& bytes,
                    uint32_t byte_stride = 0, uint64_t byte_offset = 0) {
  AccessorDesc accessor;
  accessor.component_type = component;
  accessor.type = type;
  accessor.count = count;
  accessor.byte_offset = byte_offset;
  accessor.view = ViewBytes{bytes, byte_stride};
  accessor.index = 7;
  return accessor;
}

AccessorDesc WithoutView(ComponentType component, AccessorType type, uint64_t count) {
  AccessorDesc accessor;
  accessor.component_type = component;
  accessor.type = type;
  accessor.count = count;
  accessor.index = 7;
  return accessor;
}

AccessorDesc Normalized(AccessorDesc accessor) {
  accessor.normalized = true;
  return accessor;
}

SparseDesc Sparse(uint32_t count, ComponentType index_type, const Bytes& indices,
                  const Bytes& values, uint64_t indices_byte_offset = 0,
                  uint64_t values_byte_offset = 0) {
  SparseDesc sparse;
  sparse.count = count;
  sparse.index_type = index_type;
  sparse.indices = ViewBytes{indices, 0};
  sparse.indices_byte_offset = indices_byte_offset;
  sparse.values = ViewBytes{values, 0};
  sparse.values_byte_offset = values_byte_offset;
  return sparse;
}

struct Floats {
  Status status;
  std::vector<float> values;
};

Floats ReadAllFloats(const AccessorDesc& accessor) {
  std::vector<float> values(accessor.count * ComponentCount(accessor.type), kUntouched);
  Status status = ReadFloats(accessor, values);
  return {std::move(status), std::move(values)};
}

struct Uints {
  Status status;
  std::vector<uint32_t> values;
};

Uints ReadAllUints(const AccessorDesc& accessor) {
  std::vector<uint32_t> values(accessor.count * ComponentCount(accessor.type), 0xDEADBEEF);
  Status status = ReadUints(accessor, values);
  return {std::move(status), std::move(values)};
}

// Element-wise within 4 ulps: for expected values written as decimals.
void ExpectFloatsNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_FLOAT_EQ(actual[i], expected[i]) << "at " << i;
}

void ExpectError(const Status& status, Error code, const std::string& where) {
  EXPECT_EQ(status.code(), code) << status.error().ToString();
  EXPECT_EQ(status.error().where, where) << status.error().ToString();
  EXPECT_FALSE(status.error().message.empty());
}

// ---- Enums and sizes ---------------------------------------------------------------------------

TEST(ParseComponentType, AcceptsTheSixGltfValuesAndRejectsAnythingElse) {
  ComponentType type = ComponentType::kFloat;
  ASSERT_TRUE(ParseComponentType(5120, &type));
  EXPECT_EQ(type, ComponentType::kByte);
  ASSERT_TRUE(ParseComponentType(5121, &type));
  EXPECT_EQ(type, ComponentType::kUnsignedByte);
  ASSERT_TRUE(ParseComponentType(5122, &type));
  EXPECT_EQ(type, ComponentType::kShort);
  ASSERT_TRUE(ParseComponentType(5123, &type));
  EXPECT_EQ(type, ComponentType::kUnsignedShort);
  ASSERT_TRUE(ParseComponentType(5125, &type));
  EXPECT_EQ(type, ComponentType::kUnsignedInt);
  ASSERT_TRUE(ParseComponentType(5126, &type));
  EXPECT_EQ(type, ComponentType::kFloat);
  for (uint64_t bad :
       {uint64_t{0}, uint64_t{5119}, uint64_t{5124}, uint64_t{5127}, (uint64_t{1} << 32) + 5126}) {
    EXPECT_FALSE(ParseComponentType(bad, &type)) << bad;
  }
  EXPECT_EQ(type, ComponentType::kFloat);  // Untouched by a failed parse.
}

TEST(ParseAccessorType, AcceptsTheSevenNamesExactlyAndRejectsOthers) {
  AccessorType type = AccessorType::kScalar;
  ASSERT_TRUE(ParseAccessorType("VEC2", &type));
  EXPECT_EQ(type, AccessorType::kVec2);
  ASSERT_TRUE(ParseAccessorType("VEC3", &type));
  EXPECT_EQ(type, AccessorType::kVec3);
  ASSERT_TRUE(ParseAccessorType("VEC4", &type));
  EXPECT_EQ(type, AccessorType::kVec4);
  ASSERT_TRUE(ParseAccessorType("MAT2", &type));
  EXPECT_EQ(type, AccessorType::kMat2);
  ASSERT_TRUE(ParseAccessorType("MAT3", &type));
  EXPECT_EQ(type, AccessorType::kMat3);
  ASSERT_TRUE(ParseAccessorType("MAT4", &type));
  EXPECT_EQ(type, AccessorType::kMat4);
  ASSERT_TRUE(ParseAccessorType("SCALAR", &type));
  EXPECT_EQ(type, AccessorType::kScalar);
  for (const char* bad : {"", "vec3", "VEC5", "MAT4 ", "SCALARS"}) {
    EXPECT_FALSE(ParseAccessorType(bad, &type)) << bad;
  }
}

TEST(ElementSize, PadsMatrixColumnsToFourBytes) {
  EXPECT_EQ(ComponentSize(ComponentType::kByte), 1u);
  EXPECT_EQ(ComponentSize(ComponentType::kUnsignedShort), 2u);
  EXPECT_EQ(ComponentSize(ComponentType::kFloat), 4u);
  EXPECT_EQ(ComponentCount(AccessorType::kScalar), 1u);
  EXPECT_EQ(ComponentCount(AccessorType::kVec3), 3u);
  EXPECT_EQ(ComponentCount(AccessorType::kMat2), 4u);
  EXPECT_EQ(ComponentCount(AccessorType::kMat3), 9u);
  EXPECT_EQ(ComponentCount(AccessorType::kMat4), 16u);
  EXPECT_EQ(ElementSize(ComponentType::kUnsignedByte, AccessorType::kVec3), 3u);
  EXPECT_EQ(ElementSize(ComponentType::kFloat, AccessorType::kVec3), 12u);
  EXPECT_EQ(ElementSize(ComponentType::kUnsignedByte, AccessorType::kMat2), 8u);
  EXPECT_EQ(ElementSize(ComponentType::kByte, AccessorType::kMat3), 12u);
  EXPECT_EQ(ElementSize(ComponentType::kShort, AccessorType::kMat3), 24u);
  EXPECT_EQ(ElementSize(ComponentType::kShort, AccessorType::kMat2), 8u);
  EXPECT_EQ(ElementSize(ComponentType::kUnsignedByte, AccessorType::kMat4), 16u);
  EXPECT_EQ(ElementSize(ComponentType::kFloat, AccessorType::kMat4), 64u);
}

// ---- Every component type, normalized or not ---------------------------------------------------

TEST(ReadFloats, ConvertsBytesAsIntegersOrNormalizedWithMinus128ClampedToMinusOne) {
  const Bytes bytes = {0x80, 0xFF, 0x00, 0x01, 0x40, 0x7F};  // -128 -1 0 1 64 127
  const AccessorDesc plain = OnView(ComponentType::kByte, AccessorType::kScalar, 6, bytes);
  auto r = ReadAllFloats(plain);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{-128, -1, 0, 1, 64, 127}));

  r = ReadAllFloats(Normalized(plain));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  ExpectFloatsNear(r.values, {-1.0f, -0.007874016f, 0.0f, 0.007874016f, 0.503937f, 1.0f});
  EXPECT_EQ(r.values[0], -1.0f);
  EXPECT_EQ(r.values[5], 1.0f);
}

TEST(ReadFloats, ConvertsUnsignedBytesAsIntegersOrNormalized) {
  const Bytes bytes = {0x00, 0x01, 0x80, 0xFF};  // 0 1 128 255
  const AccessorDesc plain = OnView(ComponentType::kUnsignedByte, AccessorType::kScalar, 4, bytes);
  auto r = ReadAllFloats(plain);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{0, 1, 128, 255}));

  r = ReadAllFloats(Normalized(plain));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  ExpectFloatsNear(r.values, {0.0f, 0.003921569f, 0.5019608f, 1.0f});
  EXPECT_EQ(r.values[3], 1.0f);
}

TEST(ReadFloats, ConvertsShortsAsIntegersOrNormalizedWithMinus32768ClampedToMinusOne) {
  // -32768 -32767 -1 0 16384 32767, little-endian.
  const Bytes bytes = {0x00, 0x80, 0x01, 0x80, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x40, 0xFF, 0x7F};
  const AccessorDesc plain = OnView(ComponentType::kShort, AccessorType::kScalar, 6, bytes);
  auto r = ReadAllFloats(plain);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{-32768, -32767, -1, 0, 16384, 32767}));

  r = ReadAllFloats(Normalized(plain));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  ExpectFloatsNear(r.values, {-1.0f, -1.0f, -3.0518509e-05f, 0.0f, 0.50001526f, 1.0f});
  EXPECT_EQ(r.values[0], -1.0f);
  EXPECT_EQ(r.values[1], -1.0f);
  EXPECT_EQ(r.values[5], 1.0f);
}

TEST(ReadFloats, ConvertsUnsignedShortsAsIntegersOrNormalized) {
  const Bytes bytes = {0x00, 0x00, 0x01, 0x00, 0x00, 0x80, 0xFF, 0xFF};  // 0 1 32768 65535
  const AccessorDesc plain = OnView(ComponentType::kUnsignedShort, AccessorType::kScalar, 4, bytes);
  auto r = ReadAllFloats(plain);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{0, 1, 32768, 65535}));

  r = ReadAllFloats(Normalized(plain));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  ExpectFloatsNear(r.values, {0.0f, 1.5259022e-05f, 0.50000763f, 1.0f});
  EXPECT_EQ(r.values[3], 1.0f);
}

TEST(ReadFloats, ConvertsUnsignedIntsToTheNearestFloat) {
  // 0, 1, 16777216, 4294967295.
  const Bytes bytes = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF};
  auto r = ReadAllFloats(OnView(ComponentType::kUnsignedInt, AccessorType::kScalar, 4, bytes));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{0.0f, 1.0f, 16777216.0f, 4294967296.0f}));
}

TEST(ReadFloats, CopiesFloatsBitForBit) {
  Bytes bytes;
  Append<float>(bytes, {1.5f, -2.25f, -0.0f, 1e30f});
  auto r = ReadAllFloats(OnView(ComponentType::kFloat, AccessorType::kVec2, 2, bytes));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1.5f, -2.25f, -0.0f, 1e30f}));
  EXPECT_TRUE(std::signbit(r.values[2]));
}

// ---- Strides and matrices ----------------------------------------------------------------------

TEST(ReadFloats, ReadsVec3FloatsWithByteStride16AndAByteOffset) {
  Bytes bytes;
  Append<float>(bytes, {-99});           // Before byteOffset 4.
  Append<float>(bytes, {1, 2, 3, -99});  // Element 0 and 4 bytes of another attribute.
  Append<float>(bytes, {4, 5, 6, -99});  // Element 1.
  Append<float>(bytes, {7, 8, 9});       // Element 2: the view ends right after it.
  ASSERT_EQ(bytes.size(), 4u + 16u * 2u + 12u);
  auto r = ReadAllFloats(OnView(ComponentType::kFloat, AccessorType::kVec3, 3, bytes, 16, 4));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(ReadFloats, ReadsVec3FloatsWithByteStride20) {
  Bytes bytes;
  Append<float>(bytes, {1, 2, 3, -99, -99});
  Append<float>(bytes, {4, 5, 6, -99, -99});
  Append<float>(bytes, {7, 8, 9, -99, -99});
  auto r = ReadAllFloats(OnView(ComponentType::kFloat, AccessorType::kVec3, 3, bytes, 20));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(ReadFloats, DropsThePaddingOfMat2UnsignedByteColumns) {
  // Each 2-byte column is padded to 4 bytes (0xEE here, which must not show up).
  const Bytes bytes = {
      255, 0,   0xEE, 0xEE, 51,  102, 0xEE, 0xEE,  // Element 0: columns (1, 0), (0.2, 0.4).
      0,   255, 0xEE, 0xEE, 153, 204, 0xEE, 0xEE,  // Element 1: columns (0, 1), (0.6, 0.8).
  };
  auto r = ReadAllFloats(
      Normalized(OnView(ComponentType::kUnsignedByte, AccessorType::kMat2, 2, bytes)));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1.0f, 0.0f, 0.2f, 0.4f, 0.0f, 1.0f, 0.6f, 0.8f}));
}

TEST(ReadFloats, DropsThePaddingOfMat3ShortColumnsAndAcceptsAnOmittedTrailingPad) {
  // Each column: 3 shorts (6 bytes) + 2 padding bytes (0x7F7F = 32639 if misread).
  const Bytes bytes = {
      // Element 0: (1, 2, 3), (-4, 5, -6), (7, -8, 9).
      0x01,
      0x00,
      0x02,
      0x00,
      0x03,
      0x00,
      0x7F,
      0x7F,  //
      0xFC,
      0xFF,
      0x05,
      0x00,
      0xFA,
      0xFF,
      0x7F,
      0x7F,  //
      0x07,
      0x00,
      0xF8,
      0xFF,
      0x09,
      0x00,
      0x7F,
      0x7F,  //
      // Element 1: (100, 200, 300), (-1, -2, -3), (32767, -32768, 0) with no final padding.
      0x64,
      0x00,
      0xC8,
      0x00,
      0x2C,
      0x01,
      0x7F,
      0x7F,  //
      0xFF,
      0xFF,
      0xFE,
      0xFF,
      0xFD,
      0xFF,
      0x7F,
      0x7F,  //
      0xFF,
      0x7F,
      0x00,
      0x80,
      0x00,
      0x00,
  };
  ASSERT_EQ(bytes.size(), 24u + 22u);
  auto r = ReadAllFloats(OnView(ComponentType::kShort, AccessorType::kMat3, 2, bytes));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1, 2, 3, -4, 5, -6, 7, -8, 9,  //
                                          100, 200, 300, -1, -2, -3, 32767, -32768, 0}));
}

TEST(ReadFloats, ReadsMat4FloatsColumnByColumn) {
  Bytes bytes;
  Append<float>(bytes, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1});
  Append<float>(bytes, {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, -1, -2, -3, 1});
  auto r = ReadAllFloats(OnView(ComponentType::kFloat, AccessorType::kMat4, 2, bytes));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1,
                                          2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, -1, -2, -3, 1}));
}

TEST(ReadFloats, ReadsZerosWhenThereIsNoBufferView) {
  auto r = ReadAllFloats(WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, std::vector<float>(12, 0.0f));
}

// ---- Sparse ------------------------------------------------------------------------------------

TEST(ReadFloats, SubstitutesSparseValuesOverABufferViewWithByteIndices) {
  Bytes base;
  Append<float>(base, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const Bytes indices = {1, 4, 9};
  Bytes values;
  Append<float>(values, {10, 40, 90});
  AccessorDesc accessor = OnView(ComponentType::kFloat, AccessorType::kScalar, 10, base);
  accessor.sparse = Sparse(3, ComponentType::kUnsignedByte, indices, values);
  auto r = ReadAllFloats(accessor);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{0, 10, 2, 3, 40, 5, 6, 7, 8, 90}));
}

TEST(ReadFloats, SubstitutesSparseValuesOverZerosWithShortIndicesAtAByteOffset) {
  const Bytes indices = {0xAA, 0xAA, 0x00, 0x00, 0x03, 0x00};  // 2 junk bytes, then 0 and 3.
  Bytes values;
  Append<float>(values, {-7});  // Junk before values byteOffset 4.
  Append<float>(values, {1, 2, 3, 4, 5, 6});
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 5);
  accessor.sparse = Sparse(2, ComponentType::kUnsignedShort, indices, values, 2, 4);
  auto r = ReadAllFloats(accessor);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<float>{1, 2, 3, 0, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0}));
}

TEST(ReadFloats, NormalizesSparseValuesLikeTheBaseWithUnsignedIntIndices) {
  const Bytes base = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  const Bytes indices = {0x02, 0x00, 0x00, 0x00};  // 2
  const Bytes values = {0x00, 0x00, 0x00, 0x80};   // (0, 32768)
  AccessorDesc accessor =
      Normalized(OnView(ComponentType::kUnsignedShort, AccessorType::kVec2, 3, base));
  accessor.sparse = Sparse(1, ComponentType::kUnsignedInt, indices, values);
  auto r = ReadAllFloats(accessor);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  ExpectFloatsNear(r.values, {1.0f, 1.0f, 1.0f, 1.0f, 0.0f, 0.50000763f});
}

TEST(ReadFloats, SubstitutesPaddedMatrixSparseValues) {
  const Bytes indices = {1};
  const Bytes values = {0x81, 0x7F, 0xEE, 0xEE, 0x00, 0x40};  // (-127, 127), (0, 64); no last pad.
  AccessorDesc accessor = Normalized(WithoutView(ComponentType::kByte, AccessorType::kMat2, 2));
  accessor.sparse = Sparse(1, ComponentType::kUnsignedByte, indices, values);
  auto r = ReadAllFloats(accessor);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  ExpectFloatsNear(r.values, {0, 0, 0, 0, -1.0f, 1.0f, 0.0f, 0.503937f});
}

// ---- ReadUints ---------------------------------------------------------------------------------

TEST(ReadUints, ReadsPackedUnsignedByteJoints) {
  const Bytes bytes = {0, 1, 2, 255, 7, 8, 9, 10};
  auto r = ReadAllUints(OnView(ComponentType::kUnsignedByte, AccessorType::kVec4, 2, bytes));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<uint32_t>{0, 1, 2, 255, 7, 8, 9, 10}));
}

TEST(ReadUints, ReadsUnsignedShortJointsWithByteStride12) {
  const Bytes bytes = {
      0x01, 0x00, 0x02, 0x00, 0x2C, 0x01, 0xFF, 0xFF, 0xAA, 0xAA, 0xAA, 0xAA,  // 1 2 300 65535
      0x04, 0x00, 0x05, 0x00, 0x06, 0x00, 0x07, 0x00,                          // 4 5 6 7
  };
  auto r = ReadAllUints(OnView(ComponentType::kUnsignedShort, AccessorType::kVec4, 2, bytes, 12));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<uint32_t>{1, 2, 300, 65535, 4, 5, 6, 7}));
}

TEST(ReadUints, ReadsUnsignedIntIndicesExactly) {
  const Bytes bytes = {0, 0, 0, 0, 0x70, 0x11, 0x01, 0x00, 0xFF, 0xFF, 0xFF, 0xFF};
  auto r = ReadAllUints(OnView(ComponentType::kUnsignedInt, AccessorType::kScalar, 3, bytes));
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<uint32_t>{0, 70000, 4294967295u}));
}

TEST(ReadUints, AppliesSparseSubstitution) {
  const Bytes base = {1, 0, 2, 0, 3, 0, 4, 0};  // 1 2 3 4
  const Bytes indices = {0, 3};
  const Bytes values = {0x10, 0x27, 0x20, 0x4E};  // 10000 20000
  AccessorDesc accessor = OnView(ComponentType::kUnsignedShort, AccessorType::kScalar, 4, base);
  accessor.sparse = Sparse(2, ComponentType::kUnsignedByte, indices, values);
  auto r = ReadAllUints(accessor);
  ASSERT_TRUE(r.status.ok()) << r.status.error().ToString();
  EXPECT_EQ(r.values, (std::vector<uint32_t>{10000, 2, 3, 20000}));
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(ValidateAccessor, AcceptsByteStride252AndEveryMultipleOf4FromTheElementSize) {
  const Bytes bytes(252 + 12, 0);
  EXPECT_TRUE(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 252)));
  EXPECT_TRUE(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 12)));
  EXPECT_TRUE(
      ValidateAccessor(OnView(ComponentType::kUnsignedByte, AccessorType::kScalar, 2, bytes, 4)));
}

TEST(ValidateAccessor, RejectsAByteStrideBelow4) {
  const Bytes bytes(16, 0);
  ExpectError(
      ValidateAccessor(OnView(ComponentType::kUnsignedByte, AccessorType::kVec2, 2, bytes, 2)),
      Error::kInvalidValue, "/accessors/7/bufferView");
}

TEST(ValidateAccessor, RejectsAByteStrideAbove252) {
  const Bytes bytes(600, 0);
  ExpectError(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 254)),
              Error::kInvalidValue, "/accessors/7/bufferView");
  ExpectError(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 256)),
              Error::kInvalidValue, "/accessors/7/bufferView");
}

TEST(ValidateAccessor, RejectsAByteStrideThatIsNotAMultipleOf4) {
  const Bytes bytes(16, 0);
  ExpectError(
      ValidateAccessor(OnView(ComponentType::kUnsignedShort, AccessorType::kVec2, 2, bytes, 6)),
      Error::kInvalidValue, "/accessors/7/bufferView");
}

TEST(ValidateAccessor, RejectsAByteStrideSmallerThanTheElement) {
  const Bytes bytes(64, 0);
  ExpectError(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 8)),
              Error::kInvalidValue, "/accessors/7/bufferView");
  // MAT3 of bytes is 12 bytes with its column padding.
  ExpectError(ValidateAccessor(OnView(ComponentType::kByte, AccessorType::kMat3, 2, bytes, 8)),
              Error::kInvalidValue, "/accessors/7/bufferView");
}

TEST(ValidateAccessor, RejectsAByteOffsetThatIsNotAMultipleOfTheComponentSize) {
  const Bytes bytes(64, 0);
  ExpectError(
      ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kScalar, 2, bytes, 0, 2)),
      Error::kInvalidValue, "/accessors/7/byteOffset");
  ExpectError(
      ValidateAccessor(OnView(ComponentType::kShort, AccessorType::kScalar, 2, bytes, 0, 1)),
      Error::kInvalidValue, "/accessors/7/byteOffset");
  EXPECT_TRUE(
      ValidateAccessor(OnView(ComponentType::kByte, AccessorType::kScalar, 2, bytes, 0, 1)));
}

TEST(ValidateAccessor, RejectsDataOneBytePastTheEndOfTheView) {
  // Strided: byteOffset 4 + stride 16 + 12 bytes of the last element = 32.
  Bytes bytes(31, 0);
  ExpectError(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 16, 4)),
              Error::kOutOfBounds, "/accessors/7");
  bytes.resize(32);
  EXPECT_TRUE(
      ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes, 16, 4)));
  // Packed: 3 shorts from byteOffset 2 = 8 bytes.
  bytes.assign(7, 0);
  ExpectError(
      ReadAllFloats(OnView(ComponentType::kShort, AccessorType::kScalar, 3, bytes, 0, 2)).status,
      Error::kOutOfBounds, "/accessors/7");
  bytes.resize(8);
  EXPECT_TRUE(
      ValidateAccessor(OnView(ComponentType::kShort, AccessorType::kScalar, 3, bytes, 0, 2)));
}

TEST(ValidateAccessor, LetsTheLastMatrixOmitItsTrailingPaddingButNoMore) {
  Bytes bytes(11, 0);  // MAT3 of bytes: columns at 0, 4, 8; the last one ends at 11.
  EXPECT_TRUE(
      ValidateAccessor(OnView(ComponentType::kUnsignedByte, AccessorType::kMat3, 1, bytes)));
  bytes.resize(10);
  ExpectError(ValidateAccessor(OnView(ComponentType::kUnsignedByte, AccessorType::kMat3, 1, bytes)),
              Error::kOutOfBounds, "/accessors/7");
}

TEST(ValidateAccessor, RejectsHugeCountsAndOffsetsWithoutOverflowing) {
  const Bytes bytes(16, 0);
  ExpectError(ValidateAccessor(OnView(ComponentType::kFloat, AccessorType::kMat4,
                                      std::numeric_limits<uint64_t>::max(), bytes, 64)),
              Error::kOutOfBounds, "/accessors/7");
  ExpectError(ValidateAccessor(OnView(ComponentType::kUnsignedByte, AccessorType::kScalar, 1, bytes,
                                      0, std::numeric_limits<uint64_t>::max())),
              Error::kOutOfBounds, "/accessors/7");
  ExpectError(ValidateAccessor(OnView(ComponentType::kUnsignedByte, AccessorType::kScalar,
                                      uint64_t{1} << 63, bytes, 0, 8)),
              Error::kOutOfBounds, "/accessors/7");
}

TEST(ValidateAccessor, RejectsCountZero) {
  ExpectError(ValidateAccessor(WithoutView(ComponentType::kFloat, AccessorType::kVec3, 0)),
              Error::kInvalidValue, "/accessors/7/count");
}

TEST(ValidateAccessor, RejectsAByteOffsetWithoutABufferView) {
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 2);
  accessor.byte_offset = 12;
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue, "/accessors/7/byteOffset");
}

TEST(ValidateAccessor, RejectsValuesOutsideTheEnums) {
  ExpectError(
      ValidateAccessor(WithoutView(static_cast<ComponentType>(5124), AccessorType::kScalar, 1)),
      Error::kInvalidValue, "/accessors/7/componentType");
  ExpectError(ValidateAccessor(WithoutView(ComponentType::kFloat, static_cast<AccessorType>(7), 1)),
              Error::kInvalidValue, "/accessors/7/type");
}

TEST(ValidateAccessor, RejectsNormalizedFloatAndUnsignedInt) {
  ExpectError(
      ValidateAccessor(Normalized(WithoutView(ComponentType::kFloat, AccessorType::kVec3, 1))),
      Error::kInvalidValue, "/accessors/7/normalized");
  ExpectError(ValidateAccessor(
                  Normalized(WithoutView(ComponentType::kUnsignedInt, AccessorType::kScalar, 1))),
              Error::kInvalidValue, "/accessors/7/normalized");
  Bytes bytes(4, 0);
  ExpectError(
      ReadAllFloats(Normalized(OnView(ComponentType::kFloat, AccessorType::kScalar, 1, bytes)))
          .status,
      Error::kInvalidValue, "/accessors/7/normalized");
}

TEST(ValidateAccessor, RejectsSparseCountZero) {
  const Bytes indices = {0}, values(12, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4);
  accessor.sparse = Sparse(0, ComponentType::kUnsignedByte, indices, values);
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue, "/accessors/7/sparse/count");
}

TEST(ValidateAccessor, RejectsSparseCountAboveTheAccessorCount) {
  const Bytes indices = {0, 1, 2}, values(36, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 2);
  accessor.sparse = Sparse(3, ComponentType::kUnsignedByte, indices, values);
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue, "/accessors/7/sparse/count");
  accessor.count = 3;
  EXPECT_TRUE(ValidateAccessor(accessor));
}

TEST(ValidateAccessor, RejectsSparseIndicesThatAreNotUnsigned) {
  const Bytes indices(4, 0), values(12, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4);
  for (ComponentType bad : {ComponentType::kByte, ComponentType::kShort, ComponentType::kFloat}) {
    accessor.sparse = Sparse(1, bad, indices, values);
    ExpectError(ValidateAccessor(accessor), Error::kInvalidValue,
                "/accessors/7/sparse/indices/componentType");
  }
}

TEST(ValidateAccessor, RejectsSparseViewsWithAByteStride) {
  const Bytes indices(8, 0), values(24, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4);
  accessor.sparse = Sparse(1, ComponentType::kUnsignedShort, indices, values);
  accessor.sparse->indices.byte_stride = 4;
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue,
              "/accessors/7/sparse/indices/bufferView");
  accessor.sparse->indices.byte_stride = 0;
  accessor.sparse->values.byte_stride = 12;
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue,
              "/accessors/7/sparse/values/bufferView");
}

TEST(ValidateAccessor, RejectsMisalignedSparseByteOffsets) {
  const Bytes indices(8, 0), values(32, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4);
  accessor.sparse = Sparse(1, ComponentType::kUnsignedShort, indices, values, 1, 0);
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue,
              "/accessors/7/sparse/indices/byteOffset");
  accessor.sparse = Sparse(1, ComponentType::kUnsignedShort, indices, values, 2, 6);
  ExpectError(ValidateAccessor(accessor), Error::kInvalidValue,
              "/accessors/7/sparse/values/byteOffset");
}

TEST(ValidateAccessor, RejectsSparseIndicesPastTheirView) {
  const Bytes indices = {0, 0, 1};  // 1.5 shorts; two are needed.
  const Bytes values(24, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4);
  accessor.sparse = Sparse(2, ComponentType::kUnsignedShort, indices, values);
  ExpectError(ValidateAccessor(accessor), Error::kOutOfBounds, "/accessors/7/sparse/indices");
  const Bytes four = {0, 0, 1, 0};
  accessor.sparse = Sparse(2, ComponentType::kUnsignedShort, four, values, 2);
  ExpectError(ReadAllFloats(accessor).status, Error::kOutOfBounds, "/accessors/7/sparse/indices");
}

TEST(ValidateAccessor, RejectsSparseValuesPastTheirView) {
  const Bytes indices = {0, 1};
  const Bytes values(23, 0);  // Two VEC3 floats need 24.
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kVec3, 4);
  accessor.sparse = Sparse(2, ComponentType::kUnsignedByte, indices, values);
  ExpectError(ValidateAccessor(accessor), Error::kOutOfBounds, "/accessors/7/sparse/values");
}

TEST(ReadFloats, RejectsSparseIndicesThatDoNotStrictlyIncrease) {
  const Bytes repeated = {1, 1}, decreasing = {3, 2};
  const Bytes values(8, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kScalar, 4);
  for (const Bytes* indices : {&repeated, &decreasing}) {
    accessor.sparse = Sparse(2, ComponentType::kUnsignedByte, *indices, values);
    EXPECT_TRUE(ValidateAccessor(accessor));  // O(1): it does not read the indices.
    ExpectError(ReadAllFloats(accessor).status, Error::kInvalidValue,
                "/accessors/7/sparse/indices");
  }
}

TEST(ReadFloats, RejectsASparseIndexNotBelowTheCount) {
  const Bytes indices = {0x04, 0x00, 0x00, 0x00};  // 4, with count 4.
  const Bytes values(4, 0);
  AccessorDesc accessor = WithoutView(ComponentType::kFloat, AccessorType::kScalar, 4);
  accessor.sparse = Sparse(1, ComponentType::kUnsignedInt, indices, values);
  EXPECT_TRUE(ValidateAccessor(accessor));
  ExpectError(ReadAllFloats(accessor).status, Error::kInvalidValue, "/accessors/7/sparse/indices");
}

TEST(ReadFloats, RejectsAnOutputOfTheWrongSize) {
  const Bytes bytes(24, 0);
  const AccessorDesc accessor = OnView(ComponentType::kFloat, AccessorType::kVec3, 2, bytes);
  std::vector<float> small(5), large(7), exact(6);
  ExpectError(ReadFloats(accessor, small), Error::kInvalidArgument, "/accessors/7");
  ExpectError(ReadFloats(accessor, large), Error::kInvalidArgument, "/accessors/7");
  EXPECT_TRUE(ReadFloats(accessor, exact));
  // A count whose product with the component count overflows never matches.
  const AccessorDesc huge =
      WithoutView(ComponentType::kFloat, AccessorType::kMat4, uint64_t{1} << 62);
  ExpectError(ReadFloats(huge, {}), Error::kInvalidArgument, "/accessors/7");
}

TEST(ReadFloats, ReportsValidationErrorsFirst) {
  const Bytes bytes(16, 0);
  std::vector<float> wrong_size(1);
  ExpectError(
      ReadFloats(OnView(ComponentType::kFloat, AccessorType::kVec2, 2, bytes, 2), wrong_size),
      Error::kInvalidValue, "/accessors/7/bufferView");
}

TEST(ReadUints, RejectsNonUnsignedComponentTypes) {
  const Bytes bytes(16, 0);
  for (ComponentType bad : {ComponentType::kFloat, ComponentType::kByte, ComponentType::kShort}) {
    ExpectError(ReadAllUints(OnView(bad, AccessorType::kScalar, 2, bytes)).status,
                Error::kInvalidValue, "/accessors/7/componentType");
  }
}

TEST(ReadUints, RejectsNormalizedData) {
  const Bytes bytes(8, 0);
  ExpectError(
      ReadAllUints(Normalized(OnView(ComponentType::kUnsignedByte, AccessorType::kVec4, 2, bytes)))
          .status,
      Error::kInvalidValue, "/accessors/7/normalized");
}

TEST(ReadUints, RejectsAnOutputOfTheWrongSize) {
  const Bytes bytes(8, 0);
  const AccessorDesc accessor = OnView(ComponentType::kUnsignedByte, AccessorType::kVec4, 2, bytes);
  std::vector<uint32_t> small(7);
  ExpectError(ReadUints(accessor, small), Error::kInvalidArgument, "/accessors/7");
}

// ---- Randomized robustness ---------------------------------------------------------------------

// A reference decoder written for clarity: byte-by-byte little-endian assembly, every read
// bounds-checked (a read ValidateAccessor should have prevented sets out_of_bounds).
struct Reference {
  bool out_of_bounds = false;

  uint64_t Read(std::span<const uint8_t> bytes, uint64_t at, uint32_t size) {
    uint64_t value = 0;
    for (uint32_t i = 0; i < size; ++i) {
      if (at + i >= bytes.size() || at + i < at) {
        out_of_bounds = true;
        return 0;
      }
      value |= uint64_t{bytes[at + i]} << (8 * i);
    }
    return value;
  }

  float Component(ComponentType type, bool normalized, std::span<const uint8_t> bytes,
                  uint64_t at) {
    switch (type) {
      case ComponentType::kByte: {
        const auto v = static_cast<int8_t>(Read(bytes, at, 1));
        return normalized ? std::max(static_cast<float>(v) / 127.0f, -1.0f) : static_cast<float>(v);
      }
      case ComponentType::kUnsignedByte: {
        const auto v = static_cast<uint8_t>(Read(bytes, at, 1));
        return normalized ? static_cast<float>(v) / 255.0f : static_cast<float>(v);
      }
      case ComponentType::kShort: {
        const auto v = static_cast<int16_t>(Read(bytes, at, 2));
        return normalized ? std::max(static_cast<float>(v) / 32767.0f, -1.0f)
                          : static_cast<float>(v);
      }
      case ComponentType::kUnsignedShort: {
        const auto v = static_cast<uint16_t>(Read(bytes, at, 2));
        return normalized ? static_cast<float>(v) / 65535.0f : static_cast<float>(v);
      }
      case ComponentType::kUnsignedInt:
        return static_cast<float>(static_cast<uint32_t>(Read(bytes, at, 4)));
      case ComponentType::kFloat: {
        const auto bits = static_cast<uint32_t>(Read(bytes, at, 4));
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
      }
    }
    return 0;
  }

  // Appends one element's components, matrix columns at 4-byte-aligned offsets.
  void Element(const AccessorDesc& a, std::span<const uint8_t> bytes, uint64_t at, float* out) {
    const uint32_t size = ComponentSize(a.component_type);
    uint32_t rows = 0, cols = 1;
    switch (a.type) {
      case AccessorType::kScalar:
        rows = 1;
        break;
      case AccessorType::kVec2:
        rows = 2;
        break;
      case AccessorType::kVec3:
        rows = 3;
        break;
      case AccessorType::kVec4:
        rows = 4;
        break;
      case AccessorType::kMat2:
        rows = cols = 2;
        break;
      case AccessorType::kMat3:
        rows = cols = 3;
        break;
      case AccessorType::kMat4:
        rows = cols = 4;
        break;
    }
    uint32_t column_stride = rows * size;
    if (cols > 1) column_stride = (column_stride + 3) / 4 * 4;
    for (uint32_t c = 0; c < cols; ++c) {
      for (uint32_t r = 0; r < rows; ++r) {
        out[c * rows + r] =
            Component(a.component_type, a.normalized, bytes, at + c * column_stride + r * size);
      }
    }
  }

  // Returns false when the sparse indices break the rules.
  bool Decode(const AccessorDesc& a, std::vector<float>& out) {
    const uint32_t n = ComponentCount(a.type);
    const uint32_t element = ElementSize(a.component_type, a.type);
    out.assign(a.count * n, 0.0f);
    if (a.view) {
      const uint64_t stride = a.view->byte_stride ? a.view->byte_stride : element;
      for (uint64_t i = 0; i < a.count; ++i) {
        Element(a, a.view->bytes, a.byte_offset + i * stride, &out[i * n]);
      }
    }
    if (a.sparse) {
      const SparseDesc& s = *a.sparse;
      const uint32_t index_size = ComponentSize(s.index_type);
      for (uint64_t j = 0; j < s.count; ++j) {
        const uint64_t index =
            Read(s.indices.bytes, s.indices_byte_offset + j * index_size, index_size);
        if (index >= a.count) return false;
        if (j > 0 && index <= Read(s.indices.bytes, s.indices_byte_offset + (j - 1) * index_size,
                                   index_size)) {
          return false;
        }
        Element(a, s.values.bytes, s.values_byte_offset + j * element, &out[index * n]);
      }
    }
    return true;
  }
};

TEST(ReadFloats, NeverReadsOutOfBoundsOnTwentyThousandRandomAccessors) {
  std::mt19937_64 rng(0x5EED'61F7);
  auto uniform = [&](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  // Each view gets its own allocation of exactly its size, so AddressSanitizer sees any
  // read past either end.
  auto random_bytes = [&](uint64_t size) {
    std::vector<uint8_t> bytes(size);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    return bytes;
  };
  // Around `needed`, a few bytes either way, sometimes anything.
  auto size_near = [&](uint64_t needed) -> uint64_t {
    if (chance(0.15)) return uniform(0, 160);
    const int64_t delta = static_cast<int64_t>(uniform(0, 10)) - 2;
    return static_cast<uint64_t>(std::max<int64_t>(0, static_cast<int64_t>(needed) + delta));
  };
  constexpr ComponentType kComponents[] = {
      ComponentType::kByte,          ComponentType::kUnsignedByte, ComponentType::kShort,
      ComponentType::kUnsignedShort, ComponentType::kUnsignedInt,  ComponentType::kFloat};
  constexpr ComponentType kIndexTypes[] = {
      ComponentType::kUnsignedByte, ComponentType::kUnsignedShort, ComponentType::kUnsignedInt};

  int valid = 0, valid_with_sparse = 0, decoded = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    AccessorDesc a;
    a.index = static_cast<uint32_t>(iteration);
    a.component_type = chance(0.01) ? static_cast<ComponentType>(5124) : kComponents[uniform(0, 5)];
    a.type = static_cast<AccessorType>(uniform(0, chance(0.01) ? 9 : 6));
    a.normalized = chance(0.3);
    a.count = chance(0.02) ? (chance(0.5) ? std::numeric_limits<uint64_t>::max()
                                          : uint64_t{1} << uniform(20, 62))
                           : uniform(0, 9);
    const uint32_t component = std::max(1u, ComponentSize(a.component_type));
    const uint32_t element = std::max(1u, ElementSize(a.component_type, a.type));

    std::vector<uint8_t> view_bytes, index_bytes, value_bytes;
    if (chance(0.8)) {
      uint32_t stride = 0;
      if (chance(0.4)) {
        stride = chance(0.8) ? static_cast<uint32_t>(uniform(element, 68) / 4 * 4)
                             : static_cast<uint32_t>(uniform(0, 300));
      }
      a.byte_offset = chance(0.03) ? std::numeric_limits<uint64_t>::max() - uniform(0, 8)
                                   : uniform(0, 6) * (chance(0.9) ? component : 1);
      const uint64_t step = stride != 0 ? stride : element;
      const uint64_t needed =
          a.count <= 16 ? a.byte_offset + step * (a.count == 0 ? 0 : a.count - 1) + element : 64;
      view_bytes = random_bytes(a.byte_offset > 1000 ? uniform(0, 64) : size_near(needed));
      a.view = ViewBytes{view_bytes, stride};
    } else if (chance(0.05)) {
      a.byte_offset = uniform(1, 8);
    }
    if (chance(0.4)) {
      SparseDesc s;
      const uint64_t max_count = std::min<uint64_t>(a.count, 12);
      s.count =
          static_cast<uint32_t>(chance(0.9) ? uniform(std::min<uint64_t>(1, max_count), max_count)
                                            : uniform(0, max_count + 2));
      s.index_type = chance(0.95) ? kIndexTypes[uniform(0, 2)] : kComponents[uniform(0, 5)];
      const uint32_t index_size = std::max(1u, ComponentSize(s.index_type));
      s.indices_byte_offset = uniform(0, 3) * (chance(0.9) ? index_size : 1);
      s.values_byte_offset = uniform(0, 3) * (chance(0.9) ? component : 1);
      index_bytes = random_bytes(size_near(s.indices_byte_offset + s.count * index_size));
      // Mostly strictly increasing indices, each 0-2 past the previous; otherwise small random
      // ones (so repeats, decreases and indices >= count all occur); else the random bytes.
      const bool increasing = chance(0.7);
      if ((increasing || chance(0.7)) && index_bytes.size() >= s.indices_byte_offset) {
        const uint64_t limit = std::min<uint64_t>(a.count, 12);
        uint64_t next = uniform(0, 2);
        for (uint64_t j = 0; j < s.count; ++j) {
          const uint64_t index = increasing ? next : uniform(0, limit);
          const uint64_t at = s.indices_byte_offset + j * index_size;
          for (uint32_t b = 0; b < index_size && at + b < index_bytes.size(); ++b) {
            index_bytes[at + b] = static_cast<uint8_t>(index >> (8 * b));
          }
          next += uniform(1, 2);
        }
      }
      value_bytes = random_bytes(size_near(s.values_byte_offset + s.count * element));
      s.indices = ViewBytes{index_bytes, chance(0.03) ? 4u : 0u};
      s.values = ViewBytes{value_bytes, chance(0.03) ? 4u : 0u};
      a.sparse = s;
    }

    const Status validation = ValidateAccessor(a);
    const uint64_t components = std::max(1u, ComponentCount(a.type));
    if (!validation.ok()) {
      EXPECT_EQ(validation.error().where.rfind("/accessors/" + std::to_string(a.index), 0), 0u);
      if (a.count <= 16) {
        std::vector<float> out(a.count * components);
        const Status read = ReadFloats(a, out);
        EXPECT_EQ(read.code(), validation.code());
        EXPECT_EQ(read.error().where, validation.error().where);
      }
      continue;
    }
    ++valid;
    if (a.sparse) ++valid_with_sparse;
    if (a.count > 4096) {  // Only possible without a view: too big to decode here.
      EXPECT_EQ(ReadFloats(a, {}).code(), Error::kInvalidArgument);
      continue;
    }
    Reference reference;
    std::vector<float> expected;
    const bool sparse_ok = reference.Decode(a, expected);
    ASSERT_FALSE(reference.out_of_bounds)
        << "validated accessor reads out of bounds, iteration " << iteration;
    std::vector<float> out(a.count * components, kUntouched);
    const Status read = ReadFloats(a, out);
    if (!sparse_ok) {
      EXPECT_EQ(read.code(), Error::kInvalidValue) << iteration;
      EXPECT_EQ(read.error().where, "/accessors/" + std::to_string(a.index) + "/sparse/indices");
      continue;
    }
    ASSERT_TRUE(read.ok()) << read.error().ToString();
    ++decoded;
    ASSERT_EQ(std::memcmp(out.data(), expected.data(), out.size() * sizeof(float)), 0)
        << "iteration " << iteration;

    const bool integer = a.component_type == ComponentType::kUnsignedByte ||
                         a.component_type == ComponentType::kUnsignedShort ||
                         a.component_type == ComponentType::kUnsignedInt;
    std::vector<uint32_t> uints(a.count * components);
    const Status read_uints = ReadUints(a, uints);
    if (integer && !a.normalized) {
      ASSERT_TRUE(read_uints.ok()) << read_uints.error().ToString();
      for (size_t i = 0; i < uints.size(); ++i) {
        ASSERT_EQ(static_cast<float>(uints[i]), expected[i]) << "iteration " << iteration;
      }
    } else {
      EXPECT_EQ(read_uints.code(), Error::kInvalidValue);
    }
  }
  // The generator must exercise decoding, not just rejection.
  EXPECT_GT(valid, 5000);
  EXPECT_GT(valid_with_sparse, 1000);
  EXPECT_GT(decoded, 5000);
}

}  // namespace
}  // namespace sinew::loader::gltf
