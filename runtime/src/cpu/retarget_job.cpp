#include "sinew/cpu/retarget_job.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bind_pose_internal.h"
#include "sinew/cpu/bind_pose_job.h"
#include "sinew/cpu/scene_transforms_job.h"

namespace sinew::cpu {
namespace {

// The same failure with `where` under `prefix` ("source/", "target/").
Status Under(const char* prefix, const Status& status) {
  if (status) return status;
  ErrorInfo error = status.error();
  error.where = prefix + error.where;
  return Status(std::move(error));
}

// The rotation of a validated bind matrix.
Quat RotationOf(const Float4x4& m) {
  Quat r;
  (void)DecomposeTrs(m, nullptr, &r, nullptr);
  return r;
}

Float3 PositionOf(const Float4x4& m) { return {m.m[3][0], m.m[3][1], m.m[3][2]}; }

// Reference heights at or below this (scene units) give the ratio 1.
constexpr float kMinHeight = 1e-6f;

Status ValidateBoth(const RetargetJob& job, const BindPose** source_bind,
                    const BindPose** target_bind) {
  if (Status s = internal::ValidateSkinInPose(job.source_nodes, job.source_skin, job.source_pose,
                                              job.reference, true, source_bind);
      !s) {
    return Under("source/", s);
  }
  if (Status s = internal::ValidateSkinInPose(job.target_nodes, job.target_skin, job.target_pose,
                                              job.reference, false, target_bind);
      !s) {
    return Under("target/", s);
  }
  const std::vector<uint32_t>& joints = job.source_skin->joints;
  for (size_t k = 1; k < joints.size(); ++k) {
    const std::string& name = job.source_nodes[joints[k]].name;
    if (name.empty()) continue;  // unnamed joints match nothing
    for (size_t e = 0; e < k; ++e) {
      if (job.source_nodes[joints[e]].name == name) {
        return Status(Error::kInvalidArgument,
                      "source joints " + std::to_string(e) + " and " + std::to_string(k) +
                          " are both named '" + name + "'",
                      "source/joints/" + std::to_string(k));
      }
    }
  }
  switch (job.root_translation) {
    case RootTranslation::kScaledByHeight:
    case RootTranslation::kUnscaled:
    case RootTranslation::kReference:
      break;
    default:
      return Status(Error::kInvalidArgument, "not a RootTranslation value", "root_translation");
  }
  return {};
}

}  // namespace

Status RetargetJob::Validate() const {
  const BindPose* source_bind = nullptr;
  const BindPose* target_bind = nullptr;
  return ValidateBoth(*this, &source_bind, &target_bind);
}

Status RetargetJob::Run() const {
  const BindPose* source_bind = nullptr;
  const BindPose* target_bind = nullptr;
  if (Status s = ValidateBoth(*this, &source_bind, &target_bind); !s) return s;

  // W_A: the source's scene matrices, read in full before the target pose is written.
  std::vector<Float4x4> source_world(source_nodes.size());
  SceneTransformsJob transforms;
  transforms.nodes = source_nodes;
  transforms.pose = source_pose;
  transforms.output = source_world;
  if (Status s = transforms.Run(); !s) return Under("source/", s);
  std::unordered_map<std::string_view, uint32_t> source_joint;  // by name
  for (size_t k = 0; k < source_skin->joints.size(); ++k) {
    const std::string& name = source_nodes[source_skin->joints[k]].name;
    if (!name.empty()) source_joint.emplace(name, uint32_t(k));
  }

  // The target's reference-pose locals (docs/retargeting.md §2): every joint's translation and
  // scale (B's bone lengths) are final after this; the rotations, and the translation roots'
  // translations, are replaced below.
  BindPoseJob bind;
  bind.nodes = target_nodes;
  bind.skin = target_skin;
  bind.type = reference;
  bind.pose = target_pose;
  if (Status s = bind.Run(); !s) return Under("target/", s);

  // joint_of[n]: the target joint at node n, or -1; delta[j]: D_j of target joint j.
  std::vector<int32_t> joint_of(target_nodes.size(), -1);
  std::vector<Quat> delta(target_skin->joints.size());
  // reached[j]: whether j or a joint among its ancestors has a match. A matched joint that no
  // matched joint is above is a translation root.
  std::vector<bool> reached(target_skin->joints.size(), false);
  std::vector<uint32_t> order;
  internal::ParentsFirst(target_nodes, *target_skin, &order);
  for (uint32_t j : order) {
    const uint32_t node = target_skin->joints[j];
    const int32_t parent = target_nodes[node].parent;
    int32_t above = -1;  // the nearest joint among the ancestors (solved: parents first)
    for (int32_t p = parent; p >= 0 && above < 0; p = target_nodes[size_t(p)].parent) {
      above = joint_of[size_t(p)];
    }
    joint_of[node] = int32_t(j);

    const auto match = source_joint.find(target_nodes[node].name);
    const bool matched = !target_nodes[node].name.empty() && match != source_joint.end();
    uint32_t k = 0;  // the matched source joint
    Quat d;          // identity without a match or a joint above
    if (matched) {
      // D_j = Rot(W_A(k)) · Rot(B_A(k))⁻¹: the source joint's scene rotation away from A's
      // reference.
      k = match->second;
      const uint32_t source_node = source_skin->joints[k];
      Quat turned;
      if (!DecomposeTrs(source_world[source_node], nullptr, &turned, nullptr)) {
        return Status(Error::kUnsupportedFeature,
                      "the scene matrix of source joint " + std::to_string(k) +
                          " has shear or is singular: no rotation to take",
                      "source/nodes/" + std::to_string(source_node));
      }
      d = Normalize(Multiply(turned, Conjugate(RotationOf(source_bind->matrices[k]))));
    } else if (above >= 0) {
      d = delta[size_t(above)];  // keeps its reference orientation relative to its parent
    }
    delta[j] = d;
    const bool reached_above = above >= 0 && reached[size_t(above)];
    reached[j] = matched || reached_above;

    // R_B(j) = D_j · Rot(B_B(j)); local rotation = Rot(W_B(parent))⁻¹ · R_B(j).
    const Quat model = Multiply(d, RotationOf(target_bind->matrices[j]));
    const Float4x4 parent_world = internal::SceneMatrix(target_nodes, *target_pose, parent);
    Quat parent_rotation;
    if (!DecomposeTrs(parent_world, nullptr, &parent_rotation, nullptr)) {
      return Status(Error::kUnsupportedFeature,
                    "the scene matrix of the parent of target joint " + std::to_string(j) +
                        " has shear or is singular",
                    "target/nodes/" + std::to_string(parent));
    }
    target_pose->rotations[node] = Normalize(Multiply(Conjugate(parent_rotation), model));

    if (!matched || reached_above || root_translation == RootTranslation::kReference) continue;
    // A translation root: p_B = p(B_B(j)) + ratio · (p(W_A(k)) - p(B_A(k))) in scene space, with
    // ratio = h_B / h_A, the scene-space heights (y) of the two joints in the reference poses.
    const Float4x4& source_reference = source_bind->matrices[k];
    const Float4x4& target_reference = target_bind->matrices[j];
    const Float3 now = PositionOf(source_world[source_skin->joints[k]]);
    const Float3 was = PositionOf(source_reference);
    const float h_a = source_reference.m[3][1];
    const float h_b = target_reference.m[3][1];
    const float ratio =
        root_translation == RootTranslation::kScaledByHeight && h_a > kMinHeight && h_b > kMinHeight
            ? h_b / h_a
            : 1.0f;
    const Float3 base = PositionOf(target_reference);
    const Float3 position = {base.x + ratio * (now.x - was.x), base.y + ratio * (now.y - was.y),
                             base.z + ratio * (now.z - was.z)};
    Float4x4 parent_inverse;
    if (!Invert(parent_world, &parent_inverse)) {  // not reached: it decomposed above
      return Status(Error::kUnsupportedFeature, "the scene matrix is singular",
                    "target/nodes/" + std::to_string(parent));
    }
    target_pose->translations[node] = TransformPoint(parent_inverse, position);
  }
  return {};
}

}  // namespace sinew::cpu
