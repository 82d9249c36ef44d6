#include "bake.h"

#include <algorithm>
#include <cstdlib>
#include <span>

#include "sinew/asset/scene_pose.h"
#include "sinew/cpu/bind_pose_job.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/scene_transforms_job.h"
#include "sinew/vk/deform_once.h"

namespace sinew::tool {
namespace {

constexpr PoseType kPoseTypes[] = {PoseType::kTPose, PoseType::kAPose, PoseType::kIPose,
                                   PoseType::kCustom};

// An index given as a number, or the position of the object named `key`.
template <typename T>
int32_t Find(const std::vector<T>& items, const std::string& key) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == key) return int32_t(i);
  }
  char* end = nullptr;
  const long index = std::strtol(key.c_str(), &end, 10);
  if (!key.empty() && end == key.c_str() + key.size() && index >= 0 &&
      size_t(index) < items.size()) {
    return int32_t(index);
  }
  return -1;
}

Status Prefixed(const Status& s, const std::string& where) {
  ErrorInfo e = s.error();
  e.where = e.where.empty() ? where : where + "/" + e.where;
  return Status(std::move(e));
}

// Poses the joints of every skin that has the bind pose `name` asks for ("bind": the pose its
// inverse binds give) with BindPoseJob: only joint locals change, so every other node, joint
// children that are not joints included, follows through SceneTransformsJob. Skins without a pose
// of that type keep theirs; none having one is an error.
Status ApplyBindPose(const Asset& a, std::span<const Node> nodes, const std::string& name,
                     ScenePose* pose) {
  const bool inverse_binds = name == "bind";
  PoseType type = PoseType::kCustom;
  for (PoseType t : kPoseTypes) {
    if (name == std::string("bind:") + cpu::PoseTypeName(t)) type = t;
  }
  bool found = inverse_binds;
  for (size_t s = 0; s < a.skins.size(); ++s) {
    const std::string where = "skins/" + std::to_string(s);
    Skin bound;
    const Skin* skin = &a.skins[s];
    if (inverse_binds) {
      auto bind_pose = cpu::InverseBindPose(*skin);
      if (!bind_pose) return Prefixed(bind_pose.status(), where);
      bound = *skin;
      bound.bind_poses = {std::move(bind_pose.value())};
      skin = &bound;
    } else if (!cpu::FindBindPose(*skin, type)) {
      continue;
    }
    found = true;
    cpu::BindPoseJob job;
    job.nodes = nodes;
    job.skin = skin;
    job.type = type;
    job.pose = pose;
    if (Status st = job.Run(); !st) return Prefixed(st, where);
  }
  if (!found) {
    return Status(Error::kInvalidArgument,
                  std::string("no skin has a ") + cpu::PoseTypeName(type) + " bind pose");
  }
  return {};
}

}  // namespace

bool IsBakePose(std::string_view pose) {
  if (pose == "rest" || pose == "bind") return true;
  for (PoseType t : kPoseTypes) {
    if (pose == std::string("bind:") + cpu::PoseTypeName(t)) return true;
  }
  return false;
}

Result<BakeResult> BakeAsset(const Asset& a, const BakeOptions& o, const vk::Context* context) {
  if (!IsBakePose(o.pose)) {
    return Status(Error::kInvalidArgument,
                  "pose '" + o.pose + "': rest|bind|bind:TPose|APose|IPose|Custom");
  }
  BakeResult result;
  ScenePose pose = RestPose(a);
  // The clip.
  if (!o.anim.empty()) {
    result.animation = Find(a.animations, o.anim);
    if (result.animation < 0) {
      return Status(Error::kInvalidArgument, "no animation '" + o.anim + "' (the file has " +
                                                 std::to_string(a.animations.size()) + ")");
    }
    cpu::SampleAnimationJob job;
    job.animation = &a.animations[size_t(result.animation)];
    job.time = o.time;
    job.loop = o.loop;
    job.pose = &pose;
    if (Status s = job.Run(); !s) {
      return Prefixed(s, "animations/" + std::to_string(result.animation));
    }
  }
  // Explicit morph weights, on every instance of the mesh.
  for (const auto& [key, w] : o.weights) {
    const int32_t mesh = Find(a.meshes, key);
    if (mesh < 0) return Status(Error::kInvalidArgument, "--weights: no mesh '" + key + "'");
    for (size_t n = 0; n < a.nodes.size(); ++n) {
      if (a.nodes[n].mesh != mesh) continue;
      if (w.size() != pose.weights[n].size()) {
        return Status(Error::kInvalidArgument, "--weights: mesh '" + key + "' has " +
                                                   std::to_string(pose.weights[n].size()) +
                                                   " targets, got " + std::to_string(w.size()) +
                                                   " weights");
      }
      pose.weights[n] = w;
    }
  }
  int32_t variant = -1;
  if (!o.variant.empty()) {
    const auto it = std::find(a.variants.begin(), a.variants.end(), o.variant);
    if (it == a.variants.end()) {
      return Status(Error::kInvalidArgument, "no material variant '" + o.variant + "'");
    }
    variant = int32_t(it - a.variants.begin());
  }
  // A bind pose moves joints the file gives as matrices too: those become T/R/S nodes first.
  std::vector<Node> nodes = a.nodes;
  if (o.pose != "rest") {
    cpu::MatrixNodesToTrs(nodes, &pose);
    if (Status s = ApplyBindPose(a, nodes, o.pose, &pose); !s) return s;
  }
  std::vector<Float4x4> world(nodes.size());
  cpu::SceneTransformsJob transforms;
  transforms.nodes = nodes;
  transforms.pose = &pose;
  transforms.output = world;
  if (Status s = transforms.Run(); !s) return s;

  for (uint32_t n : cpu::DrawnNodes(a)) {
    const Node& node = a.nodes[n];
    if (node.mesh < 0) continue;
    const Mesh& mesh = a.meshes[size_t(node.mesh)];
    const std::string where = "nodes/" + std::to_string(n);
    // The skin's palette; for an unskinned node its world matrix, the one joint of the GPU's rigid
    // mesh (the CPU reference reads the world matrix itself).
    auto palette = cpu::InstancePalette(a, n, world);
    if (!palette) return Prefixed(palette.status(), where);
    const std::vector<float> weights = cpu::MorphWeightsFor(mesh, pose.weights[n]);
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& prim = mesh.primitives[k];
      BakedPrimitive b;
      b.node = n, b.primitive = k, b.mesh = node.mesh, b.mode = prim.mode;
      b.material = prim.MaterialFor(variant);
      b.indices = &prim.indices;
      Status s;
      if (context) {
        auto out = vk::DeformOnce(
            *context, cpu::SkinnedMeshOf(prim, palette->size()), *palette,
            prim.targets.empty() ? std::span<const float>() : std::span<const float>(weights));
        if (out) {
          b.data = std::move(out.value());
        } else {
          s = out.status();
        }
      } else {
        s = cpu::DeformPrimitive(a, n, k, world, pose.weights[n], *palette, &b.data);
      }
      if (!s) return Prefixed(s, where + "/primitives/" + std::to_string(k));
      result.primitives.push_back(std::move(b));
    }
  }
  return result;
}

}  // namespace sinew::tool
