#include "sinew/cpu/deform_primitive.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/morph_targets_job.h"
#include "sinew/cpu/skin_instance_palette_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/sub_shape_weights_job.h"

namespace sinew::cpu {

Result<std::vector<Float3x4>> NodePalette(const Asset& asset, uint32_t node,
                                          std::span<const Float4x4> world) {
  if (node >= asset.nodes.size() || asset.nodes[node].skin < 0 || asset.nodes[node].mesh < 0) {
    return Status(Error::kInvalidArgument, "node " + std::to_string(node) + " is not skinned");
  }
  std::vector<Float3x4> palette(NodePaletteSize(asset, node));
  SkinInstancePaletteJob job;
  job.skin = &asset.skins[size_t(asset.nodes[node].skin)];
  job.world = world;
  job.node = node;
  job.output = palette;
  if (Status s = job.Run(); !s) return s;
  return palette;
}

Status MorphPrimitive(const Asset& asset, uint32_t node, uint32_t primitive,
                      std::span<const float> weights, DeformedPrimitive* out) {
  if (node >= asset.nodes.size() || asset.nodes[node].mesh < 0 ||
      primitive >= asset.meshes[size_t(asset.nodes[node].mesh)].primitives.size()) {
    return Status(Error::kInvalidArgument, "node " + std::to_string(node) + " has no primitive " +
                                               std::to_string(primitive));
  }
  const Mesh& mesh = asset.meshes[size_t(asset.nodes[node].mesh)];
  const Primitive& p = mesh.primitives[primitive];
  if (Status s = CheckMorphWeightCount(mesh, weights, "weights"); !s) return s;
  // Blend-shape weights -> per-target weights (docs/semantics.md, "In-betweens").
  const std::vector<float> resolved = MorphWeightsFor(mesh, weights);
  const bool morphing =
      !p.targets.empty() && resolved.size() == p.targets.size() &&
      std::any_of(resolved.begin(), resolved.end(), [](float w) { return w != 0; });
  if (!morphing) {
    out->positions = p.positions;
    out->normals = p.normals;
    out->tangents = p.tangents;
    return {};
  }
  out->positions.resize(p.positions.size());
  out->normals.resize(p.normals.size());
  out->tangents.resize(p.tangents.size());
  MorphTargetsJob job;
  job.positions = p.positions;
  job.normals = p.normals;
  job.tangents = p.tangents;
  job.targets = p.targets;
  job.weights = resolved;
  job.out_positions = out->positions;
  job.out_normals = out->normals;
  job.out_tangents = out->tangents;
  return job.Run();
}

Status CheckMorphWeightCount(const Mesh& mesh, std::span<const float> weights,
                             const std::string& where, bool allow_empty) {
  const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
  if (!(weights.empty() && allow_empty) && weights.size() != targets) {
    return Status(Error::kSizeMismatch,
                  std::to_string(weights.size()) + " weights, the mesh has " +
                      std::to_string(targets) + " morph targets",
                  where);
  }
  for (size_t t = 0; t < weights.size(); ++t) {
    if (!std::isfinite(weights[t])) {
      return Status(Error::kNonFiniteValue, "a morph weight is not finite",
                    where + "/" + std::to_string(t));
    }
  }
  return {};
}

std::vector<float> MorphWeightsFor(const Mesh& mesh, std::span<const float> weights) {
  const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
  std::vector<float> resolved(targets, 0.0f);
  if (weights.size() != targets) return resolved;
  SubShapeWeightsJob job;
  job.shapes = mesh.inbetween_shapes;
  job.weights = weights;
  job.output = resolved;
  if (!job.Run()) std::fill(resolved.begin(), resolved.end(), 0.0f);
  return resolved;
}

Result<std::vector<Float3x4>> InstancePalette(const Asset& asset, uint32_t node,
                                              std::span<const Float4x4> world) {
  if (node >= asset.nodes.size() || node >= world.size()) {
    return Status(Error::kInvalidArgument, "node " + std::to_string(node) + " out of range");
  }
  if (asset.nodes[node].skin >= 0) return NodePalette(asset, node, world);
  return std::vector<Float3x4>{ToFloat3x4(world[node])};
}

Status DeformPrimitive(const Asset& asset, uint32_t node, uint32_t primitive,
                       std::span<const Float4x4> world, std::span<const float> weights,
                       std::span<const Float3x4> palette, DeformedPrimitive* out,
                       const SkinRun& run) {
  if (node >= asset.nodes.size() || node >= world.size() || asset.nodes[node].mesh < 0) {
    return Status(Error::kInvalidArgument, "node " + std::to_string(node) + " has no mesh");
  }
  const Mesh& mesh = asset.meshes[size_t(asset.nodes[node].mesh)];
  if (primitive >= mesh.primitives.size()) {
    return Status(Error::kInvalidArgument, "primitive " + std::to_string(primitive) +
                                               " is past the mesh's " +
                                               std::to_string(mesh.primitives.size()));
  }
  const Primitive& p = mesh.primitives[primitive];
  // Morph targets first (docs/semantics.md, "Order of operations": rest -> blend shapes ->
  // skinning).
  DeformedPrimitive morphed;
  if (Status s = MorphPrimitive(asset, node, primitive, weights, &morphed); !s) return s;
  const std::span<const float> positions = morphed.positions, normals = morphed.normals,
                               tangents = morphed.tangents;
  out->positions.resize(positions.size());
  out->normals.resize(normals.size());
  out->tangents.resize(tangents.size());
  // A mesh drawn by a node without a skin moves rigidly with the node (docs/semantics.md,
  // "Normals and tangents").
  const bool skinned = asset.nodes[node].skin >= 0 && p.skinned();
  const Float3x4 node_matrix = ToFloat3x4(world[node]);
  return SkinAttributes(p, {positions, normals, tangents},
                        skinned ? palette : std::span<const Float3x4>(&node_matrix, 1),
                        out->positions, out->normals, out->tangents, !skinned, run);
}

}  // namespace sinew::cpu
