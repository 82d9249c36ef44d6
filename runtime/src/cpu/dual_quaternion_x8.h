// Dual-quaternion skinning of eight vertices at once with AVX, where the CPU has it:
// dual_quaternion_vertex.h's arithmetic, operation for operation, one vertex per lane, so each
// lane's outputs are the scalar code's bit for bit (tests/cpu/skin_run_test.cpp). Each vertex's
// real and dual parts are summed side by side in one 256-bit register; the pivot and the
// hemisphere test stay per entry, as BlendedDualQuaternion does them. With a palette with scale
// (HasScale), the scale and normal-scale rows are summed as linear blending sums its matrix rows
// (BlendedRowsX8). The normalization, the translation, the scales and the rotations then run eight
// vertices wide.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dual_quaternion_vertex.h"
#include "skin_vertex_x8.h"

namespace sinew::cpu::detail {

#if defined(SINEW_SKIN_X8)

static_assert(offsetof(DualQuaternion, dual) == offsetof(DualQuaternion, real) + 16,
              "a dual quaternion's real and dual parts are one 32-byte load");

// Eight vertices' blends: lane i's real part in real_dual[i]'s low half, its dual part in the high
// half, and its weights' sum; with scale, its Σ w · K and Σ w · K⁻ᵀ rows (each row's fourth
// number is summed too, and never read).
struct BlendedDualQuaternionsX8 {
  __m256 real_dual[8];
  alignas(32) float weight_sum[8];
  BlendedRowsX8 scale, normal_scale;
};

// Lane i of `out` from vertex i's entries: BlendedDualQuaternion's Pivot over them, then its
// Add<has_scale>, with the same products and sums.
template <bool has_scale, typename Index>
SINEW_AVX inline void BlendDualQuaternionLane(BlendedDualQuaternionsX8& out, size_t i,
                                              const Index* index, const float* weight, size_t count,
                                              const DualQuaternion* palette) {
  float pivot_weight = 0.0f;
  Quat pivot{0, 0, 0, 0};
  for (size_t e = 0; e < count; ++e) {
    if (weight[e] > pivot_weight) {
      pivot_weight = weight[e];
      pivot = palette[index[e]].real;
    }
  }
  __m256 sum = _mm256_setzero_ps();
  __m256 scale01 = sum, normal_scale01 = sum;
  __m128 scale2 = _mm_setzero_ps(), normal_scale2 = scale2;
  float weight_sum = 0.0f;
  for (size_t e = 0; e < count; ++e) {
    const float w = weight[e];
    if (w == 0.0f) continue;
    weight_sum += w;
    const DualQuaternion& q = palette[index[e]];
    if constexpr (has_scale) {
      const __m256 w8 = _mm256_set1_ps(w);
      const __m128 w4 = _mm256_castps256_ps128(w8);
      scale01 = _mm256_add_ps(scale01, _mm256_mul_ps(w8, _mm256_loadu_ps(&q.scale[0].x)));
      scale2 = _mm_add_ps(scale2, _mm_mul_ps(w4, _mm_loadu_ps(&q.scale[2].x)));
      normal_scale01 =
          _mm256_add_ps(normal_scale01, _mm256_mul_ps(w8, _mm256_loadu_ps(&q.normal_scale[0].x)));
      normal_scale2 = _mm_add_ps(normal_scale2, _mm_mul_ps(w4, _mm_loadu_ps(&q.normal_scale[2].x)));
    }
    const float dot =
        q.real.x * pivot.x + q.real.y * pivot.y + q.real.z * pivot.z + q.real.w * pivot.w;
    const float s = dot < 0.0f ? -w : w;
    sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_set1_ps(s), _mm256_loadu_ps(&q.real.x)));
  }
  out.real_dual[i] = sum;
  out.weight_sum[i] = weight_sum;
  if constexpr (has_scale) {
    out.scale.rows01[i] = scale01;
    out.scale.row2[i] = scale2;
    out.normal_scale.rows01[i] = normal_scale01;
    out.normal_scale.row2[i] = normal_scale2;
  }
}

