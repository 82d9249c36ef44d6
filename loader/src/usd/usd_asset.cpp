// The UsdSkel loader (sinew/loader/usd.h): a layer (usda_parser.h) mapped onto a sinew::Asset with
// the UsdSkel building blocks of this folder. Each mapping decision is written down in
// docs/usda.md, "The UsdSkel loader".
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/influence_layout_option.h"
#include "common/load_status.h"
#include "sinew/loader/file.h"
#include "sinew/loader/usd.h"
#include "usd/anim_mapper.h"
#include "usd/read_layer.h"
#include "usd/skel_animation.h"
#include "usd/skel_binding.h"
#include "usd/skel_blend_shapes.h"
#include "usd/skel_topology.h"
#include "usd/skel_transforms.h"
#include "usd/time_sampling.h"
#include "usd/usd_asset.h"
#include "usd/usda_parser.h"

namespace sinew::loader {
namespace {

using usd::Attribute;
using usd::Layer;
using usd::Prim;
using usd::Value;
using usd::ValueType;

// USD's fallback when a layer does not author timeCodesPerSecond.

// Prims that the prims using them read (or that hold nothing to deform): skipped without a word,
// with everything under them.
bool Consumed(std::string_view type) {
  return type == "SkelAnimation" || type == "BlendShape" || type == "Material" ||
         type == "Shader" || type == "NodeGraph" || type == "GeomSubset";
}

// Point-based prims: their points become a Primitive.
bool PointBased(std::string_view type) {
  return type == "Mesh" || type == "BasisCurves" || type == "Points";
}

// Implicit gprims: sinew holds no geometry for them; bound to joints they are rigid bindings.
bool Implicit(std::string_view type) {
  return type == "Sphere" || type == "Cube" || type == "Cylinder" || type == "Capsule" ||
         type == "Cone";
}

// Prims that become nodes: transforms, the skeleton, the point-based and the implicit gprims.
bool Transformable(std::string_view type) {
  return type.empty() || type == "Xform" || type == "Scope" || type == "SkelRoot" ||
         type == "Skeleton" || PointBased(type) || Implicit(type);
}

// An attribute's value at every time code, where it has one (usd::UnvaryingValue): its default,
// or the one value all its time samples hold. Null when it has none, it is blocked (= None), or
// its samples change over time. USD's value resolution reads the samples at any time code before
// the default (the default is the value only when no time is asked for), so a default written
// beside samples is not what UsdSkel skins with.
const Value* StaticValue(const Attribute* a) { return a ? usd::UnvaryingValue(*a) : nullptr; }

// Whether `a` has time samples whose value changes, or is blocked at some time code: what
// StaticValue cannot give a value for.
bool Varying(const Attribute* a) { return a && !a->time_samples.empty() && !StaticValue(a); }

// Whether `a` is blocked (= None) with no time samples, which USD would read in its place.
bool Blocked(const Attribute* a) { return a && a->time_samples.empty() && a->BlockedDefault(); }

// StaticValue of `prim`'s attribute `name`.
const Value* DefaultOf(const Prim& prim, std::string_view name) {
  return StaticValue(prim.FindAttribute(name));
}

std::vector<std::string> TokensOf(const Prim& prim, std::string_view name) {
  const Value* v = DefaultOf(prim, name);
  if (!v) return {};
  return {v->strings().begin(), v->strings().end()};
}

// The numbers of a value, whatever its storage.
std::vector<double> NumbersOf(const Value& value) {
  std::vector<double> out;
  for (const float f : value.floats()) out.push_back(f);
  for (const double d : value.doubles()) out.push_back(d);
  for (const int32_t i : value.ints()) out.push_back(i);
  return out;
}

// An index map from `source` tokens to `target` slots, by AnimMapper's rules: for each target
// slot, the source index mapped there, or -1.
std::vector<int32_t> SourceOfEachTarget(std::span<const std::string> source,
                                        std::span<const std::string> target) {
  std::vector<int32_t> iota(source.size()), out;
  std::iota(iota.begin(), iota.end(), 0);
  usd::AnimMapper(source, target).Remap<int32_t>(iota, 1, -1, &out);
  out.resize(target.size(), -1);
  return out;
}

// A rotation about axis 0, 1 or 2 (x, y, z) by `degrees`, as a column-vector matrix.
Float4x4 AxisRotation(int axis, double degrees) {
  const double r = degrees * 3.14159265358979323846 / 180.0;
  const float c = float(std::cos(r)), s = float(std::sin(r));
  const int a = (axis + 1) % 3, b = (axis + 2) % 3;
  Float4x4 m;
  m.m[a][a] = c, m.m[a][b] = s;
  m.m[b][a] = -s, m.m[b][b] = c;
  return m;
}

struct SkeletonInfo {
  const Prim* prim = nullptr;
  std::vector<std::string> joints;
  std::vector<uint32_t> nodes;      // the node of each joint
  std::vector<Float4x4> binds;      // bindTransforms (checked when a mesh binds to the skeleton)
  const Prim* animation = nullptr;  // its skel:animationSource, a SkelAnimation
};

// A mesh with blend shapes bound to a skeleton: its node gets the animation's weights.
struct ShapedMesh {
  uint32_t node = 0;
  const Prim* skeleton = nullptr;
  std::vector<std::string> shapes;  // skel:blendShapes
  size_t targets = 0;               // shapes and in-betweens
};

struct LoadState {
  explicit LoadState(const Layer& l) : layer(&l), bindings(l) {}
  const Layer* layer = nullptr;
  usd::BindingResolver bindings;
  Asset* asset = nullptr;
  std::vector<Warning>* warnings = nullptr;
  double time_codes_per_second = 0;  // Layer::TimeCodesPerSecondOrFallback
  std::vector<int32_t> prim_node;    // the node of each prim of the layer, or -1
  std::vector<SkeletonInfo> skeletons;
  std::vector<ShapedMesh> shaped;

