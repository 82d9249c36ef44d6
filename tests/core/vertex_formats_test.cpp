// The compact vertex encodings (vertex_formats.h): exact where they promise to be (weight sums,
// handedness, the snorm10 bit layout Vulkan's A2B10G10R10_SNORM_PACK32 reads), and within the
// stated angles elsewhere, over a dense sphere of directions.
#include "sinew/core/vertex_formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace sinew {
namespace {

constexpr double kPi = 3.14159265358979323846;

double AngleDegrees(Float3 a, Float3 b) {
  const double dot = double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z;
  const double la = std::sqrt(double(a.x) * a.x + double(a.y) * a.y + double(a.z) * a.z);
  const double lb = std::sqrt(double(b.x) * b.x + double(b.y) * b.y + double(b.z) * b.z);
  return std::acos(std::clamp(dot / (la * lb), -1.0, 1.0)) * 180.0 / kPi;
}

// Unit directions spread over the sphere (a Fibonacci lattice) plus the six axes and the
// octahedron's edges, where the octahedral fold changes sides.
std::vector<Float3> Directions() {
  std::vector<Float3> out = {{1, 0, 0},  {-1, 0, 0},  {0, 1, 0},       {0, -1, 0},
                             {0, 0, 1},  {0, 0, -1},  {1, 1, 0},       {-1, 1, 0},
                             {1, -1, 0}, {-1, -1, 0}, {0.6f, 0, -0.8f}};
  constexpr int kCount = 20000;
  for (int i = 0; i < kCount; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / kCount, r = std::sqrt(1.0 - z * z);
    const double phi = i * kPi * (3.0 - std::sqrt(5.0));
    out.push_back({float(r * std::cos(phi)), float(r * std::sin(phi)), float(z)});
  }
  for (Float3& d : out) {
    const float len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    d = {d.x / len, d.y / len, d.z / len};
  }
  return out;
}

TEST(VertexFormats, OctahedralNormalsComeBackWithinFourThousandthsOfADegree) {
  double worst = 0;
  for (const Float3& d : Directions()) {
    worst = std::max(worst, AngleDegrees(DecodeNormal(EncodeNormal(d, DirectionFormat::kOctahedral),
                                                      DirectionFormat::kOctahedral),
                                         d));
  }
  EXPECT_LT(worst, 0.004);  // measured: 0.0036
  EXPECT_GT(worst, 0.0) << "16-bit coordinates cannot be exact everywhere";
}

TEST(VertexFormats, OctahedralTangentsKeepTheirHandednessAndComeBackWithinSixThousandths) {
  double worst = 0;
  for (const Float3& d : Directions()) {
    for (const float w : {1.0f, -1.0f}) {
      const Float4 t =
          DecodeTangent(EncodeTangent({d.x, d.y, d.z, w}, DirectionFormat::kOctahedral),
                        DirectionFormat::kOctahedral);
      ASSERT_EQ(t.w, w);
      worst = std::max(worst, AngleDegrees({t.x, t.y, t.z}, d));
    }
  }
  EXPECT_LT(worst, 0.006);  // measured: 0.0056 (15 bits for y)
}

TEST(VertexFormats, Snorm10DirectionsComeBackWithinATenthOfADegree) {
  double worst = 0;
  for (const Float3& d : Directions()) {
    const Float4 t = DecodeTangent(EncodeTangent({d.x, d.y, d.z, -1}, DirectionFormat::kSnorm10),
                                   DirectionFormat::kSnorm10);
    ASSERT_EQ(t.w, -1.0f);
    worst = std::max(worst, AngleDegrees({t.x, t.y, t.z}, d));
  }
  EXPECT_LT(worst, 0.1);  // measured: 0.092
}

TEST(VertexFormats, Snorm10IsTheBitLayoutOfA2B10G10R10SnormPack32) {
  // R (x) in bits 0-9, G (y) 10-19, B (z) 20-29, A (w) 30-31, two's complement.
  EXPECT_EQ(EncodeTangent({1, 0, -1, -1}, DirectionFormat::kSnorm10),
            511u | 0u << 10 | (1024u - 511u) << 20 | 3u << 30);
  EXPECT_EQ(EncodeNormal({0, 1, 0}, DirectionFormat::kSnorm10), 511u << 10);
  const Float3 n = DecodeNormal(1u << 9, DirectionFormat::kSnorm10);  // -512: clamps to -1
  EXPECT_EQ(n.x, -1.0f);
}

TEST(VertexFormats, AZeroDirectionDecodesAsPlusZOctahedralAndStaysZeroInSnorm10) {
  const Float3 oct = DecodeNormal(EncodeNormal({0, 0, 0}, DirectionFormat::kOctahedral),
                                  DirectionFormat::kOctahedral);
  EXPECT_EQ(oct.z, 1.0f);
  const Float3 s10 =
      DecodeNormal(EncodeNormal({0, 0, 0}, DirectionFormat::kSnorm10), DirectionFormat::kSnorm10);
  EXPECT_EQ(s10.x, 0.0f);
  EXPECT_EQ(s10.y, 0.0f);
  EXPECT_EQ(s10.z, 0.0f);
}

TEST(VertexFormats, QuantizedWeightsKeepEachVertexSumAndLeaveZerosZero) {
  const std::vector<float> weights = {0.1f,     0.2f,     0.3f,     0.4f,   // sum 1
                                      1.0f / 3, 1.0f / 3, 1.0f / 3, 0.0f,   // rounds down thrice
                                      0.0f,     0.0f,     0.0f,     0.0f,   // none
                                      0.5f,     0.25f,    0.0f,     0.0f};  // sum 0.75
  for (const WeightFormat format : {WeightFormat::kUnorm16, WeightFormat::kUnorm8}) {
    const uint32_t one = format == WeightFormat::kUnorm8 ? 255 : 65535;
    std::vector<uint32_t> q(weights.size());
    QuantizeWeights(weights, 4, format, q);
    EXPECT_EQ(q[0] + q[1] + q[2] + q[3], one);
    EXPECT_EQ(q[4] + q[5] + q[6] + q[7], one);
    EXPECT_EQ(q[7], 0u);
    EXPECT_EQ(q[8] + q[9] + q[10] + q[11], 0u);
    EXPECT_EQ(q[12] + q[13], uint32_t(std::floor(0.75 * one + 0.5)));
    EXPECT_EQ(q[14], 0u);
    for (size_t i = 0; i < weights.size(); ++i) {
      EXPECT_LT(std::fabs(DequantizeWeight(q[i], format) - weights[i]), 1.0 / one) << i;
    }
  }
}

// Groups of 16 random weights normalized to 1: each integer within one step of its weight (the
// rounding is spread over the weights that lost most, not put on one), and the sum exact.
TEST(VertexFormats, QuantizedWeightsStayWithinOneStepEachOverManyInfluences) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (const WeightFormat format : {WeightFormat::kUnorm16, WeightFormat::kUnorm8}) {
    const uint32_t one = format == WeightFormat::kUnorm8 ? 255 : 65535;
    for (int vertex = 0; vertex < 1000; ++vertex) {
      std::vector<float> w(16);
      float sum = 0;
      for (float& x : w) sum += (x = uniform(random));
      for (float& x : w) x /= sum;
      std::vector<uint32_t> q(w.size());
      QuantizeWeights(w, 16, format, q);
      uint32_t total = 0;
      for (size_t i = 0; i < w.size(); ++i) {
        total += q[i];
        ASSERT_LT(std::fabs(double(q[i]) - double(w[i]) * one), 1.0) << vertex << " " << i;
      }
      ASSERT_EQ(total, one) << vertex;
    }
  }
}

