// Linear blend skinning of four vertices at once with SSE2 (x86-64's baseline): the arithmetic of
// skin_vertex.h's BlendedMatrix::Add and WriteSkinned, operation for operation, one vertex per
// lane. SSE2's add, multiply, divide and square root round as the scalar ones do, and the runtime
// is built without contraction into fused multiply-adds (runtime/CMakeLists.txt), so each lane
// computes its vertex's outputs bit for bit as the scalar code does (tests/cpu/skin_run_test.cpp
// compares them; a NaN's payload may differ). Used by SkinDenseJob and SkinSparseJob for linear
// blending with the blended-matrix normal rule, through skin_vertex_x8.h (which takes eight at a
// time where the CPU has AVX); the other modes, and the last vertices of a range that do not fill
// four lanes, take the scalar code.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "influence_entries.h"
#include "sinew/core/math.h"
#include "skin_vertex.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define SINEW_SKIN_X4 1
#endif

// The four-vertex functions stay out of the loops that call them: inlined, they change how the
// compiler allocates registers for the scalar loop beside them, which cost that loop up to a third
// of its speed on the development VM.
#if defined(__GNUC__) || defined(__clang__)
#define SINEW_X4_OUT_OF_LINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define SINEW_X4_OUT_OF_LINE __declspec(noinline)
#else
#define SINEW_X4_OUT_OF_LINE
#endif

namespace sinew::cpu::detail {

// Every number of every palette entry finite (BlendLane's fast case).
inline bool FinitePalette(std::span<const Float3x4> palette) {
  int finite = 1;
  for (const Float3x4& p : palette) {
    for (const Float4& r : p.row) {
      finite &= int(std::isfinite(r.x)) & int(std::isfinite(r.y)) & int(std::isfinite(r.z)) &
                int(std::isfinite(r.w));
    }
  }
  return finite != 0;
}

#if defined(SINEW_SKIN_X4)

// Lane i of `mask` ? a : b.
inline __m128 Select(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

// [a[i], a[i], b[j], b[j]]: two lanes picked for Interleave below.
template <int i, int j>
inline __m128 Pick(__m128 a, __m128 b) {
  return _mm_shuffle_ps(a, b, _MM_SHUFFLE(j, j, i, i));
}

// [t[0], t[2], u[0], u[2]].
inline __m128 Evens(__m128 t, __m128 u) { return _mm_shuffle_ps(t, u, _MM_SHUFFLE(2, 0, 2, 0)); }

// Four vertices' xyz, 12 floats from `p` in three loads, as x, y and z of each lane.
inline void LoadXyz(const float* p, __m128& x, __m128& y, __m128& z) {
  const __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
  // a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3.
  x = Evens(Pick<0, 3>(a, a), Pick<2, 1>(b, c));
  y = Evens(Pick<1, 0>(a, b), Pick<3, 2>(b, c));
  z = Evens(Pick<2, 1>(a, b), Pick<0, 3>(c, c));
}

// The inverse of LoadXyz: lane i's x, y, z to p[3i], p[3i + 1], p[3i + 2], in three stores.
inline void StoreXyz(float* p, __m128 x, __m128 y, __m128 z) {
  // (_mm_shuffle_ps may be a macro, which would split a template argument list at its comma.)
  const __m128 zx = Pick<0, 1>(z, x);
  _mm_storeu_ps(p, _mm_shuffle_ps(_mm_unpacklo_ps(x, y), zx, _MM_SHUFFLE(2, 0, 1, 0)));
  _mm_storeu_ps(p + 4, Evens(Pick<1, 1>(y, z), Pick<2, 2>(x, y)));
  _mm_storeu_ps(p + 8, Evens(Pick<2, 3>(z, x), Pick<3, 3>(y, z)));
}

// NormalizeOrKeep per lane: a / |a|, or a where |a| is not above 0.
inline void NormalizeOrKeepX4(__m128& x, __m128& y, __m128& z) {
  const __m128 len =
      _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)));
  const __m128 positive = _mm_cmpgt_ps(len, _mm_setzero_ps());
  x = Select(positive, _mm_div_ps(x, len), x);
  y = Select(positive, _mm_div_ps(y, len), y);
  z = Select(positive, _mm_div_ps(z, len), z);
}