  std::unordered_set<std::string> said;  // warnings given once per place (where)
  void Warn(std::string where, std::string message) {
    warnings->push_back({std::move(where), std::move(message)});
  }
  std::unordered_map<const Prim*, size_t> skeleton_of;  // prim -> index in skeletons
  void AddSkeleton(SkeletonInfo k) {
    skeleton_of.emplace(k.prim, skeletons.size());
    skeletons.push_back(std::move(k));
  }
  const SkeletonInfo* FindSkeleton(const Prim* prim) const {
    const auto it = skeleton_of.find(prim);
    return it == skeleton_of.end() ? nullptr : &skeletons[it->second];
  }
};

// The position of the first number of `v` that is not finite once a float, or -1 (its float or
// double numbers; other storage has none to check). A double past a float's range would be an
// infinity in the asset, which holds floats.
int64_t FirstNonFinite(const Value& v) {
  const auto first = [](auto numbers) -> int64_t {
    for (size_t i = 0; i < numbers.size(); ++i) {
      if (!(std::fabs(numbers[i]) <= double(std::numeric_limits<float>::max()))) return int64_t(i);
    }
    return -1;
  };
  const int64_t f = first(v.floats());
  return f >= 0 ? f : first(v.doubles());
}

// The local transform `prim`'s xformOpOrder composes (identity when unauthored), each op's default
// value: translate, scale, rotateX/Y/Z, rotateXYZ (and the other five orders), orient and
// transform, each optionally "!invert!". An op whose time samples change is read at its first
// sample (warned); one whose samples all hold one value is that value. `!resetXformStack!`
// discards the ops before it and sets *resets: the transform is then the prim's in the world, as
// UsdGeomXformable reads it. An op value that is not finite, or ops that compose to a transform
// that is not (scales past a float's range), are kNonFiniteValue: every point below would be.
LoadStatus LocalTransform(LoadState& c, const Prim& prim, Float4x4* out, bool* resets) {
  *out = Float4x4{};
  *resets = false;
  const std::vector<std::string> order = TokensOf(prim, "xformOpOrder");
  for (const std::string& entry : order) {
    const std::string where = prim.path + ".xformOpOrder";
    if (entry == "!resetXformStack!") {
      *out = Float4x4{};
      *resets = true;
      continue;
    }
    const bool invert = entry.starts_with("!invert!");
    const std::string name = invert ? entry.substr(sizeof("!invert!") - 1) : entry;
    const Attribute* a = prim.FindAttribute(name);
    if (!a || !name.starts_with("xformOp:")) {
      return {Error::kMissingProperty, "xformOpOrder names " + name + ", which is not authored",
              where};
    }
    const Value* value = StaticValue(a);
    if (!value && !a->time_samples.empty()) {
      value = &a->time_samples.front().value;
      c.Warn(prim.path + "." + name,
             "a transform op that changes over time is read at its first sample");
    }
    if (!value || value->blocked) {
      // UsdGeom takes an op without a value (blocked, or declared without one) for the identity.
      c.Warn(prim.path + "." + name,
             std::string(value || Blocked(a) ? "blocked with None" : "declared without a value") +
                 ": the identity, as UsdGeom reads it");
      continue;
    }
    if (const int64_t i = FirstNonFinite(*value); i >= 0) {
      return {Error::kNonFiniteValue,
              "number " + std::to_string(i) + " is not finite, or past a float's range",
              prim.path + "." + name};
    }
    const std::vector<double> v = NumbersOf(*value);
    const std::string_view kind = std::string_view(name).substr(sizeof("xformOp:") - 1);
    const std::string_view op = kind.substr(0, kind.find(':'));
    Float4x4 m;
    const auto need = [&](size_t count) -> LoadStatus {
      if (v.size() == count) return {};
      return {Error::kWrongType, name + " needs " + std::to_string(count) + " numbers",
              prim.path + "." + name};
    };
    if (op == "translate") {
      SINEW_TRY(need(3));
      m = Translation(float(v[0]), float(v[1]), float(v[2]));
    } else if (op == "scale") {
      SINEW_TRY(need(3));
      m = Scaling(float(v[0]), float(v[1]), float(v[2]));
    } else if (op == "rotateX" || op == "rotateY" || op == "rotateZ") {
      SINEW_TRY(need(1));
      m = AxisRotation(op.back() - 'X', v[0]);
    } else if (op.size() == 9 && op.starts_with("rotate")) {
      // rotateXYZ: about X first, then Y, then Z (column vectors: Rz · Ry · Rx).
      SINEW_TRY(need(3));
      for (size_t i = 0; i < 3; ++i) {
        const int axis = op[6 + i] - 'X';
        if (axis < 0 || axis > 2) {
          return {Error::kUnsupportedFeature, "unknown transform op " + name,
                  prim.path + "." + name};
        }
        m = Multiply(AxisRotation(axis, v[i]), m);
      }
    } else if (op == "orient") {
      SINEW_TRY(need(4));  // (real, i, j, k) as written
      m = ComposeTrs({}, Normalize({float(v[1]), float(v[2]), float(v[3]), float(v[0])}),
                     {1, 1, 1});
    } else if (op == "transform") {
      SINEW_TRY(need(16));
      std::array<double, 16> rows;
      std::copy(v.begin(), v.end(), rows.begin());
      m = usd::FromUsdMatrix(rows);
    } else {
      return {Error::kUnsupportedFeature, "unknown transform op " + name, prim.path + "." + name};
    }
    if (invert) {
      Float4x4 inverse;
      if (!Invert(m, &inverse)) {
        return {Error::kInvalidValue, "!invert! of a singular op", prim.path + "." + name};
      }
      m = inverse;
    }
    *out = Multiply(*out, m);  // the first op is the outermost
    if (!IsFinite(*out)) {
      return {Error::kNonFiniteValue,
              "the ops up to " + name + " compose to a transform that is not finite", where};
    }
  }
  return {};
}

// The 3x3 part of `m` times the vector `v` (xyz): offsets and normals.
Float3 Linear(const Float4x4& m, const float* v) {
  return {m.m[0][0] * v[0] + m.m[1][0] * v[1] + m.m[2][0] * v[2],
          m.m[0][1] * v[0] + m.m[1][1] * v[1] + m.m[2][1] * v[2],
          m.m[0][2] * v[0] + m.m[1][2] * v[1] + m.m[2][2] * v[2]};
}

// `local` as the node's transform: T/R/S when it splits so (what an animation can move), else a
// matrix.
void SetLocal(const Float4x4& local, Node* node) {
  if (DecomposeTrs(local, &node->translation, &node->rotation, &node->scale)) return;
  node->has_matrix = true;
  node->matrix = local;
}

// A node for every loaded prim, depth first in the composed order (the layer's prim order:
// parents first).
LoadStatus AddNodes(LoadState& c) {
  const Layer& layer = *c.layer;
  c.prim_node.assign(layer.prims.size(), -1);
  std::vector<std::vector<uint32_t>> children;
  std::vector<Float4x4> world;  // per node, for a child that resets the transform stack
  Scene scene;
  for (size_t i = 0; i < layer.prims.size(); ++i) {
    const Prim& p = layer.prims[i];
    const int32_t parent = p.parent < 0 ? -1 : c.prim_node[size_t(p.parent)];
    if (p.parent >= 0 && parent < 0) continue;  // under a prim that is not loaded
    // A class is abstract and an over defines nothing in a flattened layer; inactive prims and
    // what they hold are not on the stage.
    if (p.specifier != usd::Specifier::kDef || p.active == false || Consumed(p.type_name)) {
      continue;
    }
    if (!Transformable(p.type_name)) {
      c.Warn(p.path, p.type_name +
                         " prims are not loaded (only Xform, Scope, SkelRoot, Skeleton, Mesh," +
                         " BasisCurves, Points and the implicit gprims are)");
      continue;
    }
    Node node;
    node.name = p.name;
    node.parent = parent;
    Float4x4 local;
    bool resets = false;
    SINEW_TRY(LocalTransform(c, p, &local, &resets));
    const Float4x4 in_world = parent < 0 || resets ? local : Multiply(world[size_t(parent)], local);
    if (!IsFinite(in_world)) {
      return {Error::kNonFiniteValue,
              "its transform in the world (its ancestors' and its own) is not finite",
              p.path + ".xformOpOrder"};
    }
    if (resets && parent >= 0) {
      // The node stays under its parent: its local transform undoes the parent's world one.
      Float4x4 inverse;
      if (!Invert(world[size_t(parent)], &inverse)) {
        return {Error::kInvalidValue,
                "!resetXformStack! under a parent whose transform cannot be inverted",
                p.path + ".xformOpOrder"};
      }
      local = Multiply(inverse, local);
    }
    world.push_back(in_world);
    SetLocal(local, &node);
    const uint32_t index = uint32_t(c.asset->nodes.size());
    c.prim_node[i] = int32_t(index);
    c.asset->nodes.push_back(std::move(node));
    children.emplace_back();
    if (parent < 0) {
      scene.nodes.push_back(index);
    } else {
      children[size_t(parent)].push_back(index);
    }
  }
  scene.name = layer.default_prim;
  c.asset->scenes.push_back(std::move(scene));
  c.asset->scene = 0;
  // A skeleton's node gets its root joints as more children when they are added (AddSkeletons).
  for (size_t n = 0; n < children.size(); ++n) c.asset->SetChildren(n, children[n]);
  return {};
}

// NaN or an infinity in what UsdSkel poses with — a loaded Skeleton's rest and bind transforms,
// the arrays of the SkelAnimation it is bound to, a skinned prim's geomBindTransform, in their
// default or any time sample — is kNonFiniteValue at `where` (the attribute): every joint below
// would be NaN, and so every vertex it moves. Checked where they are used, so what nothing uses
// (a class, an inactive prim, an unbound animation) is not. (Points, normals, offsets and joint
// weights are checked with the primitives.)
LoadStatus CheckFinite(const Attribute* a, const std::string& where) {
  if (!a) return {};
  const auto bad = [&](const Value& v, const std::string& at) -> LoadStatus {
    const int64_t i = FirstNonFinite(v);
    if (i < 0) return {};
    const bool past_float = size_t(i) < v.doubles().size() && std::isfinite(v.doubles()[size_t(i)]);
    return {Error::kNonFiniteValue,
            at + "number " + std::to_string(i) +
                (past_float ? " is past a float's range" : " is not finite"),
            where};
  };
  if (a->default_value) SINEW_TRY(bad(*a->default_value, ""));
  for (const usd::TimeSample& sample : a->time_samples) {
    char time[48];
    std::snprintf(time, sizeof time, "at time code %g, ", sample.time);
    SINEW_TRY(bad(sample.value, time));
  }
  return {};
}

// Each loaded Skeleton's joints as nodes under the skeleton's node, the rest transforms as their
// local transforms.
LoadStatus AddSkeletons(LoadState& c) {
  const Layer& layer = *c.layer;
  for (size_t i = 0; i < layer.prims.size(); ++i) {
    const Prim& p = layer.prims[i];
    if (p.type_name != "Skeleton" || c.prim_node[i] < 0) continue;
    SkeletonInfo k;
    k.prim = &p;
    for (const char* name : {"restTransforms", "bindTransforms"}) {
      SINEW_TRY(CheckFinite(p.FindAttribute(name), p.path + "." + name));
    }
    k.joints = TokensOf(p, "joints");
    const std::vector<int32_t> parents = usd::JointParents(k.joints);
    SINEW_TRY(usd::ValidateTopology(parents, p.path + ".joints"));
    // The rest transforms, checked as JointLocalTransforms checks them (the pose at any time).
    SINEW_TRY(usd::JointLocalTransforms(layer, p, 0).status());
    const std::vector<Float4x4> rest = usd::MatricesOf(p, "restTransforms");
    k.binds = usd::MatricesOf(p, "bindTransforms");
    // Its own skel:animationSource, or the nearest ancestor's (inherited down namespace).
    const usd::AnimationSourceBinding bound = c.bindings.Animation(p);
    if (bound.animation) {
      k.animation = bound.animation;
      for (const char* name : {"translations", "rotations", "scales", "blendShapeWeights"}) {
        SINEW_TRY(CheckFinite(k.animation->FindAttribute(name), k.animation->path + "." + name));
      }
    } else if (const std::string at =
                   bound.owner ? bound.owner->path + ".skel:animationSource" : std::string();
               !bound.target.empty() && c.said.insert(at).second) {
      // Once per relationship: the Skeletons beneath it inherit it.
      c.Warn(at, "names " + bound.target +
                     (layer.FindPrim(bound.target) ? ", which is not a SkelAnimation"
                                                   : ", which is not a prim of the layer") +
                     ": ignored");
    }
    // Joints the animation moves must be T/R/S nodes.
    std::vector<int32_t> animated(k.joints.size(), -1);
    if (k.animation) animated = SourceOfEachTarget(TokensOf(*k.animation, "joints"), k.joints);
    const uint32_t skeleton_node = uint32_t(c.prim_node[i]);
    std::vector<std::vector<uint32_t>> children(k.joints.size());
    std::vector<uint32_t> roots;
    for (size_t j = 0; j < k.joints.size(); ++j) {
      Node node;
      node.name = k.joints[j];
      node.parent = parents[j] < 0 ? int32_t(skeleton_node) : int32_t(k.nodes[size_t(parents[j])]);
      SetLocal(rest[j], &node);
      if (node.has_matrix && animated[j] >= 0) {
        return {Error::kUnsupportedFeature,
                "joint " + k.joints[j] +
                    " is animated, but its rest transform does not split into translation, " +
                    "rotation and scale",
                p.path + ".restTransforms"};
      }
      const uint32_t index = uint32_t(c.asset->nodes.size());
      k.nodes.push_back(index);
      c.asset->nodes.push_back(std::move(node));
      (parents[j] < 0 ? roots : children[size_t(parents[j])]).push_back(index);
    }
    for (size_t j = 0; j < k.joints.size(); ++j) c.asset->SetChildren(k.nodes[j], children[j]);
    // The skeleton's node: its prim children, then its root joints.
    std::vector<uint32_t> all(c.asset->Children(skeleton_node).begin(),
                              c.asset->Children(skeleton_node).end());
    all.insert(all.end(), roots.begin(), roots.end());
    c.asset->SetChildren(skeleton_node, all);
    c.AddSkeleton(std::move(k));
  }
  return {};
}

// Whether a SkelRoot is `prim` or one of its ancestors.
bool UnderSkelRoot(const Layer& layer, const Prim& prim) {
  for (const Prim* p = &prim; p; p = p->parent < 0 ? nullptr : &layer.prims[size_t(p->parent)]) {
    if (p->type_name == "SkelRoot") return true;
  }
  return false;
}

// The mesh's faces as triangles: a fan from each face's first vertex, the winding reversed for a
// leftHanded mesh (sinew's front faces wind counter-clockwise, USD's rightHanded default).
// `corner_vertex` maps each face-vertex to its vertex.
std::vector<uint32_t> Triangulate(std::span<const int32_t> counts, bool left_handed,
                                  const std::vector<uint32_t>& corner_vertex) {
  std::vector<uint32_t> out;
  size_t first = 0;
  for (const int32_t count : counts) {
    for (size_t k = 1; k + 1 < size_t(count); ++k) {
      const uint32_t a = corner_vertex[first], b = corner_vertex[first + k],
                     d = corner_vertex[first + k + 1];
      out.insert(out.end(), {a, left_handed ? d : b, left_handed ? b : d});
    }
    first += size_t(count);
  }
  return out;
}

// A topology attribute `name` that has no static value: kUnsupportedFeature when its time samples
// change (or are blocked), else kMissingProperty with `message`.
LoadStatus MissingTopology(const Prim& p, const std::string& name, const char* message) {
  const Attribute* a = p.FindAttribute(name);
  if (Varying(a)) {
    return {Error::kUnsupportedFeature,
            "topology that changes over time (or is blocked at a time code) is not read",
            p.path + "." + name};
  }
  return {Error::kMissingProperty, message, p.path + "." + name};
}

// Counts of vertices per face (or points per curve), each at least `least`: kInvalidValue at
// `where` naming the `element` ("face", "curve") that has fewer. Their sum in *total.
LoadStatus SumCounts(std::span<const int32_t> counts, int32_t least, const char* element,
                     const std::string& where, size_t* total) {
  *total = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < least) {
      return {Error::kInvalidValue,
              std::string(element) + " " + std::to_string(i) + " has " + std::to_string(counts[i]) +
                  " vertices (at least " + std::to_string(least) + ")",
              where};
    }
    *total += size_t(counts[i]);
  }
  return {};
}