// v = m · v for each lane's 3x3 `m` (TransposeBlend's entries; column 3 unused), as Apply.
SINEW_AVX inline void Apply8(const __m256 (&m)[3][4], __m256 (&v)[3]) {
  const __m256 x = v[0], y = v[1], z = v[2];
  for (int r = 0; r < 3; ++r) v[r] = Dot3x8(m[r][0], x, m[r][1], y, m[r][2], z);
}

// c = a × b, as Cross.
SINEW_AVX inline void Cross8(const __m256 (&a)[3], const __m256 (&b)[3], __m256 (&c)[3]) {
  c[0] = SubOfProducts8(a[1], b[2], a[2], b[1]);
  c[1] = SubOfProducts8(a[2], b[0], a[0], b[2]);
  c[2] = SubOfProducts8(a[0], b[1], a[1], b[0]);
}

// v rotated by each lane's unit quaternion q (x, y, z, w), as Rotate.
SINEW_AVX inline void Rotate8(const __m256 (&q)[4], __m256 (&v)[3]) {
  const __m256 u[3] = {q[0], q[1], q[2]};
  __m256 c[3];
  Cross8(u, v, c);
  const __m256 a[3] = {_mm256_add_ps(c[0], _mm256_mul_ps(q[3], v[0])),
                       _mm256_add_ps(c[1], _mm256_mul_ps(q[3], v[1])),
                       _mm256_add_ps(c[2], _mm256_mul_ps(q[3], v[2]))};
  __m256 t[3];
  Cross8(u, a, t);
  const __m256 two = _mm256_set1_ps(2.0f);
  for (int k = 0; k < 3; ++k) v[k] = _mm256_add_ps(v[k], _mm256_mul_ps(two, t[k]));
}

// Writes vertices v .. v + 7 of `s` from their blends, as WriteDualQuaternionSkinned writes one.
template <bool has_scale>
SINEW_AVX inline void WriteDualQuaternionSkinnedX8(const SkinStreams& s, size_t v,
                                                   const BlendedDualQuaternionsX8& blend) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  // A vertex whose weights sum to 0 keeps its rest attributes.
  const __m256 none = _mm256_cmp_ps(_mm256_load_ps(blend.weight_sum), zero, _CMP_EQ_OQ);
  __m256 r[4], d[4];
  TransposeRows8(blend.real_dual, r, d);
  const __m256 length = _mm256_sqrt_ps(
      _mm256_add_ps(Dot3x8(r[0], r[0], r[1], r[1], r[2], r[2]), _mm256_mul_ps(r[3], r[3])));
  for (int c = 0; c < 4; ++c) {
    r[c] = _mm256_div_ps(r[c], length);
    d[c] = _mm256_div_ps(d[c], length);
  }
  const __m256 rd =
      _mm256_add_ps(Dot3x8(r[0], d[0], r[1], d[1], r[2], d[2]), _mm256_mul_ps(r[3], d[3]));
  for (int c = 0; c < 4; ++c) d[c] = _mm256_sub_ps(d[c], _mm256_mul_ps(rd, r[c]));
  // The identity where the real part is shorter than 1e-10.
  const __m256 tiny = _mm256_cmp_ps(length, _mm256_set1_ps(1e-10f), _CMP_LT_OQ);
  for (int c = 0; c < 4; ++c) {
    r[c] = Select8(tiny, c == 3 ? one : zero, r[c]);
    d[c] = Select8(tiny, zero, d[c]);
  }
  // Translation 2·vec(D ⊗ conj(R)) = 2·(r.w·d.xyz − d.w·r.xyz − d.xyz × r.xyz).
  const __m256 dv[3] = {d[0], d[1], d[2]}, rv[3] = {r[0], r[1], r[2]};
  __m256 dxr[3];
  Cross8(dv, rv, dxr);
  const __m256 two = _mm256_set1_ps(2.0f);
  __m256 t[3];
  for (int k = 0; k < 3; ++k) {
    t[k] = _mm256_mul_ps(two, _mm256_sub_ps(SubOfProducts8(r[3], d[k], d[3], r[k]), dxr[k]));
  }

  __m256 scale[3][4];
  if constexpr (has_scale) TransposeBlend(blend.scale, scale);

  __m256 p[3];
  LoadXyz8(&s.positions[v * 3], p[0], p[1], p[2]);
  __m256 moved[3] = {p[0], p[1], p[2]};
  if constexpr (has_scale) Apply8(scale, moved);
  Rotate8(r, moved);
  for (int k = 0; k < 3; ++k) moved[k] = Select8(none, p[k], _mm256_add_ps(moved[k], t[k]));
  StoreXyz8(&s.out_positions[v * 3], moved[0], moved[1], moved[2]);

  if (!s.normals.empty()) {
    __m256 n[3];
    LoadXyz8(&s.normals[v * 3], n[0], n[1], n[2]);
    __m256 o[3] = {n[0], n[1], n[2]};
    if constexpr (has_scale) {
      __m256 normal_scale[3][4];
      TransposeBlend(blend.normal_scale, normal_scale);
      Apply8(normal_scale, o);
    }
    Rotate8(r, o);
    NormalizeOrKeepX8(o[0], o[1], o[2]);
    for (int k = 0; k < 3; ++k) o[k] = Select8(none, n[k], o[k]);
    StoreXyz8(&s.out_normals[v * 3], o[0], o[1], o[2]);
  }

  if (!s.tangents.empty()) {
    __m256 tangent[4];
    LoadTangents8(&s.tangents[v * 4], tangent);
    __m256 o[3] = {tangent[0], tangent[1], tangent[2]};
    if constexpr (has_scale) Apply8(scale, o);
    Rotate8(r, o);
    NormalizeOrKeepX8(o[0], o[1], o[2]);
    for (int k = 0; k < 3; ++k) o[k] = Select8(none, tangent[k], o[k]);
    StoreTangents8(&s.out_tangents[v * 4], o[0], o[1], o[2], tangent[3]);  // w as it came in
  }
}