// Four vertices' blended matrices: rows[r][i] is row r of lane i's matrix (its 4 columns), and
// weight_sum[i] its weights' sum.
struct BlendedRowsX4 {
  __m128 rows[3][4];
  alignas(16) float weight_sum[4];
};

// Lane i of `out`: the sum of weight[e] · palette[index[e]] over e < count, in that order. The
// same products and sums as BlendedMatrix::Add, entry by entry. `finite_palette`: every palette
// entry is finite (FinitePalette), so a zero weight's products need no mask (see below).
template <bool finite_palette, typename Index>
inline void BlendLane(BlendedRowsX4& out, size_t i, const Index* index, const float* weight,
                      size_t count, const Float3x4* palette) {
  const __m128 zero = _mm_setzero_ps();
  __m128 row[3] = {zero, zero, zero};
  float sum = 0.0f;
  for (size_t e = 0; e < count; ++e) {
    // A zero weight adds nothing (as BlendedMatrix::Add skips it): a sum starts at +0, and adding
    // ±0 to a sum other than -0 leaves it unchanged (rounding to nearest, the default: a host that
    // rounds down would turn +0 + -0 into -0), so only a non-finite palette entry (0 · inf is NaN)
    // has to be masked out.
    const __m128 w = _mm_set1_ps(weight[e]);
    sum += weight[e];
    const Float3x4& p = palette[index[e]];
    if constexpr (finite_palette) {
      for (int r = 0; r < 3; ++r) {
        row[r] = _mm_add_ps(row[r], _mm_mul_ps(w, _mm_loadu_ps(&p.row[r].x)));
      }
    } else {
      const __m128 live = _mm_cmpneq_ps(w, zero);
      for (int r = 0; r < 3; ++r) {
        row[r] = _mm_add_ps(row[r], _mm_and_ps(live, _mm_mul_ps(w, _mm_loadu_ps(&p.row[r].x))));
      }
    }
  }
  for (int r = 0; r < 3; ++r) out.rows[r][i] = row[r];
  out.weight_sum[i] = sum;
}