// What a prim's topology makes of its points: the primitive's vertices (each a point, and a normal
// when there are normals), its normals and its indices.
struct Topology {
  std::vector<uint32_t> vertex_point;   // the point of each vertex
  std::vector<uint32_t> vertex_normal;  // the entry of `normals` of each vertex
  std::span<const float> normals;       // as authored (xyz), or empty
  std::vector<float> indexed_normals;   // what `normals` views for an indexed primvar
  std::string normal_interpolation;
  bool split = false;  // a vertex per face-vertex, for normals that are not per point
  std::vector<uint32_t> indices;
  uint32_t mode = 4;  // glTF topology: 4 triangles, 1 lines
};

// A Mesh's faces, triangulated, and its normals.
LoadStatus MeshTopology(LoadState& c, const Prim& p, size_t point_count, Topology* out) {
  const Value* counts = DefaultOf(p, "faceVertexCounts");
  const Value* face_indices = DefaultOf(p, "faceVertexIndices");
  if (!counts || !face_indices) {
    return MissingTopology(p, counts ? "faceVertexIndices" : "faceVertexCounts",
                           "a mesh needs faceVertexCounts and faceVertexIndices");
  }
  size_t corners = 0;
  SINEW_TRY(SumCounts(counts->ints(), 3, "face", p.path + ".faceVertexCounts", &corners));
  const std::span<const int32_t> fvi = face_indices->ints();
  if (fvi.size() != corners) {
    return {Error::kSizeMismatch,
            std::to_string(fvi.size()) + " face-vertex indices for faces of " +
                std::to_string(corners) + " vertices",
            p.path + ".faceVertexIndices"};
  }
  for (size_t i = 0; i < fvi.size(); ++i) {
    if (fvi[i] < 0 || size_t(fvi[i]) >= point_count) {
      return {Error::kInvalidReference,
              "face-vertex index " + std::to_string(fvi[i]) + " (entry " + std::to_string(i) +
                  ") past the mesh's " + std::to_string(point_count) + " points",
              p.path + ".faceVertexIndices"};
    }
  }
  if (const Value* holes = DefaultOf(p, "holeIndices"); holes && holes->size() > 0) {
    c.Warn(p.path + ".holeIndices", "holes are not cut: every face is drawn");
  }

  // Normals (primvars:normals overrides normals): per point (vertex, varying), or per face-vertex
  // (faceVarying), per face (uniform) or one (constant), which split the points into one vertex
  // per face-vertex.
  // (primvars:normals counts when it has a value: blocked with None it leaves normals to speak.)
  const Attribute* normal_attr = p.FindAttribute("primvars:normals");
  if (!normal_attr || !normal_attr->HasAuthoredValue()) {
    normal_attr = p.FindAttribute("normals");
  }
  std::span<const float>& normals = out->normals;
  std::string& normal_interpolation = out->normal_interpolation;
  if (Varying(normal_attr)) {
    c.Warn(p.path + "." + normal_attr->name,
           "normals that change over time are not read: the mesh is loaded without normals");
  }
  if (const Value* normal_value = StaticValue(normal_attr)) {
    const std::string where = p.path + "." + normal_attr->name;
    // Unauthored: `normals` per point (UsdGeomPointBased's fallback), a primvar constant (every
    // primvar's).
    const bool primvar = normal_attr->name.starts_with("primvars:");
    normal_interpolation = !normal_attr->interpolation.empty() ? normal_attr->interpolation
                           : primvar                           ? "constant"
                                                               : "vertex";
    const size_t want = normal_interpolation == "faceVarying" ? corners
                        : normal_interpolation == "uniform"   ? counts->ints().size()
                        : normal_interpolation == "constant"  ? 1
                                                              : point_count;
    normals = normal_value->floats();
    // An indexed primvar (primvars:normals:indices): its values looked up, one per element.
    if (const Value* indices = DefaultOf(p, normal_attr->name + ":indices");
        indices && normal_value->components == 3) {
      for (const int32_t i : indices->ints()) {
        if (i < 0 || size_t(i) >= normals.size() / 3) {
          return {Error::kInvalidReference,
                  "normal index " + std::to_string(i) + " past the " +
                      std::to_string(normals.size() / 3) + " normals",
                  where + ":indices"};
        }
        out->indexed_normals.insert(out->indexed_normals.end(), normals.begin() + ptrdiff_t(i) * 3,
                                    normals.begin() + ptrdiff_t(i) * 3 + 3);
      }
      normals = out->indexed_normals;
    }
    if (normals.size() != want * 3 || normal_value->components != 3) {
      c.Warn(where, std::to_string(normals.size() / 3) + " normals for " + std::to_string(want) +
                        " (" + normal_interpolation + "): the mesh is loaded without normals");
      normals = {};
    }
  }
  const bool split = out->split =
      !normals.empty() && normal_interpolation != "vertex" && normal_interpolation != "varying";
  // Each vertex's point, and each face-vertex's vertex.
  std::vector<uint32_t>& vertex_point = out->vertex_point;
  std::vector<uint32_t> corner_vertex(corners);
  if (split) {
    vertex_point.assign(fvi.begin(), fvi.end());
    std::iota(corner_vertex.begin(), corner_vertex.end(), 0u);
  } else {
    vertex_point.resize(point_count);
    std::iota(vertex_point.begin(), vertex_point.end(), 0u);
    corner_vertex.assign(fvi.begin(), fvi.end());
  }
  // The normal index of each vertex.
  std::vector<uint32_t>& vertex_normal = out->vertex_normal;
  vertex_normal.resize(vertex_point.size());
  if (split) {
    size_t corner = 0;
    for (size_t f = 0; f < counts->ints().size(); ++f) {
      for (int32_t k = 0; k < counts->ints()[f]; ++k, ++corner) {
        vertex_normal[corner] = normal_interpolation == "faceVarying" ? uint32_t(corner)
                                : normal_interpolation == "uniform"   ? uint32_t(f)
                                                                      : 0u;
      }
    }
  } else {
    std::iota(vertex_normal.begin(), vertex_normal.end(), 0u);
  }
  const Value* orientation = DefaultOf(p, "orientation");
  out->indices = Triangulate(counts->ints(), orientation && orientation->AsString() == "leftHanded",
                             corner_vertex);
  return {};
}

