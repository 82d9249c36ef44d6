// sinew::Asset: what a loader produces from a file — scene graph, skins, meshes, animations — in
// sinew's conventions (docs/semantics.md, "Conventions"), validated. Format-neutral: glTF, G4MF
// and UsdSkel (.usda) load into it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "sinew/asset/morph_target.h"
#include "sinew/asset/primitive.h"
#include "sinew/core/math.h"

namespace sinew {

// A run of node indices in Asset::node_children.
struct NodeRange {
  uint32_t offset = 0;  // Index of the first entry.
  uint32_t count = 0;   // Entries in the run.
};

// A node of the scene graph. Its local transform is `matrix` when has_matrix, else T·R·S.
struct Node {
  // User-provided (though empty) so that value-initialization, as in emplace_back(), does not
  // zero the whole node before the member initializers below set it: loaders build thousands.
  Node() noexcept {}

  std::string name;
  // Parent node, or -1 for a root. Every node has at most one parent (checked at load).
  int32_t parent = -1;
  // Child nodes, in file order: Asset::Children(node). Packed for the whole asset in
  // Asset::node_children, so that a hierarchy of any size costs one allocation.
  NodeRange children;
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

// A named bind pose of a skin (KHR_character_skeleton_bindpose; docs/semantics.md, "Bind poses").
enum class PoseType : uint8_t { kTPose, kAPose, kIPose, kCustom };

struct BindPose {
  PoseType type = PoseType::kCustom;
  // Model-space (scene-space) matrix of each joint, in the skin's joint order; affine.
  std::vector<Float4x4> matrices;
};

// A skin: palette entry i = world(joints[i]) · inverse_binds[i].
struct Skin {
  std::string name;
  std::vector<uint32_t> joints;         // Node indices, one per palette entry.
  std::vector<Float4x4> inverse_binds;  // One per joint; identity when the file has none.
  int32_t skeleton = -1;                // Optional common root node, or -1.
  std::vector<BindPose> bind_poses;     // At most one per PoseType.
  // G4MF skins only: group g of the mesh's influences is skinned by joint
  // group_joints[g] (an index into `joints`; several groups may share one), or is untransformed
  // when it is -1 or g >= group_joints.size() (the vertex stays put in its mesh node's space:
  // palette entry world(mesh node) in the world-space convention above). Empty for glTF skins.
  std::vector<int32_t> group_joints;

  // The joint (index into `joints`) that skins influence index `i` of a mesh of this skin: `i`
  // itself for a glTF skin; for a G4MF skin group_joints[i], or -1 where group i is untransformed.
  int32_t JointOfInfluence(size_t i) const {
    if (group_joints.empty()) return int32_t(i);
    return i < group_joints.size() ? group_joints[i] : -1;
  }
};

// In-betweens of one blend shape (the SINEW_morph_inbetweens glTF extension; docs/semantics.md,
// "In-betweens"): morph targets that are sub-shapes of a primary target at a given weight.
struct InbetweenShape {
  uint32_t primary = 0;  // Morph target index of the primary shape (weight 1).
  struct Inbetween {
    uint32_t target = 0;  // Morph target index holding this in-between's offsets.
    float weight = 0;     // Weight at which the sub-shape applies fully; not within 1e-6 of 0 or 1.
  };
  // Valid in-betweens in file order (malformed ones were dropped with a warning at load).
  std::vector<Inbetween> inbetweens;
};

struct Mesh {
  std::string name;
  std::vector<Primitive> primitives;
  std::vector<float> weights;  // Default morph weights, one per target (empty = all 0).
  // Shapes with in-betweens; a target listed as an in-between is driven by its primary, and its own
  // entry in weights / animations is ignored.
  std::vector<InbetweenShape> inbetween_shapes;
  // The name of each morph target, in target order, for tools and for engines that drive shapes by
  // name: glTF's mesh.extras.targetNames (the de-facto convention; glTF itself names no targets),
  // G4MF's blend shape names ("" for a shape without one). Empty when the file names none (or, for
  // glTF, when targetNames is malformed: the loader then warns); otherwise one per target.
  std::vector<std::string> target_names;
};

enum class AnimationPath : uint8_t { kTranslation, kRotation, kScale, kWeights };
enum class Interpolation : uint8_t { kLinear, kStep, kCubicSpline };

// A run of floats in Animation::keys.
struct KeyRange {
  size_t offset = 0;  // Index of the first float.
  size_t count = 0;   // Floats in the run.
};

struct AnimationSampler {
  KeyRange input;           // Key times in seconds, strictly increasing.
  KeyRange output;          // Values; for CUBICSPLINE (in-tangent, value, out-tangent) per key.
  uint32_t components = 0;  // Floats per value: 3 (T, S), 4 (R), or the target count (weights).
  Interpolation interpolation = Interpolation::kLinear;
};

struct AnimationChannel {
  uint32_t sampler = 0;  // Index into the animation's samplers.
  int32_t node = -1;     // Target node, or -1 when the file leaves it out (the channel is ignored).
  AnimationPath path = AnimationPath::kTranslation;
};

// A clip. Its key times and values are packed in one allocation, `keys`, which its samplers index
// by range: a clip costs three allocations, however many samplers it has, and samplers that share
// their key times in the file share one range.
struct Animation {
  std::string name;
  std::vector<float> keys;  // Every sampler's key times and values.
  std::vector<AnimationSampler> samplers;
  std::vector<AnimationChannel> channels;

