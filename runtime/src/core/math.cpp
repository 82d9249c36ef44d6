#include "sinew/core/math.h"

#include <algorithm>
#include <limits>

#include "rotation_quaternion.h"

namespace sinew {

Float4x4 Multiply(const Float4x4& a, const Float4x4& b) {
  Float4x4 out;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += a.m[k][r] * b.m[c][k];
      out.m[c][r] = sum;
    }
  }
  return out;
}

bool IsFinite(const Float4x4& a) {
  for (const auto& column : a.m) {
    for (const float v : column) {
      if (!std::isfinite(v)) return false;
    }
  }
  return true;
}

bool Invert(const Float4x4& a, Float4x4* out) {
  // Cofactor expansion in double, rounded once to float (docs/semantics.md, "Float and double").
  double m[16];
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[c * 4 + r] = a.m[c][r];
  double inv[16];
  inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] +
           m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
  inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] -
           m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
  inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] +
           m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
  inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] -
            m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
  inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] -
           m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
  inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] +
           m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
  inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] -
           m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
  inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] +
            m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
  inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] +
           m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
  inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] -
           m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
  inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] +
            m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
  inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] -
            m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
  inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] -
           m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
  inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] +
           m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
  inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] -
            m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
  inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] +
            m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
  const double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
  if (det == 0.0 || !std::isfinite(det)) return false;
  const double inv_det = 1.0 / det;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) out->m[c][r] = static_cast<float>(inv[c * 4 + r] * inv_det);
  return true;
}

Float4x4 Translation(float x, float y, float z) {
  Float4x4 out;
  out.m[3] = {x, y, z, 1};
  return out;
}

Float4x4 Scaling(float x, float y, float z) {
  Float4x4 out;
  out.m[0][0] = x;
  out.m[1][1] = y;
  out.m[2][2] = z;
  return out;
}

Quat AxisAngle(float x, float y, float z, float radians) {
  const float s = std::sin(radians * 0.5f);
  return {x * s, y * s, z * s, std::cos(radians * 0.5f)};
}

Quat Normalize(const Quat& q) {
  const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  if (!(len > 0.0f)) return {};
  return {q.x / len, q.y / len, q.z / len, q.w / len};
}

Quat Slerp(const Quat& a, const Quat& b, float t) {
  return SlerpUnit(Normalize(a), Normalize(b), t);
}

Quat SlerpUnit(const Quat& a, const Quat& b_in, float t) {
  Quat b = b_in;
  float cosine = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  if (cosine < 0.0f) {  // the shorter arc
    b = {-b.x, -b.y, -b.z, -b.w};
    cosine = -cosine;
  }
  float wa = 1.0f - t, wb = t;
  if (cosine < 0.9995f) {
    const float angle = std::acos(cosine);
    const float sine = std::sin(angle);
    wa = std::sin((1.0f - t) * angle) / sine;
    wb = std::sin(t * angle) / sine;
  }
  return Normalize(
      {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w});
}

Float4x4 ComposeTrs(const Float3& t, const Quat& q, const Float3& s) {
  const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  Float4x4 out;
  out.m[0] = {(1 - 2 * (yy + zz)) * s.x, 2 * (xy + wz) * s.x, 2 * (xz - wy) * s.x, 0};
  out.m[1] = {2 * (xy - wz) * s.y, (1 - 2 * (xx + zz)) * s.y, 2 * (yz + wx) * s.y, 0};
  out.m[2] = {2 * (xz + wy) * s.z, 2 * (yz - wx) * s.z, (1 - 2 * (xx + yy)) * s.z, 0};
  out.m[3] = {t.x, t.y, t.z, 1};
  return out;
}

Quat Multiply(const Quat& a, const Quat& b) {
  const float x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const float y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const float z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const float w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  return {x, y, z, w};
}

