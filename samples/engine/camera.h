// The engine sample's camera: a perspective view that frames a box, and the projection of a
// scene-space point to a pixel (what the pictures' tests check the rasterizer against).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "sinew/core/math.h"

namespace sinew::engine {

// An axis-aligned box grown point by point; empty until the first point.
struct Bounds {
  Float3 min{1e30f, 1e30f, 1e30f};
  Float3 max{-1e30f, -1e30f, -1e30f};

  void Add(const Float3& p);
  void Add(std::span<const float> xyz);  // whole triples
  bool empty() const { return min.x > max.x; }
};

// Where the camera looks from, towards the box's centre: "auto" (in front, +Z, a little above and
// to the right), "front" (+Z), "side" (+X), "top" (+Y, with -Z up in the picture).
inline constexpr const char* kCameraViews[] = {"auto", "front", "side", "top"};

// Which scene axis is up: +Y (glTF, G4MF, most USD stages) or +Z (a USD stage's upAxis "Z").
enum class UpAxis : uint8_t { kY, kZ };

// The matrix that takes an asset's coordinates, `up` the axis up and `meters_per_unit` metres a
// unit (as sinew's loaded asset says of them: LoadedAsset::up_axis, meters_per_unit), to +Y up in
// metres, the frame the sample's scene is in: for +Z up turned (x, y, z) -> (x, z, -y), the
// rotation that takes +Z to +Y and -Y to +Z; then scaled. An engine places each character with it
// (main.cpp).
Float4x4 ToYUpMeters(UpAxis up, float meters_per_unit);

// Where a character goes in the scene: `frame` (ToYUpMeters) first, then moved to `at`.
Float4x4 Placed(const Float4x4& frame, const Float3& at);

// The box of `box`'s eight corners through `m` (empty stays empty).
Bounds Transformed(const Bounds& box, const Float4x4& m);

// Looks at the box's centre from the `view` direction (one of kCameraViews; others: "auto"), with
// a vertical field of view of 35°, from far enough that the box's bounding sphere fits the
// picture of `aspect` (width / height). Scene space to Vulkan clip space (y down, depth 0..1),
// column-major. The views are named for a +Y-up scene; for a +Z-up one they turn with the scene
// (the rotation that takes +Z to +Y and -Y to +Z), so +Z is up in the picture, "front" looks from
// -Y and "top" from +Z with +Y up.
Float4x4 FramingViewProjection(const Bounds& box, float aspect, std::string_view view = "auto",
                               UpAxis up = UpAxis::kY);

// The direction towards the sample's light for that camera: over the viewer's right shoulder.
Float3 FramingLight(UpAxis up = UpAxis::kY);

// p through `view_projection` to pixel coordinates of a width x height picture (x right, y down;
// the pixel (i, j) covers [i, i + 1) x [j, j + 1)) and, when `depth` is given, its depth (0 near,
// 1 far); false when p is behind the camera or outside the depth range.
bool ProjectToPixel(const Float4x4& view_projection, const Float3& p, uint32_t width,
                    uint32_t height, float* x, float* y, float* depth = nullptr);

}  // namespace sinew::engine
