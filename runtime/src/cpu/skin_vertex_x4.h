// Dense linear blend skinning of four vertices at once with SSE2 (x86-64's baseline): the
// arithmetic of skin_vertex.h's BlendedMatrix::Add and WriteSkinned, operation for operation, one
// vertex per lane. SSE2's add, multiply, divide and square root round as the scalar ones do, and
// the runtime is built without contraction into fused multiply-adds (runtime/CMakeLists.txt), so
// each lane computes its vertex's outputs bit for bit as the scalar code does
// (tests/cpu/skin_run_test.cpp compares them; a NaN's payload may differ). Used by SkinDenseJob for
// linear blending with the blended-matrix normal rule; the other modes, and the last vertices of a
// range that do not fill four lanes, take the scalar code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sinew/core/math.h"
#include "skin_vertex.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define SINEW_SKIN_X4 1
#endif

namespace sinew::cpu::detail {

#if defined(SINEW_SKIN_X4)

// Lane i of `mask` ? a : b.
inline __m128 Select(__m128 mask, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

// One number of each of four vertices whose numbers lie `stride` floats apart, from `first`.
inline __m128 Gather(const float* first, size_t stride) {
  return _mm_set_ps(first[3 * stride], first[2 * stride], first[stride], first[0]);
}

inline void Scatter(__m128 lanes, float* first, size_t stride) {
  alignas(16) float out[4];
  _mm_store_ps(out, lanes);
  for (size_t i = 0; i < 4; ++i) first[i * stride] = out[i];
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

// Skins vertices v .. v + 3 of `s` with `k_count` dense influences each (joints and weights of
// the whole mesh), linear blending, normals by the blended matrix's cofactor.
inline void SkinDenseLinearX4(const SkinStreams& s, size_t v, uint32_t k_count,
                              const uint16_t* joints, const float* weights,
                              const Float3x4* palette) {
  const __m128 zero = _mm_setzero_ps();
  __m128 m[3][4];
  for (auto& row : m) {
    for (__m128& e : row) e = zero;
  }
  __m128 weight_sum = zero;
  for (uint32_t k = 0; k < k_count; ++k) {
    const __m128 w = Gather(&weights[v * k_count + k], k_count);
    // A zero weight adds nothing (as BlendedMatrix::Add skips it): +0 added leaves a sum that
    // started at +0 unchanged, and a non-finite palette entry stays out.
    const __m128 live = _mm_cmpneq_ps(w, zero);
    weight_sum = _mm_add_ps(weight_sum, _mm_and_ps(live, w));
    const Float3x4* p[4];
    for (size_t i = 0; i < 4; ++i) p[i] = &palette[joints[(v + i) * k_count + k]];
    for (int r = 0; r < 3; ++r) {
      __m128 c0 = _mm_loadu_ps(&p[0]->row[r].x), c1 = _mm_loadu_ps(&p[1]->row[r].x);
      __m128 c2 = _mm_loadu_ps(&p[2]->row[r].x), c3 = _mm_loadu_ps(&p[3]->row[r].x);
      _MM_TRANSPOSE4_PS(c0, c1, c2, c3);  // now entry (r, c) of each lane's palette entry
      m[r][0] = _mm_add_ps(m[r][0], _mm_and_ps(live, _mm_mul_ps(w, c0)));
      m[r][1] = _mm_add_ps(m[r][1], _mm_and_ps(live, _mm_mul_ps(w, c1)));
      m[r][2] = _mm_add_ps(m[r][2], _mm_and_ps(live, _mm_mul_ps(w, c2)));
      m[r][3] = _mm_add_ps(m[r][3], _mm_and_ps(live, _mm_mul_ps(w, c3)));
    }
  }
  // The identity where the weights sum to 0.
  const __m128 none = _mm_cmpeq_ps(weight_sum, zero);
  const __m128 one = _mm_set1_ps(1.0f);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) m[r][c] = Select(none, r == c ? one : zero, m[r][c]);
  }

  const __m128 px = Gather(&s.positions[v * 3], 3), py = Gather(&s.positions[v * 3 + 1], 3),
               pz = Gather(&s.positions[v * 3 + 2], 3);
  for (int r = 0; r < 3; ++r) {
    const __m128 out =
        _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(m[r][0], px), _mm_mul_ps(m[r][1], py)),
                              _mm_mul_ps(m[r][2], pz)),
                   m[r][3]);
    Scatter(out, &s.out_positions[v * 3 + size_t(r)], 3);
  }

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
    const __m128 nx = Gather(&s.normals[v * 3], 3), ny = Gather(&s.normals[v * 3 + 1], 3),
                 nz = Gather(&s.normals[v * 3 + 2], 3);
    __m128 ox = _mm_mul_ps(sign, dot3(c00, nx, c01, ny, c02, nz));
    __m128 oy = _mm_mul_ps(sign, dot3(c10, nx, c11, ny, c12, nz));
    __m128 oz = _mm_mul_ps(sign, dot3(c20, nx, c21, ny, c22, nz));
    NormalizeOrKeepX4(ox, oy, oz);
    Scatter(ox, &s.out_normals[v * 3], 3);
    Scatter(oy, &s.out_normals[v * 3 + 1], 3);
    Scatter(oz, &s.out_normals[v * 3 + 2], 3);
  }

  if (!s.tangents.empty()) {
    const __m128 tx = Gather(&s.tangents[v * 4], 4), ty = Gather(&s.tangents[v * 4 + 1], 4),
                 tz = Gather(&s.tangents[v * 4 + 2], 4);
    __m128 ox = dot3(m[0][0], tx, m[0][1], ty, m[0][2], tz);
    __m128 oy = dot3(m[1][0], tx, m[1][1], ty, m[1][2], tz);
    __m128 oz = dot3(m[2][0], tx, m[2][1], ty, m[2][2], tz);
    NormalizeOrKeepX4(ox, oy, oz);
    Scatter(ox, &s.out_tangents[v * 4], 4);
    Scatter(oy, &s.out_tangents[v * 4 + 1], 4);
    Scatter(oz, &s.out_tangents[v * 4 + 2], 4);
    for (size_t i = 0; i < 4; ++i) s.out_tangents[(v + i) * 4 + 3] = s.tangents[(v + i) * 4 + 3];
  }
}

#endif  // SINEW_SKIN_X4

}  // namespace sinew::cpu::detail
