// Linear blend skinning of eight vertices at once with AVX, where the CPU has it:
// skin_vertex_x4.h's arithmetic, operation for operation, in eight lanes instead of four, so each
// lane computes its vertex's outputs bit for bit as the scalar code does
// (tests/cpu/skin_run_test.cpp runs both widths against it). Each vertex's matrix is summed with
// its first two rows in one 256-bit register; the transforms, the cofactor normals and the
// normalizations run eight vertices wide. Vertex attributes are taken apart and put back with
// vertices 0-3 in the low 128-bit halves and 4-7 in the high ones, so that most shuffles stay
// within a half. Dense meshes of 4 or 8 slots have their slot loop unrolled (DenseLanes<4>,
// DenseLanes<8>) and tell the vertices without weight from the weights themselves rather than
// from a running sum. Where the CPU has AVX-512 (F and VL), SkinLinearX8Avx512 sums each
// vertex's matrices twelve numbers at a time in one 512-bit register instead of a 256-bit and a
// 128-bit one (the same products and sums, one load, multiply and add per entry instead of two),
// and writes the vertices with the same AVX code compiled for AVX-512: its 32 registers spill
// less, and each select is one instruction (WriteSkinnedX8Avx512). Only the functions marked
// SINEW_AVX or SINEW_AVX512 use those instructions: the rest of the runtime stays within x86-64's
// baseline (but for the AVX2 clones of the influence checks,
// runtime/src/asset/influence_prepass.cpp), and the jobs call these only when CpuHasAvx() and
// CpuHasAvx512() say so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "sinew/asset/primitive.h"
#include "sinew/cpu/skin_run.h"
#include "skin_vertex_x4.h"

#if defined(SINEW_SKIN_X4) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SINEW_SKIN_X8 1
#define SINEW_AVX __attribute__((target("avx")))
#define SINEW_AVX512 __attribute__((target("avx512f,avx512vl")))
#define SINEW_INLINE_ALWAYS __attribute__((always_inline))
#endif

