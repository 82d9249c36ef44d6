// One vertex of dual-quaternion skinning (docs/semantics.md, "Dual-quaternion skinning"), shared
// by SkinDenseJob and SkinSparseJob: they differ only in where a vertex's (entry, weight) pairs
// come from, as for linear blending (skin_vertex.h).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "influence_entries.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "skin_vertex.h"

namespace sinew::cpu::detail {

// dual_quaternions empty (linear blending) or one per palette entry.
inline Status ValidateDualQuaternions(std::span<const DualQuaternion> dual_quaternions,
                                      size_t palette_size) {
  if (dual_quaternions.empty() || dual_quaternions.size() == palette_size) return {};
  return {Error::kSizeMismatch,
          std::to_string(dual_quaternions.size()) + " dual quaternions for a palette of " +
              std::to_string(palette_size),
          "dual_quaternions"};
}

// The blend of one vertex's entries, in the caller's order (two passes over its influences: Pivot
// for each, then Add for each).
struct BlendedDualQuaternion {
  float pivot_weight = 0.0f;
  Quat pivot{0, 0, 0, 0};  // real part of the heaviest influence (the first one on ties)
  Quat real{0, 0, 0, 0};
  Quat dual{0, 0, 0, 0};
  float scale[3][3] = {};         // Σ w · K
  float normal_scale[3][3] = {};  // Σ w · K⁻ᵀ
  float weight_sum = 0.0f;

  void Pivot(float w, const DualQuaternion& e) {
    if (w > pivot_weight) {
      pivot_weight = w;
      pivot = e.real;
    }
  }