// A BasisCurves prim's curves as lines between consecutive points (and from the last back to the
// first, for periodic curves). Cubic curves are drawn by their control points (warned): skinning
// moves those exactly, as UsdSkel does, but a renderer would evaluate the basis over them.
LoadStatus CurvesTopology(LoadState& c, const Prim& p, size_t point_count, Topology* out) {
  const std::string where = p.path + ".curveVertexCounts";
  const Value* counts = DefaultOf(p, "curveVertexCounts");
  if (!counts) return MissingTopology(p, "curveVertexCounts", "curves need curveVertexCounts");
  size_t total = 0;
  SINEW_TRY(SumCounts(counts->ints(), 2, "curve", where, &total));
  if (total != point_count) {
    return {Error::kSizeMismatch,
            "curves of " + std::to_string(total) + " points for " + std::to_string(point_count) +
                " points",
            where};
  }
  const Value* type = DefaultOf(p, "type");
  if (!type || type->AsString() != "linear") {
    c.Warn(p.path, "cubic curves are drawn as lines between their control points");
  }
  if (p.FindAttribute("normals")) c.Warn(p.path + ".normals", "curve normals are not read");
  const Value* wrap = DefaultOf(p, "wrap");
  const bool periodic = wrap && wrap->AsString() == "periodic";
  uint32_t first = 0;
  for (const int32_t n : counts->ints()) {
    for (uint32_t k = 0; k + 1 < uint32_t(n); ++k) {
      out->indices.insert(out->indices.end(), {first + k, first + k + 1});
    }
    if (periodic) out->indices.insert(out->indices.end(), {first + uint32_t(n) - 1, first});
    first += uint32_t(n);
  }
  out->vertex_point.resize(point_count);
  std::iota(out->vertex_point.begin(), out->vertex_point.end(), 0u);
  out->mode = 1;
  return {};
}

// A Points prim: one vertex per point, drawn as points.
void PointsTopology(LoadState& c, const Prim& p, size_t point_count, Topology* out) {
  if (p.FindAttribute("normals")) c.Warn(p.path + ".normals", "point normals are not read");
  out->vertex_point.resize(point_count);
  std::iota(out->vertex_point.begin(), out->vertex_point.end(), 0u);
  out->mode = 0;
}

// The Skeleton that skins `p`: null when it binds none, or one the loader did not map (warned), or
// when `p` is outside every SkelRoot (UsdSkel deforms only what a SkelRoot holds; warned).
const SkeletonInfo* BoundSkeleton(LoadState& c, const Prim& p, const usd::SkelBinding& binding) {
  if (!binding.unapplied.empty()) {
    c.Warn(p.path, "binds through " + binding.unapplied +
                       ", which authors binding properties without SkelBindingAPI (deprecated; "
                       "UsdSkel still reads them, and so does sinew)");
  }
  // Said once per relationship (the prims below inherit it), and only where there are influences
  // to skin with, as for a target that is not a loaded Skeleton.
  if (!binding.missing_skeleton.empty() && binding.has_influences &&
      c.said.insert(binding.skeleton_at).second) {
    c.Warn(binding.skeleton_at, "names " + binding.missing_skeleton +
                                    ", which is not a prim of the layer: what it binds is not "
                                    "skinned");
  }
  if (!binding.skeleton) return nullptr;
  if (!UnderSkelRoot(*c.layer, p)) {
    c.Warn(p.path, "bound to " + binding.skeleton->path +
                       " but not under a SkelRoot: UsdSkel does not deform it, nor does sinew");
    return nullptr;
  }
  const SkeletonInfo* skeleton = c.FindSkeleton(binding.skeleton);
  if (!skeleton && binding.has_influences) {
    c.Warn(p.path, "skel:skeleton " + binding.skeleton->path +
                       " is not a loaded Skeleton: the prim is not skinned");
  }
  return skeleton;
}

// Whether `m` has a projective part: a last row (USD's last column) other than 0, 0, 0, 1.
bool Projective(const Float4x4& m) {
  return m.m[0][3] != 0 || m.m[1][3] != 0 || m.m[2][3] != 0 || m.m[3][3] != 1;
}

// Point `p` by `m` as UsdSkel takes points to bind space (GfMatrix4d::Transform): the whole
// matrix, in double, divided by w unless w is 0; an affine matrix as TransformPoint does.
Float3 BindPoint(const Float4x4& m, const float* p) {
  if (!Projective(m)) return TransformPoint(m, {p[0], p[1], p[2]});
  double out[4];
  for (size_t row = 0; row < 4; ++row) {
    out[row] = double(m.m[0][row]) * p[0] + double(m.m[1][row]) * p[1] +
               double(m.m[2][row]) * p[2] + double(m.m[3][row]);
  }
  const double w = out[3] != 0 ? out[3] : 1;
  return {float(out[0] / w), float(out[1] / w), float(out[2] / w)};
}

// The binding's geomBindTransform and the inverse transpose of its 3x3 part; the identity when it
// is unauthored or blocked.
LoadStatus ReadGeomBind(const usd::SkelBinding& binding, Float4x4* geom_bind,
                        Float4x4* normal_matrix) {
  if (!binding.geom_bind_transform || Blocked(binding.geom_bind_transform)) return {};
  const std::string& where = binding.geom_bind_transform_at;
  SINEW_TRY(CheckFinite(binding.geom_bind_transform, where));
  const Value* g = StaticValue(binding.geom_bind_transform);
  if (!g || g->doubles().size() != 16) {
    return {Error::kUnsupportedFeature,
            "a geomBindTransform that changes over time, or not one matrix4d, is not read", where};
  }
  *geom_bind = usd::FromUsdMatrix(std::span<const double, 16>(g->doubles().data(), 16));
  Float4x4 inverse;
  if (!Invert(*geom_bind, &inverse)) {
    return {Error::kInvalidValue, "a singular geomBindTransform", where};
  }
  for (size_t col = 0; col < 3; ++col) {
    for (size_t row = 0; row < 3; ++row) normal_matrix->m[col][row] = inverse.m[row][col];
  }
  return {};
}