namespace sinew::cpu::detail {

#if defined(SINEW_SKIN_X8)

// Whether the CPU (and the operating system, which must save the 256-bit registers) runs AVX.
inline bool CpuHasAvx() noexcept {
  static const bool has = __builtin_cpu_supports("avx");
  return has;
}

// Whether it runs AVX-512's foundation and its 128- and 256-bit forms (and saves their registers).
inline bool CpuHasAvx512() noexcept {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return has;
}

// Eight vertices' blended matrices: rows01[i] holds rows 0 and 1 of lane i's matrix (row 0's four
// columns, then row 1's), row2[i] its row 2, and weight_sum[i] its weights' sum.
struct BlendedRowsX8 {
  __m256 rows01[8];
  __m128 row2[8];
  alignas(32) float weight_sum[8];
};

// Lane i of `out` from vertex i's entries, as BlendLane computes it: the same products and sums,
// rows 0 and 1 side by side. Without `sum_weights`, weight_sum[i] is left as it is.
template <bool finite_palette, bool sum_weights, typename Index>
SINEW_AVX inline void BlendLaneAvx(BlendedRowsX8& out, size_t i, const Index* index,
                                   const float* weight, size_t count, const Float3x4* palette) {
  __m256 rows01 = _mm256_setzero_ps();
  __m128 row2 = _mm_setzero_ps();
  float sum = 0.0f;
  for (size_t e = 0; e < count; ++e) {
    const __m256 w = _mm256_set1_ps(weight[e]);
    if constexpr (sum_weights) sum += weight[e];
    const float* p = &palette[index[e]].row[0].x;
    __m256 add01 = _mm256_mul_ps(w, _mm256_loadu_ps(p));
    __m128 add2 = _mm_mul_ps(_mm256_castps256_ps128(w), _mm_loadu_ps(p + 8));
    if constexpr (!finite_palette) {  // as BlendLane: a zero weight's products masked out
      const __m256 live = _mm256_cmp_ps(w, _mm256_setzero_ps(), _CMP_NEQ_UQ);
      add01 = _mm256_and_ps(live, add01);
      add2 = _mm_and_ps(_mm256_castps256_ps128(live), add2);
    }
    rows01 = _mm256_add_ps(rows01, add01);
    row2 = _mm_add_ps(row2, add2);
  }
  out.rows01[i] = rows01;
  out.row2[i] = row2;
  if constexpr (sum_weights) out.weight_sum[i] = sum;
}

// BlendLaneAvx with AVX-512: each entry's twelve numbers in one register (the load's last four
// lanes masked off, so it reads no further than the entry), each lane of the sum the same products
// and additions as BlendLaneAvx's; a zero weight's products masked out the same way, to +0.
template <bool finite_palette, bool sum_weights, typename Index>
SINEW_AVX512 inline void BlendLaneAvx512(BlendedRowsX8& out, size_t i, const Index* index,
                                         const float* weight, size_t count,
                                         const Float3x4* palette) {
  constexpr __mmask16 kTwelve = 0x0fff;
  __m512 rows = _mm512_setzero_ps();
  float sum = 0.0f;
  for (size_t e = 0; e < count; ++e) {
    const __m512 w = _mm512_set1_ps(weight[e]);
    if constexpr (sum_weights) sum += weight[e];
    const __m512 p = _mm512_maskz_loadu_ps(kTwelve, &palette[index[e]].row[0].x);
    __m512 add;
    if constexpr (finite_palette) {
      add = _mm512_mul_ps(w, p);
    } else {
      add = _mm512_maskz_mul_ps(_mm512_cmp_ps_mask(w, _mm512_setzero_ps(), _CMP_NEQ_UQ), w, p);
    }
    rows = _mm512_add_ps(rows, add);
  }
  // The masked forms of the extracts: GCC 12's unmasked ones warn of an uninitialized variable in
  // its own header, and it emits the same instructions for both.
  out.rows01[i] = _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, _mm512_castps_pd(rows), 0));
  out.row2[i] = _mm512_maskz_extractf32x4_ps(0xf, rows, 2);
  if constexpr (sum_weights) out.weight_sum[i] = sum;
}

// Bit i set where lane i's weights sum to 0, from BlendLaneAvx's sums.
SINEW_AVX inline int LanesSummingToZero(const BlendedRowsX8& blend) {
  return _mm256_movemask_ps(
      _mm256_cmp_ps(_mm256_load_ps(blend.weight_sum), _mm256_setzero_ps(), _CMP_EQ_OQ));
}

// The same bits for eight vertices of k dense slots each (4 or 8) from `weights`, without summing.
// The jobs check the weights finite and non-negative before they skin, and a sum of such numbers
// is 0 exactly when each of them is 0 — or, where the host flushes subnormal numbers to zero
// (MXCSR's FTZ or DAZ), exactly when each is below the smallest normal float. A weight counts
// from that least value up.
template <uint32_t k>
SINEW_AVX inline int LanesWithoutWeight(const float* weights) {
  static_assert(k == 4 || k == 8);
  constexpr uint32_t kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  const float least = (_mm_getcsr() & (kFlushToZero | kDenormalsAreZero)) != 0
                          ? std::numeric_limits<float>::min()
                          : std::numeric_limits<float>::denorm_min();
  const __m256 threshold = _mm256_set1_ps(least);
  uint64_t counts = 0;  // bit j: weights[j] counts, so vertex i's slots are bits k·i .. k·i + k - 1
  for (uint32_t j = 0; j < k; ++j) {
    const __m256 w = _mm256_cmp_ps(_mm256_loadu_ps(weights + 8 * j), threshold, _CMP_GE_OQ);
    counts |= uint64_t(uint32_t(_mm256_movemask_ps(w))) << (8 * j);
  }
  // Whether any vertex's k bits are all clear, in one test: subtracting 1 from each k-bit field
  // borrows into its top bit only where the field is 0 (or a lower field already was).
  constexpr uint64_t ones = k == 4 ? 0x11111111u : 0x0101010101010101u;
  if (((counts - ones) & ~counts & (ones << (k - 1))) == 0) return 0;
  int none = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    if (((counts >> (k * i)) & ((uint64_t(1) << k) - 1)) == 0) none |= 1 << i;
  }
  return none;
}

