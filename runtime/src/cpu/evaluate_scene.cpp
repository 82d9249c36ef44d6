#include "sinew/cpu/evaluate_scene.h"

#include <algorithm>
#include <string>
#include <utility>

#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/scene_transforms_job.h"
#include "sinew/cpu/skin_instance_palette_job.h"

namespace sinew::cpu {

std::vector<uint32_t> DrawnNodes(const Asset& asset) {
  std::vector<uint32_t> order;
  if (asset.scene >= 0 && size_t(asset.scene) < asset.scenes.size()) {
    order = asset.scenes[size_t(asset.scene)].nodes;
  } else {
    for (size_t n = 0; n < asset.nodes.size(); ++n) {
      if (asset.nodes[n].parent < 0) order.push_back(uint32_t(n));
    }
  }
  for (size_t k = 0; k < order.size(); ++k) {
    for (uint32_t child : asset.Children(order[k])) order.push_back(child);
  }
  return order;
}

std::vector<DrawnMesh> DrawnMeshes(const Asset& asset) {
  std::vector<DrawnMesh> out;
  for (uint32_t n : DrawnNodes(asset)) {
    const Node& node = asset.nodes[n];
    if (node.mesh < 0) continue;
    DrawnMesh d;
    d.node = n;
    d.mesh = uint32_t(node.mesh);
    d.skin = node.skin;
    d.palette_size = node.skin >= 0 ? uint32_t(NodePaletteSize(asset, n)) : 1u;
    out.push_back(d);
  }
  return out;
}

size_t NodePaletteSize(const Asset& asset, uint32_t node) {
  if (node >= asset.nodes.size() || asset.nodes[node].skin < 0 || asset.nodes[node].mesh < 0) {
    return 0;
  }
  size_t groups = 0;
  for (const Primitive& p : asset.meshes[size_t(asset.nodes[node].mesh)].primitives) {
    groups = std::max<size_t>(groups, p.sparse_influences.group_count);
    for (uint16_t j : p.influences.joints) groups = std::max<size_t>(groups, j + 1u);
  }
  return PaletteSizeFor(asset.skins[size_t(asset.nodes[node].skin)], groups);
}

Result<std::vector<Float4x4>> SceneTransforms(const Asset& asset, const ScenePose& pose) {
  std::vector<Float4x4> world(asset.nodes.size());
  SceneTransformsJob job;
  job.nodes = asset.nodes;
  job.pose = &pose;
  job.output = world;
  if (Status s = job.Run(); !s) return s;
  return world;
}

Result<EvaluatedScene> EvaluateScene(const Asset& asset, int32_t animation, float time, bool loop) {
  EvaluatedScene out;
  out.pose = RestPose(asset);
  if (animation >= 0) {
    if (size_t(animation) >= asset.animations.size()) {
      return Status(Error::kInvalidArgument, "animation " + std::to_string(animation) +
                                                 " but the asset has " +
                                                 std::to_string(asset.animations.size()));
    }
    SampleAnimationJob job;
    job.animation = &asset.animations[size_t(animation)];
    job.time = time;
    job.loop = loop;
    job.pose = &out.pose;
    if (Status s = job.Run(); !s) return s;
  }
  auto world = SceneTransforms(asset, out.pose);
  if (!world) return world.status();
  out.world = std::move(world.value());
  return out;
}

}  // namespace sinew::cpu