  // A sampler's key times / values. Precondition: the range lies within `keys` (true of every
  // loaded asset and of AddSampler; SampleAnimationJob::Validate checks it).
  std::span<const float> Keys(KeyRange range) const {
    return std::span<const float>(keys).subspan(range.offset, range.count);
  }
  std::span<const float> Input(const AnimationSampler& s) const { return Keys(s.input); }
  std::span<const float> Output(const AnimationSampler& s) const { return Keys(s.output); }

  // Appends a sampler whose key times and values are copied into `keys` (for clips built in
  // code); returns its index.
  uint32_t AddSampler(std::span<const float> input, std::span<const float> output,
                      uint32_t components, Interpolation interpolation) {
    AnimationSampler s;
    s.input = {keys.size(), input.size()};
    keys.insert(keys.end(), input.begin(), input.end());
    s.output = {keys.size(), output.size()};
    keys.insert(keys.end(), output.begin(), output.end());
    s.components = components;
    s.interpolation = interpolation;
    samplers.push_back(s);
    return static_cast<uint32_t>(samplers.size() - 1);
  }
};

// A prim that a skin moves as a whole (UsdSkel's rigid deformation: a Sphere, Cube, Cylinder,
// Capsule or Cone bound to joints by constant influences; docs/semantics.md, "Rigid bindings").
// sinew holds no geometry for it: an engine draws its own shape at the transform
// cpu::RigidTransformJob computes from the skin's palette each frame.
struct RigidBinding {
  std::string name;   // The prim's path.
  std::string type;   // Its schema: "Sphere", "Cube", "Cylinder", "Capsule", "Cone".
  uint32_t node = 0;  // Its node, whose parent is the space the baked transform is local to.
  uint32_t skin = 0;  // The Asset::skins entry whose palette moves it.
  // The influences, one run for the whole prim: entries of the skin's palette and their weights
  // (as authored: not normalized, zero weights allowed).
  std::vector<uint16_t> joints;
  std::vector<float> weights;
  Float4x4 geom_bind;  // The prim's space into the skin's bind space.
  SkinningMethod skinning = SkinningMethod::kLinear;
};

// What a renderer needs of a material to draw the deformed meshes plainly: its name and base
// colour (glTF's pbrMetallicRoughness.baseColorFactor, linear RGBA; textures are not loaded).
struct Material {
  std::string name;
  Float4 base_color{1, 1, 1, 1};
};

struct Scene {
  std::string name;
  std::vector<uint32_t> nodes;  // Root nodes.
};

struct Asset {
  std::vector<Node> nodes;
  // Every node's child indices; node n's are the range nodes[n].children of it.
  std::vector<uint32_t> node_children;
  std::vector<Skin> skins;
  std::vector<Mesh> meshes;
  std::vector<RigidBinding> rigid_bindings;
  std::vector<Animation> animations;
  std::vector<Scene> scenes;
  int32_t scene = -1;                 // Default scene, or -1.
  std::vector<std::string> variants;  // KHR_materials_variants names, in file order.
  // Primitive::material and variant_materials index it. Empty for formats without materials.
  std::vector<Material> materials;
  std::vector<std::string> extensions_used;

  // The children of `node`. Precondition: its range lies within node_children (true of every loaded
  // asset and of SetChildren).
  std::span<const uint32_t> Children(const Node& node) const {
    return std::span<const uint32_t>(node_children)
        .subspan(node.children.offset, node.children.count);
  }
  std::span<const uint32_t> Children(size_t node) const { return Children(nodes[node]); }

  // Makes `children` the children of nodes[node], appended to node_children (for hierarchies
  // built in code; parents are not changed). Precondition: node < nodes.size().
  void SetChildren(size_t node, std::span<const uint32_t> children) {
    nodes[node].children = {static_cast<uint32_t>(node_children.size()),
                            static_cast<uint32_t>(children.size())};
    node_children.insert(node_children.end(), children.begin(), children.end());
  }
  void SetChildren(size_t node, std::initializer_list<uint32_t> children) {
    SetChildren(node, std::span<const uint32_t>(children.begin(), children.size()));
  }
};

}  // namespace sinew