// A mask of the lanes whose bit is set in `bits`.
SINEW_AVX inline __m256 LaneMask(int bits) {
  alignas(32) float lane[8];
  for (int i = 0; i < 8; ++i) lane[i] = (bits >> i) & 1 ? 1.0f : 0.0f;
  return _mm256_cmp_ps(_mm256_load_ps(lane), _mm256_setzero_ps(), _CMP_NEQ_OQ);
}

// Lanes 0-3 from `low`, 4-7 from `high`.
SINEW_AVX inline __m256 Join(__m128 low, __m128 high) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(low), high, 1);
}

// Four floats from `low` into lanes 0-3 and four from `high` into lanes 4-7, and back.
SINEW_AVX inline __m256 Load2x4(const float* low, const float* high) {
  return Join(_mm_loadu_ps(low), _mm_loadu_ps(high));
}
SINEW_AVX inline void Store2x4(float* low, float* high, __m256 a) {
  _mm_storeu_ps(low, _mm256_castps256_ps128(a));
  _mm_storeu_ps(high, _mm256_extractf128_ps(a, 1));
}

// The 4x4 transpose of a, b, c and d, in each 128-bit half on its own.
SINEW_AVX inline void Transpose4InHalves(__m256& a, __m256& b, __m256& c, __m256& d) {
  const __m256 ab01 = _mm256_unpacklo_ps(a, b), cd01 = _mm256_unpacklo_ps(c, d);
  const __m256 ab23 = _mm256_unpackhi_ps(a, b), cd23 = _mm256_unpackhi_ps(c, d);
  a = _mm256_shuffle_ps(ab01, cd01, _MM_SHUFFLE(1, 0, 1, 0));
  b = _mm256_shuffle_ps(ab01, cd01, _MM_SHUFFLE(3, 2, 3, 2));
  c = _mm256_shuffle_ps(ab23, cd23, _MM_SHUFFLE(1, 0, 1, 0));
  d = _mm256_shuffle_ps(ab23, cd23, _MM_SHUFFLE(3, 2, 3, 2));
}

// Lane i of `mask` ? a : b.
SINEW_AVX inline __m256 Select8(__m256 mask, __m256 a, __m256 b) {
  return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b));
}

// NormalizeOrKeepX4 in eight lanes.
SINEW_AVX inline void NormalizeOrKeepX8(__m256& x, __m256& y, __m256& z) {
  const __m256 len = _mm256_sqrt_ps(
      _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z)));
  const __m256 positive = _mm256_cmp_ps(len, _mm256_setzero_ps(), _CMP_GT_OS);
  x = Select8(positive, _mm256_div_ps(x, len), x);
  y = Select8(positive, _mm256_div_ps(y, len), y);
  z = Select8(positive, _mm256_div_ps(z, len), z);
}

// a · b - c · d and a0 · b0 + a1 · b1 + a2 · b2, in WriteSkinnedX4's order.
SINEW_AVX inline __m256 SubOfProducts8(__m256 a, __m256 b, __m256 c, __m256 d) {
  return _mm256_sub_ps(_mm256_mul_ps(a, b), _mm256_mul_ps(c, d));
}
SINEW_AVX inline __m256 Dot3x8(__m256 a0, __m256 b0, __m256 a1, __m256 b1, __m256 a2, __m256 b2) {
  return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a0, b0), _mm256_mul_ps(a1, b1)),
                       _mm256_mul_ps(a2, b2));
}

