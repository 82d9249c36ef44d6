// Linear blend skinning of eight vertices at once with AVX, where the CPU has it:
// skin_vertex_x4.h's arithmetic, operation for operation, in eight lanes instead of four, so each
// lane computes its vertex's outputs bit for bit as the scalar code does
// (tests/cpu/skin_run_test.cpp runs both widths against it). Each vertex's matrix is summed with
// its first two rows in one 256-bit register; the transforms, the cofactor normals and the
// normalizations run eight vertices wide. Only the functions marked SINEW_AVX use AVX instructions:
// the rest of the runtime stays within x86-64's baseline, and the jobs call these only when
// CpuHasAvx() says so.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sinew/cpu/skin_run.h"
#include "skin_vertex_x4.h"

#if defined(SINEW_SKIN_X4) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SINEW_SKIN_X8 1
#define SINEW_AVX __attribute__((target("avx")))
#endif

namespace sinew::cpu::detail {

#if defined(SINEW_SKIN_X8)

// Whether the CPU (and the operating system, which must save the 256-bit registers) runs AVX.
inline bool CpuHasAvx() noexcept {
  static const bool has = __builtin_cpu_supports("avx");
  return has;
}

// Lane i of `out` from vertex i's entries, as BlendLane computes it: the same products and sums,
// rows 0 and 1 side by side.
template <bool finite_palette, typename Index>
SINEW_AVX inline void BlendLaneAvx(BlendedRowsX4& out, size_t i, const Index* index,
                                   const float* weight, size_t count, const Float3x4* palette) {
  __m256 rows01 = _mm256_setzero_ps();
  __m128 row2 = _mm_setzero_ps();
  float sum = 0.0f;
  for (size_t e = 0; e < count; ++e) {
    const __m256 w = _mm256_set1_ps(weight[e]);
    sum += weight[e];
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
  out.rows[0][i] = _mm256_castps256_ps128(rows01);
  out.rows[1][i] = _mm256_extractf128_ps(rows01, 1);
  out.rows[2][i] = row2;
  out.weight_sum[i] = sum;
}

// Lanes 0-3 from `low`, 4-7 from `high`.
SINEW_AVX inline __m256 Join(__m128 low, __m128 high) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(low), high, 1);
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

// Eight vertices' xyz from `p` (24 floats), as LoadXyz does four.
SINEW_AVX inline void LoadXyz8(const float* p, __m256& x, __m256& y, __m256& z) {
  __m128 x0, y0, z0, x1, y1, z1;
  LoadXyz(p, x0, y0, z0);
  LoadXyz(p + 12, x1, y1, z1);
  x = Join(x0, x1);
  y = Join(y0, y1);
  z = Join(z0, z1);
}

SINEW_AVX inline void StoreXyz8(float* p, __m256 x, __m256 y, __m256 z) {
  StoreXyz(p, _mm256_castps256_ps128(x), _mm256_castps256_ps128(y), _mm256_castps256_ps128(z));
  StoreXyz(p + 12, _mm256_extractf128_ps(x, 1), _mm256_extractf128_ps(y, 1),
           _mm256_extractf128_ps(z, 1));
}

// Writes vertices v .. v + 7 of `s`, lanes 0-3 blended in `low` and 4-7 in `high`, as
// WriteSkinnedX4 writes four.
SINEW_AVX inline void WriteSkinnedX8(const SkinStreams& s, size_t v, BlendedRowsX4& low,
                                     BlendedRowsX4& high) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  __m256 m[3][4];
  for (int r = 0; r < 3; ++r) {
    _MM_TRANSPOSE4_PS(low.rows[r][0], low.rows[r][1], low.rows[r][2], low.rows[r][3]);
    _MM_TRANSPOSE4_PS(high.rows[r][0], high.rows[r][1], high.rows[r][2], high.rows[r][3]);
    for (int c = 0; c < 4; ++c) m[r][c] = Join(low.rows[r][c], high.rows[r][c]);
  }
  // The identity where the weights sum to 0.
  const __m256 none = _mm256_cmp_ps(Join(_mm_load_ps(low.weight_sum), _mm_load_ps(high.weight_sum)),
                                    zero, _CMP_EQ_OQ);
  if (_mm256_movemask_ps(none) != 0) {
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
    __m128 t[2][4];  // [half][x, y, z, w]
    for (int h = 0; h < 2; ++h) {
      const float* in = &s.tangents[(v + 4 * size_t(h)) * 4];
      for (int i = 0; i < 4; ++i) t[h][i] = _mm_loadu_ps(in + 4 * i);
      _MM_TRANSPOSE4_PS(t[h][0], t[h][1], t[h][2], t[h][3]);
    }
    const __m256 tx = Join(t[0][0], t[1][0]), ty = Join(t[0][1], t[1][1]),
                 tz = Join(t[0][2], t[1][2]);
    __m256 ox = Dot3x8(m[0][0], tx, m[0][1], ty, m[0][2], tz);
    __m256 oy = Dot3x8(m[1][0], tx, m[1][1], ty, m[1][2], tz);
    __m256 oz = Dot3x8(m[2][0], tx, m[2][1], ty, m[2][2], tz);
    NormalizeOrKeepX8(ox, oy, oz);
    for (int h = 0; h < 2; ++h) {
      __m128 x = h ? _mm256_extractf128_ps(ox, 1) : _mm256_castps256_ps128(ox);
      __m128 y = h ? _mm256_extractf128_ps(oy, 1) : _mm256_castps256_ps128(oy);
      __m128 z = h ? _mm256_extractf128_ps(oz, 1) : _mm256_castps256_ps128(oz);
      __m128 w = t[h][3];  // as it came in
      _MM_TRANSPOSE4_PS(x, y, z, w);
      float* o = &s.out_tangents[(v + 4 * size_t(h)) * 4];
      _mm_storeu_ps(o, x);
      _mm_storeu_ps(o + 4, y);
      _mm_storeu_ps(o + 8, z);
      _mm_storeu_ps(o + 12, w);
    }
  }
}

