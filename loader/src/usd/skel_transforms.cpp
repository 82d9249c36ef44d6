#include "usd/skel_transforms.h"

#include <cfloat>
#include <cmath>
#include <string>

namespace sinew::loader::usd {

Float4x4 FromUsdMatrix(std::span<const double, 16> rows) {
  Float4x4 m;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m.m[c][r] = float(rows[size_t(c) * 4 + size_t(r)]);
  return m;
}

Float4x4 MakeTransform(const float translation[3], const float rotation[4], const float scale[3]) {
  const float r = rotation[0], x = rotation[1], y = rotation[2], z = rotation[3];
  // USD's rows of the rotation (the images of the x, y and z axes): sinew's columns.
  const float axes[3][3] = {
      {float(1.0 - 2.0 * double(y * y + z * z)), float(2.0 * double(x * y + z * r)),
       float(2.0 * double(z * x - y * r))},
      {float(2.0 * double(x * y - z * r)), float(1.0 - 2.0 * double(z * z + x * x)),
       float(2.0 * double(y * z + x * r))},
      {float(2.0 * double(z * x + y * r)), float(2.0 * double(y * z - x * r)),
       float(1.0 - 2.0 * double(y * y + x * x))}};
  Float4x4 m;
  for (int c = 0; c < 3; ++c) {
    for (int k = 0; k < 3; ++k) m.m[c][k] = scale[c] * axes[c][k];
    m.m[c][3] = 0;
  }
  m.m[3] = {translation[0], translation[1], translation[2], 1};
  return m;
}

Status SkinningTransforms(std::span<const int32_t> parents, std::span<const Float4x4> locals,
                          std::span<const Float4x4> binds, std::vector<Float4x4>* skel,
                          std::vector<Float4x4>* skinning) {
  const size_t n = parents.size();
  if (locals.size() != n) {
    return {
        Error::kSizeMismatch,
        std::to_string(locals.size()) + " local transforms for " + std::to_string(n) + " joints",
        "locals"};
  }
  if (binds.size() != n) {
    return {Error::kSizeMismatch,
            std::to_string(binds.size()) + " bind transforms for " + std::to_string(n) + " joints",
            "binds"};
  }
  skel->resize(n);
  skinning->resize(n);
  for (size_t j = 0; j < n; ++j) {
    (*skel)[j] = parents[j] < 0 ? locals[j] : Multiply((*skel)[size_t(parents[j])], locals[j]);
    Float4x4 inverse_bind;
    if (!Invert(binds[j], &inverse_bind)) {  // UsdSkel's GetInverse of a singular matrix
      inverse_bind = Scaling(FLT_MAX, FLT_MAX, FLT_MAX);
    }
    (*skinning)[j] = Multiply((*skel)[j], inverse_bind);
  }
  return {};
}

}  // namespace sinew::loader::usd