// LoadXyz's and StoreXyz's shuffles (skin_vertex_x4.h), in each half on its own.
template <int i, int j>
SINEW_AVX inline __m256 Pick8(__m256 a, __m256 b) {
  return _mm256_shuffle_ps(a, b, _MM_SHUFFLE(j, j, i, i));
}
SINEW_AVX inline __m256 Evens8(__m256 t, __m256 u) {
  return _mm256_shuffle_ps(t, u, _MM_SHUFFLE(2, 0, 2, 0));
}

// Eight vertices' xyz from `p` (24 floats): vertices 0-3 in the low halves, 4-7 in the high ones,
// each half taken apart as LoadXyz takes four.
SINEW_AVX inline void LoadXyz8(const float* p, __m256& x, __m256& y, __m256& z) {
  const __m256 a = Load2x4(p, p + 12), b = Load2x4(p + 4, p + 16), c = Load2x4(p + 8, p + 20);
  x = Evens8(Pick8<0, 3>(a, a), Pick8<2, 1>(b, c));
  y = Evens8(Pick8<1, 0>(a, b), Pick8<3, 2>(b, c));
  z = Evens8(Pick8<2, 1>(a, b), Pick8<0, 3>(c, c));
}

// The inverse of LoadXyz8.
SINEW_AVX inline void StoreXyz8(float* p, __m256 x, __m256 y, __m256 z) {
  const __m256 zx = Pick8<0, 1>(z, x);
  Store2x4(p, p + 12, _mm256_shuffle_ps(_mm256_unpacklo_ps(x, y), zx, _MM_SHUFFLE(2, 0, 1, 0)));
  Store2x4(p + 4, p + 16, Evens8(Pick8<1, 1>(y, z), Pick8<2, 2>(x, y)));
  Store2x4(p + 8, p + 20, Evens8(Pick8<2, 3>(z, x), Pick8<3, 3>(y, z)));
}

// The 8x8 transpose of `rows` (lane i's eight numbers in rows[i]): first[c] holds number c of
// each lane, second[c] number 4 + c. Lanes 0-3 and 4-7 are transposed apart, then their halves
// recombined.
// The rows go into named registers, not local arrays: GCC 12 copied an array of them 16 bytes at
// a time and read it back 32 at a time, and those loads, which cannot take their data from two
// stores in flight, cost WriteSkinnedX8 about a sixth of its time (perf).
SINEW_AVX inline void TransposeRows8(const __m256 (&rows)[8], __m256 (&first)[4],
                                     __m256 (&second)[4]) {
  __m256 l0 = rows[0], l1 = rows[1], l2 = rows[2], l3 = rows[3];
  __m256 h0 = rows[4], h1 = rows[5], h2 = rows[6], h3 = rows[7];
  Transpose4InHalves(l0, l1, l2, l3);  // l<c>: numbers c and 4 + c of lanes 0-3
  Transpose4InHalves(h0, h1, h2, h3);
  first[0] = _mm256_permute2f128_ps(l0, h0, 0x20);
  first[1] = _mm256_permute2f128_ps(l1, h1, 0x20);
  first[2] = _mm256_permute2f128_ps(l2, h2, 0x20);
  first[3] = _mm256_permute2f128_ps(l3, h3, 0x20);
  second[0] = _mm256_permute2f128_ps(l0, h0, 0x31);
  second[1] = _mm256_permute2f128_ps(l1, h1, 0x31);
  second[2] = _mm256_permute2f128_ps(l2, h2, 0x31);
  second[3] = _mm256_permute2f128_ps(l3, h3, 0x31);
}

// m[r][c]: entry (r, c) of each lane's matrix, from `blend`'s rows.
SINEW_AVX inline void TransposeBlend(const BlendedRowsX8& blend, __m256 (&m)[3][4]) {
  TransposeRows8(blend.rows01, m[0], m[1]);
  // Row 2: lanes i and i + 4 side by side, then a 4x4 transpose in each half.
  for (int i = 0; i < 4; ++i) m[2][i] = Join(blend.row2[i], blend.row2[4 + i]);
  Transpose4InHalves(m[2][0], m[2][1], m[2][2], m[2][3]);
}

