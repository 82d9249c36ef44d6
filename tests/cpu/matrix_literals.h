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

}  // namespace sinew::cpu::testing
