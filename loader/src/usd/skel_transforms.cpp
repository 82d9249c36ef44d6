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

Result<Float4x4> RigidTransform(const Float4x4& geom_bind, std::span<const Float4x4> skinning,
                                std::span<const int32_t> indices, std::span<const float> weights) {
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] < 0 || size_t(indices[i]) >= skinning.size()) {
      return Status(Error::kInvalidReference,
                    "joint index " + std::to_string(indices[i]) + " outside the " +
                        std::to_string(skinning.size()) + " joints",
                    "jointIndices/" + std::to_string(i));
    }
  }
  if (indices.size() == 1 && weights.size() == 1 && std::fabs(weights[0] - 1.0f) < 1e-6f) {
    return Multiply(skinning[size_t(indices[0])], geom_bind);
  }
  // Linear blending of one point, in influence order, zero weights skipped.
  const auto skin = [&](const Float3& p) {
    Float3 sum;
    for (size_t i = 0; i < indices.size() && i < weights.size(); ++i) {
      if (weights[i] == 0.0f) continue;
      const Float3 q = TransformPoint(skinning[size_t(indices[i])], p);
      sum = {sum.x + weights[i] * q.x, sum.y + weights[i] * q.y, sum.z + weights[i] * q.z};
    }
    return sum;
  };
  const Float3 pivot{geom_bind.m[3][0], geom_bind.m[3][1], geom_bind.m[3][2]};
  const Float3 moved = skin(pivot);
  Float4x4 out;
  for (int c = 0; c < 3; ++c) {
    const Float3 tip = skin(
        {pivot.x + geom_bind.m[c][0], pivot.y + geom_bind.m[c][1], pivot.z + geom_bind.m[c][2]});
    out.m[c] = {tip.x - moved.x, tip.y - moved.y, tip.z - moved.z, 0};
  }
  out.m[3] = {moved.x, moved.y, moved.z, 1};
  return out;
}

}  // namespace sinew::loader::usd