// Vertices v .. v + 7's tangents as x, y, z and w of each lane: vertices i and i + 4 side by side,
// then a 4x4 transpose in each half.
SINEW_AVX inline void LoadTangents8(const float* t, __m256 (&xyzw)[4]) {
  for (int c = 0; c < 4; ++c) xyzw[c] = Load2x4(t + 4 * c, t + 16 + 4 * c);
  Transpose4InHalves(xyzw[0], xyzw[1], xyzw[2], xyzw[3]);
}

// The inverse of LoadTangents8.
SINEW_AVX inline void StoreTangents8(float* o, __m256 x, __m256 y, __m256 z, __m256 w) {
  Transpose4InHalves(x, y, z, w);
  Store2x4(o, o + 16, x);
  Store2x4(o + 4, o + 20, y);
  Store2x4(o + 8, o + 24, z);
  Store2x4(o + 12, o + 28, w);
}

// Writes vertices v .. v + 7 of `s` from their blended matrices, as WriteSkinnedX4 writes four;
// bit i of `no_weight` is set where lane i's weights sum to 0.
SINEW_AVX SINEW_INLINE_ALWAYS inline void WriteSkinnedX8Body(const SkinStreams& s, size_t v,
                                                             const BlendedRowsX8& blend,
                                                             int no_weight) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  __m256 m[3][4];
  TransposeBlend(blend, m);
  // The identity where the weights sum to 0.
  if (no_weight != 0) {
    const __m256 none = LaneMask(no_weight);
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) m[r][c] = Select8(none, r == c ? one : zero, m[r][c]);
    }
  }

  __m256 px, py, pz;
  LoadXyz8(&s.positions[v * 3], px, py, pz);
  __m256 out[3];
  for (int r = 0; r < 3; ++r) {
    out[r] = _mm256_add_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m[r][0], px), _mm256_mul_ps(m[r][1], py)),
                      _mm256_mul_ps(m[r][2], pz)),
        m[r][3]);
  }
  StoreXyz8(&s.out_positions[v * 3], out[0], out[1], out[2]);

  if (!s.normals.empty()) {
    const __m256 c00 = SubOfProducts8(m[1][1], m[2][2], m[1][2], m[2][1]);
    const __m256 c01 = SubOfProducts8(m[1][2], m[2][0], m[1][0], m[2][2]);
    const __m256 c02 = SubOfProducts8(m[1][0], m[2][1], m[1][1], m[2][0]);
    const __m256 c10 = SubOfProducts8(m[0][2], m[2][1], m[0][1], m[2][2]);
    const __m256 c11 = SubOfProducts8(m[0][0], m[2][2], m[0][2], m[2][0]);
    const __m256 c12 = SubOfProducts8(m[0][1], m[2][0], m[0][0], m[2][1]);
    const __m256 c20 = SubOfProducts8(m[0][1], m[1][2], m[0][2], m[1][1]);
    const __m256 c21 = SubOfProducts8(m[0][2], m[1][0], m[0][0], m[1][2]);
    const __m256 c22 = SubOfProducts8(m[0][0], m[1][1], m[0][1], m[1][0]);
    const __m256 det = Dot3x8(m[0][0], c00, m[0][1], c01, m[0][2], c02);
    const __m256 sign = Select8(_mm256_cmp_ps(det, zero, _CMP_LT_OS), _mm256_set1_ps(-1.0f), one);
    __m256 nx, ny, nz;
    LoadXyz8(&s.normals[v * 3], nx, ny, nz);
    __m256 ox = _mm256_mul_ps(sign, Dot3x8(c00, nx, c01, ny, c02, nz));
    __m256 oy = _mm256_mul_ps(sign, Dot3x8(c10, nx, c11, ny, c12, nz));
    __m256 oz = _mm256_mul_ps(sign, Dot3x8(c20, nx, c21, ny, c22, nz));
    NormalizeOrKeepX8(ox, oy, oz);
    StoreXyz8(&s.out_normals[v * 3], ox, oy, oz);
  }

  if (!s.tangents.empty()) {
    __m256 t[4];
    LoadTangents8(&s.tangents[v * 4], t);
    __m256 ox = Dot3x8(m[0][0], t[0], m[0][1], t[1], m[0][2], t[2]);
    __m256 oy = Dot3x8(m[1][0], t[0], m[1][1], t[1], m[1][2], t[2]);
    __m256 oz = Dot3x8(m[2][0], t[0], m[2][1], t[1], m[2][2], t[2]);
    NormalizeOrKeepX8(ox, oy, oz);
    StoreTangents8(&s.out_tangents[v * 4], ox, oy, oz, t[3]);  // w as it came in
  }
}

