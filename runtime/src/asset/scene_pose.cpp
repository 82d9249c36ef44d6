#include "sinew/asset/scene_pose.h"

#include <string>

namespace sinew {

Status ValidatePose(std::span<const Node> nodes, const ScenePose* pose) {
  if (!pose || pose->node_count() != nodes.size() || pose->rotations.size() != nodes.size() ||
      pose->scales.size() != nodes.size() || pose->weights.size() != nodes.size()) {
    return Status(Error::kSizeMismatch, "the pose must have one entry per node", "pose");
  }
  // Walk up from every node: a chain longer than the node count is a cycle.
  for (size_t i = 0; i < nodes.size(); ++i) {
    size_t steps = 0;
    for (int32_t p = nodes[i].parent; p >= 0; p = nodes[size_t(p)].parent) {
      if (size_t(p) >= nodes.size() || ++steps > nodes.size()) {
        return Status(Error::kInvalidHierarchy, "parent out of range or a cycle",
                      "nodes/" + std::to_string(i));
      }
    }
  }
  return {};
}

ScenePose RestPose(const Asset& asset) {
  ScenePose pose;
  const size_t n = asset.nodes.size();
  pose.translations.resize(n);
  pose.rotations.resize(n);
  pose.scales.resize(n);
  pose.weights.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = asset.nodes[i];
    pose.translations[i] = node.translation;
    pose.rotations[i] = node.rotation;
    pose.scales[i] = node.scale;
    if (node.mesh < 0 || size_t(node.mesh) >= asset.meshes.size()) continue;
    const Mesh& mesh = asset.meshes[size_t(node.mesh)];
    const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
    if (targets == 0) continue;
    std::vector<float>& w = pose.weights[i];
    if (node.weights.size() == targets) {
      w = node.weights;
    } else if (mesh.weights.size() == targets) {
      w = mesh.weights;
    } else {
      w.assign(targets, 0.0f);
    }
  }
  return pose;
}

}  // namespace sinew
