#include "sinew/core/vertex_formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

namespace sinew {
namespace {

// floor(v · scale + 0.5) of v clamped to [-1, 1] (or [0, 1] for weights), the formula the kernels
// round with too (shaders/vertex_formats.glsl; a GPU may fuse its multiply-add, so a value within
// an ulp of a tie can round the other way there).
int32_t Quantize(float v, float lo, float scale) {
  return static_cast<int32_t>(std::floor(std::clamp(v, lo, 1.0f) * scale + 0.5f));
}

// The low `bits` bits of `word` from bit `offset` as a two's complement integer.
int32_t SignedField(uint32_t word, uint32_t offset, uint32_t bits) {
  const auto field = static_cast<int32_t>(word << (32 - offset - bits));
  return field >> (32 - bits);
}

float Snorm(int32_t q, float scale) { return std::max(static_cast<float>(q) / scale, -1.0f); }

float SignNotZero(float v) { return v < 0.0f ? -1.0f : 1.0f; }

// The octahedral coordinates of direction d (0, 0 for a zero vector).
void OctahedralCoordinates(float x, float y, float z, float* u, float* v) {
  const float s = std::fabs(x) + std::fabs(y) + std::fabs(z);
  if (s == 0.0f) {
    *u = *v = 0.0f;
    return;
  }
  float px = x / s, py = y / s;
  if (z < 0.0f) {
    const float fx = (1.0f - std::fabs(py)) * SignNotZero(px);
    const float fy = (1.0f - std::fabs(px)) * SignNotZero(py);
    px = fx;
    py = fy;
  }
  *u = px;
  *v = py;
}

Float3 OctahedralDirection(float u, float v) {
  Float3 n{u, v, 1.0f - std::fabs(u) - std::fabs(v)};
  const float t = std::max(-n.z, 0.0f);
  n.x += n.x >= 0.0f ? -t : t;
  n.y += n.y >= 0.0f ? -t : t;
  const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  return {n.x / len, n.y / len, n.z / len};
}

constexpr float kSnorm16 = 32767.0f;
constexpr float kSnorm15 = 16383.0f;
constexpr float kSnorm10 = 511.0f;

uint32_t Field(int32_t q, uint32_t bits, uint32_t offset) {
  return (static_cast<uint32_t>(q) & ((1u << bits) - 1u)) << offset;
}

uint32_t EncodeSnorm10(float x, float y, float z, float w) {
  const int32_t qw = w > 0.0f ? 1 : (w < 0.0f ? -1 : 0);
  return Field(Quantize(x, -1.0f, kSnorm10), 10, 0) | Field(Quantize(y, -1.0f, kSnorm10), 10, 10) |
         Field(Quantize(z, -1.0f, kSnorm10), 10, 20) | Field(qw, 2, 30);
}

Float4 DecodeSnorm10(uint32_t word) {
  return {Snorm(SignedField(word, 0, 10), kSnorm10), Snorm(SignedField(word, 10, 10), kSnorm10),
          Snorm(SignedField(word, 20, 10), kSnorm10), Snorm(SignedField(word, 30, 2), 1.0f)};
}

}  // namespace

uint32_t WeightBytes(WeightFormat format) {
  switch (format) {
    case WeightFormat::kUnorm16:
      return 2;
    case WeightFormat::kUnorm8:
      return 1;
    case WeightFormat::kFloat32:
      break;
  }
  return 4;
}

uint32_t NormalBytes(DirectionFormat format) {
  return format == DirectionFormat::kFloat32 ? 12 : 4;
}

uint32_t TangentBytes(DirectionFormat format) {
  return format == DirectionFormat::kFloat32 ? 16 : 4;
}

uint32_t JointIndexBits(uint32_t palette_size) {
  return palette_size <= 256u ? 8u : (palette_size <= 65536u ? 16u : 32u);
}

void QuantizeWeights(std::span<const float> weights, uint32_t per_vertex, WeightFormat format,
                     std::span<uint32_t> out) {
  const double scale = format == WeightFormat::kUnorm8 ? 255.0 : 65535.0;
  const size_t group = std::max<uint32_t>(per_vertex, 1);
  std::vector<std::pair<double, size_t>> remainders;  // (remainder, index), largest first
  for (size_t first = 0; first < weights.size(); first += group) {
    const size_t end = std::min(weights.size(), first + group);
    // Largest remainders: every weight rounded down, then the ones that lost most rounded up
    // until the group's integers add up to its sum rounded to nearest. Each integer stays within
    // one step of its weight, and a zero weight (no remainder) is never rounded up.
    double sum = 0;
    int64_t total = 0;
    remainders.clear();
    for (size_t i = first; i < end; ++i) {
      const double x = std::clamp(double(weights[i]), 0.0, 1.0) * scale;
      const double down = std::floor(x);
      out[i] = static_cast<uint32_t>(down);
      total += out[i];
      sum += x;
      remainders.emplace_back(x - down, i);
    }
    int64_t up = static_cast<int64_t>(std::floor(sum + 0.5)) - total;
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t r = 0; r < remainders.size() && up > 0 && remainders[r].first > 0; ++r, --up) {
      ++out[remainders[r].second];
    }
  }
}

float DequantizeWeight(uint32_t q, WeightFormat format) {
  return static_cast<float>(q) / (format == WeightFormat::kUnorm8 ? 255.0f : 65535.0f);
}

