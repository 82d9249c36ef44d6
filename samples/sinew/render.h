// What `sinew render` computes (docs/render.md), apart from its arguments and files, so that tests
// run exactly the command's path: the asset's meshes and one character in a vk::SkinCache, posed
// as `sinew bake` poses it (PoseForBake) at each time asked for, deformed on the GPU and drawn
// from the cache's output buffers by the engine sample's graphics pass (samples/engine), in the
// same command buffer, with a camera that frames the whole animated range.
#pragma once

#include <cstdint>
#include <vector>

#include "bake.h"
#include "camera.h"
#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/core/vertex_formats.h"
#include "sinew/vk/context.h"

namespace sinew::tool {

struct RenderOptions {
  BakeOptions pose;          // clip, bind pose, weights, variant; `pose.time` when `times` is empty
  std::vector<float> times;  // seconds, one picture each
  uint32_t width = 512;
  uint32_t height = 512;
  // Each picture as motion vectors instead (engine::DrawPass::RecordMotionVectors, kMotionScale):
  // each pixel's motion since the pose 1 / motion_fps seconds earlier, the camera held still.
  bool motion_vectors = false;
  float motion_fps = 30;
  const char* camera = "auto";  // one of engine::kCameraViews
  // The scene's up axis, which the camera and the light turn with (a USD stage's upAxis).
  engine::UpAxis up_axis = engine::UpAxis::kY;
  // The SkinCache's formats (engine::SceneOptions::formats): float32, or compact ones with
  // octahedral output normals.
  VertexFormats formats;
};

// The scale of `sinew render --motion-vectors`' colours: the bytes 128 + 255 · pixels / 32
// (motions up to 16 pixels either way).
inline constexpr float kMotionScale = 1.0f / 32;

struct RenderedFrames {
  uint32_t width = 0, height = 0;
  // One picture per time: RGBA8, sRGB colour, alpha 0 where nothing was drawn, rows top down.
  std::vector<std::vector<uint8_t>> pictures;
  Float4x4 view_projection;  // the camera every picture was drawn with
  Float3 light;              // unit direction towards the light
};

// The camera's box: every drawn vertex of the CPU reference at 17 evenly spaced times of the clip
// `pose` names (its start to its end), or of the one pose without a clip; the rigid bindings'
// origins too.
Result<Float4x4> FramingCamera(const Asset& asset, const BakeOptions& pose, float aspect,
                               const char* view = "auto", engine::UpAxis up = engine::UpAxis::kY);

// Renders `asset` at each time. Primitives are drawn as triangles, lines or points (other modes
// are not drawn) in their material's base colour under the active variant, lit by their skinned
// normals (flat without). Errors: PoseForBake's, the SkinCache's and the draw pass's.
Result<RenderedFrames> RenderAsset(const vk::Context& context, const Asset& asset,
                                   const RenderOptions& options);

}  // namespace sinew::tool
