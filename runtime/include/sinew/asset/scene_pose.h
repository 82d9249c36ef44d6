// The animatable state of an asset's scene (docs/semantics.md, "Pose evaluation"): each node's
// local translation, rotation and scale, and the morph weights of each node's mesh instance. Clips
// write into it (cpu::SampleAnimationJob), the API may too; cpu::SceneTransformsJob turns it into
// matrices.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew {

struct ScenePose {
  // One entry per node. A node with Node::has_matrix keeps its matrix (glTF does not animate
  // matrix nodes); its entries here are unused.
  std::vector<Float3> translations;
  std::vector<Quat> rotations;
  std::vector<Float3> scales;
  // Per node: the morph weights of its mesh instance, one per morph target of the mesh; empty for
  // a node without a mesh or whose mesh has no targets.
  std::vector<std::vector<float>> weights;

  size_t node_count() const { return translations.size(); }
};

// Checks a pose against an asset's nodes: one entry per node (kSizeMismatch, "pose"), every
// parent in range and no cycle (kInvalidHierarchy, "nodes/<i>"). The jobs that evaluate a pose
// call it first.
Status ValidatePose(std::span<const Node> nodes, const ScenePose* pose);

// The rest pose: every node's own TRS; morph weights from the node (glTF node.weights, G4MF
// blendAmounts), else the mesh's defaults (mesh.weights, blend.amounts), else zeros.
ScenePose RestPose(const Asset& asset);

}  // namespace sinew