// The influence primvars' default values, sized for one run of elementSize per point (or one run
// for constant interpolation).
LoadStatus ReadInfluences(const Prim& p, const usd::SkelBinding& binding, size_t point_count,
                          const Value** indices, const Value** weights) {
  *indices = StaticValue(binding.joint_indices);
  *weights = StaticValue(binding.joint_weights);
  // Places in the file: the prim that authors each (this one, or the ancestor it inherits from).
  const std::string where = binding.joint_indices_at.empty()
                                ? p.path + ".primvars:skel:jointIndices"
                                : binding.joint_indices_at;
  const std::string& weights_at = binding.joint_weights_at;
  if (!*indices || !*weights) {
    return {Error::kUnsupportedFeature,
            "joint influences that change over time, or ones without a value, are not read", where};
  }
  // UsdSkel's types: int[] indices and float[] weights. Another type would read as no numbers
  // (and be reported as a count that does not match).
  const auto typed = [&](const Value& v, ValueType want, const char* name,
                         const std::string& at) -> LoadStatus {
    if (v.type == want) return {};
    return {Error::kWrongType,
            std::string(name) + " must be " + std::string(usd::Info(want).name) + "[], not " +
                std::string(usd::Info(v.type).name) + (v.array ? "[]" : ""),
            at};
  };
  SINEW_TRY(typed(**indices, ValueType::kInt, "primvars:skel:jointIndices", where));
  SINEW_TRY(typed(**weights, ValueType::kFloat, "primvars:skel:jointWeights", weights_at));
  const size_t e = size_t(binding.influences_per_point);
  const size_t runs = binding.rigid ? 1 : point_count;
  if ((*indices)->ints().size() != runs * e || (*weights)->floats().size() != runs * e) {
    return {Error::kSizeMismatch,
            std::to_string((*indices)->ints().size()) + " joint indices and " +
                std::to_string((*weights)->floats().size()) + " weights for " +
                std::to_string(runs) + (binding.rigid ? " constant run" : " points") + " of " +
                std::to_string(e),
            where};
  }
  // Weights finite and not negative, placed by their index in the authored array (the runtime's
  // own check would place them in the padded dense stream, which the file does not have).
  const std::span<const float> w = (*weights)->floats();
  for (size_t i = 0; i < w.size(); ++i) {
    if (std::isfinite(w[i]) && w[i] >= 0) continue;
    const std::string of = binding.rigid ? "" : " (point " + std::to_string(i / e) + ")";
    return {std::isfinite(w[i]) ? Error::kNegativeWeight : Error::kNonFiniteValue,
            "joint weight " + std::to_string(w[i]) + of +
                (std::isfinite(w[i]) ? " is negative" : " is not finite"),
            weights_at + "[" + std::to_string(i) + "]"};
  }
  return {};
}

// The Skin of a prim bound to `skeleton`: its joints in skel:joints order (the skeleton's own when
// that is unauthored), each inverse bind the inverse of that joint's bindTransforms entry.
LoadStatus MakeSkin(LoadState& c, const Prim& p, const usd::SkelBinding& binding,
                    const SkeletonInfo& skeleton, Skin* skin) {
  std::vector<std::string> joints = skeleton.joints;
  if (binding.joints && binding.joints->default_value) {
    const std::span<const std::string> own = binding.joints->default_value->strings();
    joints.assign(own.begin(), own.end());
  }
  const std::vector<int32_t> skeleton_joint = SourceOfEachTarget(skeleton.joints, joints);
  if (skeleton.binds.size() != skeleton.joints.size()) {
    return {Error::kSizeMismatch,
            std::to_string(skeleton.binds.size()) + " bind transforms for " +
                std::to_string(skeleton.joints.size()) + " joints",
            skeleton.prim->path + ".bindTransforms"};
  }
  if (joints.size() > 65536) {
    return {Error::kUnsupportedFeature, "more than 65536 joints", p.path + ".skel:joints"};
  }
  skin->name = p.path;
  skin->skeleton = c.prim_node[size_t(skeleton.prim - c.layer->prims.data())];
  for (size_t i = 0; i < joints.size(); ++i) {
    const int32_t j = skeleton_joint[i];
    if (j < 0) {
      // UsdSkel's mapper gives such a slot the identity, which no joint node of sinew's holds.
      const bool named = std::find(skeleton.joints.begin(), skeleton.joints.end(), joints[i]) !=
                         skeleton.joints.end();
      return {Error::kInvalidReference,
              "joint " + joints[i] +
                  (named ? " is named again later (UsdSkel binds the last and gives this slot the "
                           "identity)"
                         : " is not a joint of " + skeleton.prim->path),
              p.path + ".skel:joints"};
    }
    Float4x4 inverse;
    if (!Invert(skeleton.binds[size_t(j)], &inverse)) {
      return {Error::kInvalidValue, "joint " + joints[i] + " has a singular bind transform",
              skeleton.prim->path + ".bindTransforms"};
    }
    skin->joints.push_back(skeleton.nodes[size_t(j)]);
    skin->inverse_binds.push_back(inverse);
  }
  return {};
}

SkinningMethod MethodOf(const usd::SkelBinding& binding) {
  return binding.skinning_method == usd::SkinningMethodToken::kDualQuaternion
             ? SkinningMethod::kDualQuaternion
             : SkinningMethod::kLinear;
}

// One implicit gprim (Sphere, Cube, ...): a rigid binding when constant influences bind it to a
// loaded skeleton; otherwise its node alone, static (warned: sinew has no geometry to draw for it).
LoadStatus AddImplicit(LoadState& c, const Prim& p, uint32_t node) {
  SINEW_TRY_ASSIGN(const usd::SkelBinding binding, c.bindings.Resolve(p));
  const SkeletonInfo* skeleton = BoundSkeleton(c, p, binding);
  if (!skeleton || !binding.has_influences) {
    // A skeleton bound but not used was warned about by BoundSkeleton.
    if (!binding.skeleton || !binding.has_influences) {
      const std::string ignored =
          binding.ignored_influences.empty()
              ? ""
              : " (" + binding.ignored_influences + ": UsdSkel ignores such influences)";
      c.Warn(p.path, "a " + p.type_name + " bound to no joints" + ignored +
                         ": its node is loaded, its shape is not (sinew holds no geometry for "
                         "implicit gprims)");
    }
    return {};
  }
  if (!binding.rigid) {
    c.Warn(p.path + ".primvars:skel:jointIndices",
           "vertex influences on a " + p.type_name + ", which has no points: not skinned");
    return {};
  }
  const Value* indices = nullptr;
  const Value* weights = nullptr;
  SINEW_TRY(ReadInfluences(p, binding, 1, &indices, &weights));
  RigidBinding rigid;
  rigid.name = p.path;
  rigid.type = p.type_name;
  rigid.node = node;
  rigid.skinning = MethodOf(binding);
  Float4x4 normal_matrix;
  SINEW_TRY(ReadGeomBind(binding, &rigid.geom_bind, &normal_matrix));
  Skin skin;
  SINEW_TRY(MakeSkin(c, p, binding, *skeleton, &skin));
  for (size_t i = 0; i < indices->ints().size(); ++i) {
    const int32_t joint = indices->ints()[i];
    if (joint < 0 || size_t(joint) >= skin.joints.size()) {
      return {Error::kJointIndexOutOfRange,
              "joint index " + std::to_string(joint) + " past the " +
                  std::to_string(skin.joints.size()) + " joints",
              p.path + ".primvars:skel:jointIndices"};
    }
    rigid.joints.push_back(uint16_t(joint));
    rigid.weights.push_back(weights->floats()[i]);  // finite and >= 0 (ReadInfluences)
  }
  rigid.skin = uint32_t(c.asset->skins.size());
  c.asset->skins.push_back(std::move(skin));
  c.asset->rigid_bindings.push_back(std::move(rigid));
  return {};
}

