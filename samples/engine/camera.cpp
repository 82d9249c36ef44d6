#include "camera.h"

#include <algorithm>
#include <cmath>

namespace sinew::engine {

namespace {

constexpr float kFieldOfViewY = 35.0f * 3.14159265f / 180.0f;

Float3 Sub(const Float3& a, const Float3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

Float3 Normalized(const Float3& v) {
  const float len = Length(v);
  return {v.x / len, v.y / len, v.z / len};
}

// From the target to the eye.
Float3 ViewDirection(std::string_view view) {
  if (view == "front") return {0, 0, 1};
  if (view == "side") return {1, 0, 0};
  if (view == "top") return {0, 1, 0};
  return Normalized({0.35f, 0.25f, 1.0f});
}

}  // namespace

void Bounds::Add(const Float3& p) {
  min = {std::min(min.x, p.x), std::min(min.y, p.y), std::min(min.z, p.z)};
  max = {std::max(max.x, p.x), std::max(max.y, p.y), std::max(max.z, p.z)};
}

void Bounds::Add(std::span<const float> xyz) {
  for (size_t i = 0; i + 2 < xyz.size(); i += 3) Add({xyz[i], xyz[i + 1], xyz[i + 2]});
}

Float4x4 ToYUpMeters(UpAxis up, float meters_per_unit) {
  const float s = meters_per_unit;
  Float4x4 m;  // the columns are the images of the axes
  m.m[0] = {s, 0, 0, 0};
  if (up == UpAxis::kZ) {
    m.m[1] = {0, 0, -s, 0};
    m.m[2] = {0, s, 0, 0};
  } else {
    m.m[1] = {0, s, 0, 0};
    m.m[2] = {0, 0, s, 0};
  }
  return m;
}

Float4x4 Placed(const Float4x4& frame, const Float3& at) {
  Float4x4 place = frame;  // frame moves nothing: at's translation goes after it
  place.m[3] = {at.x, at.y, at.z, 1};
  return place;
}

Bounds Transformed(const Bounds& box, const Float4x4& m) {
  Bounds out;
  if (box.empty()) return out;
  for (int corner = 0; corner < 8; ++corner) {
    out.Add(
        TransformPoint(m, {corner & 1 ? box.max.x : box.min.x, corner & 2 ? box.max.y : box.min.y,
                           corner & 4 ? box.max.z : box.min.z}));
  }
  return out;
}

Float4x4 FramingViewProjection(const Bounds& box, float aspect, std::string_view view_name,
                               UpAxis up_axis) {
  if (up_axis == UpAxis::kZ) {
    // Frame the box turned +Z-up to +Y-up, then turn the scene the same way before that camera.
    const Float4x4 turn = ToYUpMeters(UpAxis::kZ, 1.0f);
    return Multiply(FramingViewProjection(Transformed(box, turn), aspect, view_name, UpAxis::kY),
                    turn);
  }
  Bounds b = box;
  if (b.empty()) b.Add({0, 0, 0});
  const Float3 center{(b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2};
  const float radius = std::max(Length(Sub(b.max, center)), 1e-3f);
  // The sphere fits the narrower of the two fields of view, with a margin.
  const float half_y = kFieldOfViewY / 2;
  const float half_x = std::atan(std::tan(half_y) * aspect);
  const float distance = 1.1f * radius / std::sin(std::min(half_x, half_y));
  const Float3 forward = ViewDirection(view_name);  // +z of the camera's frame
  const Float3 eye{center.x + forward.x * distance, center.y + forward.y * distance,
                   center.z + forward.z * distance};
  // +Y up, unless the camera looks along it (then -Z is up in the picture).
  const Float3 world_up = std::fabs(forward.y) > 0.99f ? Float3{0, 0, -1} : Float3{0, 1, 0};
  const Float3 right = Normalized(Cross(world_up, forward));
  const Float3 up = Cross(forward, right);
  // View: rows right, up, forward, each dotted with (p - eye).
  Float4x4 view;
  view.m[0] = {right.x, up.x, forward.x, 0};
  view.m[1] = {right.y, up.y, forward.y, 0};
  view.m[2] = {right.z, up.z, forward.z, 0};
  view.m[3] = {-Dot(right, eye), -Dot(up, eye), -Dot(forward, eye), 1};
  // Projection: right-handed view space (looking down -z) to Vulkan clip space.
  const float near_plane = std::max(distance - 2 * radius, distance * 1e-3f);
  const float far_plane = distance + 2 * radius;
  const float f = 1.0f / std::tan(half_y);
  Float4x4 projection;
  projection.m[0] = {f / aspect, 0, 0, 0};
  projection.m[1] = {0, -f, 0, 0};
  projection.m[2] = {0, 0, far_plane / (near_plane - far_plane), -1};
  projection.m[3] = {0, 0, near_plane * far_plane / (near_plane - far_plane), 0};
  return Multiply(projection, view);
}

Float3 FramingLight(UpAxis up) {
  const Float3 light = Normalized({0.6f, 0.7f, 0.8f});
  // For +Z up, the same light turned back: (x, y, z) -> (x, -z, y).
  return up == UpAxis::kZ ? Float3{light.x, -light.z, light.y} : light;
}

bool ProjectToPixel(const Float4x4& vp, const Float3& p, uint32_t width, uint32_t height, float* x,
                    float* y, float* depth_out) {
  float clip[4];
  for (int r = 0; r < 4; ++r) {
    clip[r] = vp.m[0][size_t(r)] * p.x + vp.m[1][size_t(r)] * p.y + vp.m[2][size_t(r)] * p.z +
              vp.m[3][size_t(r)];
  }
  if (clip[3] <= 0) return false;
  const float depth = clip[2] / clip[3];
  if (depth < 0 || depth > 1) return false;
  if (depth_out) *depth_out = depth;
  *x = (clip[0] / clip[3] * 0.5f + 0.5f) * float(width);
  *y = (clip[1] / clip[3] * 0.5f + 0.5f) * float(height);
  return true;
}

}  // namespace sinew::engine
