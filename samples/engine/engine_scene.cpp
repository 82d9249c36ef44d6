#include "engine_scene.h"

#include <utility>

namespace sinew::engine {

namespace {

// A primitive without a material (or whose material has no colour) is drawn in light grey.
constexpr Float4 kDefaultColor{0.8f, 0.8f, 0.8f, 1.0f};

Float4 ColorOf(const Asset& asset, int32_t material) {
  if (material < 0 || size_t(material) >= asset.materials.size()) return kDefaultColor;
  return asset.materials[size_t(material)].base_color;
}

}  // namespace

Result<std::unique_ptr<EngineScene>> EngineScene::Create(const vk::Context& context,
                                                         const Asset& asset,
                                                         const SceneOptions& options,
                                                         VkCommandBuffer upload_cmd) {
  std::unique_ptr<EngineScene> scene(new EngineScene());
  scene->asset_ = &asset;
  const VertexFormats& f = options.formats;
  if (f.outputs != OutputLayout::kSeparate || f.output_directions == DirectionFormat::kSnorm10) {
    return Status(Error::kInvalidArgument,
                  "the engine sample draws float32 or octahedral normals from separate streams",
                  "formats");
  }
  vk::SkinCacheOptions base;
  base.formats = f;
  base.frames_in_flight = 1;
  base.previous_positions =
      options.motion_vectors ? vk::PreviousPositions::kPingPong : vk::PreviousPositions::kNone;
  auto cache =
      vk::SkinCache::Create(context, vk::SkinCacheOptionsFor(asset, options.characters, base));
  if (!cache) return cache.status();
  scene->cache_ = std::move(cache.value());
  auto meshes = upload_cmd ? vk::AddAssetMeshes(*scene->cache_, asset, upload_cmd)
                           : vk::AddAssetMeshes(*scene->cache_, asset);
  if (!meshes) return meshes.status();
  scene->meshes_ = std::move(meshes.value());
  for (uint32_t c = 0; c < options.characters; ++c) {
    auto character = vk::AddAssetInstance(*scene->cache_, scene->meshes_);
    if (!character) return character.status();
    scene->characters_.push_back(std::move(character.value()));
  }
  scene->variants_.assign(options.characters, -1);
  scene->motion_vectors_ = options.motion_vectors;

  DrawPassInfo info;
  info.device = context.device();
  info.get_device_proc_addr = context.get_device_proc_addr();
  info.memory_properties = context.memory_properties();
  info.width = options.width;
  info.height = options.height;
  info.octahedral_normals = f.output_directions == DirectionFormat::kOctahedral;
  auto pass = DrawPass::Create(info);
  if (!pass) return pass.status();
  scene->pass_ = std::move(pass.value());
  for (const cpu::DrawnMesh& drawn : scene->meshes_.drawn) {
    std::vector<uint32_t> handles;
    for (const Primitive& p : asset.meshes[drawn.mesh].primitives) {
      uint32_t handle = DrawItem::kNoIndices;
      if (!p.indices.empty()) {
        auto added = scene->pass_->AddIndices(p.indices);
        if (!added) return added.status();
        handle = *added;
      }
      handles.push_back(handle);
    }
    scene->indices_.push_back(std::move(handles));
  }
  return scene;
}

Status EngineScene::Pose(uint32_t c, std::span<const Float4x4> world,
                         std::span<const std::vector<float>> weights, int32_t variant) {
  if (c >= characters_.size()) {
    return {Error::kInvalidArgument, "no character " + std::to_string(c), "character"};
  }
  variants_[c] = variant;
  return vk::PoseAssetInstance(*cache_, *asset_, meshes_, characters_[c], world, weights);
}

Result<std::vector<DrawItem>> EngineScene::Deform(VkCommandBuffer cmd) {
  cache_->RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT,
                             VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
  if (Status s = cache_->Record(cmd); !s) return s;
  cache_->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_INPUT_BIT,
                              VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
  std::vector<DrawItem> items;
  for (size_t c = 0; c < characters_.size(); ++c) {
    for (size_t d = 0; d < meshes_.drawn.size(); ++d) {
      const Mesh& mesh = asset_->meshes[meshes_.drawn[d].mesh];
      for (size_t k = 0; k < mesh.primitives.size(); ++k) {
        if (characters_[c].instances[d][k] == vk::InstanceId{}) continue;  // (no vertices)
        const vk::InstanceOutputs out = cache_->outputs(characters_[c].instances[d][k]);
        DrawItem item;
        item.vertices = out.buffer;
        item.positions = out.positions;
        item.normals = out.normals;
        item.has_normals = out.has_normals;
        item.previous_positions = out.previous_positions;
        item.vertex_count = out.vertex_count;
        item.indices = indices_[d][k];
        item.mode = mesh.primitives[k].mode;
        // The variant's material: an O(1) lookup in the primitive's table.
        item.color = ColorOf(*asset_, mesh.primitives[k].MaterialFor(variants_[c]));
        items.push_back(item);
      }
    }
  }
  return items;
}

Status EngineScene::Record(VkCommandBuffer cmd, const Float4x4& view_projection,
                           const Float3& light) {
  auto items = Deform(cmd);
  if (!items) return items.status();
  pass_->Record(cmd, *items, view_projection, light);
  return {};
}

Status EngineScene::RecordMotionVectors(VkCommandBuffer cmd, const Float4x4& view_projection,
                                        float scale) {
  if (!motion_vectors_) {
    return {Error::kInvalidArgument, "the scene keeps no previous positions",
            "SceneOptions::motion_vectors"};
  }
  auto items = Deform(cmd);
  if (!items) return items.status();
  pass_->RecordMotionVectors(cmd, *items, view_projection, scale);
  return {};
}

}  // namespace sinew::engine
