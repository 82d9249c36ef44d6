// Minimal float math for the CPU reference and pose evaluation.
// Conventions (docs/semantics.md, "Conventions"): column vectors, column-major 4x4 storage,
// right-handed.
#pragma once

#include <array>
#include <cmath>
#include <span>

namespace sinew {

struct Float3 {
  float x = 0, y = 0, z = 0;
};

struct Float4 {
  float x = 0, y = 0, z = 0, w = 0;
};

// 4x4 matrix, column-major: m[c][r] is column c, row r; translation in m[3].
struct Float4x4 {
  std::array<std::array<float, 4>, 4> m{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}};

  static Float4x4 Identity() { return {}; }
};

// Affine 3x4 matrix stored as three rows (the GPU palette layout, 48 bytes):
// p' = (dot(row[0], p1), dot(row[1], p1), dot(row[2], p1)) with p1 = (p, 1).
struct Float3x4 {
  std::array<Float4, 3> row{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
};
static_assert(sizeof(Float3x4) == 48, "palette entries are 48 bytes on the GPU");

// Unit quaternion (x, y, z, w), w the scalar part.
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
};

Float4x4 Multiply(const Float4x4& a, const Float4x4& b);
// Inverse of a general 4x4 matrix; returns false (and leaves *out untouched) when singular.
bool Invert(const Float4x4& a, Float4x4* out);
// Whether every entry of `a` is finite.
bool IsFinite(const Float4x4& a);
Float4x4 Translation(float x, float y, float z);
Float4x4 Scaling(float x, float y, float z);
// Rotation of `radians` about the unit axis (x, y, z).
Quat AxisAngle(float x, float y, float z, float radians);
// q / |q|; the identity for a zero quaternion.
Quat Normalize(const Quat& q);
// Spherical interpolation from a (t = 0) to b (t = 1) along the shorter arc (b is negated when
// dot(a, b) < 0), normalized; nearly parallel inputs fall back to a normalized lerp. a and b are
// normalized first (keys in files are rounded), so the angle is uniform in t.
Quat Slerp(const Quat& a, const Quat& b, float t);
// Slerp of quaternions already of unit length (Slerp normalizes its inputs, then calls this).
Quat SlerpUnit(const Quat& a, const Quat& b, float t);
// T * R * S, as glTF composes a node's local matrix.
Float4x4 ComposeTrs(const Float3& t, const Quat& r, const Float3& s);
// Hamilton product: the rotation b, then a (Multiply(a, b) rotates v as a·(b·v)).
Quat Multiply(const Quat& a, const Quat& b);
// The inverse of a unit quaternion.
inline Quat Conjugate(const Quat& q) { return {-q.x, -q.y, -q.z, q.w}; }
// Splits an affine matrix without shear into m = T·R·S (the inverse of ComposeTrs). Returns false,
// leaving the outputs untouched, when an entry is not finite, the bottom row is not 0 0 0 1
// (within 1e-6), a column of the 3x3 part is shorter than 1e-6 times the longest (singular), or
// two of its columns are not orthogonal: |cos| of the angle between them above 1e-3 (shear; the
// tolerance lets rotations rounded to a few digits in a file through). A negative determinant (a
// mirror) is always put on the x axis: s.x < 0, s.y and s.z > 0, and r is a proper rotation with
// ComposeTrs(t, r, s) == m. r is normalized with r.w >= 0. Any output may be null.
bool DecomposeTrs(const Float4x4& m, Float3* t, Quat* r, Float3* s);
// The top three rows of an affine 4x4 matrix (its bottom row is assumed to be 0 0 0 1).
Float3x4 ToFloat3x4(const Float4x4& a);
// The 4x4 matrix of an affine 3x4 one (last row 0, 0, 0, 1).
Float4x4 ToFloat4x4(const Float3x4& a);
// ToFloat3x4(Multiply(a, b)), computing only the three rows it keeps (bit for bit the same).
Float3x4 MultiplyTo3x4(const Float4x4& a, const Float4x4& b);

Float3 TransformPoint(const Float4x4& a, const Float3& p);
Float3 TransformPoint(const Float3x4& a, const Float3& p);

inline float Dot(const Float3& a, const Float3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Float3 Cross(const Float3& a, const Float3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float Length(const Float3& a) { return std::sqrt(Dot(a, a)); }
// a / |a|, or a unchanged when |a| == 0 (the GPU kernels use the same rule).
inline Float3 NormalizeOrKeep(const Float3& a) {
  const float len = Length(a);
  return len > 0.0f ? Float3{a.x / len, a.y / len, a.z / len} : a;
}

// Length of the diagonal of the axis-aligned bounds of xyz triples: the "extent" that error
// tolerances scale with (docs/semantics.md, "Tolerances"). 0 for fewer than one point.
float BoundsDiagonal(std::span<const float> xyz);

}  // namespace sinew