  // With `sums_scale` false the scale sums are left at 0: for a palette without scale, whose
  // sums WriteDualQuaternionSkinned does not read.
  template <bool sums_scale = true>
  void Add(float w, const DualQuaternion& e) {
    if (w == 0.0f) return;
    weight_sum += w;
    if constexpr (sums_scale) {
      for (int r = 0; r < 3; ++r) {
        const Float4& k = e.scale[r];
        const Float4& kn = e.normal_scale[r];
        scale[r][0] += w * k.x, scale[r][1] += w * k.y, scale[r][2] += w * k.z;
        normal_scale[r][0] += w * kn.x, normal_scale[r][1] += w * kn.y,
            normal_scale[r][2] += w * kn.z;
      }
    }
    // Hemisphere: q and −q are one rotation; blend the one on the pivot's side.
    const float dot =
        e.real.x * pivot.x + e.real.y * pivot.y + e.real.z * pivot.z + e.real.w * pivot.w;
    const float s = dot < 0.0f ? -w : w;
    real.x += s * e.real.x, real.y += s * e.real.y, real.z += s * e.real.z, real.w += s * e.real.w;
    dual.x += s * e.dual.x, dual.y += s * e.dual.y, dual.z += s * e.dual.z, dual.w += s * e.dual.w;
  }
};

inline Float3 Apply(const float (&m)[3][3], const float* v) {
  return {m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
          m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
          m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
}

// v rotated by the unit quaternion q: v + 2 q.xyz × (q.xyz × v + q.w v).
inline Float3 Rotate(const Quat& q, const Float3& v) {
  const Float3 u{q.x, q.y, q.z};
  const Float3 c = Cross(u, v);
  const Float3 t = Cross(u, Float3{c.x + q.w * v.x, c.y + q.w * v.y, c.z + q.w * v.z});
  return {v.x + 2.0f * t.x, v.y + 2.0f * t.y, v.z + 2.0f * t.z};
}

// Writes vertex v: the blended dual quaternion normalized (the identity when its real part is
// shorter than 1e-10), s = (Σ w·K) · p when `has_scale` (else p itself), then
// position' = rotate(R, s) + 2·vec(D ⊗ conj(R)); normal' = normalize(rotate(R, (Σ w·K⁻ᵀ) · n));
// tangent'.xyz = normalize(rotate(R, (Σ w·K) · t.xyz)), w kept. A vertex whose weights sum to 0
// keeps its rest attributes, as with linear blending.
inline void WriteDualQuaternionSkinned(const SkinStreams& s, size_t v,
                                       const BlendedDualQuaternion& blend, bool has_scale) {
  const float* p = &s.positions[v * 3];
  if (blend.weight_sum == 0.0f) {
    for (int c = 0; c < 3; ++c) s.out_positions[v * 3 + c] = p[c];
    for (size_t c = 0; c < 3 && !s.normals.empty(); ++c) {
      s.out_normals[v * 3 + c] = s.normals[v * 3 + c];
    }
    for (size_t c = 0; c < 4 && !s.tangents.empty(); ++c) {
      s.out_tangents[v * 4 + c] = s.tangents[v * 4 + c];
    }
    return;
  }
  Quat r = blend.real, d = blend.dual;
  const float length = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
  if (length < 1e-10f) {
    r = {0, 0, 0, 1};
    d = {0, 0, 0, 0};
  } else {
    r = {r.x / length, r.y / length, r.z / length, r.w / length};
    d = {d.x / length, d.y / length, d.z / length, d.w / length};
    const float rd = r.x * d.x + r.y * d.y + r.z * d.z + r.w * d.w;  // keep D ⟂ R
    d = {d.x - rd * r.x, d.y - rd * r.y, d.z - rd * r.z, d.w - rd * r.w};
  }
  // Translation 2·vec(D ⊗ conj(R)); with conj(R) = (−r.xyz, r.w) the vector part of the product
  // is r.w·d.xyz − d.w·r.xyz − d.xyz × r.xyz.
  const Float3 dxr = Cross(Float3{d.x, d.y, d.z}, Float3{r.x, r.y, r.z});
  const Float3 t{2.0f * (r.w * d.x - d.w * r.x - dxr.x), 2.0f * (r.w * d.y - d.w * r.y - dxr.y),
                 2.0f * (r.w * d.z - d.w * r.z - dxr.z)};
  const Float3 scaled = has_scale ? Apply(blend.scale, p) : Float3{p[0], p[1], p[2]};
  const Float3 moved = Rotate(r, scaled);
  s.out_positions[v * 3 + 0] = moved.x + t.x;
  s.out_positions[v * 3 + 1] = moved.y + t.y;
  s.out_positions[v * 3 + 2] = moved.z + t.z;
  if (!s.normals.empty()) {
    const float* n = &s.normals[v * 3];
    const Float3 ns = has_scale ? Apply(blend.normal_scale, n) : Float3{n[0], n[1], n[2]};
    const Float3 out = NormalizeOrKeep(Rotate(r, ns));
    s.out_normals[v * 3 + 0] = out.x;
    s.out_normals[v * 3 + 1] = out.y;
    s.out_normals[v * 3 + 2] = out.z;
  }
  if (!s.tangents.empty()) {
    const float* tangent = &s.tangents[v * 4];
    const Float3 ts =
        has_scale ? Apply(blend.scale, tangent) : Float3{tangent[0], tangent[1], tangent[2]};
    const Float3 out = NormalizeOrKeep(Rotate(r, ts));
    s.out_tangents[v * 4 + 0] = out.x;
    s.out_tangents[v * 4 + 1] = out.y;
    s.out_tangents[v * 4 + 2] = out.z;
    s.out_tangents[v * 4 + 3] = tangent[3];
  }
}

// Skins vertices [begin, end) with `dual_quaternions`, each vertex's (entry, weight) pairs from
// `lanes` (DenseLanes or SparseLanes): Pivot over them, then Add, then WriteDualQuaternionSkinned.
template <bool has_scale, typename Lanes>
void SkinDualQuaternionRange(const SkinStreams& s, size_t begin, size_t end, const Lanes& lanes,
                             const DualQuaternion* dual_quaternions) {
  for (size_t v = begin; v < end; ++v) {
    const auto entries = lanes.Entries(v);
    BlendedDualQuaternion blend;
    for (size_t e = 0; e < entries.count; ++e) {
      blend.Pivot(entries.weight[e], dual_quaternions[entries.index[e]]);
    }
    for (size_t e = 0; e < entries.count; ++e) {
      blend.Add<has_scale>(entries.weight[e], dual_quaternions[entries.index[e]]);
    }
    WriteDualQuaternionSkinned(s, v, blend, has_scale);
  }
}

// SkinDualQuaternionRange for a palette with or without scale (HasScale): without, the blend
// skips the scale sums.
template <typename Lanes>
void SkinDualQuaternions(const SkinStreams& s, size_t begin, size_t end, const Lanes& lanes,
                         const DualQuaternion* dual_quaternions, bool has_scale) {
  if (has_scale) {
    SkinDualQuaternionRange<true>(s, begin, end, lanes, dual_quaternions);
  } else {
    SkinDualQuaternionRange<false>(s, begin, end, lanes, dual_quaternions);
  }
}

}  // namespace sinew::cpu::detail
