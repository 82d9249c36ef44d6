// The part of linear blend skinning that dense and sparse influences share (docs/semantics.md,
// "Dense skinning", "Sparse skinning", "Normals and tangents"): the vertex streams and their size
// rules, the blend of palette matrices, and the transform of one vertex by the blended matrix.
// SkinDenseJob and SkinSparseJob differ only in where a vertex's (matrix, weight) pairs come from;
// shaders/skinning_common.glsl's WriteSkinned is the GPU twin of WriteSkinned below.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu::detail {

// A skinning job's rest attributes and outputs: positions xyz, normals xyz and tangents xyzw per
// vertex; normals and tangents optional (empty).
struct SkinStreams {
  std::span<const float> positions;
  std::span<const float> normals;
  std::span<const float> tangents;
  std::span<float> out_positions;
  std::span<float> out_normals;
  std::span<float> out_tangents;

  size_t vertex_count() const { return positions.size() / 3; }
};

inline Status CheckStreamSize(const char* name, size_t got, size_t expected) {
  if (got == expected) return {};
  return {Error::kSizeMismatch,
          std::string(name) + " has " + std::to_string(got) + " floats, expected " +
              std::to_string(expected),
          name};
}

// Positions hold whole triples; normals/tangents are empty or sized to the vertex count; each
// output is sized like its input (kSizeMismatch, where = the stream's name).
inline Status ValidateSkinStreams(const SkinStreams& s) {
  if (s.positions.size() % 3 != 0) {
    return {Error::kSizeMismatch,
            "positions has " + std::to_string(s.positions.size()) + " floats, not whole triples",
            "positions"};
  }
  const size_t v = s.vertex_count();
  if (!s.normals.empty()) {
    if (Status st = CheckStreamSize("normals", s.normals.size(), v * 3); !st) return st;
  }
  if (!s.tangents.empty()) {
    if (Status st = CheckStreamSize("tangents", s.tangents.size(), v * 4); !st) return st;
  }
  if (Status st = CheckStreamSize("out_positions", s.out_positions.size(), v * 3); !st) return st;
  if (Status st = CheckStreamSize("out_normals", s.out_normals.size(), s.normals.size()); !st) {
    return st;
  }
  if (Status st = CheckStreamSize("out_tangents", s.out_tangents.size(), s.tangents.size()); !st) {
    return st;
  }
  return {};
}

// M = Σ w · palette entry, built one influence at a time in the caller's order (the order is part
// of the result: float addition does not associate). Zero weights are skipped, as on the GPU.
// With per_joint_normals (NormalBlend::kPerJoint) it also sums N = Σ w · inverse-transpose of each
// entry's 3x3, computed as cofactor / det; an entry with det 0 adds nothing to N.
struct BlendedMatrix {
  float m[3][4] = {};
  float weight_sum = 0.0f;
  bool per_joint_normals = false;
  float n[3][3] = {};

  explicit BlendedMatrix(bool per_joint = false) : per_joint_normals(per_joint) {}

  void Add(float w, const Float3x4& p) {
    if (w == 0.0f) return;
    weight_sum += w;
    for (int r = 0; r < 3; ++r) {
      m[r][0] += w * p.row[r].x;
      m[r][1] += w * p.row[r].y;
      m[r][2] += w * p.row[r].z;
      m[r][3] += w * p.row[r].w;
    }
    if (per_joint_normals) AddInverseTranspose(w, p);
  }

 private:
  // The same formula, term by term, as AddJoint in shaders/skinning_common.glsl (the GPU may fuse
  // or round the operations differently: the tests compare within the tolerances).
  void AddInverseTranspose(float w, const Float3x4& p) {
    const Float3 r0{p.row[0].x, p.row[0].y, p.row[0].z};
    const Float3 r1{p.row[1].x, p.row[1].y, p.row[1].z};
    const Float3 r2{p.row[2].x, p.row[2].y, p.row[2].z};
    const Float3 c[3] = {Cross(r1, r2), Cross(r2, r0), Cross(r0, r1)};
    const float det = Dot(r0, c[0]);
    if (det == 0.0f) return;
    const float s = w / det;
    for (int r = 0; r < 3; ++r) {
      n[r][0] += s * c[r].x;
      n[r][1] += s * c[r].y;
      n[r][2] += s * c[r].z;
    }
  }
};

// Writes vertex v's skinned attributes: position' = M · p; normal' = NormalizeOrKeep(sign(det) ·
// cofactor(M₃ₓ₃) · n), or NormalizeOrKeep(N · n) with per_joint_normals; tangent'.xyz =
// NormalizeOrKeep(M₃ₓ₃ · t.xyz), tangent'.w = t.w. M is the identity when the weights sum to 0, so
// a vertex without influence keeps its rest attributes. The streams must have passed
// ValidateSkinStreams and v < vertex_count().
inline void WriteSkinned(const SkinStreams& s, size_t v, BlendedMatrix blend) {
  float(&m)[3][4] = blend.m;
  if (blend.weight_sum == 0.0f) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) m[r][c] = r == c ? 1.0f : 0.0f;
  }

  const float* p = &s.positions[v * 3];
  for (int r = 0; r < 3; ++r) {
    s.out_positions[v * 3 + r] = m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3];
  }

  if (!s.normals.empty()) {
    const float* n = &s.normals[v * 3];
    Float3 out;
    if (blend.per_joint_normals && blend.weight_sum != 0.0f) {
      const float(&a)[3][3] = blend.n;
      out = NormalizeOrKeep({a[0][0] * n[0] + a[0][1] * n[1] + a[0][2] * n[2],
                             a[1][0] * n[0] + a[1][1] * n[1] + a[1][2] * n[2],
                             a[2][0] * n[0] + a[2][1] * n[1] + a[2][2] * n[2]});
    } else {
      // Cofactor of the 3x3 part, times sign(det): the inverse-transpose up to a positive scale.
      const float c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
      const float c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
      const float c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
      const float c10 = m[0][2] * m[2][1] - m[0][1] * m[2][2];
      const float c11 = m[0][0] * m[2][2] - m[0][2] * m[2][0];
      const float c12 = m[0][1] * m[2][0] - m[0][0] * m[2][1];
      const float c20 = m[0][1] * m[1][2] - m[0][2] * m[1][1];
      const float c21 = m[0][2] * m[1][0] - m[0][0] * m[1][2];
      const float c22 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
      const float det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
      const float sign = det < 0.0f ? -1.0f : 1.0f;
      out = NormalizeOrKeep({sign * (c00 * n[0] + c01 * n[1] + c02 * n[2]),
                             sign * (c10 * n[0] + c11 * n[1] + c12 * n[2]),
                             sign * (c20 * n[0] + c21 * n[1] + c22 * n[2])});
    }
    s.out_normals[v * 3 + 0] = out.x;
    s.out_normals[v * 3 + 1] = out.y;
    s.out_normals[v * 3 + 2] = out.z;
  }

  if (!s.tangents.empty()) {
    const float* t = &s.tangents[v * 4];
    const Float3 out = NormalizeOrKeep({m[0][0] * t[0] + m[0][1] * t[1] + m[0][2] * t[2],
                                        m[1][0] * t[0] + m[1][1] * t[1] + m[1][2] * t[2],
                                        m[2][0] * t[0] + m[2][1] * t[1] + m[2][2] * t[2]});
    s.out_tangents[v * 4 + 0] = out.x;
    s.out_tangents[v * 4 + 1] = out.y;
    s.out_tangents[v * 4 + 2] = out.z;
    s.out_tangents[v * 4 + 3] = t[3];
  }
}

}  // namespace sinew::cpu::detail