// WriteSkinnedX8Body compiled for AVX and for AVX-512, each out of line.
SINEW_X4_OUT_OF_LINE SINEW_AVX inline void WriteSkinnedX8(const SkinStreams& s, size_t v,
                                                          const BlendedRowsX8& blend,
                                                          int no_weight) {
  WriteSkinnedX8Body(s, v, blend, no_weight);
}
SINEW_X4_OUT_OF_LINE SINEW_AVX512 inline void WriteSkinnedX8Avx512(const SkinStreams& s, size_t v,
                                                                   const BlendedRowsX8& blend,
                                                                   int no_weight) {
  WriteSkinnedX8Body(s, v, blend, no_weight);
}

// Whether SkinLinearX8 sums the weights of `Lanes`: dense slots of 4 or 8 find the vertices
// without weight from their weights (LanesWithoutWeight); the others sum them.
template <typename Lanes>
inline constexpr bool kSumsWeights = Lanes::kFixedSlots != 4 && Lanes::kFixedSlots != 8;

// The bits of the lanes without weight (WriteSkinnedX8's `no_weight`) of vertices v .. v + 7.
template <typename Lanes>
SINEW_AVX inline int NoWeightLanes(const BlendedRowsX8& blend, const Lanes& lanes, size_t v) {
  if constexpr (kSumsWeights<Lanes>) {
    return LanesSummingToZero(blend);
  } else {
    constexpr uint32_t k = Lanes::kFixedSlots;
    return LanesWithoutWeight<k>(lanes.weights + v * k);
  }
}

// Skins vertices v .. v + 7 (`lanes`: DenseLanes or SparseLanes).
template <bool finite_palette, typename Lanes>
SINEW_X4_OUT_OF_LINE SINEW_AVX void SkinLinearX8(const SkinStreams& s, size_t v, const Lanes& lanes,
                                                 const Float3x4* palette) {
  BlendedRowsX8 blend;
  for (size_t i = 0; i < 8; ++i) {
    const auto entries = lanes.Entries(v + i);
    BlendLaneAvx<finite_palette, kSumsWeights<Lanes>>(blend, i, entries.index, entries.weight,
                                                      entries.count, palette);
  }
  WriteSkinnedX8(s, v, blend, NoWeightLanes(blend, lanes, v));
}

// SkinLinearX8 with the matrices summed by BlendLaneAvx512; the rest is AVX code compiled for
// AVX-512, the same operations.
template <bool finite_palette, typename Lanes>
SINEW_X4_OUT_OF_LINE SINEW_AVX512 void SkinLinearX8Avx512(const SkinStreams& s, size_t v,
                                                          const Lanes& lanes,
                                                          const Float3x4* palette) {
  BlendedRowsX8 blend;
  for (size_t i = 0; i < 8; ++i) {
    const auto entries = lanes.Entries(v + i);
    BlendLaneAvx512<finite_palette, kSumsWeights<Lanes>>(blend, i, entries.index, entries.weight,
                                                         entries.count, palette);
  }
  WriteSkinnedX8Avx512(s, v, blend, NoWeightLanes(blend, lanes, v));
}

#endif  // SINEW_SKIN_X8