// Writes vertices v .. v + 3 of `s` from their blended matrices, as WriteSkinned does one: normals
// by the cofactor rule.
inline void WriteSkinnedX4(const SkinStreams& s, size_t v, BlendedRowsX4& blend) {
  const __m128 zero = _mm_setzero_ps();
  // m[r][c]: entry (r, c) of each lane's matrix.
  auto& m = blend.rows;
  for (auto& row : m) _MM_TRANSPOSE4_PS(row[0], row[1], row[2], row[3]);
  // The identity where the weights sum to 0.
  const __m128 none = _mm_cmpeq_ps(_mm_load_ps(blend.weight_sum), zero);
  const __m128 one = _mm_set1_ps(1.0f);
  if (_mm_movemask_ps(none) != 0) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) m[r][c] = Select(none, r == c ? one : zero, m[r][c]);
    }
  }

  __m128 px, py, pz;
  LoadXyz(&s.positions[v * 3], px, py, pz);
  __m128 out[3];
  for (int r = 0; r < 3; ++r) {
    out[r] = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(m[r][0], px), _mm_mul_ps(m[r][1], py)),
                                   _mm_mul_ps(m[r][2], pz)),
                        m[r][3]);
  }
  StoreXyz(&s.out_positions[v * 3], out[0], out[1], out[2]);

  const auto sub_of_products = [](__m128 a, __m128 b, __m128 c, __m128 d) {
    return _mm_sub_ps(_mm_mul_ps(a, b), _mm_mul_ps(c, d));
  };
  const auto dot3 = [](__m128 a0, __m128 b0, __m128 a1, __m128 b1, __m128 a2, __m128 b2) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a0, b0), _mm_mul_ps(a1, b1)), _mm_mul_ps(a2, b2));
  };
  if (!s.normals.empty()) {
    const __m128 c00 = sub_of_products(m[1][1], m[2][2], m[1][2], m[2][1]);
    const __m128 c01 = sub_of_products(m[1][2], m[2][0], m[1][0], m[2][2]);
    const __m128 c02 = sub_of_products(m[1][0], m[2][1], m[1][1], m[2][0]);
    const __m128 c10 = sub_of_products(m[0][2], m[2][1], m[0][1], m[2][2]);
    const __m128 c11 = sub_of_products(m[0][0], m[2][2], m[0][2], m[2][0]);
    const __m128 c12 = sub_of_products(m[0][1], m[2][0], m[0][0], m[2][1]);
    const __m128 c20 = sub_of_products(m[0][1], m[1][2], m[0][2], m[1][1]);
    const __m128 c21 = sub_of_products(m[0][2], m[1][0], m[0][0], m[1][2]);
    const __m128 c22 = sub_of_products(m[0][0], m[1][1], m[0][1], m[1][0]);
    const __m128 det = dot3(m[0][0], c00, m[0][1], c01, m[0][2], c02);
    const __m128 sign = Select(_mm_cmplt_ps(det, zero), _mm_set1_ps(-1.0f), one);
    __m128 nx, ny, nz;
    LoadXyz(&s.normals[v * 3], nx, ny, nz);
    __m128 ox = _mm_mul_ps(sign, dot3(c00, nx, c01, ny, c02, nz));
    __m128 oy = _mm_mul_ps(sign, dot3(c10, nx, c11, ny, c12, nz));
    __m128 oz = _mm_mul_ps(sign, dot3(c20, nx, c21, ny, c22, nz));
    NormalizeOrKeepX4(ox, oy, oz);
    StoreXyz(&s.out_normals[v * 3], ox, oy, oz);
  }

  if (!s.tangents.empty()) {
    const float* t = &s.tangents[v * 4];
    __m128 tx = _mm_loadu_ps(t), ty = _mm_loadu_ps(t + 4), tz = _mm_loadu_ps(t + 8),
           tw = _mm_loadu_ps(t + 12);
    _MM_TRANSPOSE4_PS(tx, ty, tz, tw);
    __m128 ox = dot3(m[0][0], tx, m[0][1], ty, m[0][2], tz);
    __m128 oy = dot3(m[1][0], tx, m[1][1], ty, m[1][2], tz);
    __m128 oz = dot3(m[2][0], tx, m[2][1], ty, m[2][2], tz);
    NormalizeOrKeepX4(ox, oy, oz);
    _MM_TRANSPOSE4_PS(ox, oy, oz, tw);  // w as it came in
    float* o = &s.out_tangents[v * 4];
    _mm_storeu_ps(o, ox);
    _mm_storeu_ps(o + 4, oy);
    _mm_storeu_ps(o + 8, oz);
    _mm_storeu_ps(o + 12, tw);
  }
}

// Skins vertices v .. v + 3 (`lanes`: DenseLanes or SparseLanes).
template <bool finite_palette, typename Lanes>
SINEW_X4_OUT_OF_LINE void SkinLinearX4(const SkinStreams& s, size_t v, const Lanes& lanes,
                                       const Float3x4* palette) {
  BlendedRowsX4 blend;
  for (size_t i = 0; i < 4; ++i) {
    const auto entries = lanes.Entries(v + i);
    BlendLane<finite_palette>(blend, i, entries.index, entries.weight, entries.count, palette);
  }
  WriteSkinnedX4(s, v, blend);
}

#endif  // SINEW_SKIN_X4

}  // namespace sinew::cpu::detail
