#include "sinew/procedural/face_shapes.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <utility>

namespace sinew::procedural {

Result<FaceShapes> MakeFaceShapes(const Primitive& mesh, const FaceShapeOptions& o) {
  const size_t v = mesh.vertex_count();
  if (v == 0) return Status(Error::kInvalidArgument, "the mesh has no vertices", "positions");
  if (!(o.min_fraction > 0 && o.min_fraction <= o.max_fraction && o.max_fraction <= 1)) {
    return Status(Error::kInvalidArgument, "need 0 < min_fraction <= max_fraction <= 1",
                  "min_fraction");
  }
  std::mt19937 rng(o.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float extent = BoundsDiagonal(mesh.positions);
  FaceShapes out;
  out.targets.resize(o.shapes);
  out.touched.resize(o.shapes);
  std::vector<std::pair<float, uint32_t>> by_distance(v);
  for (uint32_t s = 0; s < o.shapes; ++s) {
    // A region: the vertices nearest a random vertex, 2-10% of them.
    const size_t center = rng() % v;
    const float* c = &mesh.positions[center * 3];
    for (uint32_t i = 0; i < v; ++i) {
      const float* p = &mesh.positions[size_t(i) * 3];
      const float dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
      by_distance[i] = {dx * dx + dy * dy + dz * dz, i};
    }
    const float fraction = o.min_fraction + (o.max_fraction - o.min_fraction) * unit(rng);
    const size_t count = std::max<size_t>(1, size_t(fraction * float(v)));
    std::nth_element(by_distance.begin(), by_distance.begin() + ptrdiff_t(count - 1),
                     by_distance.end());
    const float radius = std::sqrt(by_distance[count - 1].first) + 1e-6f;
    // Move along a random direction, up to 2% of the extent, fading to 0 at the region's edge.
    Float3 dir = NormalizeOrKeep({unit(rng) - 0.5f, unit(rng) - 0.5f, unit(rng) - 0.5f});
    const float amplitude = 0.02f * extent;
    MorphTarget& t = out.targets[s];
    t.positions.assign(v * 3, 0.0f);
    if (!mesh.normals.empty()) t.normals.assign(v * 3, 0.0f);
    size_t touched = 0;
    for (size_t k = 0; k < count; ++k) {
      const uint32_t i = by_distance[k].second;
      const float falloff = 1.0f - std::sqrt(by_distance[k].first) / radius;
      if (falloff <= 0.0f) continue;
      const float a = amplitude * falloff * falloff;
      t.positions[i * 3] = a * dir.x, t.positions[i * 3 + 1] = a * dir.y;
      t.positions[i * 3 + 2] = a * dir.z;
      if (!t.normals.empty()) {  // a small tilt toward the motion
        t.normals[i * 3] = 0.1f * falloff * dir.x, t.normals[i * 3 + 1] = 0.1f * falloff * dir.y;
        t.normals[i * 3 + 2] = 0.1f * falloff * dir.z;
      }
      ++touched;
    }
    out.touched[s] = touched;
  }
  // In-betweens: at 0.5, the same region bulging the other way a little (a "half" shape that is
  // not half of the shape).
  for (uint32_t s = 0; o.inbetween_every && s < o.shapes; s += o.inbetween_every) {
    MorphTarget between = out.targets[s];
    for (float& f : between.positions) f *= -0.3f;
    for (float& f : between.normals) f *= -0.3f;
    out.inbetweens.push_back({s, {{uint32_t(out.targets.size()), 0.5f}}});
    out.touched.push_back(out.touched[s]);
    out.targets.push_back(std::move(between));
  }
  return out;
}

}  // namespace sinew::procedural
