#include "bake.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <tuple>

#include "sinew/asset/scene_pose.h"
#include "sinew/cpu/bind_pose_job.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/rigid_transform_job.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/scene_transforms_job.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache_asset.h"

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
                  std::string("no skin has a bind pose of type ") + cpu::PoseTypeName(type));
  }
  return {};
}

// The clip `o.anim` (an index or a name) sampled at `o.time` into `pose`; its index, or -1 when
// none is asked for.
Result<int32_t> SampleClip(const Asset& a, const BakeOptions& o, ScenePose* pose) {
  auto found = FindClip(a, o.anim);
  if (!found || *found < 0) return found;
  const int32_t animation = *found;
  cpu::SampleAnimationJob job;
  job.animation = &a.animations[size_t(animation)];
  job.time = o.time;
  job.loop = o.loop;
  job.pose = pose;
  if (Status s = job.Run(); !s) return Prefixed(s, "animations/" + std::to_string(animation));
  return animation;
}

// Explicit morph weights, on every instance of the mesh.
Status ApplyWeights(const Asset& a, const BakeOptions& o, ScenePose* pose) {
  for (const auto& [key, w] : o.weights) {
    const int32_t mesh = Find(a.meshes, key);
    if (mesh < 0) return Status(Error::kInvalidArgument, "--weights: no mesh '" + key + "'");
    for (size_t n = 0; n < a.nodes.size(); ++n) {
      if (a.nodes[n].mesh != mesh) continue;
      if (w.size() != pose->weights[n].size()) {
        return Status(Error::kInvalidArgument, "--weights: mesh '" + key + "' has " +
                                                   std::to_string(pose->weights[n].size()) +
                                                   " targets, got " + std::to_string(w.size()) +
                                                   " weights");
      }
      pose->weights[n] = w;
    }
  }
  return {};
}

// The index of the material variant `o.variant`, or -1 when none is asked for.
Result<int32_t> FindVariant(const Asset& a, const BakeOptions& o) {
  if (o.variant.empty()) return -1;
  const auto it = std::find(a.variants.begin(), a.variants.end(), o.variant);
  if (it == a.variants.end()) {
    return Status(Error::kInvalidArgument, "no material variant '" + o.variant + "'");
  }
  return int32_t(it - a.variants.begin());
}

// Every node's world matrix in `pose`, after the bind pose `o.pose` asks for. A bind pose moves
// joints the file gives as matrices too: those become T/R/S nodes first.
Result<std::vector<Float4x4>> WorldMatrices(const Asset& a, const BakeOptions& o, ScenePose* pose) {
  std::vector<Node> nodes = a.nodes;
  if (o.pose != "rest") {
    cpu::MatrixNodesToTrs(nodes, pose);
    if (Status s = ApplyBindPose(a, nodes, o.pose, pose); !s) return s;
  }
  std::vector<Float4x4> world(nodes.size());
  cpu::SceneTransformsJob transforms;
  transforms.nodes = nodes;
  transforms.pose = pose;
  transforms.output = world;
  if (Status s = transforms.Run(); !s) return s;
  return world;
}

// Poses `gpu`'s character at `world` and `weights` and deforms it (the outputs ready to read),
// creating its SkinCache, meshes and character first when it has none.
Status DeformOnGpu(const vk::Context& context, const Asset& a, std::span<const Float4x4> world,
                   const std::vector<std::vector<float>>& weights, GpuBake* gpu) {
  if (!gpu->cache) {
    vk::SkinCacheOptions base;
    base.frames_in_flight = 1;
    base.previous_positions = vk::PreviousPositions::kNone;
    auto created = vk::SkinCache::Create(context, vk::SkinCacheOptionsFor(a, 1, base));
    if (!created) return created.status();
    auto added = vk::AddAssetMeshes(**created, a);
    if (!added) return added.status();
    auto instance = vk::AddAssetInstance(**created, *added);
    if (!instance) return instance.status();
    gpu->cache = std::move(created.value());
    gpu->meshes = std::move(added.value());
    gpu->character = std::move(instance.value());
  }
  if (Status s = vk::PoseAssetInstance(*gpu->cache, a, gpu->meshes, gpu->character, world, weights);
      !s) {
    return s;
  }
  Status recorded;
  Status submitted = context.SubmitAndWait([&](VkCommandBuffer cmd) {
    gpu->cache->RecordReuseBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                   VK_ACCESS_TRANSFER_READ_BIT);
    recorded = gpu->cache->Record(cmd);
    gpu->cache->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                    VK_ACCESS_TRANSFER_READ_BIT);
  });
  if (!recorded) return recorded;
  return submitted;
}