bool DecomposeTrs(const Float4x4& m, Float3* t, Quat* r, Float3* s) {
  for (const auto& column : m.m) {
    for (float v : column) {
      if (!std::isfinite(v)) return false;
    }
  }
  if (std::fabs(m.m[0][3]) > 1e-6f || std::fabs(m.m[1][3]) > 1e-6f ||
      std::fabs(m.m[2][3]) > 1e-6f || std::fabs(m.m[3][3] - 1.0f) > 1e-6f) {
    return false;
  }
  // In double (docs/semantics.md, "Float and double"): u[c] = column c of the 3x3 part.
  double u[3][3], len[3];
  for (int c = 0; c < 3; ++c) {
    for (int k = 0; k < 3; ++k) u[c][k] = m.m[c][k];
    len[c] = std::sqrt(u[c][0] * u[c][0] + u[c][1] * u[c][1] + u[c][2] * u[c][2]);
  }
  const double longest = std::max({len[0], len[1], len[2]});
  for (int c = 0; c < 3; ++c) {
    if (!(len[c] > 1e-6 * longest)) return false;  // singular (or all zero)
    for (int k = 0; k < 3; ++k) u[c][k] /= len[c];
  }
  const auto dot = [&](int a, int b) {
    return u[a][0] * u[b][0] + u[a][1] * u[b][1] + u[a][2] * u[b][2];
  };
  if (std::fabs(dot(0, 1)) > 1e-3 || std::fabs(dot(0, 2)) > 1e-3 || std::fabs(dot(1, 2)) > 1e-3) {
    return false;  // shear
  }
  // det = (u0 × u1) · u2; a mirror goes on the x axis, so that R = (u0 u1 u2) is a rotation.
  const double det = (u[0][1] * u[1][2] - u[0][2] * u[1][1]) * u[2][0] +
                     (u[0][2] * u[1][0] - u[0][0] * u[1][2]) * u[2][1] +
                     (u[0][0] * u[1][1] - u[0][1] * u[1][0]) * u[2][2];
  if (det < 0.0) {
    len[0] = -len[0];
    for (int k = 0; k < 3; ++k) u[0][k] = -u[0][k];
  }
  // R(row, col) = u[col][row]; the columns may be off orthonormal by the tolerance: the quaternion
  // is of the nearby rotation.
  double rotation[3][3], q[4];
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) rotation[row][col] = u[col][row];
  detail::RotationToQuaternion(rotation, q);
  if (t) *t = {m.m[3][0], m.m[3][1], m.m[3][2]};
  if (r) *r = {float(q[0]), float(q[1]), float(q[2]), float(q[3])};
  if (s) *s = {float(len[0]), float(len[1]), float(len[2])};
  return true;
}

Float3x4 ToFloat3x4(const Float4x4& a) {
  Float3x4 out;
  for (int r = 0; r < 3; ++r) out.row[r] = {a.m[0][r], a.m[1][r], a.m[2][r], a.m[3][r]};
  return out;
}

Float4x4 ToFloat4x4(const Float3x4& a) {
  Float4x4 out;
  out.m[0] = {a.row[0].x, a.row[1].x, a.row[2].x, 0};
  out.m[1] = {a.row[0].y, a.row[1].y, a.row[2].y, 0};
  out.m[2] = {a.row[0].z, a.row[1].z, a.row[2].z, 0};
  out.m[3] = {a.row[0].w, a.row[1].w, a.row[2].w, 1};
  return out;
}

Float3x4 MultiplyTo3x4(const Float4x4& a, const Float4x4& b) {
  Float3x4 out;
  for (int r = 0; r < 3; ++r) {
    float v[4];
    for (int c = 0; c < 4; ++c) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += a.m[k][r] * b.m[c][k];
      v[c] = sum;
    }
    out.row[r] = {v[0], v[1], v[2], v[3]};
  }
  return out;
}

Float3 TransformPoint(const Float4x4& a, const Float3& p) {
  return {a.m[0][0] * p.x + a.m[1][0] * p.y + a.m[2][0] * p.z + a.m[3][0],
          a.m[0][1] * p.x + a.m[1][1] * p.y + a.m[2][1] * p.z + a.m[3][1],
          a.m[0][2] * p.x + a.m[1][2] * p.y + a.m[2][2] * p.z + a.m[3][2]};
}

Float3 TransformPoint(const Float3x4& a, const Float3& p) {
  const auto row = [&](const Float4& r) { return r.x * p.x + r.y * p.y + r.z * p.z + r.w; };
  return {row(a.row[0]), row(a.row[1]), row(a.row[2])};
}

float BoundsDiagonal(std::span<const float> xyz) {
  if (xyz.size() < 3) return 0.0f;
  float lo[3], hi[3];
  for (int c = 0; c < 3; ++c) {
    lo[c] = std::numeric_limits<float>::max();
    hi[c] = std::numeric_limits<float>::lowest();
  }
  for (size_t i = 0; i + 2 < xyz.size(); i += 3) {
    for (int c = 0; c < 3; ++c) {
      lo[c] = std::min(lo[c], xyz[i + static_cast<size_t>(c)]);
      hi[c] = std::max(hi[c], xyz[i + static_cast<size_t>(c)]);
    }
  }
  return Length({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
}

}  // namespace sinew
