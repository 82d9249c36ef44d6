// The whole CPU reference for one primitive of one mesh instance of an asset (docs/semantics.md,
// "Order of operations" and "Palettes"): morph targets, then skinning with the node's skin palette
// (dense or sparse), or, for an unskinned node, its world transform. Output in scene space. What
// `sinew bake --device cpu` writes, and what the GPU path is compared with.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/skin_run.h"

namespace sinew::cpu {

struct DeformedPrimitive {
  std::vector<float> positions;  // xyz per vertex
  std::vector<float> normals;    // xyz per vertex, or empty
  std::vector<float> tangents;   // xyzw per vertex, or empty
};

// The palette node `node`'s skin gives its mesh's primitives (SkinInstancePaletteJob), sized for
// every primitive of the mesh. kInvalidArgument when the node has no skin or mesh.
Result<std::vector<Float3x4>> NodePalette(const Asset& asset, uint32_t node,
                                          std::span<const Float4x4> world);

// Deforms primitive `primitive` of node `node`'s mesh. `world` holds every node's scene matrix
// (SceneTransformsJob); `weights` the node's morph weights (ScenePose::weights[node]; empty = no
// morphing; else one per morph target, kSizeMismatch at "weights" otherwise). `palette` is
// NodePalette's for a skinned node (empty for an unskinned one). `run` is the skinning's
// (SkinAttributes; the same outputs either way). Errors: kInvalidArgument for a node without a mesh
// or a primitive out of range; those of the morph and skinning jobs.
Status DeformPrimitive(const Asset& asset, uint32_t node, uint32_t primitive,
                       std::span<const Float4x4> world, std::span<const float> weights,
                       std::span<const Float3x4> palette, DeformedPrimitive* out,
                       const SkinRun& run = {});

// Morphs primitive `primitive` of node `node`'s mesh by `weights` (the first step of
// DeformPrimitive) into `out`: the weights resolved over the mesh's in-betweens
// (SubShapeWeightsJob), then MorphTargetsJob; with no nonzero weight, copies the rest attributes.
Status MorphPrimitive(const Asset& asset, uint32_t node, uint32_t primitive,
                      std::span<const float> weights, DeformedPrimitive* out);

// kSizeMismatch at `where` unless `weights` (a node's morph weights) has one weight per morph
// target of `mesh` (or is empty, where `allow_empty`): "2 weights, the mesh has 3 morph targets";
// kNonFiniteValue at "<where>/<t>" for a weight that is NaN or infinite (SetMorphWeights' rule).
Status CheckMorphWeightCount(const Mesh& mesh, std::span<const float> weights,
                             const std::string& where, bool allow_empty = true);

// The weight each morph target of `mesh` applies with, from the node's blend-shape weights
// (one per target): resolved over the mesh's in-betweens (SubShapeWeightsJob). All 0 when
// `weights` is empty or sized for another target count.
std::vector<float> MorphWeightsFor(const Mesh& mesh, std::span<const float> weights);

// The palette a primitive of node `node` deforms with (cpu::SkinMesh, vk::SkinCache): NodePalette
// for a skinned node, else the node's world matrix alone.
Result<std::vector<Float3x4>> InstancePalette(const Asset& asset, uint32_t node,
                                              std::span<const Float4x4> world);

}  // namespace sinew::cpu
