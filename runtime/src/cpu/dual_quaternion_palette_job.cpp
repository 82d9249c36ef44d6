#include "sinew/cpu/dual_quaternion_palette_job.h"

#include <cmath>
#include <string>

#include "../core/rotation_quaternion.h"

namespace sinew::cpu {
namespace {

using Matrix3 = double[3][3];  // [row][column]

double Determinant(const Matrix3& a) {
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

// out = inverse(a)ᵀ, by cofactors; det(a) != 0.
void InverseTranspose(const Matrix3& a, Matrix3& out) {
  const double det = Determinant(a);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      out[r][c] = (a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]) / det;
    }
  }
}

// The orthogonal factor U of the polar decomposition a = U · P (P symmetric positive definite),
// by the scaled Newton iteration U ← ½ (γ U + U⁻ᵀ / γ), γ = (‖U⁻ᵀ‖ / ‖U‖)^½; det(a) != 0.
void PolarRotation(const Matrix3& a, Matrix3& u) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) u[r][c] = a[r][c];
  for (int iteration = 0; iteration < 32; ++iteration) {
    Matrix3 y;
    InverseTranspose(u, y);
    double nu = 0, ny = 0;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        nu += u[r][c] * u[r][c];
        ny += y[r][c] * y[r][c];
      }
    }
    const double gamma = std::sqrt(std::sqrt(ny / nu));
    double change = 0;
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        const double next = 0.5 * (gamma * u[r][c] + y[r][c] / gamma);
        change += std::fabs(next - u[r][c]);
        u[r][c] = next;
      }
    }
    if (change < 1e-14) break;
  }
}

DualQuaternion Convert(const Float3x4& m) {
  Matrix3 a;
  for (int r = 0; r < 3; ++r) {
    a[r][0] = m.row[r].x;
    a[r][1] = m.row[r].y;
    a[r][2] = m.row[r].z;
  }
  DualQuaternion out;
  const double det = Determinant(a);
  if (!(std::fabs(det) >= 1e-10)) {
    out.real = {0, 0, 0, 0};
    return out;  // dual 0, K = I
  }
  Matrix3 u;
  PolarRotation(a, u);
  if (det < 0) {  // u is a reflection: −u is the rotation, the mirror goes into K
    for (auto& row : u)
      for (double& x : row) x = -x;
  }
  double q[4];
  detail::RotationToQuaternion(u, q);
  // K = uᵀ · a.
  Matrix3 k, kn;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      k[r][c] = u[0][r] * a[0][c] + u[1][r] * a[1][c] + u[2][r] * a[2][c];
    }
  }
  InverseTranspose(k, kn);
  const double t[3] = {m.row[0].w, m.row[1].w, m.row[2].w};
  // ½ (t, 0) ⊗ q: w = −t·v, xyz = t × v... written out for (t, 0) ⊗ (v, w) = (w t + t × v, −t·v).
  const double dual[4] = {0.5 * (q[3] * t[0] + t[1] * q[2] - t[2] * q[1]),
                          0.5 * (q[3] * t[1] + t[2] * q[0] - t[0] * q[2]),
                          0.5 * (q[3] * t[2] + t[0] * q[1] - t[1] * q[0]),
                          -0.5 * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2])};
  out.real = {float(q[0]), float(q[1]), float(q[2]), float(q[3])};
  out.dual = {float(dual[0]), float(dual[1]), float(dual[2]), float(dual[3])};
  for (int r = 0; r < 3; ++r) {
    out.scale[r] = {float(k[r][0]), float(k[r][1]), float(k[r][2]), 0};
    out.normal_scale[r] = {float(kn[r][0]), float(kn[r][1]), float(kn[r][2]), 0};
  }
  return out;
}

}  // namespace

Status DualQuaternionPaletteJob::Validate() const {
  if (output.size() != palette.size()) {
    return {Error::kSizeMismatch,
            "output has " + std::to_string(output.size()) + " entries for a palette of " +
                std::to_string(palette.size()),
            "output"};
  }
  for (size_t i = 0; i < palette.size(); ++i) {
    for (const Float4& row : palette[i].row) {
      if (!std::isfinite(row.x) || !std::isfinite(row.y) || !std::isfinite(row.z) ||
          !std::isfinite(row.w)) {
        return {Error::kNonFiniteValue, "a matrix entry is not finite",
                "palette/" + std::to_string(i)};
      }
    }
  }
  return {};
}

Status DualQuaternionPaletteJob::Run() const {
  if (Status s = Validate(); !s) return s;
  for (size_t i = 0; i < palette.size(); ++i) output[i] = Convert(palette[i]);
  return {};
}

bool HasScale(std::span<const DualQuaternion> palette) {
  for (const DualQuaternion& e : palette) {
    for (int r = 0; r < 3; ++r) {
      const float row[3] = {e.scale[r].x, e.scale[r].y, e.scale[r].z};
      for (int c = 0; c < 3; ++c) {
        if (std::fabs(row[c] - (r == c ? 1.0f : 0.0f)) >= 1e-6f) return true;
      }
    }
  }
  return false;
}

}  // namespace sinew::cpu
