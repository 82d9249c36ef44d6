#include "gpu/picture_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bake_files.h"
#include "camera.h"

namespace sinew::testing {

namespace {

// Whether the 3x3 pixels around (x, y) of a width x height image hold a nonzero byte at `offset`
// of a `stride`-byte pixel.
bool AnyAround(const std::vector<uint8_t>& data, uint32_t width, uint32_t height, size_t stride,
               size_t offset, int x, int y) {
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= int(width) || ny >= int(height)) continue;
      if (data[(size_t(ny) * width + size_t(nx)) * stride + offset] != 0) return true;
    }
  }
  return false;
}

}  // namespace

namespace {

// Calls covered(pixel, depth, primitive, first) for each pixel whose centre a projected triangle
// of `baked` covers (inclusive edges), with the triangle's depth there, its primitive and the
// index of its first corner in BakedTriangles.
template <typename Covered>
void RasterizeTriangles(const std::vector<tool::BakedPrimitive>& baked,
                        const Float4x4& view_projection, uint32_t width, uint32_t height,
                        Covered&& covered) {
  for (size_t primitive = 0; primitive < baked.size(); ++primitive) {
    const tool::BakedPrimitive& b = baked[primitive];
    const std::vector<uint32_t> tris = tool::BakedTriangles(b);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
      float x[3], y[3], z[3];
      bool visible = true;
      for (int k = 0; k < 3; ++k) {
        const float* p = &b.data.positions[size_t(tris[t + size_t(k)]) * 3];
        visible &= engine::ProjectToPixel(view_projection, {p[0], p[1], p[2]}, width, height, &x[k],
                                          &y[k], &z[k]);
      }
      if (!visible) continue;
      const float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
      if (area == 0) continue;
      const int x0 = std::max(0, int(std::floor(std::min({x[0], x[1], x[2]}))));
      const int x1 = std::min(int(width) - 1, int(std::ceil(std::max({x[0], x[1], x[2]}))));
      const int y0 = std::max(0, int(std::floor(std::min({y[0], y[1], y[2]}))));
      const int y1 = std::min(int(height) - 1, int(std::ceil(std::max({y[0], y[1], y[2]}))));
      for (int py = y0; py <= y1; ++py) {
        for (int px = x0; px <= x1; ++px) {
          const float cx = float(px) + 0.5f, cy = float(py) + 0.5f;
          float e[3];
          for (int k = 0; k < 3; ++k) {
            const int n = (k + 1) % 3;
            e[k] = ((x[n] - x[k]) * (cy - y[k]) - (y[n] - y[k]) * (cx - x[k])) / area;
          }
          if (e[0] < 0 || e[1] < 0 || e[2] < 0) continue;
          // e[k] weighs the vertex opposite edge k; depth is linear in screen space.
          covered(size_t(py) * width + size_t(px), e[1] * z[0] + e[2] * z[1] + e[0] * z[2],
                  primitive, t);
        }
      }
    }
  }
}

}  // namespace

std::vector<uint8_t> CoveredByTriangles(const std::vector<tool::BakedPrimitive>& baked,
                                        const Float4x4& view_projection, uint32_t width,
                                        uint32_t height) {
  std::vector<uint8_t> mask(size_t(width) * height, 0);
  RasterizeTriangles(baked, view_projection, width, height,
                     [&](size_t pixel, float, size_t, size_t) { mask[pixel] = 1; });
  return mask;
}

std::vector<NearestTriangle> NearestTriangles(const std::vector<tool::BakedPrimitive>& baked,
                                              const Float4x4& view_projection, uint32_t width,
                                              uint32_t height) {
  std::vector<NearestTriangle> nearest(size_t(width) * height);
  RasterizeTriangles(baked, view_projection, width, height,
                     [&](size_t pixel, float z, size_t primitive, size_t first) {
                       if (z < nearest[pixel].depth) {
                         nearest[pixel] = {int32_t(primitive), uint32_t(first), z};
                       }
                     });
  return nearest;
}

void ExpectPictureShows(const Picture& picture, const std::vector<tool::BakedPrimitive>& baked,
                        const Float4x4& view_projection) {
  const uint32_t w = picture.width, h = picture.height;
  ASSERT_EQ(picture.rgba->size(), size_t(w) * h * 4);
  const std::vector<uint8_t> mask = CoveredByTriangles(baked, view_projection, w, h);
  size_t projected = 0, missed = 0, slivers = 0;
  bool triangles_only = true;
  for (const tool::BakedPrimitive& b : baked) {
    triangles_only &= b.mode == 4;
    if (b.mode != 0 && b.mode != 1 && b.mode != 4) continue;
    // The vertices the primitive draws (an index buffer may leave some out).
    std::vector<bool> used(b.data.positions.size() / 3, !b.indices || b.indices->empty());
    if (b.indices) {
      for (uint32_t i : *b.indices) used.at(i) = true;
    }
    for (size_t v = 0; v < used.size(); ++v) {
      if (!used[v]) continue;
      float x = 0, y = 0;
      const float* p = &b.data.positions[v * 3];
      if (!engine::ProjectToPixel(view_projection, {p[0], p[1], p[2]}, w, h, &x, &y) || x < 0 ||
          y < 0 || x >= float(w) || y >= float(h)) {
        continue;
      }
      ++projected;
      const int px = int(std::floor(x)), py = int(std::floor(y));
      if (b.mode == 4 && !AnyAround(mask, w, h, 1, 0, px, py)) {
        ++slivers;
        continue;
      }
      if (!AnyAround(*picture.rgba, w, h, 4, 3, px, py)) {
        ++missed;
        ADD_FAILURE() << "vertex " << v << " at pixel (" << x << ", " << y << ") not drawn";
      }
    }
  }
  EXPECT_GT(projected, 0u);
  EXPECT_EQ(missed, 0u) << "of " << projected << " projected vertices";
  EXPECT_LE(slivers, projected / 100 + 2) << "of " << projected << " projected vertices";

  size_t cpu_area = 0, gpu_area = 0, differ = 0;
  for (size_t i = 0; i < mask.size(); ++i) {
    const bool drawn = picture.Drawn(i);
    cpu_area += mask[i];
    gpu_area += drawn;
    differ += drawn != (mask[i] != 0);
  }
  EXPECT_GT(gpu_area, size_t(w) * h / 200);
  if (triangles_only) {
    EXPECT_LE(double(differ), 0.01 * double(cpu_area) + 4)
        << "pixels drawn but not covered, or covered but not drawn, of " << cpu_area;
  } else {
    EXPECT_GE(double(gpu_area), 0.99 * double(cpu_area));
  }
}

}  // namespace sinew::testing
