#include "sinew/loader/usda_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <span>
#include <string_view>

#include "common/load_status.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/evaluate_scene.h"
#include "usd/crate_writer.h"
#include "usd/usda_parser.h"
#include "usd/usdz_package.h"

namespace sinew::loader {
namespace {

// Shortest text that reads back as the same float (or double, for time codes).
std::string Number(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

// Names made unique within one scope by a numbered suffix.
class UniqueNames {
 public:
  std::string Take(const std::string& base) {
    std::string name = base;
    for (int n = 2; used_.count(name); ++n) name = base + "_" + std::to_string(n);
    used_.insert(name);
    return name;
  }

 private:
  std::set<std::string> used_;
};

// USD writes a matrix as its rows, which are sinew's columns (row vectors there, column vectors
// here): the translation is the last of the four.
void AppendMatrix(std::string* out, const Float4x4& m) {
  *out += "( ";
  for (int c = 0; c < 4; ++c) {
    *out += c ? ", (" : "(";
    for (int r = 0; r < 4; ++r) *out += (r ? ", " : "") + Number(m.m[c][r]);
    *out += ")";
  }
  *out += " )";
}

template <typename Item>
void AppendList(std::string* out, size_t count, const Item& item) {
  *out += "[";
  for (size_t i = 0; i < count; ++i) {
    if (i) *out += ", ";
    item(i);
  }
  *out += "]";
}

void AppendVec3s(std::string* out, std::span<const float> xyz) {
  AppendList(out, xyz.size() / 3, [&](size_t i) {
    *out += "(" + Number(xyz[i * 3]) + ", " + Number(xyz[i * 3 + 1]) + ", " +
            Number(xyz[i * 3 + 2]) + ")";
  });
}

// One skin written as a Skeleton: its joints parents first.
struct SkeletonPlan {
  uint32_t skin = 0;
  std::string name;                // prim name under /Root
  std::vector<uint32_t> order;     // skeleton joint -> index into the skin's joints
  std::vector<uint32_t> position;  // skin joint -> skeleton joint
  // Per skin written through this skeleton (the first, and skins of the same joints with the same
  // inverse binds): its joint -> skeleton joint.
  std::map<uint32_t, std::vector<uint32_t>> skin_positions;
  std::vector<int32_t> parent;      // skeleton joint -> its parent skeleton joint, or -1
  std::vector<std::string> paths;   // skeleton joint -> joint path ("hips/spine")
  std::vector<uint32_t> drawn;      // the drawn meshes (indices into DrawnMeshes) with this skin
  std::vector<std::string> shapes;  // the SkelAnimation's blend shape tokens, in mesh order
  // Per token of `shapes`: the node whose weights drive it, and its morph target there.
  struct ShapeWeight {
    uint32_t node = 0, target = 0;
  };
  std::vector<ShapeWeight> shape_weights;
};

// A primitive's influences as a Mesh's primvars:skel:jointIndices and jointWeights: k slots a
// vertex, each slot's Skeleton joint and weight. Sparse influences are written dense at the k that
// drops nothing; a G4MF skin's influences name groups, each written as its joint. `left_out` says
// why the primitive cannot be written: a weight on a group without a joint (G4MF's untransformed
// vertices, which stay in their mesh's space, have no UsdSkel form).
struct SkelInfluences {
  size_t k = 0;
  std::vector<uint32_t> joints;
  std::vector<float> weights;
  std::string left_out;
};
SkelInfluences InfluencesToWrite(const Primitive& prim, const Skin& skin,
                                 std::span<const uint32_t> skeleton_joint) {
  SkelInfluences out;
  DenseInfluences converted;
  const DenseInfluences* dense = &prim.influences;
  if (prim.sparse()) {
    auto d = SparseToDense(prim.vertex_count(), prim.sparse_influences,
                           LosslessDenseK(prim.sparse_influences));
    if (!d) {
      out.left_out = "sparse influences: " + d.error().message;
      return out;
    }
    converted = std::move(*d);
    dense = &converted;
  }
  out.k = dense->influences_per_vertex;
  out.weights = dense->weights;
  out.joints.resize(dense->joints.size());
  for (size_t i = 0; i < dense->joints.size(); ++i) {
    const int32_t joint = skin.JointOfInfluence(dense->joints[i]);
    if (joint < 0 && dense->weights[i] != 0) {
      out.left_out = "G4MF group " + std::to_string(dense->joints[i]) +
                     " has no joint (its vertices stay in their mesh's space, which UsdSkel "
                     "influences cannot say)";
      return out;
    }
    if (joint >= 0) out.joints[i] = skeleton_joint[size_t(joint)];  // weight 0: joint 0
  }
  return out;
}

Result<SkeletonPlan> PlanSkeleton(const Asset& asset, uint32_t skin_index) {
  const Skin& skin = asset.skins[skin_index];
  SkeletonPlan plan;
  plan.skin = skin_index;
  const size_t n = skin.joints.size();
  std::map<uint32_t, uint32_t> joint_of_node;
  for (uint32_t i = 0; i < n; ++i) {
    if (!joint_of_node.emplace(skin.joints[i], i).second) {
      return Status(Error::kUnsupportedFeature, "a skin lists a node twice among its joints",
                    "skins/" + std::to_string(skin_index) + "/joints/" + std::to_string(i));
    }
  }
  // Each joint's parent joint: its nearest ancestor among the skin's joints.
  std::vector<int32_t> skin_parent(n, -1);
  std::vector<std::vector<uint32_t>> children(n);
  std::vector<uint32_t> roots;
  for (uint32_t i = 0; i < n; ++i) {
    for (int32_t a = asset.nodes[skin.joints[i]].parent; a >= 0;
         a = asset.nodes[size_t(a)].parent) {
      const auto found = joint_of_node.find(uint32_t(a));
      if (found != joint_of_node.end()) {
        skin_parent[i] = int32_t(found->second);
        break;
      }
    }
    (skin_parent[i] < 0 ? roots : children[size_t(skin_parent[i])]).push_back(i);
  }
  // Parents first (depth first, in skin order), names unique among siblings.
  plan.position.assign(n, 0);
  std::vector<UniqueNames> names(n + 1);  // [n]: the roots' scope
  std::vector<uint32_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    const uint32_t i = stack.back();
    stack.pop_back();
    const int32_t p = skin_parent[i];
    // A joint named by its path under its parent joint's name (the UsdSkel loader names joint
    // nodes by their whole joint token, "hip/knee") is written by the last element, so that the
    // tokens come back as they were ("hip/knee", not "hip/hip_knee").
    std::string_view own = asset.nodes[skin.joints[i]].name;
    if (p >= 0) {
      const std::string& parent = asset.nodes[skin.joints[size_t(p)]].name;
      if (own.size() > parent.size() + 1 && own.starts_with(parent) && own[parent.size()] == '/') {
        own.remove_prefix(parent.size() + 1);
      }
    }
    const std::string name =
        names[p < 0 ? n : size_t(p)].Take(UsdPrimName(own, "joint" + std::to_string(i)));
    plan.position[i] = uint32_t(plan.order.size());
    plan.order.push_back(i);
    plan.parent.push_back(p < 0 ? -1 : int32_t(plan.position[size_t(p)]));
    plan.paths.push_back(p < 0 ? name : plan.paths[plan.position[size_t(p)]] + "/" + name);
    for (auto c = children[i].rbegin(); c != children[i].rend(); ++c) stack.push_back(*c);
  }
  return plan;
}

// The skeleton joint of each of skin `other`'s joints, when `other` has exactly the plan's joints
// (in any order) with the same inverse binds (within 1e-6 of each entry's size); else empty.
std::vector<uint32_t> SameJoints(const Asset& asset, const SkeletonPlan& plan, uint32_t other) {
  const Skin& a = asset.skins[plan.skin];
  const Skin& b = asset.skins[other];
  if (a.joints.size() != b.joints.size()) return {};
  std::map<uint32_t, uint32_t> joint_of_node;
  for (uint32_t i = 0; i < a.joints.size(); ++i) joint_of_node[a.joints[i]] = i;
  std::vector<uint32_t> positions;
  for (uint32_t i = 0; i < b.joints.size(); ++i) {
    const auto found = joint_of_node.find(b.joints[i]);
    if (found == joint_of_node.end()) return {};
    const Float4x4& ma = a.inverse_binds[found->second];
    const Float4x4& mb = b.inverse_binds[i];
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) {
        const float scale = std::max({1.0f, std::fabs(ma.m[c][r]), std::fabs(mb.m[c][r])});
        if (std::fabs(ma.m[c][r] - mb.m[c][r]) > 1e-6f * scale) return {};
      }
    }
    positions.push_back(plan.position[found->second]);
  }
  return positions;
}