// Positions on the bounds' grid come back within half a step per axis (and float rounding of
// origin + q · step: 1e-6 at these magnitudes); a flat axis (every vertex
// at z = 2) comes back exactly; 1,001 vertices take 1,502 words (3,003 values, two to a word,
// the last word's upper half zero). Each word is stored whole over whatever the buffer held: the
// buffer is often mapped device memory, which the packing must not read.
TEST(VertexFormats, Unorm16PositionsComeBackWithinHalfAStepOfTheBoundsGrid) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> uniform(-5.0f, 7.0f);
  std::vector<float> xyz;
  for (int v = 0; v < 1001; ++v) xyz.insert(xyz.end(), {uniform(random), uniform(random), 2.0f});
  const PositionGrid grid = PositionGridOf(xyz);
  EXPECT_EQ(grid.step.z, 0.0f);
  EXPECT_GT(grid.step.x, 0.0f);
  ASSERT_EQ(QuantizedPositionWords(1001), 1502u);
  std::vector<uint32_t> words(QuantizedPositionWords(1001), 0xFFFFFFFFu);
  QuantizePositions(xyz, grid, words);
  EXPECT_EQ(words.back() >> 16, 0u);
  for (size_t v = 0; v < 1001; ++v) {
    const Float3 p = DequantizePosition(words, v, grid);
    ASSERT_LE(std::fabs(p.x - xyz[v * 3]), 0.5f * grid.step.x + 1e-6f) << v;
    ASSERT_LE(std::fabs(p.y - xyz[v * 3 + 1]), 0.5f * grid.step.y + 1e-6f) << v;
    ASSERT_EQ(p.z, 2.0f) << v;
  }
}

// Half floats: every finite half comes back exactly through float; known encodings; rounding to
// nearest with ties to even; past kHalfMax infinite; below the smallest subnormal, zero.
TEST(VertexFormats, HalfFloatsRoundToNearestEvenAndComeBackExactly) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) continue;  // NaN
    ASSERT_EQ(FloatToHalf(HalfToFloat(uint16_t(h))), h) << h;
  }
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00u);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000u);
  EXPECT_EQ(FloatToHalf(0.1f), 0x2E66u);
  EXPECT_EQ(FloatToHalf(kHalfMax), 0x7BFFu);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00u);             // halfway past the largest: infinite
  EXPECT_EQ(FloatToHalf(1.0f + 0x1p-11f), 0x3C00u);      // a tie: to the even neighbour
  EXPECT_EQ(FloatToHalf(1.0f + 3 * 0x1p-11f), 0x3C02u);  // a tie: to the even neighbour
  EXPECT_EQ(FloatToHalf(0x1p-24f), 0x0001u);             // the smallest subnormal
  EXPECT_EQ(FloatToHalf(0x1p-26f), 0x0000u);             // below half of it
  EXPECT_EQ(HalfToFloat(0x0001u), 0x1p-24f);
}

TEST(VertexFormats, JointIndicesTakeTheNarrowestWidthThatHoldsThePalette) {
  EXPECT_EQ(JointIndexBits(1), 8u);
  EXPECT_EQ(JointIndexBits(256), 8u);
  EXPECT_EQ(JointIndexBits(257), 16u);
  EXPECT_EQ(JointIndexBits(65536), 16u);
  EXPECT_EQ(JointIndexBits(65537), 32u);
}

}  // namespace
}  // namespace sinew
