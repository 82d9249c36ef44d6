#include "render.h"

#include <memory>
#include <vector>

#include "camera.h"
#include "engine_scene.h"
#include "sinew/cpu/sample_animation_job.h"

namespace sinew::tool {

Result<Float4x4> FramingCamera(const Asset& asset, const BakeOptions& pose, float aspect,
                               const char* view, engine::UpAxis up) {
  auto clip = FindClip(asset, pose.anim);
  if (!clip) return clip.status();
  std::vector<float> times = {pose.time};
  if (*clip >= 0) {
    const cpu::ClipRange range = cpu::RangeOf(asset.animations[size_t(*clip)]);
    times.clear();
    for (int i = 0; i <= 16; ++i) times.push_back(range.start + range.duration() * float(i) / 16);
  }
  engine::Bounds box;
  for (float t : times) {
    BakeOptions at = pose;
    at.time = t;
    at.loop = false;
    auto baked = BakeAsset(asset, at);
    if (!baked) return baked.status();
    for (const BakedPrimitive& b : baked->primitives) box.Add(b.data.positions);
    for (const Float4x4& m : baked->rigid) box.Add({m.m[3][0], m.m[3][1], m.m[3][2]});
  }
  return engine::FramingViewProjection(box, aspect, view, up);
}

Result<RenderedFrames> RenderAsset(const vk::Context& context, const Asset& a,
                                   const RenderOptions& o) {
  RenderedFrames out;
  out.width = o.width;
  out.height = o.height;
  out.light = engine::FramingLight(o.up_axis);
  auto camera = FramingCamera(a, o.pose, float(o.width) / float(o.height), o.camera, o.up_axis);
  if (!camera) return camera.status();
  out.view_projection = *camera;

  engine::SceneOptions scene_options;
  scene_options.width = o.width;
  scene_options.height = o.height;
  scene_options.motion_vectors = o.motion_vectors;
  scene_options.formats = o.formats;
  auto scene = engine::EngineScene::Create(context, a, scene_options, VK_NULL_HANDLE);
  if (!scene) return scene.status();
  const std::vector<float> times = o.times.empty() ? std::vector<float>{o.pose.time} : o.times;
  // Poses the character at `t` and records a frame (`motion`: as motion vectors), waited for.
  const auto frame = [&](float t, bool motion) -> Status {
    BakeOptions at = o.pose;
    at.time = t;
    auto posed = PoseForBake(a, at);
    if (!posed) return posed.status();
    if (Status s = (*scene)->Pose(0, posed->world, posed->pose.weights, posed->variant); !s) {
      return s;
    }
    Status recorded;
    const Status submitted = context.SubmitAndWait([&](VkCommandBuffer cmd) {
      recorded = motion ? (*scene)->RecordMotionVectors(cmd, out.view_projection, kMotionScale)
                        : (*scene)->Record(cmd, out.view_projection, out.light);
    });
    return recorded ? submitted : recorded;
  };
  for (float t : times) {
    if (o.motion_vectors) {
      if (Status s = frame(t - 1.0f / o.motion_fps, false); !s) return s;
    }
    if (Status s = frame(t, o.motion_vectors); !s) return s;
    out.pictures.push_back((*scene)->pass().Pixels());
  }
  return out;
}

}  // namespace sinew::tool