// The deformed vertices are finite: weights or transforms finite in the file can still overflow a
// float once multiplied (a morph weight of 3e38); such a bake is refused rather than written.
Status CheckFinite(const cpu::DeformedPrimitive& d) {
  for (const auto& [stream, name, width] :
       {std::tuple{&d.positions, "positions", 3}, std::tuple{&d.normals, "normals", 3},
        std::tuple{&d.tangents, "tangents", 4}}) {
    for (size_t i = 0; i < stream->size(); ++i) {
      if (!std::isfinite((*stream)[i])) {
        return {Error::kNonFiniteValue,
                "the deformed vertex is not finite (weights or transforms too large for a float)",
                std::string(name) + "/" + std::to_string(i / size_t(width))};
      }
    }
  }
  return {};
}

}  // namespace

Result<int32_t> FindClip(const Asset& asset, const std::string& anim) {
  if (anim.empty()) return -1;
  const int32_t animation = Find(asset.animations, anim);
  if (animation < 0) {
    // Say what there is to choose from: the clips by index, with their names (the first ten).
    const size_t count = asset.animations.size();
    std::string message =
        "no animation '" + anim + "': the file has " +
        (count == 0 ? std::string("none")
                    : std::to_string(count) + ", by index 0 to " + std::to_string(count - 1));
    for (size_t i = 0; i < count && i < 10; ++i) {
      message += (i == 0 ? " or by name: '" : ", '") + asset.animations[i].name + "'";
    }
    if (count > 10) message += ", ...";
    return Status(Error::kInvalidArgument, message);
  }
  return animation;
}

bool IsBakePose(std::string_view pose) {
  if (pose == "rest" || pose == "bind") return true;
  for (PoseType t : kPoseTypes) {
    if (pose == std::string("bind:") + cpu::PoseTypeName(t)) return true;
  }
  return false;
}

Result<BakePose> PoseForBake(const Asset& a, const BakeOptions& o) {
  if (!IsBakePose(o.pose)) {
    return Status(Error::kInvalidArgument,
                  "pose '" + o.pose + "': rest|bind|bind:TPose|APose|IPose|Custom");
  }
  BakePose out;
  out.pose = RestPose(a);
  auto animation = SampleClip(a, o, &out.pose);
  if (!animation) return animation.status();
  out.animation = *animation;
  if (Status s = ApplyWeights(a, o, &out.pose); !s) return s;
  auto variant = FindVariant(a, o);
  if (!variant) return variant.status();
  out.variant = *variant;
  auto world = WorldMatrices(a, o, &out.pose);
  if (!world) return world.status();
  out.world = std::move(world.value());
  return out;
}

Result<BakeResult> BakeAsset(const Asset& a, const BakeOptions& o, const vk::Context* context,
                             GpuBake* session) {
  auto posed = PoseForBake(a, o);
  if (!posed) return posed.status();
  BakeResult result;
  result.animation = posed->animation;
  const ScenePose& pose = posed->pose;
  const std::vector<Float4x4>& world = posed->world;
  GpuBake local;
  GpuBake& gpu = session ? *session : local;
  if (context) {
    if (Status s = DeformOnGpu(*context, a, world, pose.weights, &gpu); !s) return s;
  }
  // Each drawn primitive: read back from the GPU, or deformed by the CPU reference.
  const std::vector<cpu::DrawnMesh> drawn = cpu::DrawnMeshes(a);
  for (size_t d = 0; d < drawn.size(); ++d) {
    const uint32_t n = drawn[d].node;
    const Mesh& mesh = a.meshes[drawn[d].mesh];
    const std::string where = "nodes/" + std::to_string(n);
    // The skin's palette for the CPU reference (an unskinned node reads its world matrix).
    std::vector<Float3x4> palette;
    if (drawn[d].skin >= 0) {
      auto p = cpu::NodePalette(a, n, world);
      if (!p) return Prefixed(p.status(), where);
      palette = std::move(p.value());
    }
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& prim = mesh.primitives[k];
      BakedPrimitive b;
      b.node = n, b.primitive = k, b.mesh = int32_t(drawn[d].mesh), b.mode = prim.mode;
      b.material = prim.MaterialFor(posed->variant);
      b.indices = &prim.indices;
      Status s;
      if (context && gpu.character.instances[d][k] == vk::InstanceId{}) {
        // (A primitive without vertices: nothing in the cache, nothing baked.)
      } else if (context) {
        auto out = vk::ReadInstanceOutputs(*context, *gpu.cache, gpu.character.instances[d][k]);
        if (out) {
          b.data = std::move(out.value());
        } else {
          s = out.status();
        }
      } else {
        s = cpu::DeformPrimitive(a, n, k, world, pose.weights[n], palette, &b.data,
                                 cpu::SkinRun{o.threads});
      }
      if (s) s = CheckFinite(b.data);
      if (!s) return Prefixed(s, where + "/primitives/" + std::to_string(k));
      result.primitives.push_back(std::move(b));
    }
  }
  auto rigid = cpu::RigidTransforms(a, world);
  if (!rigid) return rigid.status();
  result.rigid = std::move(rigid.value());
  return result;
}

}  // namespace sinew::tool