// Skins vertices v .. v + 7 (`lanes`: DenseLanes or SparseLanes) with a palette with or without
// scale (HasScale).
template <bool has_scale, typename Lanes>
SINEW_X4_OUT_OF_LINE SINEW_AVX void SkinDualQuaternionsX8(const SkinStreams& s, size_t v,
                                                          const Lanes& lanes,
                                                          const DualQuaternion* palette) {
  BlendedDualQuaternionsX8 blend;
  for (size_t i = 0; i < 8; ++i) {
    const auto entries = lanes.Entries(v + i);
    BlendDualQuaternionLane<has_scale>(blend, i, entries.index, entries.weight, entries.count,
                                       palette);
  }
  WriteDualQuaternionSkinnedX8<has_scale>(s, v, blend);
}

#endif  // SINEW_SKIN_X8

// How many vertices at a time SkinDenseJob and SkinSparseJob skin dual quaternions with `run`: 8
// where LanesOf(run) allows eight, else 1 (there is no four-lane path).
inline uint32_t DualQuaternionLanesOf(const SkinRun& run) noexcept {
  return LanesOf(run) >= 8 ? 8 : 1;
}

// Skins vertices [v, end) eight at a time, as far as whole groups go, when `lanes_at_a_time`
// (DualQuaternionLanesOf) is 8; returns the first vertex left for SkinDualQuaternions.
template <typename Lanes>
size_t SkinDualQuaternionsVectorized(const SkinStreams& s, size_t v, size_t end, const Lanes& lanes,
                                     const DualQuaternion* palette, bool has_scale,
                                     uint32_t lanes_at_a_time) {
#if defined(SINEW_SKIN_X8)
  if (lanes_at_a_time >= 8) {
    for (; v + 8 <= end; v += 8) {
      if (has_scale) {
        SkinDualQuaternionsX8<true>(s, v, lanes, palette);
      } else {
        SkinDualQuaternionsX8<false>(s, v, lanes, palette);
      }
    }
  }
#else
  (void)s, (void)end, (void)lanes, (void)palette, (void)has_scale, (void)lanes_at_a_time;
#endif
  return v;
}

}  // namespace sinew::cpu::detail
