// Rotation matrix -> quaternion, shared by DecomposeTrs (core/math.cpp) and the dual-quaternion
// palette (cpu/dual_quaternion_palette_job.cpp). In double.
#pragma once

#include <cmath>

namespace sinew::detail {

// A rotation matrix m[row][column] as a unit quaternion q = (x, y, z, w) with w >= 0; a matrix a
// little off orthonormal gives the nearby rotation (Shepperd's method: divide by
// the largest of 4w², 4x², 4y², 4z²).
inline void RotationToQuaternion(const double (&m)[3][3], double (&q)[4]) {
  const double trace = m[0][0] + m[1][1] + m[2][2];
  if (trace > 0.0) {
    const double f = 2.0 * std::sqrt(1.0 + trace);
    q[3] = 0.25 * f;
    q[0] = (m[2][1] - m[1][2]) / f;
    q[1] = (m[0][2] - m[2][0]) / f;
    q[2] = (m[1][0] - m[0][1]) / f;
  } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
    const double f = 2.0 * std::sqrt(std::fmax(0.0, 1.0 + m[0][0] - m[1][1] - m[2][2]));
    q[0] = 0.25 * f;
    q[1] = (m[0][1] + m[1][0]) / f;
    q[2] = (m[0][2] + m[2][0]) / f;
    q[3] = (m[2][1] - m[1][2]) / f;
  } else if (m[1][1] >= m[2][2]) {
    const double f = 2.0 * std::sqrt(std::fmax(0.0, 1.0 + m[1][1] - m[0][0] - m[2][2]));
    q[0] = (m[0][1] + m[1][0]) / f;
    q[1] = 0.25 * f;
    q[2] = (m[1][2] + m[2][1]) / f;
    q[3] = (m[0][2] - m[2][0]) / f;
  } else {
    const double f = 2.0 * std::sqrt(std::fmax(0.0, 1.0 + m[2][2] - m[0][0] - m[1][1]));
    q[0] = (m[0][2] + m[2][0]) / f;
    q[1] = (m[1][2] + m[2][1]) / f;
    q[2] = 0.25 * f;
    q[3] = (m[1][0] - m[0][1]) / f;
  }
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double sign = q[3] < 0.0 ? -1.0 : 1.0;
  for (int k = 0; k < 4; ++k) q[k] *= sign / norm;
}

}  // namespace sinew::detail
