// One call for the usual pose evaluation of an asset (docs/semantics.md, "Pose evaluation"): the
// rest pose, a clip sampled at a time on top of it, and every node's scene matrix. Tools and tests
// use it; an engine runs the jobs itself to reuse its buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::cpu {

struct EvaluatedScene {
  ScenePose pose;
  std::vector<Float4x4> world;  // per node
};

// The nodes an asset draws: the default scene's trees (every root when it has no default scene),
// parents first.
std::vector<uint32_t> DrawnNodes(const Asset& asset);

// A mesh instance an asset draws: a node with a mesh.
struct DrawnMesh {
  uint32_t node = 0;
  uint32_t mesh = 0;
  int32_t skin = -1;  // -1: rigid, moved by the node's world matrix alone
  // Entries of the palette every primitive of the instance deforms with (InstancePalette): the
  // skin's (NodePaletteSize) for a skinned node, 1 (the node's world matrix) for a rigid one.
  uint32_t palette_size = 1;
};

// Every node with a mesh, in DrawnNodes order: what an engine instantiates to draw the asset.
std::vector<DrawnMesh> DrawnMeshes(const Asset& asset);

// Palette entries of skinned node `node` (NodePalette's size): the skin's joints, or for a G4MF
// skin its group map or the largest group of the mesh's primitives, whichever is larger. 0 for a
// node without a skin or mesh.
size_t NodePaletteSize(const Asset& asset, uint32_t node);

// RestPose, then (animation >= 0) SampleAnimationJob at `time`, then SceneTransformsJob.
// kInvalidArgument for an animation index out of range; the jobs' errors.
Result<EvaluatedScene> EvaluateScene(const Asset& asset, int32_t animation = -1, float time = 0,
                                     bool loop = false);

// Scene matrices of `pose` (SceneTransformsJob over the asset's nodes).
Result<std::vector<Float4x4>> SceneTransforms(const Asset& asset, const ScenePose& pose);

}  // namespace sinew::cpu
