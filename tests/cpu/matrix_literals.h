// Matrices written out by hand for the CPU job tests.
#pragma once

#include <array>

#include "sinew/core/math.h"

namespace sinew::cpu::testing {

// A matrix from its four columns (column-major, translation last), written out by hand.
inline Float4x4 Columns(std::array<float, 4> c0, std::array<float, 4> c1, std::array<float, 4> c2,
                        std::array<float, 4> c3) {
  Float4x4 m;
  m.m = {c0, c1, c2, c3};
  return m;
}

// A pure translation.
inline Float4x4 Move(float x, float y, float z) {
  return Columns({1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {x, y, z, 1});
}

// A 3x4 affine matrix from its three rows, written out by hand.
inline Float3x4 Rows(Float4 r0, Float4 r1, Float4 r2) {
  Float3x4 m;
  m.row = {r0, r1, r2};
  return m;
}

// A pure translation as a 3x4 palette matrix.
inline Float3x4 Translate(float x, float y, float z) {
  return Rows({1, 0, 0, x}, {0, 1, 0, y}, {0, 0, 1, z});
}

}  // namespace sinew::cpu::testing
