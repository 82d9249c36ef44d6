#include "render.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "camera.h"
#include "draw_pass.h"
#include "sinew/cpu/rigid_transform_job.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/vk/skin_cache.h"
#include "sinew/vk/skin_cache_asset.h"

namespace sinew::tool {

namespace {

// What a primitive is drawn in when its material has no colour (or it has no material).
constexpr Float4 kDefaultColor{0.8f, 0.8f, 0.8f, 1.0f};

Float4 ColorOf(const Asset& asset, int32_t material) {
  if (material < 0 || size_t(material) >= asset.materials.size()) return kDefaultColor;
  return asset.materials[size_t(material)].base_color;
}

}  // namespace

Result<Float4x4> FramingCamera(const Asset& asset, const BakeOptions& pose, float aspect) {
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
  return engine::FramingViewProjection(box, aspect);
}

Result<RenderedFrames> RenderAsset(const vk::Context& context, const Asset& a,
                                   const RenderOptions& o) {
  RenderedFrames out;
  out.width = o.width;
  out.height = o.height;
  out.light = engine::FramingLight();
  auto camera = FramingCamera(a, o.pose, float(o.width) / float(o.height));
  if (!camera) return camera.status();
  out.view_projection = *camera;

  vk::SkinCacheOptions base;
  base.frames_in_flight = 1;
  base.previous_positions = vk::PreviousPositions::kNone;
  auto cache = vk::SkinCache::Create(context, vk::SkinCacheOptionsFor(a, 1, base));
  if (!cache) return cache.status();
  auto meshes = vk::AddAssetMeshes(**cache, a);
  if (!meshes) return meshes.status();
  auto character = vk::AddAssetInstance(**cache, *meshes);
  if (!character) return character.status();

  engine::DrawPassInfo info;
  info.device = context.device();
  info.get_device_proc_addr = context.get_device_proc_addr();
  info.memory_properties = context.memory_properties();
  info.width = o.width;
  info.height = o.height;
  auto pass = engine::DrawPass::Create(info);
  if (!pass) return pass.status();
  // Each drawn primitive's indices, once.
  std::vector<std::vector<uint32_t>> index_handles(meshes->drawn.size());
  for (size_t d = 0; d < meshes->drawn.size(); ++d) {
    for (const Primitive& p : a.meshes[meshes->drawn[d].mesh].primitives) {
      uint32_t handle = engine::DrawItem::kNoIndices;
      if (!p.indices.empty()) {
        auto added = (*pass)->AddIndices(p.indices);
        if (!added) return added.status();
        handle = *added;
      }
      index_handles[d].push_back(handle);
    }
  }

  const std::vector<float> times = o.times.empty() ? std::vector<float>{o.pose.time} : o.times;
  for (float t : times) {
    BakeOptions at = o.pose;
    at.time = t;
    auto posed = PoseForBake(a, at);
    if (!posed) return posed.status();
    if (Status s = vk::PoseAssetInstance(**cache, a, *meshes, *character, posed->world,
                                         posed->pose.weights);
        !s) {
      return s;
    }
    std::vector<engine::DrawItem> items;
    for (size_t d = 0; d < meshes->drawn.size(); ++d) {
      const Mesh& mesh = a.meshes[meshes->drawn[d].mesh];
      for (size_t k = 0; k < mesh.primitives.size(); ++k) {
        const vk::InstanceOutputs outputs = (*cache)->outputs(character->instances[d][k]);
        engine::DrawItem item;
        item.vertices = outputs.buffer;
        item.positions = outputs.positions;
        item.normals = outputs.normals;
        item.has_normals = outputs.has_normals;
        item.vertex_count = outputs.vertex_count;
        item.indices = index_handles[d][k];
        item.mode = mesh.primitives[k].mode;
        item.color = ColorOf(a, mesh.primitives[k].MaterialFor(posed->variant));
        items.push_back(item);
      }
    }
    Status recorded;
    const Status submitted = context.SubmitAndWait([&](VkCommandBuffer cmd) {
      (*cache)->RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT,
                                   VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
      recorded = (*cache)->Record(cmd);
      (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT,
                                    VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
      (*pass)->Record(cmd, items, out.view_projection, out.light);
    });
    if (!recorded) return recorded;
    if (!submitted) return submitted;
    out.pictures.push_back((*pass)->Pixels());
  }
  return out;
}

}  // namespace sinew::tool