// One Mesh, BasisCurves or Points prim: its Primitive (and Skin, when it is skinned).
LoadStatus AddDeformable(LoadState& c, const Prim& p, uint32_t node) {
  const Layer& layer = *c.layer;
  SINEW_TRY_ASSIGN(const usd::SkelBinding binding, c.bindings.Resolve(p));
  const Value* points = DefaultOf(p, "points");
  if (!points) {
    const Attribute* a = p.FindAttribute("points");
    c.Warn(p.path, Blocked(a) ? "points blocked with None: not loaded"
                              : "no static points (points that change over time are not read): not "
                                "loaded");
    return {};
  }
  const std::span<const float> xyz = points->floats();
  const size_t point_count = xyz.size() / 3;
  if (points->components != 3 || (xyz.empty() && !points->doubles().empty())) {
    return {Error::kWrongType, "points must be point3f", p.path + ".points"};
  }
  Topology topology;
  if (p.type_name == "BasisCurves") {
    SINEW_TRY(CurvesTopology(c, p, point_count, &topology));
  } else if (p.type_name == "Points") {
    PointsTopology(c, p, point_count, &topology);
  } else {
    SINEW_TRY(MeshTopology(c, p, point_count, &topology));
  }
  const std::vector<uint32_t>& vertex_point = topology.vertex_point;
  const std::span<const float> normals = topology.normals;
  const bool split = topology.split;

  const SkeletonInfo* skeleton = BoundSkeleton(c, p, binding);
  const bool skinned = skeleton && binding.has_influences;
  if (skeleton && !binding.ignored_influences.empty()) {
    c.Warn(p.path, binding.ignored_influences +
                       ": UsdSkel ignores such influences, and so does sinew (the mesh is not "
                       "skinned)");
  }
  Float4x4 geom_bind;
  Float4x4 normal_matrix;  // the inverse transpose of geom_bind's 3x3 part
  if (skinned) SINEW_TRY(ReadGeomBind(binding, &geom_bind, &normal_matrix));

  Primitive prim;
  const size_t vertex_count = vertex_point.size();
  prim.positions.resize(vertex_count * 3);
  for (size_t v = 0; v < vertex_count; ++v) {
    const Float3 b = BindPoint(geom_bind, &xyz[size_t(vertex_point[v]) * 3]);
    prim.positions[v * 3] = b.x, prim.positions[v * 3 + 1] = b.y, prim.positions[v * 3 + 2] = b.z;
  }
  // Normals into bind space (normalized; the factor each was scaled by scales its offsets).
  std::vector<float> normal_scale(vertex_count, 1.0f);
  if (!normals.empty()) {
    prim.normals.resize(vertex_count * 3);
    for (size_t v = 0; v < vertex_count; ++v) {
      const float* n = &normals[size_t(topology.vertex_normal[v]) * 3];
      const Float3 t = Linear(normal_matrix, n);
      const float length = Length(t);
      normal_scale[v] = length > 0 ? 1.0f / length : 1.0f;
      const Float3 u = NormalizeOrKeep(t);
      prim.normals[v * 3] = u.x, prim.normals[v * 3 + 1] = u.y, prim.normals[v * 3 + 2] = u.z;
    }
  }
  prim.indices = std::move(topology.indices);
  prim.mode = topology.mode;

  Skin skin;
  if (skinned) {
    const Value* indices = nullptr;
    const Value* weights = nullptr;
    SINEW_TRY(ReadInfluences(p, binding, point_count, &indices, &weights));
    const std::string where = p.path + ".primvars:skel:jointIndices";
    const size_t e = size_t(binding.influences_per_point);
    SINEW_TRY(MakeSkin(c, p, binding, *skeleton, &skin));
    const size_t joint_count = skin.joints.size();
    // Dense influences, K = e rounded up to a multiple of 4; a constant run is every point's.
    const size_t k = (e + 3) / 4 * 4;
    prim.influences.influences_per_vertex = uint32_t(k);
    prim.influences.joints.assign(vertex_count * k, 0);
    prim.influences.weights.assign(vertex_count * k, 0.0f);
    size_t weightless = 0;
    for (size_t v = 0; v < vertex_count; ++v) {
      const size_t run = binding.rigid ? 0 : vertex_point[v];
      float sum = 0;
      for (size_t i = 0; i < e; ++i) {
        const int32_t joint = indices->ints()[run * e + i];
        if (joint < 0 || size_t(joint) >= joint_count) {
          return {Error::kJointIndexOutOfRange,
                  "joint index " + std::to_string(joint) + " (point " +
                      std::to_string(vertex_point[v]) + ") past the " +
                      std::to_string(joint_count) + " joints",
                  where};
        }
        prim.influences.joints[v * k + i] = uint16_t(joint);
        prim.influences.weights[v * k + i] = weights->floats()[run * e + i];
        sum += weights->floats()[run * e + i];
      }
      weightless += sum == 0;
    }
    if (weightless > 0) {
      c.Warn(p.path + ".primvars:skel:jointWeights",
             std::to_string(weightless) +
                 " vertices have no weight: sinew keeps them at their bind position, where "
                 "UsdSkel moves them to the skeleton's origin");
    }
    prim.skinning = MethodOf(binding);
    // UsdSkel skins a normal by each joint's inverse-transpose, summed by weight.
    prim.normal_blend = NormalBlend::kPerJoint;
  }

  Mesh mesh;
  mesh.name = p.path;
  if (binding.blend_shapes && binding.blend_shapes->default_value &&
      binding.blend_shapes->default_value->size() > 0) {
    SINEW_TRY_ASSIGN(usd::BlendShapeSet shapes,
                     usd::ReadBlendShapes(layer, p, binding, point_count));
    for (const Warning& w : shapes.skipped) c.Warn(w.where, w.message);
    const bool normal_offsets = std::ranges::any_of(
        shapes.targets, [](const MorphTarget& t) { return !t.normals.empty(); });
    if (split && normal_offsets) {
      c.Warn(p.path, "normal offsets are not applied to " + topology.normal_interpolation +
                         " normals (as UsdSkel bakes them)");
    }
    if (Projective(geom_bind) && !shapes.targets.empty()) {
      c.Warn(binding.geom_bind_transform_at,
             "a projective geomBindTransform: blend-shape offsets are taken to bind space by its "
             "3x3 part, where UsdSkel adds them to the points before the projection");
    }
    for (const MorphTarget& t : shapes.targets) {
      MorphTarget out;
      out.positions.resize(vertex_count * 3);
      if (!t.normals.empty() && !prim.normals.empty() && !split) {
        out.normals.resize(vertex_count * 3);
      }
      for (size_t v = 0; v < vertex_count; ++v) {
        const size_t q = vertex_point[v];
        const Float3 d = Linear(geom_bind, &t.positions[q * 3]);
        out.positions[v * 3] = d.x, out.positions[v * 3 + 1] = d.y, out.positions[v * 3 + 2] = d.z;
        if (out.normals.empty()) continue;
        const Float3 n = Linear(normal_matrix, &t.normals[q * 3]);
        out.normals[v * 3] = n.x * normal_scale[v], out.normals[v * 3 + 1] = n.y * normal_scale[v],
                        out.normals[v * 3 + 2] = n.z * normal_scale[v];
      }
      prim.targets.push_back(std::move(out));
    }
    mesh.inbetween_shapes = std::move(shapes.inbetweens);
    mesh.target_names = std::move(shapes.target_names);
    if (skeleton && !prim.targets.empty()) {
      c.shaped.push_back({node, skeleton->prim, shapes.names, prim.targets.size()});
    }
  }
  if (Status s = prim.Validate(skin.joints.size()); !s) {
    ErrorInfo e = s.error();
    e.where = p.path + (e.where.empty() ? "" : " (" + e.where + ")");
    return e;
  }
  mesh.primitives.push_back(std::move(prim));
  Node& n = c.asset->nodes[node];
  n.mesh = int32_t(c.asset->meshes.size());
  c.asset->meshes.push_back(std::move(mesh));
  if (skinned) {
    n.skin = int32_t(c.asset->skins.size());
    c.asset->skins.push_back(std::move(skin));
  }
  return {};
}

// One of a SkelAnimation's arrays as the clip reads it: its samples whose time in seconds is
// finite and after the previous one's, each with its value when that is one value per element,
// or none where it is not (blocked with None, or of another size). UsdSkel has no animation from
// such a sample's time to the next sample's: the skeleton is at rest there, and no blend shape
// applies.
struct Samples {
  std::vector<double> codes;         // time codes
  std::vector<float> times;          // seconds
  std::vector<const Value*> values;  // null: no value
  bool missing = false;              // some sample has no value
  bool any_value = false;            // some sample has one
};
Samples SamplesOf(LoadState& c, const Prim& animation, const char* name, size_t count,
                  size_t components) {
  Samples out;
  const Attribute* a = animation.FindAttribute(name);
  if (!a) return out;
  size_t skipped = 0, without = 0;
  const auto take = [&](double time, const Value& v) {
    const float seconds = float(time / c.time_codes_per_second);
    if (!std::isfinite(seconds)) {
      ++skipped;
      return;
    }
    const bool has = !v.blocked && v.floats().size() == count * components;
    if (!out.times.empty() && seconds <= out.times.back()) {
      // Onto the previous sample's time in float seconds (the time codes are sorted): the later
      // sample takes its place, as it holds from there on.
      ++skipped;
      if (!out.values.back()) --without;
      out.codes.pop_back();
      out.times.pop_back();
      out.values.pop_back();
    }
    out.codes.push_back(time);
    out.times.push_back(seconds);
    out.values.push_back(has ? &v : nullptr);
    if (!has) ++without;
  };
  if (!a->time_samples.empty()) {
    for (const usd::TimeSample& s : a->time_samples) take(s.time, s.value);
  } else if (a->default_value) {
    take(0, *a->default_value);
  }
  out.missing = without > 0;
  out.any_value = without < out.values.size();
  if (skipped > 0) {
    c.Warn(animation.path + "." + name,
           std::to_string(skipped) +
               " samples skipped: past a float's range in seconds, or at a time that rounds onto "
               "the next one's (which takes its place)");
  }
  if (without > 0 && out.any_value) {
    const bool weights = std::string_view(name) == "blendShapeWeights";
    c.Warn(animation.path + "." + name,
           std::to_string(without) + (without == 1 ? " sample is" : " samples are") +
               " blocked with None or not one value per element (" + std::to_string(count) +
               "): from each to the next sample there is no value, and there, as in UsdSkel, " +
               (weights ? "no blend shape applies" : "the skeleton is at its rest pose"));
  }
  if (without > 0 && !out.any_value) {
    c.Warn(animation.path + "." + name, "no sample has one value per element (" +
                                            std::to_string(count) +
                                            "), or each is blocked with None: not animated");
  }
  if (!out.any_value) out = {};
  return out;
}