// The most vertices at a time this CPU and build skin (8 with AVX, 4 with SSE2, else 1).
inline uint32_t WidestLanes() noexcept {
#if defined(SINEW_SKIN_X8)
  if (CpuHasAvx()) return 8;
#endif
#if defined(SINEW_SKIN_X4)
  return 4;
#else
  return 1;
#endif
}

// How many vertices at a time `run` skins linear blending with the blended-matrix rule: 1 when
// not vectorized, else the widest available within run.max_lanes (0: no limit).
inline uint32_t LanesOf(const SkinRun& run) noexcept {
  if (!run.vectorized) return 1;
  const uint32_t widest = WidestLanes();
  if (run.max_lanes == 0 || run.max_lanes >= widest) return widest;
  return run.max_lanes >= 4 ? 4 : 1;
}

// How many vertices at a time SkinDenseJob and SkinSparseJob skin linear blending with
// `normal_blend`: LanesOf(run), but one for the per-joint normal rule, which only the scalar code
// computes. (Dual quaternions choose by DualQuaternionLanesOf, dual_quaternion_x8.h.)
inline uint32_t LinearLanesOf(NormalBlend normal_blend, const SkinRun& run) noexcept {
  return normal_blend == NormalBlend::kPerJoint ? 1 : LanesOf(run);
}

// Whether linear blending eight vertices at a time takes SkinLinearX8Avx512 under `run`: where
// LanesOf(run) is 8, run.avx512 asks for it and the CPU has it. (Dual quaternions stay with AVX:
// compiled for AVX-512 they ran no faster.)
inline bool Avx512Of(const SkinRun& run) noexcept {
#if defined(SINEW_SKIN_X8)
  return run.avx512 && LanesOf(run) >= 8 && CpuHasAvx512();
#else
  (void)run;
  return false;
#endif
}

// Whether linear blending with `normal_blend` under `run` goes eight at a time with AVX-512:
// the blended-matrix rule (LinearLanesOf) and Avx512Of.
inline bool LinearAvx512Of(NormalBlend normal_blend, const SkinRun& run) noexcept {
  return normal_blend != NormalBlend::kPerJoint && Avx512Of(run);
}

// Skins vertices [v, end) `lanes_at_a_time` (LanesOf) vertices at a time, eight with AVX-512
// where `avx512` (Avx512Of), then four at a time, as far as whole groups go; returns the
// first vertex left for the scalar code.
template <bool finite_palette, typename Lanes>
size_t SkinLinearLanes(const SkinStreams& s, size_t v, size_t end, const Lanes& lanes,
                       const Float3x4* palette, uint32_t lanes_at_a_time, bool avx512) {
#if defined(SINEW_SKIN_X8)
  if (lanes_at_a_time >= 8 && avx512) {
    for (; v + 8 <= end; v += 8) SkinLinearX8Avx512<finite_palette>(s, v, lanes, palette);
  } else if (lanes_at_a_time >= 8) {
    for (; v + 8 <= end; v += 8) SkinLinearX8<finite_palette>(s, v, lanes, palette);
  }
#else
  (void)avx512;
#endif
#if defined(SINEW_SKIN_X4)
  if (lanes_at_a_time >= 4) {
    for (; v + 4 <= end; v += 4) SkinLinearX4<finite_palette>(s, v, lanes, palette);
  }
#endif
  return v;
}

// SkinLinearLanes, with or without the zero-weight mask as `palette` needs (FinitePalette).
template <typename Lanes>
size_t SkinLinearVectorized(const SkinStreams& s, size_t v, size_t end, const Lanes& lanes,
                            const Float3x4* palette, bool finite_palette, uint32_t lanes_at_a_time,
                            bool avx512) {
  if (lanes_at_a_time < 4) return v;
  return finite_palette
             ? SkinLinearLanes<true>(s, v, end, lanes, palette, lanes_at_a_time, avx512)
             : SkinLinearLanes<false>(s, v, end, lanes, palette, lanes_at_a_time, avx512);
}

}  // namespace sinew::cpu::detail