// Each skeleton joint's transform relative to its parent joint (a root's: its scene-space one).
std::vector<Float4x4> JointLocals(const Asset& asset, const SkeletonPlan& plan,
                                  const std::vector<Float4x4>& world) {
  const Skin& skin = asset.skins[plan.skin];
  std::vector<Float4x4> locals(plan.order.size());
  for (size_t j = 0; j < plan.order.size(); ++j) {
    const Float4x4& w = world[skin.joints[plan.order[j]]];
    if (plan.parent[j] < 0) {
      locals[j] = w;
      continue;
    }
    Float4x4 parent_inverse;
    const uint32_t parent_node = skin.joints[plan.order[size_t(plan.parent[j])]];
    locals[j] = Invert(world[parent_node], &parent_inverse) ? Multiply(parent_inverse, w) : w;
  }
  return locals;
}

// The clip's key times: every sampler's, sorted, each once.
std::vector<float> KeyTimes(const Animation& animation) {
  std::vector<float> times;
  for (const AnimationSampler& s : animation.samplers) {
    const auto input = animation.Input(s);
    times.insert(times.end(), input.begin(), input.end());
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// One pose of the clip: the scene at a key time.
struct Sample {
  double time_code = 0;
  cpu::EvaluatedScene scene;
};

// The BlendShape prims of one primitive and the tokens that name them.
struct ShapeNames {
  std::vector<std::string> prims;   // per morph target: its BlendShape's name, "" for in-betweens
  std::vector<std::string> tokens;  // per morph target: skel:blendShapes token, "" for in-betweens
};

ShapeNames NameShapes(const Mesh& mesh, size_t targets, const std::string& mesh_prim) {
  ShapeNames out;
  std::vector<bool> inbetween(targets, false);
  for (const InbetweenShape& shape : mesh.inbetween_shapes) {
    for (const InbetweenShape::Inbetween& ib : shape.inbetweens) {
      if (ib.target < targets) inbetween[ib.target] = true;
    }
  }
  UniqueNames names;
  for (size_t t = 0; t < targets; ++t) {
    const std::string given = t < mesh.target_names.size() ? mesh.target_names[t] : "";
    const std::string name =
        inbetween[t] ? "" : names.Take(UsdPrimName(given, "Shape" + std::to_string(t)));
    out.prims.push_back(name);
    out.tokens.push_back(name.empty() ? "" : mesh_prim + "_" + name);
  }
  return out;
}

// The points that any of `targets` moves (position or normal offset not zero), ascending: a
// BlendShape's pointIndices, which its in-betweens share.
std::vector<int32_t> MovedPoints(const Primitive& prim, std::span<const uint32_t> targets) {
  std::vector<int32_t> points;
  const bool normals = !prim.normals.empty();
  for (size_t v = 0; v < prim.vertex_count(); ++v) {
    bool moves = false;
    for (uint32_t t : targets) {
      const MorphTarget& target = prim.targets[t];
      for (int c = 0; c < 3; ++c) {
        moves |= !target.positions.empty() && target.positions[v * 3 + c] != 0.0f;
        moves |= normals && !target.normals.empty() && target.normals[v * 3 + c] != 0.0f;
      }
    }
    if (moves) points.push_back(int32_t(v));
  }
  return points;
}

// A stream's offsets at `points` (zeros for an empty stream).
std::vector<float> At(const std::vector<float>& stream, const std::vector<int32_t>& points) {
  std::vector<float> out;
  for (int32_t p : points) {
    for (int c = 0; c < 3; ++c) out.push_back(stream.empty() ? 0.0f : stream[size_t(p) * 3 + c]);
  }
  return out;
}

void AppendBlendShape(std::string* out, const Primitive& prim, const Mesh& mesh, uint32_t target,
                      const ShapeNames& names) {
  const bool normals = !prim.normals.empty();
  const InbetweenShape* inbetweens = nullptr;
  std::vector<uint32_t> targets = {target};
  for (const InbetweenShape& shape : mesh.inbetween_shapes) {
    if (shape.primary != target) continue;
    inbetweens = &shape;
    for (const InbetweenShape::Inbetween& ib : shape.inbetweens) targets.push_back(ib.target);
  }
  const std::vector<int32_t> points = MovedPoints(prim, targets);
  const auto append_offsets = [&](const std::string& name, const MorphTarget& t) {
    *out += "            uniform vector3f[] " + name + " = ";
    AppendVec3s(out, At(t.positions, points));
    *out += "\n";
    if (normals) {
      *out += "            uniform vector3f[] " +
              (name == "offsets" ? "normalOffsets" : name + ":normalOffsets") + " = ";
      AppendVec3s(out, At(t.normals, points));
      *out += "\n";
    }
  };
  *out += "        def BlendShape \"" + names.prims[target] + "\"\n        {\n";
  append_offsets("offsets", prim.targets[target]);
  *out += "            uniform int[] pointIndices = ";
  AppendList(out, points.size(), [&](size_t i) { *out += std::to_string(points[i]); });
  *out += "\n";
  for (size_t k = 0; inbetweens && k < inbetweens->inbetweens.size(); ++k) {
    const std::string name = "inbetweens:Inbetween" + std::to_string(k);
    // The weight as metadata of the in-between's offsets attribute.
    const size_t before = out->size();
    append_offsets(name, prim.targets[inbetweens->inbetweens[k].target]);
    const size_t line_end = out->find('\n', before);
    out->insert(line_end, " (\n                weight = " +
                              Number(inbetweens->inbetweens[k].weight) + "\n            )");
  }
  *out += "        }\n";
}

}  // namespace

std::string UsdPrimName(std::string_view name, std::string_view fallback) {
  if (name.empty()) name = fallback;
  const bool digit_first = !name.empty() && name[0] >= '0' && name[0] <= '9';
  std::string out(digit_first ? "_" : "");
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

Result<std::string> WriteUsda(const Asset& asset, const UsdaWriteOptions& options,
                              UsdaWriteReport* report) {
  UsdaWriteReport unused;
  UsdaWriteReport& r = report ? *report : unused;
  if (!(options.time_codes_per_second > 0) || !std::isfinite(options.time_codes_per_second)) {
    return Status(Error::kInvalidArgument, "timeCodesPerSecond must be positive",
                  "time_codes_per_second");
  }
  if (!(options.meters_per_unit > 0) || !std::isfinite(options.meters_per_unit)) {
    return Status(Error::kInvalidArgument, "metersPerUnit must be positive", "meters_per_unit");
  }
  const int32_t clip = options.animation >= 0 && size_t(options.animation) < asset.animations.size()
                           ? options.animation
                           : -1;
  for (size_t a = 0; a < asset.animations.size(); ++a) {
    if (int32_t(a) == clip) continue;
    const std::string& name = asset.animations[a].name;
    r.left_out.push_back("animation " + (name.empty() ? std::to_string(a) : name) +
                         ": one clip is written");
  }
  for (const RigidBinding& rigid : asset.rigid_bindings) {
    r.left_out.push_back("rigid " + rigid.type + " " + rigid.name +
                         ": rigid bindings are not written");
  }

  // Skeletons: one per skin a drawn node instantiates, skins of the same joints and inverse binds
  // sharing one (so that one SkelAnimation moves every mesh of a character).
  const std::vector<cpu::DrawnMesh> drawn = cpu::DrawnMeshes(asset);
  std::vector<SkeletonPlan> skeletons;
  std::map<uint32_t, size_t> skeleton_of_skin;
  UniqueNames root_names;
  for (size_t d = 0; d < drawn.size(); ++d) {
    const Node& node = asset.nodes[drawn[d].node];
    if (drawn[d].skin < 0) {
      r.left_out.push_back("node " + node.name + ": its mesh has no skin");
      continue;
    }
    const uint32_t skin = uint32_t(drawn[d].skin);
    auto found = skeleton_of_skin.find(skin);
    for (size_t k = 0; k < skeletons.size() && found == skeleton_of_skin.end(); ++k) {
      std::vector<uint32_t> positions = SameJoints(asset, skeletons[k], skin);
      if (positions.empty()) continue;
      skeletons[k].skin_positions[skin] = std::move(positions);
      found = skeleton_of_skin.emplace(skin, k).first;
    }
    if (found == skeleton_of_skin.end()) {
      auto plan = PlanSkeleton(asset, skin);
      if (!plan) return plan.status();
      plan->name = root_names.Take("Skeleton_" + std::to_string(skin));
      plan->skin_positions[skin] = plan->position;
      found = skeleton_of_skin.emplace(skin, skeletons.size()).first;
      skeletons.push_back(std::move(*plan));
    }
    skeletons[found->second].drawn.push_back(uint32_t(d));
  }
  if (skeletons.empty()) {
    return Status(Error::kInvalidArgument, "no drawn node has a skin: nothing to write as UsdSkel",
                  "nodes");
  }

  // The rest pose, and the clip at each of its key times.
  auto rest = cpu::EvaluateScene(asset);
  if (!rest) return rest.status();
  std::vector<Sample> samples;
  if (clip >= 0) {
    const std::vector<float> times = KeyTimes(asset.animations[size_t(clip)]);
    // Key times are float seconds: a key at frame 14 of 30 comes back as 13.9999995. A time code
    // within 1e-4 of a whole one is that whole one. Where several keys are that close to one
    // whole time code (a clip that jumps there has a key a float step before it, holding the
    // value from the left), only the last takes it, and only when the ones before it are below
    // it, so that the keys keep their order and the jump stays at the whole time code.
    const auto near_whole = [&](size_t i, double* whole) {
      const double code = double(times[i]) * options.time_codes_per_second;
      *whole = std::round(code);
      return std::fabs(code - *whole) < 1e-4;
    };
    for (size_t i = 0; i < times.size(); ++i) {
      auto scene = cpu::EvaluateScene(asset, clip, times[i]);
      if (!scene) return scene.status();
      double time_code = double(times[i]) * options.time_codes_per_second, whole = 0, next = 0;
      const bool last_of_run =
          i + 1 == times.size() || !near_whole(i + 1, &next) || next != std::round(time_code);
      if (near_whole(i, &whole) && last_of_run &&
          (samples.empty() || whole > samples.back().time_code)) {
        time_code = whole;
      }
      samples.push_back({time_code, std::move(*scene)});
    }
  }

  std::string out = "#usda 1.0\n(\n    defaultPrim = \"Root\"\n    metersPerUnit = " +
                    Number(options.meters_per_unit) + "\n";
  out += "    timeCodesPerSecond = " + Number(options.time_codes_per_second) + "\n";
  if (!samples.empty()) {
    out += "    startTimeCode = " + Number(samples.front().time_code) + "\n";
    out += "    endTimeCode = " + Number(samples.back().time_code) + "\n";
  }
  out += "    upAxis = \"" + std::string(ToString(options.up_axis)) + "\"\n)\n\n";
  out += "def SkelRoot \"Root\" (\n    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n";

  for (SkeletonPlan& plan : skeletons) {
    const Skin& skin = asset.skins[plan.skin];
    const size_t joints = plan.order.size();
    const std::string skeleton_path = "/Root/" + plan.name;
    // Mesh prims and their shapes first: the animation names the shapes.
    std::string meshes;
    for (uint32_t d : plan.drawn) {
      const Node& node = asset.nodes[drawn[d].node];
      const Mesh& mesh = asset.meshes[drawn[d].mesh];
      const std::vector<uint32_t>& positions = plan.skin_positions.at(uint32_t(drawn[d].skin));
      for (size_t p = 0; p < mesh.primitives.size(); ++p) {
        const Primitive& prim = mesh.primitives[p];
        // (Named as its mesh is, where it has a name: a USD source's prim path.)
        const std::string where = (mesh.name.empty() ? "meshes/" + std::to_string(drawn[d].mesh)
                                                     : "mesh '" + mesh.name + "'") +
                                  " primitive " + std::to_string(p);
        if (prim.mode != 4 || !prim.skinned()) {
          r.left_out.push_back(where + ": " + (prim.mode != 4 ? "not triangles" : "no influences"));
          continue;
        }
        const SkelInfluences influences =
            InfluencesToWrite(prim, asset.skins[uint32_t(drawn[d].skin)], positions);
        if (!influences.left_out.empty()) {
          r.left_out.push_back(where + ": " + influences.left_out);
          continue;
        }
        if (!prim.tangents.empty()) r.left_out.push_back(where + ": tangents");
        const std::string name =
            root_names.Take(UsdPrimName(node.name, "Mesh") + "_" + std::to_string(p));
        const std::string path = "/Root/" + name;
        const size_t v = prim.vertex_count();
        const size_t k = influences.k;
        meshes += "    def Mesh \"" + name +
                  "\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n";
        const size_t corners = prim.indices.empty() ? v : prim.indices.size();
        meshes += "        int[] faceVertexCounts = ";
        AppendList(&meshes, corners / 3, [&](size_t) { meshes += "3"; });
        meshes += "\n        int[] faceVertexIndices = ";
        AppendList(&meshes, corners, [&](size_t i) {
          meshes += std::to_string(prim.indices.empty() ? i : prim.indices[i]);
        });
        meshes += "\n        point3f[] points = ";
        AppendVec3s(&meshes, prim.positions);
        if (!prim.normals.empty()) {
          meshes += "\n        normal3f[] normals = ";
          AppendVec3s(&meshes, prim.normals);
          meshes += " (\n            interpolation = \"vertex\"\n        )";
        }
        meshes += "\n        uniform token subdivisionScheme = \"none\"\n";
        meshes += "        matrix4d primvars:skel:geomBindTransform = ";
        AppendMatrix(&meshes, Float4x4::Identity());
        meshes += "\n        int[] primvars:skel:jointIndices = ";
        AppendList(&meshes, v * k,
                   [&](size_t i) { meshes += std::to_string(influences.joints[i]); });
        meshes += " (\n            elementSize = " + std::to_string(k) +
                  "\n            interpolation = \"vertex\"\n        )\n";
        meshes += "        float[] primvars:skel:jointWeights = ";
        AppendList(&meshes, v * k, [&](size_t i) { meshes += Number(influences.weights[i]); });
        meshes += " (\n            elementSize = " + std::to_string(k) +
                  "\n            interpolation = \"vertex\"\n        )\n";
        if (prim.dual_quaternion()) {
          meshes += "        uniform token primvars:skel:skinningMethod = \"dualQuaternion\"\n";
        }
        meshes += "        rel skel:skeleton = <" + skeleton_path + ">\n";
        if (!prim.targets.empty()) {
          const ShapeNames names = NameShapes(mesh, prim.targets.size(), name);
          std::vector<uint32_t> primaries;
          for (uint32_t t = 0; t < prim.targets.size(); ++t) {
            if (!names.prims[t].empty()) primaries.push_back(t);
          }
          meshes += "        uniform token[] skel:blendShapes = ";
          AppendList(&meshes, primaries.size(),
                     [&](size_t i) { meshes += "\"" + names.tokens[primaries[i]] + "\""; });
          meshes += "\n        rel skel:blendShapeTargets = ";
          AppendList(&meshes, primaries.size(), [&](size_t i) {
            meshes += "<" + path + "/" + names.prims[primaries[i]] + ">";
          });
          meshes += "\n";
          for (uint32_t t : primaries) {
            AppendBlendShape(&meshes, prim, mesh, t, names);
            plan.shapes.push_back(names.tokens[t]);
            plan.shape_weights.push_back({drawn[d].node, t});
          }
        }
        meshes += "    }\n\n";
      }
    }

    // The skeleton, its rest and bind transforms.
    out += "    def Skeleton \"" + plan.name +
           "\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n    {\n";
    out += "        uniform token[] joints = ";
    AppendList(&out, joints, [&](size_t j) { out += "\"" + plan.paths[j] + "\""; });
    out += "\n        uniform matrix4d[] bindTransforms = ";
    Status bind_status;
    AppendList(&out, joints, [&](size_t j) {
      Float4x4 bind;
      if (!Invert(skin.inverse_binds[plan.order[j]], &bind) && bind_status) {
        bind_status = Status(Error::kInvalidValue, "an inverse bind matrix is singular",
                             "skins/" + std::to_string(plan.skin) + "/inverseBindMatrices/" +
                                 std::to_string(plan.order[j]));
      }
      AppendMatrix(&out, bind);
    });
    if (!bind_status) return bind_status;
    out += "\n        uniform matrix4d[] restTransforms = ";
    const std::vector<Float4x4> rest_locals = JointLocals(asset, plan, rest->world);
    AppendList(&out, joints, [&](size_t j) { AppendMatrix(&out, rest_locals[j]); });
    out += "\n";

    // The animation: every joint at every key time, and the shapes' weights.
    if (!samples.empty()) {
      out += "        rel skel:animationSource = <" + skeleton_path + "/Animation>\n\n";
      out += "        def SkelAnimation \"Animation\"\n        {\n";
      out += "            uniform token[] joints = ";
      AppendList(&out, joints, [&](size_t j) { out += "\"" + plan.paths[j] + "\""; });
      out += "\n";
      std::string translations, rotations, scales;
      for (const Sample& sample : samples) {
        const std::vector<Float4x4> locals = JointLocals(asset, plan, sample.scene.world);
        std::vector<float> t3(joints * 3), s3(joints * 3);
        std::vector<Quat> q(joints);
        for (size_t j = 0; j < joints; ++j) {
          Float3 t, s;
          if (!DecomposeTrs(locals[j], &t, &q[j], &s)) {
            return Status(Error::kUnsupportedFeature,
                          "joint " + plan.paths[j] + " has a sheared or singular transform at " +
                              Number(sample.time_code / options.time_codes_per_second) +
                              " s, which a SkelAnimation cannot hold",
                          "animations/" + std::to_string(clip));
          }
          t3[j * 3] = t.x, t3[j * 3 + 1] = t.y, t3[j * 3 + 2] = t.z;
          s3[j * 3] = s.x, s3[j * 3 + 1] = s.y, s3[j * 3 + 2] = s.z;
        }
        const std::string key = "                " + Number(sample.time_code) + ": ";
        translations += key;
        AppendVec3s(&translations, t3);
        scales += key;
        AppendVec3s(&scales, s3);
        rotations += key;
        // quatf is written (w, x, y, z), real part first.
        AppendList(&rotations, joints, [&](size_t j) {
          rotations += "(" + Number(q[j].w) + ", " + Number(q[j].x) + ", " + Number(q[j].y) + ", " +
                       Number(q[j].z) + ")";
        });
        translations += ",\n", scales += ",\n", rotations += ",\n";
      }
      out +=
          "            float3[] translations.timeSamples = {\n" + translations + "            }\n";
      out += "            quatf[] rotations.timeSamples = {\n" + rotations + "            }\n";
      out += "            half3[] scales.timeSamples = {\n" + scales + "            }\n";
      if (!plan.shapes.empty()) {
        out += "            uniform token[] blendShapes = ";
        AppendList(&out, plan.shapes.size(),
                   [&](size_t i) { out += "\"" + plan.shapes[i] + "\""; });
        out += "\n            float[] blendShapeWeights.timeSamples = {\n";
        for (const Sample& sample : samples) {
          out += "                " + Number(sample.time_code) + ": [";
          for (size_t i = 0; i < plan.shape_weights.size(); ++i) {
            const SkeletonPlan::ShapeWeight& sw = plan.shape_weights[i];
            const std::vector<float>& w = sample.scene.pose.weights[sw.node];
            out += (i ? ", " : "") + Number(sw.target < w.size() ? w[sw.target] : 0.0f);
          }
          out += "],\n";
        }
        out += "            }\n";
      }
      out += "        }\n";
    } else if (!plan.shapes.empty()) {
      r.left_out.push_back("skeleton " + plan.name +
                           ": blend-shape weights without a clip (they read as 0)");
    }
    out += "    }\n\n" + meshes;
  }
  out += "}\n";
  return out;
}

// The text is the one mapping from an Asset to UsdSkel; the binary encodings re-encode its layer.
Result<std::vector<uint8_t>> WriteUsdc(const Asset& asset, const UsdaWriteOptions& options,
                                       UsdaWriteReport* report) {
  SINEW_TRY_ASSIGN(const std::string text, WriteUsda(asset, options, report));
  SINEW_TRY_ASSIGN(const usd::Layer layer, usd::ReadUsda(text));
  return usd::WriteCrate(layer);
}

Result<std::vector<uint8_t>> WriteUsdz(const Asset& asset, std::string_view layer_name,
                                       const UsdaWriteOptions& options, UsdaWriteReport* report) {
  SINEW_TRY_ASSIGN(const std::vector<uint8_t> crate, WriteUsdc(asset, options, report));
  const usd::PackagedFile file{std::string(layer_name), crate};
  return usd::PackageUsdz(std::span(&file, 1));
}

}  // namespace sinew::loader