// `s`'s value at time code `code`, as UsdSkel reads it (usd::ValueAt on these samples), or from
// the left (the limit as the time rises to `code`); null where it has none.
std::optional<Value> SampleValue(const Samples& s, double code, bool from_left) {
  // The last sample at (from the left: before) `code`; the first when there is none.
  const auto after = from_left ? std::lower_bound(s.codes.begin(), s.codes.end(), code)
                               : std::upper_bound(s.codes.begin(), s.codes.end(), code);
  const size_t i = after == s.codes.begin() ? 0 : size_t(after - s.codes.begin()) - 1;
  if (!s.values[i]) return std::nullopt;
  if (i + 1 == s.codes.size() || code <= s.codes[i] || !s.values[i + 1]) return *s.values[i];
  if (code >= s.codes[i + 1]) return *s.values[i + 1];  // from the left, at the next sample
  const double u = (code - s.codes[i]) / (s.codes[i + 1] - s.codes[i]);
  if (!(u > 0 && u < 1)) return *s.values[i];  // codes so far apart that their difference is inf
  if (std::optional<Value> v = usd::Interpolate(*s.values[i], *s.values[i + 1], u)) return v;
  return *s.values[i];
}

// The keys of a clip that holds arrays some of whose samples have no value: every sample time of
// `tracks`, and a float's step before each one where an array jumps there (its value from the left
// is another, or it has a value on one side only), a key holding the values from the left.
// Between two keys each array then interpolates as it did between its own samples, and where a
// sample starts or ends a span without a value the clip jumps there, as UsdSkel does.
struct MergedKeys {
  std::vector<float> times;  // seconds
  std::vector<double> codes;
  std::vector<bool> from_left;
};
MergedKeys MergeKeys(std::span<const Samples* const> tracks) {
  std::vector<std::pair<double, float>> all;  // (time code, seconds)
  for (const Samples* t : tracks) {
    for (size_t i = 0; i < t->codes.size(); ++i) all.emplace_back(t->codes[i], t->times[i]);
  }
  std::sort(all.begin(), all.end());
  const auto jumps = [&](double code) {
    for (const Samples* t : tracks) {
      const std::optional<Value> left = SampleValue(*t, code, true);
      const std::optional<Value> right = SampleValue(*t, code, false);
      if (left.has_value() != right.has_value()) return true;
      if (left && !std::ranges::equal(left->floats(), right->floats())) return true;
    }
    return false;
  };
  MergedKeys out;
  for (const auto& [code, seconds] : all) {
    if (!out.times.empty() && seconds <= out.times.back()) continue;  // the same key, or on it
    const float before = std::nextafter(seconds, -std::numeric_limits<float>::infinity());
    if (!out.times.empty() && before > out.times.back() && jumps(code)) {
      out.times.push_back(before);
      out.codes.push_back(code);
      out.from_left.push_back(true);
    }
    out.times.push_back(seconds);
    out.codes.push_back(code);
    out.from_left.push_back(false);
  }
  return out;
}

// Appends key times to the animation; their range.
KeyRange AddKeys(Animation& animation, std::span<const float> values) {
  const KeyRange range{animation.keys.size(), values.size()};
  animation.keys.insert(animation.keys.end(), values.begin(), values.end());
  return range;
}

// `skeleton`'s joint channels, from its animation, into `out`.
void AddJointChannels(LoadState& c, const SkeletonInfo& skeleton, Animation& out) {
  const Prim& animation = *skeleton.animation;
  const std::vector<std::string> joints = TokensOf(animation, "joints");
  const std::vector<int32_t> animated = SourceOfEachTarget(joints, skeleton.joints);
  struct Track {
    const char* name;
    size_t components;
    AnimationPath path;
  };
  constexpr Track kTracks[] = {{"translations", 3, AnimationPath::kTranslation},
                               {"rotations", 4, AnimationPath::kRotation},
                               {"scales", 3, AnimationPath::kScale}};
  Samples samples[3];
  bool valid = !joints.empty();
  for (size_t t = 0; t < 3; ++t) {
    samples[t] = SamplesOf(c, animation, kTracks[t].name, joints.size(), kTracks[t].components);
    valid &= samples[t].any_value;
  }
  if (!valid && !joints.empty()) {
    c.Warn(animation.path, "translations, rotations and scales do not all have values for its " +
                               std::to_string(joints.size()) +
                               " joints: the joints keep their rest transforms (UsdSkel ignores "
                               "such an animation)");
  }
  const bool missing = samples[0].missing || samples[1].missing || samples[2].missing;
  // Where some sample has no value, the three arrays share keys (MergeKeys), and at a key where
  // any of them has none every animated joint takes its rest transform.
  const Samples* tracks[] = {&samples[0], &samples[1], &samples[2]};
  const MergedKeys merged = valid && missing ? MergeKeys(tracks) : MergedKeys{};
  std::vector<std::array<std::optional<Value>, 3>> at(merged.times.size());
  std::vector<bool> at_rest(merged.times.size(), false);
  for (size_t k = 0; k < merged.times.size(); ++k) {
    for (size_t t = 0; t < 3; ++t) {
      at[k][t] = SampleValue(samples[t], merged.codes[k], merged.from_left[k]);
      at_rest[k] = at_rest[k] || !at[k][t];
    }
  }
  const KeyRange merged_input = AddKeys(out, merged.times);
  for (size_t t = 0; t < 3 && valid; ++t) {
    const Track& track = kTracks[t];
    const KeyRange input = missing ? merged_input : AddKeys(out, samples[t].times);
    for (size_t j = 0; j < skeleton.joints.size(); ++j) {
      const int32_t a = animated[j];
      if (a < 0) continue;  // keeps its rest transform
      AnimationSampler sampler;
      sampler.input = input;
      sampler.output = {out.keys.size(), input.count * track.components};
      const auto add = [&](std::span<const float> value) {
        const float* v = &value[size_t(a) * track.components];
        if (track.path == AnimationPath::kRotation) {
          out.keys.insert(out.keys.end(), {v[1], v[2], v[3], v[0]});  // (w, x, y, z) as written
        } else {
          out.keys.insert(out.keys.end(), v, v + track.components);
        }
      };
      const Node& rest = c.asset->nodes[skeleton.nodes[j]];
      for (size_t k = 0; k < merged.times.size(); ++k) {
        if (!at_rest[k]) {
          add(at[k][t]->floats());
        } else if (track.path == AnimationPath::kTranslation) {
          out.keys.insert(out.keys.end(),
                          {rest.translation.x, rest.translation.y, rest.translation.z});
        } else if (track.path == AnimationPath::kRotation) {
          out.keys.insert(out.keys.end(),
                          {rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w});
        } else {
          out.keys.insert(out.keys.end(), {rest.scale.x, rest.scale.y, rest.scale.z});
        }
      }
      if (!missing) {
        for (const Value* value : samples[t].values) add(value->floats());
      }
      sampler.components = uint32_t(track.components);
      out.channels.push_back(
          {uint32_t(out.samplers.size()), int32_t(skeleton.nodes[j]), track.path});
      out.samplers.push_back(sampler);
    }
  }
}

// The weight channels of the meshes with blend shapes bound to `skeleton`, from its animation's
// blend-shape weights, mapped by name onto each mesh's shapes (0 for a shape the animation does
// not name, and for the in-betweens, which their primary drives), into `out`.
void AddWeightChannels(LoadState& c, const SkeletonInfo& skeleton, Animation& out) {
  const Prim& animation = *skeleton.animation;
  const std::vector<std::string> shapes = TokensOf(animation, "blendShapes");
  if (shapes.empty()) return;
  const Samples weights = SamplesOf(c, animation, "blendShapeWeights", shapes.size(), 1);
  if (weights.times.empty()) return;
  // One array on its own: MergeKeys gives its sample times, and keys from the left only where
  // its weights jump (at a sample without a value, or the one after it), where no blend shape
  // applies (every weight 0).
  const Samples* track[] = {&weights};
  const MergedKeys merged = MergeKeys(track);
  std::vector<std::optional<Value>> at(merged.times.size());
  for (size_t k = 0; k < merged.times.size(); ++k) {
    at[k] = SampleValue(weights, merged.codes[k], merged.from_left[k]);
  }
  for (const ShapedMesh& mesh : c.shaped) {
    if (mesh.skeleton != skeleton.prim) continue;
    const usd::AnimMapper map(shapes, mesh.shapes);
    AnimationSampler sampler;
    sampler.input = AddKeys(out, merged.times);
    sampler.output = {out.keys.size(), sampler.input.count * mesh.targets};
    std::vector<float> row;
    const auto add = [&](std::span<const float> value) {
      row.clear();
      if (!value.empty()) map.Remap<float>(value, 1, 0.0f, &row);
      row.resize(mesh.targets, 0.0f);
      out.keys.insert(out.keys.end(), row.begin(), row.end());
    };
    for (const std::optional<Value>& value : at) {
      add(value ? value->floats() : std::span<const float>());
    }
    sampler.components = uint32_t(mesh.targets);
    out.channels.push_back(
        {uint32_t(out.samplers.size()), int32_t(mesh.node), AnimationPath::kWeights});
    out.samplers.push_back(sampler);
  }
}