// Skins vertices v .. v + 7 (`lanes`: DenseLanes or SparseLanes).
template <bool finite_palette, typename Lanes>
SINEW_X4_OUT_OF_LINE SINEW_AVX void SkinLinearX8(const SkinStreams& s, size_t v, const Lanes& lanes,
                                                 const Float3x4* palette) {
  BlendedRowsX4 half[2];
  for (size_t i = 0; i < 8; ++i) {
    const auto entries = lanes.Entries(v + i);
    BlendLaneAvx<finite_palette>(half[i / 4], i % 4, entries.index, entries.weight, entries.count,
                                 palette);
  }
  WriteSkinnedX8(s, v, half[0], half[1]);
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

// Skins vertices [v, end) `lanes_at_a_time` (LanesOf) vertices at a time, then four at a time,
// as far as whole groups go; returns the first vertex left for the scalar code.
template <bool finite_palette, typename Lanes>
size_t SkinLinearLanes(const SkinStreams& s, size_t v, size_t end, const Lanes& lanes,
                       const Float3x4* palette, uint32_t lanes_at_a_time) {
#if defined(SINEW_SKIN_X8)
  if (lanes_at_a_time >= 8) {
    for (; v + 8 <= end; v += 8) SkinLinearX8<finite_palette>(s, v, lanes, palette);
  }
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
                            const Float3x4* palette, bool finite_palette,
                            uint32_t lanes_at_a_time) {
  if (lanes_at_a_time < 4) return v;
  return finite_palette ? SkinLinearLanes<true>(s, v, end, lanes, palette, lanes_at_a_time)
                        : SkinLinearLanes<false>(s, v, end, lanes, palette, lanes_at_a_time);
}

}  // namespace sinew::cpu::detail
