// Checking a picture drawn on the GPU against the CPU reference of the same scene, projected with
// the same camera (never against a stored picture): what tests/gpu/render_gpu_test.cpp and
// tests/gpu/engine_scene_gpu_test.cpp assert.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bake.h"
#include "sinew/core/math.h"

namespace sinew::testing {

// A width x height RGBA8 picture (alpha 0 where nothing was drawn).
struct Picture {
  uint32_t width = 0, height = 0;
  const std::vector<uint8_t>* rgba = nullptr;

  bool Drawn(size_t pixel) const { return (*rgba)[pixel * 4 + 3] != 0; }
};

// Pixels whose centre lies inside (or on the edge of) a projected triangle of `baked`, as a
// rasterizer covers them: the CPU's own picture of the area (1 covered, 0 not).
std::vector<uint8_t> CoveredByTriangles(const std::vector<tool::BakedPrimitive>& baked,
                                        const Float4x4& view_projection, uint32_t width,
                                        uint32_t height);

// The nearest projected triangle of `baked` at each pixel centre — its primitive and the index of
// its first corner in BakedTriangles (primitive -1 where none covers the pixel): a CPU depth
// buffer, to tell which surface a pixel shows.
struct NearestTriangle {
  int32_t primitive = -1;
  uint32_t first = 0;
  float depth = 2.0f;  // 0 near, 1 far
};
std::vector<NearestTriangle> NearestTriangles(const std::vector<tool::BakedPrimitive>& baked,
                                              const Float4x4& view_projection, uint32_t width,
                                              uint32_t height);

// The picture against `baked` (scene space) seen through `view_projection`:
// * every vertex the CPU bake draws that projects into the picture falls on a drawn pixel (within
//   one) wherever the CPU's own coverage of the triangles puts one there — that is, except at the
//   tip of a sliver too thin to cover a pixel centre, which may be 1 % of the vertices (and two
//   more);
// * the drawn pixels are the pixels the projected triangles cover: for scenes of triangles only,
//   the two differ in at most 1 % of that area (pixels whose centre lies on an edge); lines and
//   points only add pixels;
// * more than 0.5 % of the picture is drawn (the camera frames the scene).
void ExpectPictureShows(const Picture& picture, const std::vector<tool::BakedPrimitive>& baked,
                        const Float4x4& view_projection);

}  // namespace sinew::testing
