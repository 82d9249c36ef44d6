// sinew::Asset: what a loader produces from a file — scene graph, skins, meshes, animations — in
// sinew's conventions (DESIGN.md §3), validated. Format-neutral: glTF today, G4MF and UsdSkel
// later.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/math.h"

namespace sinew {

// A node of the scene graph. Its local transform is `matrix` when has_matrix, else T·R·S.
struct Node {
  std::string name;
  // Parent node, or -1 for a root. Every node has at most one parent (checked at load).
  int32_t parent = -1;
  std::vector<uint32_t> children;
  Float3 translation;
  Quat rotation;  // Unit quaternion (x, y, z, w).
  Float3 scale{1, 1, 1};
  bool has_matrix = false;
  Float4x4 matrix;    // Column-major; only when has_matrix.
  int32_t mesh = -1;  // Index into Asset::meshes, or -1.
  int32_t skin = -1;  // Index into Asset::skins, or -1 (only with a mesh).
  // Morph weights of this node's mesh instance (glTF node.weights); empty = the mesh's defaults.
  std::vector<float> weights;
};

// A skin: palette entry i = world(joints[i]) · inverse_binds[i].
struct Skin {
  std::string name;
  std::vector<uint32_t> joints;         // Node indices, one per palette entry.
  std::vector<Float4x4> inverse_binds;  // One per joint; identity when the file has none.
  int32_t skeleton = -1;                // Optional common root node, or -1.
};

// Offsets of one morph target (blend shape), dense over the primitive's vertices: xyz per vertex.
// A stream is empty when the target does not displace it.
struct MorphTarget {
  std::vector<float> positions;
  std::vector<float> normals;
  std::vector<float> tangents;  // xyz offsets; handedness is never morphed.
};

// One drawable part of a mesh. Vertex streams are tightly packed floats.
struct Primitive {
  std::vector<float> positions;  // xyz, required
  std::vector<float> normals;    // xyz or empty
  std::vector<float> tangents;   // xyzw or empty
  // Dense influences, K = 4 · (JOINTS_n/WEIGHTS_n sets); empty joints/weights when unskinned.
  // Joint indices index the skin of the node that instantiates the mesh.
  DenseInfluences influences;
  std::vector<uint32_t> indices;  // Vertex indices, or empty (non-indexed).
  uint32_t mode = 4;              // glTF topology (4 = triangles).
  int32_t material = -1;
  std::vector<MorphTarget> targets;

  size_t vertex_count() const { return positions.size() / 3; }
  bool skinned() const { return !influences.joints.empty(); }
};

struct Mesh {
  std::string name;
  std::vector<Primitive> primitives;
  std::vector<float> weights;  // Default morph weights, one per target (empty = all 0).
};

enum class AnimationPath : uint8_t { kTranslation, kRotation, kScale, kWeights };
enum class Interpolation : uint8_t { kLinear, kStep, kCubicSpline };

struct AnimationSampler {
  std::vector<float> input;   // Key times in seconds, strictly increasing.
  std::vector<float> output;  // Values; for CUBICSPLINE (in-tangent, value, out-tangent) per key.
  uint32_t components = 0;    // Floats per value: 3 (T, S), 4 (R), or the target count (weights).
  Interpolation interpolation = Interpolation::kLinear;
};

struct AnimationChannel {
  uint32_t sampler = 0;  // Index into the animation's samplers.
  int32_t node = -1;     // Target node, or -1 when the file leaves it out (the channel is ignored).
  AnimationPath path = AnimationPath::kTranslation;
};

struct Animation {
  std::string name;
  std::vector<AnimationSampler> samplers;
  std::vector<AnimationChannel> channels;
};

struct Scene {
  std::string name;
  std::vector<uint32_t> nodes;  // Root nodes.
};

struct Asset {
  std::vector<Node> nodes;
  std::vector<Skin> skins;
  std::vector<Mesh> meshes;
  std::vector<Animation> animations;
  std::vector<Scene> scenes;
  int32_t scene = -1;  // Default scene, or -1.
  std::vector<std::string> extensions_used;
};

}  // namespace sinew