PositionGrid PositionGridOf(std::span<const float> xyz) {
  if (xyz.size() < 3) return {};
  float lo[3] = {xyz[0], xyz[1], xyz[2]}, hi[3] = {xyz[0], xyz[1], xyz[2]};
  for (size_t i = 0; i < xyz.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], xyz[i]);
    hi[i % 3] = std::max(hi[i % 3], xyz[i]);
  }
  const auto step = [&](int a) { return (hi[a] - lo[a]) / 65535.0f; };
  return {{lo[0], lo[1], lo[2]}, {step(0), step(1), step(2)}};
}

size_t QuantizedPositionWords(size_t vertex_count) { return (vertex_count * 3 + 1) / 2; }

void QuantizePositions(std::span<const float> xyz, const PositionGrid& grid,
                       std::span<uint32_t> out) {
  const float origin[3] = {grid.origin.x, grid.origin.y, grid.origin.z};
  const float step[3] = {grid.step.x, grid.step.y, grid.step.z};
  const auto lane = [&](size_t i) -> uint32_t {
    if (i >= xyz.size()) return 0;
    const size_t a = i % 3;
    const float q = step[a] > 0.0f ? std::floor((xyz[i] - origin[a]) / step[a] + 0.5f) : 0.0f;
    return static_cast<uint32_t>(std::clamp(q, 0.0f, 65535.0f));
  };
  // Whole words, each stored once (`out` may be mapped memory that is slow to read).
  for (size_t i = 0; i < xyz.size(); i += 2) out[i / 2] = lane(i) | lane(i + 1) << 16;
}

Float3 DequantizePosition(std::span<const uint32_t> words, size_t v, const PositionGrid& grid) {
  const auto at = [&](size_t i) {
    return static_cast<float>((words[i / 2] >> (16 * (i % 2))) & 0xFFFFu);
  };
  return {grid.origin.x + at(3 * v) * grid.step.x, grid.origin.y + at(3 * v + 1) * grid.step.y,
          grid.origin.z + at(3 * v + 2) * grid.step.z};
}

uint16_t FloatToHalf(float f) {
  uint32_t x = 0;
  std::memcpy(&x, &f, sizeof(x));
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t exponent = (x >> 23) & 0xFFu, mantissa = x & 0x7FFFFFu;
  if (exponent == 0xFFu) return sign | 0x7C00u | (mantissa ? 0x200u : 0u);  // inf, NaN
  const int32_t e = int32_t(exponent) - 127 + 15;
  if (e >= 31) return sign | 0x7C00u;
  // Round `value` shifted right by `shift` to nearest, ties to even.
  const auto round = [](uint32_t value, uint32_t shift) {
    const uint32_t kept = value >> shift, rest = value & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
  };
  if (e <= 0) {  // a subnormal half, or zero
    if (e < -10) return sign;
    return static_cast<uint16_t>(sign | round(mantissa | 0x800000u, uint32_t(14 - e)));
  }
  // A carry out of the mantissa rounds up into the exponent (to infinity past kHalfMax).
  return static_cast<uint16_t>(sign | round((uint32_t(e) << 23) | mantissa, 13));
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  uint32_t bits = 0;
  if (exponent == 0x1Fu) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {  // subnormal: mantissa · 2^-24
    const float value = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -value : value;
  } else {
    bits = sign;
  }
  float f = 0;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint32_t EncodeNormal(Float3 n, DirectionFormat format) {
  if (format == DirectionFormat::kSnorm10) return EncodeSnorm10(n.x, n.y, n.z, 0.0f);
  float u = 0, v = 0;
  OctahedralCoordinates(n.x, n.y, n.z, &u, &v);
  return Field(Quantize(u, -1.0f, kSnorm16), 16, 0) | Field(Quantize(v, -1.0f, kSnorm16), 16, 16);
}

uint32_t EncodeTangent(Float4 t, DirectionFormat format) {
  if (format == DirectionFormat::kSnorm10) return EncodeSnorm10(t.x, t.y, t.z, t.w);
  float u = 0, v = 0;
  OctahedralCoordinates(t.x, t.y, t.z, &u, &v);
  return Field(Quantize(u, -1.0f, kSnorm16), 16, 0) | Field(Quantize(v, -1.0f, kSnorm15), 15, 16) |
         (t.w < 0.0f ? 0x80000000u : 0u);
}

Float3 DecodeNormal(uint32_t word, DirectionFormat format) {
  if (format == DirectionFormat::kSnorm10) {
    const Float4 d = DecodeSnorm10(word);
    return {d.x, d.y, d.z};
  }
  return OctahedralDirection(Snorm(SignedField(word, 0, 16), kSnorm16),
                             Snorm(SignedField(word, 16, 16), kSnorm16));
}

Float4 DecodeTangent(uint32_t word, DirectionFormat format) {
  if (format == DirectionFormat::kSnorm10) return DecodeSnorm10(word);
  const Float3 d = OctahedralDirection(Snorm(SignedField(word, 0, 16), kSnorm16),
                                       Snorm(SignedField(word, 16, 15), kSnorm15));
  return {d.x, d.y, d.z, (word & 0x80000000u) ? -1.0f : 1.0f};
}

}  // namespace sinew