// An Animation for each SkelAnimation a loaded skeleton names, named by its path.
void AddAnimations(LoadState& c) {
  std::unordered_map<const Prim*, size_t> index;
  for (const SkeletonInfo& k : c.skeletons) {
    if (!k.animation) continue;
    auto [it, added] = index.emplace(k.animation, c.asset->animations.size());
    if (added) {
      c.asset->animations.emplace_back();
      c.asset->animations.back().name = k.animation->path;
    }
    AddJointChannels(c, k, c.asset->animations[it->second]);
    AddWeightChannels(c, k, c.asset->animations[it->second]);
  }
}

}  // namespace

namespace {

// upAxis and metersPerUnit into *out (LoadedAsset::up_axis, meters_per_unit): nothing the loader
// computes reads them (its coordinates are the stage's as written), but engines, bake and render
// do, and UsdGeom reads a value it does not take (an axis other than Y or Z, a metersPerUnit that
// is not a positive finite number) as its fallback, with a warning here.
void ReadStageOrientation(LoadState& c, LoadedAsset* out) {
  const Layer& layer = *c.layer;
  const std::string_view axis = usd::UpAxisOrFallback(layer.up_axis);
  if (!layer.up_axis.empty() && axis != layer.up_axis) {
    c.Warn("upAxis", "\"" + layer.up_axis + "\" is neither \"Y\" nor \"Z\": read as \"" +
                         std::string(axis) + "\", UsdGeom's fallback");
  }
  const double meters = usd::MetersPerUnitOrFallback(layer.meters_per_unit);
  if (layer.meters_per_unit && !(meters == *layer.meters_per_unit)) {
    char text[80];
    std::snprintf(text, sizeof text, "%g is not a positive finite number: read as %g",
                  *layer.meters_per_unit, meters);
    c.Warn("metersPerUnit", std::string(text) + ", UsdGeom's fallback");
  }
  out->up_axis = axis == "Z" ? UpAxis::kZ : UpAxis::kY;
  out->meters_per_unit = meters;
}

// Warns of each of UsdOptions::variant_selections that no variant set of the composed stage
// took: one for a prim or a set the stage lacks, or for a variant the set does not hold (the set
// then holds nothing, as in USD), and one a later selection for the same set overrides.
void WarnOfSelectionsNotTaken(LoadState& c, const Layer& layer, const UsdOptions& options) {
  const auto& given = options.variant_selections;
  for (auto s = given.begin(); s != given.end(); ++s) {
    const auto same = [&](const auto& v) { return v.prim == s->prim && v.set == s->set; };
    const auto set = std::find_if(layer.variant_sets.begin(), layer.variant_sets.end(), same);
    const std::string what =
        "the variant selection given to the loader, {" + s->set + "=" + s->variant + "}";
    if (std::any_of(s + 1, given.end(), same)) {
      c.Warn(s->prim, what + ": a later selection for the same set overrides it");
    } else if (set == layer.variant_sets.end()) {
      c.Warn(s->prim, what + (layer.FindPrim(s->prim) != nullptr
                                  ? ": the prim has no variant set of that name"
                                  : ": the stage has no prim at that path"));
    } else if (!s->variant.empty() &&
               !std::binary_search(set->variants.begin(), set->variants.end(), s->variant)) {
      std::string held;
      for (const std::string& v : set->variants) held += (held.empty() ? "" : ", ") + v;
      c.Warn(s->prim, what + ": the set holds no such variant (it holds " +
                          (held.empty() ? "none" : held) + "): the set brings nothing");
    }
  }
}

// The UsdSkel loader proper, on a layer of any of the three formats, composed from `layer` and
// `files_read` (LoadedAsset::external_files).
Result<LoadedAsset> LoadLayer(const Layer& layer, const UsdOptions& options,
                              std::vector<std::filesystem::path> files_read) {
  LoadedAsset out;
  out.external_files = std::move(files_read);
  LoadState c(layer);
  c.asset = &out.asset;
  c.warnings = &out.warnings;
  c.time_codes_per_second = layer.TimeCodesPerSecondOrFallback();
  if (!(c.time_codes_per_second > 0) || !std::isfinite(c.time_codes_per_second)) {
    return Status(Error::kInvalidValue,
                  std::string(layer.time_codes_per_second ? "timeCodesPerSecond"
                                                          : "framesPerSecond (read for "
                                                            "timeCodesPerSecond)") +
                      " must be positive",
                  layer.time_codes_per_second ? "timeCodesPerSecond" : "framesPerSecond");
  }
  ReadStageOrientation(c, &out);
  out.time_codes_per_second = c.time_codes_per_second;
  out.variant_sets = layer.variant_sets;
  WarnOfSelectionsNotTaken(c, layer, options);
  SINEW_TRY(AddNodes(c));
  SINEW_TRY(AddSkeletons(c));
  for (size_t i = 0; i < layer.prims.size(); ++i) {
    const std::string& type = layer.prims[i].type_name;
    if (c.prim_node[i] < 0) continue;
    if (PointBased(type)) SINEW_TRY(AddDeformable(c, layer.prims[i], uint32_t(c.prim_node[i])));
    if (Implicit(type)) SINEW_TRY(AddImplicit(c, layer.prims[i], uint32_t(c.prim_node[i])));
  }
  AddAnimations(c);
  SINEW_TRY(UseLayout(out.asset, options.influences, options.dense_k, "primitives"));
  return out;
}

}  // namespace

Result<LoadedAsset> LoadUsdaFromMemory(std::span<const uint8_t> bytes, const UsdOptions& options) {
  return LoadUsdaFromMemory(bytes, {}, options);
}

Result<LoadedAsset> LoadUsdaFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& path,
                                       const UsdOptions& options) {
  return usd::LoadUsdaStage(bytes, path, options, nullptr);
}

Result<LoadedAsset> LoadUsda(const std::filesystem::path& path, const UsdOptions& options) {
  SINEW_TRY_ASSIGN(const FileBytes file, ReadFileWith(options.read_file, path));
  return LoadUsdaFromMemory(std::span(file.data(), file.size), path, options);
}

Result<LoadedAsset> LoadUsdFromMemory(std::span<const uint8_t> bytes, const UsdOptions& options) {
  return LoadUsdFromMemory(bytes, {}, options);
}

Result<LoadedAsset> LoadUsdFromMemory(std::span<const uint8_t> bytes,
                                      const std::filesystem::path& path,
                                      const UsdOptions& options) {
  return usd::LoadUsdStage(bytes, path, options, nullptr);
}

Result<LoadedAsset> LoadUsd(const std::filesystem::path& path, const UsdOptions& options) {
  SINEW_TRY_ASSIGN(const FileBytes file, ReadFileWith(options.read_file, path));
  return LoadUsdFromMemory(std::span(file.data(), file.size), path, options);
}

namespace usd {
namespace {

// The asset loaded from `composed`, which goes to *stage where given.
Result<LoadedAsset> LoadComposed(Layer composed, const UsdOptions& options,
                                 std::vector<std::filesystem::path> files_read, Layer* stage) {
  SINEW_TRY_ASSIGN(LoadedAsset loaded, LoadLayer(composed, options, std::move(files_read)));
  if (stage != nullptr) *stage = std::move(composed);
  return loaded;
}

}  // namespace

Result<LoadedAsset> LoadUsdaStage(std::span<const uint8_t> bytes, const std::filesystem::path& path,
                                  const UsdOptions& options, Layer* stage) {
  SINEW_TRY_ASSIGN(Layer layer, ReadUsda(std::string_view(
                                    reinterpret_cast<const char*>(bytes.data()), bytes.size())));
  std::vector<std::filesystem::path> files_read;
  SINEW_TRY_ASSIGN(Layer composed, ComposeLayer({std::move(layer), path.string()}, bytes,
                                                !path.empty(), options, {}, &files_read));
  return LoadComposed(std::move(composed), options, std::move(files_read), stage);
}

Result<LoadedAsset> LoadUsdStage(std::span<const uint8_t> bytes, const std::filesystem::path& path,
                                 const UsdOptions& options, Layer* stage) {
  std::vector<std::filesystem::path> files_read;
  SINEW_TRY_ASSIGN(Layer composed,
                   ReadComposedLayer(bytes, path.string(), options, {}, &files_read));
  return LoadComposed(std::move(composed), options, std::move(files_read), stage);
}

}  // namespace usd

}  // namespace sinew::loader
