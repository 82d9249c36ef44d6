#include "sinew/procedural/character.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "sinew/cpu/local_to_model_job.h"

namespace sinew::procedural {
namespace {

// Output should be bit-identical across platforms for a seed, so: our own PRNG (the std
// distributions are implementation-defined), random floats built from 24 bits (exact in float),
// and trigonometry done in double and rounded to float (libms differ at most in the last bits of a
// double, which practically never changes the rounded float). Compilers that contract a*b+c into
// FMA (e.g. GCC's default for aarch64) can still change the last bit of a float.

// SplitMix64 (Steele, Lea and Flood 2014).
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  float Unit() { return static_cast<float>(Next() >> 40) * (1.0f / 16777216.0f); }
  // Uniform in [-1, 1).
  float Signed() { return Unit() * 2.0f - 1.0f; }

 private:
  uint64_t state_;
};

// Independent streams for one seed: the joints' rest rotations and the vertices' radius noise.
uint64_t StreamSeed(uint32_t seed, uint64_t stream) {
  Random mix((uint64_t{seed} << 8) ^ stream);
  return mix.Next();
}

// A unit quaternion for `radians` about the unit axis, computed in double (see above).
Quat QuatAxisAngle(double x, double y, double z, double radians) {
  const double s = std::sin(radians * 0.5);
  return {static_cast<float>(x * s), static_cast<float>(y * s), static_cast<float>(z * s),
          static_cast<float>(std::cos(radians * 0.5))};
}

// One tube of the body: a chain of joints along an axis-aligned segment. Metres, Y up, the
// character stands on y = 0 and faces +Z (so its left is +X).
struct Limb {
  const char* name;
  // Model-space position of the chain's first joint, where the tube starts.
  Float3 start;
  // Unit direction of the chain; `side` and `up` complete an orthonormal frame around it.
  Float3 direction;
  Float3 side;
  Float3 up;
  float length;
  // Tube radius at the start; at the end it is radius * (1 - taper).
  float radius;
  float taper;
  // The head: the radius follows a half sine along the length instead of a taper.
  bool rounded;
};

constexpr Float3 kPelvis = {0.0f, 1.0f, 0.0f};

// Order = joint order. Spine first: the head and arms hang from its last joint, the legs and the
// spine from the pelvis.
constexpr std::array<Limb, 6> kLimbs = {{
    {"spine", {0.0f, 1.05f, 0.0f}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, 0.50f, 0.15f, 0.15f, false},
    {"head", {0.0f, 1.60f, 0.0f}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, 0.26f, 0.11f, 0.0f, true},
    {"arm_l", {0.22f, 1.45f, 0.0f}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 0.62f, 0.055f, 0.35f, false},
    {"arm_r", {-0.22f, 1.45f, 0.0f}, {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 0.62f, 0.055f, 0.35f, false},
    {"leg_l", {0.10f, 0.95f, 0.0f}, {0, -1, 0}, {1, 0, 0}, {0, 0, 1}, 0.90f, 0.085f, 0.35f, false},
    {"leg_r", {-0.10f, 0.95f, 0.0f}, {0, -1, 0}, {1, 0, 0}, {0, 0, 1}, 0.90f, 0.085f, 0.35f, false},
}};
constexpr size_t kSpine = 0;
constexpr size_t kLegL = 4;

constexpr uint32_t kVerticesPerRing = 16;
// Largest joints_per_limb whose skeleton still fits u16 joint indices.
constexpr uint32_t kMaxJointsPerLimb = (65535u - 1u) / 6u;

Float3 Add(const Float3& a, const Float3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Float3 Scale(const Float3& a, float s) { return {a.x * s, a.y * s, a.z * s}; }

size_t FirstJointOf(size_t limb, uint32_t joints_per_limb) { return 1 + limb * joints_per_limb; }

// Fills the skeleton and each joint's bind (model-space) position.
Status BuildSkeleton(uint32_t n, uint32_t seed, Skeleton* skeleton,
                     std::vector<Float3>* bind_positions) {
  const size_t joint_count = 1 + kLimbs.size() * n;
  skeleton->parents.resize(joint_count);
  skeleton->names.resize(joint_count);
  skeleton->rest_local.resize(joint_count);
  skeleton->inverse_binds.resize(joint_count);

  // The bind pose in model space: each joint at its place on its limb, turned by a small seeded
  // rotation so that rest transforms and inverse binds are not pure translations.
  Random random(StreamSeed(seed, 1));
  std::vector<Float4x4> bind(joint_count);
  const auto place = [&](size_t joint, const Float3& position) {
    const double ax = random.Signed(), ay = random.Signed(), az = random.Signed();
    const double angle = 0.15 * random.Signed();
    const double len = std::sqrt(ax * ax + ay * ay + az * az);
    const Quat rotation = len < 1e-3 ? Quat{}  // Too short to be a direction: no turn.
                                     : QuatAxisAngle(ax / len, ay / len, az / len, angle);
    bind[joint] = ComposeTrs(position, rotation, {1, 1, 1});
  };

  skeleton->parents[0] = Skeleton::kNoParent;
  skeleton->names[0] = "pelvis";
  place(0, kPelvis);
  const size_t spine_end = FirstJointOf(kSpine, n) + n - 1;
  for (size_t l = 0; l < kLimbs.size(); ++l) {
    const Limb& limb = kLimbs[l];
    const size_t first = FirstJointOf(l, n);
    const size_t attach = (l == kSpine || l >= kLegL) ? 0 : spine_end;
    for (uint32_t i = 0; i < n; ++i) {
      const size_t joint = first + i;
      skeleton->parents[joint] = static_cast<int32_t>(i == 0 ? attach : joint - 1);
      skeleton->names[joint] = std::string(limb.name) + "_" + std::to_string(i);
      const float along = limb.length * static_cast<float>(i) / static_cast<float>(n);
      place(joint, Add(limb.start, Scale(limb.direction, along)));
    }
  }

  // Local rest transforms relative to the parent's bind matrix.
  for (size_t j = 0; j < joint_count; ++j) {
    const int32_t parent = skeleton->parents[j];
    if (parent == Skeleton::kNoParent) {
      skeleton->rest_local[j] = bind[j];
      continue;
    }
    Float4x4 parent_inverse;
    if (!Invert(bind[static_cast<size_t>(parent)], &parent_inverse)) {
      return {Error::kNonFiniteValue, "singular bind matrix",
              "skeleton/rest_local/" + std::to_string(j)};
    }
    skeleton->rest_local[j] = Multiply(parent_inverse, bind[j]);
  }

  // Inverse binds from the model matrices the CPU job computes from rest_local, so the rest
  // palette is the identity up to float rounding.
  cpu::LocalToModelJob to_model;
  to_model.parents = skeleton->parents;
  to_model.locals = skeleton->rest_local;
  to_model.output = bind;
  if (Status s = to_model.Run(); !s) return s;
  bind_positions->resize(joint_count);
  for (size_t j = 0; j < joint_count; ++j) {
    (*bind_positions)[j] = {bind[j].m[3][0], bind[j].m[3][1], bind[j].m[3][2]};
    if (!Invert(bind[j], &skeleton->inverse_binds[j])) {
      return {Error::kNonFiniteValue, "singular bind matrix",
              "skeleton/inverse_binds/" + std::to_string(j)};
    }
  }
  return {};
}

// Splits `vertex_count` over the limbs in proportion to their tube areas; exact total.
std::array<size_t, 6> VerticesPerLimb(uint32_t vertex_count) {
  std::array<double, 6> area{};
  double total = 0.0;
  for (size_t l = 0; l < kLimbs.size(); ++l) {
    const Limb& limb = kLimbs[l];
    // The mean of the radius profile used below.
    const double mean_radius = limb.rounded ? limb.radius * (0.35 + 0.65 * 2.0 / std::numbers::pi)
                                            : limb.radius * (1.0 - 0.5 * limb.taper);
    area[l] = mean_radius * limb.length;
    total += area[l];
  }
  std::array<size_t, 6> counts{};
  double cumulative = 0.0;
  size_t previous_boundary = 0;
  for (size_t l = 0; l < kLimbs.size(); ++l) {
    cumulative += area[l];
    // Cumulative boundaries are monotonic and the last one is exactly vertex_count.
    const size_t boundary =
        l + 1 == kLimbs.size() ? vertex_count
                               : static_cast<size_t>(std::floor(vertex_count * cumulative / total));
    counts[l] = boundary - previous_boundary;
    previous_boundary = boundary;
  }
  return counts;
}

struct Candidate {
  float distance2;
  uint16_t joint;
};

}  // namespace

Result<Character> MakeCharacter(const CharacterOptions& options) {
  if (options.vertex_count == 0) {
    return ErrorInfo{Error::kInvalidArgument, "vertex_count must be at least 1", "vertex_count", 0};
  }
  if (options.joints_per_limb == 0 || options.joints_per_limb > kMaxJointsPerLimb) {
    return ErrorInfo{Error::kInvalidArgument,
                     "joints_per_limb is " + std::to_string(options.joints_per_limb) +
                         ", must be 1 to " + std::to_string(kMaxJointsPerLimb) +
                         " (joint indices are 16-bit)",
                     "joints_per_limb", 0};
  }
  const uint32_t k = options.influences_per_vertex;
  if (k == 0 || k % 4 != 0) {
    return ErrorInfo{
        Error::kInvalidInfluenceCount,
        "influences_per_vertex is " + std::to_string(k) + ", must be a positive multiple of 4",
        "influences_per_vertex", 0};
  }

  Character character;
  Primitive& mesh = character.mesh;
  Skeleton& skeleton = character.skeleton;
  const uint32_t n = options.joints_per_limb;
  std::vector<Float3> joint_positions;
  if (Status s = BuildSkeleton(n, options.seed, &skeleton, &joint_positions); !s) return s;
  const size_t joint_count = skeleton.joint_count();

  const size_t v_count = options.vertex_count;
  mesh.positions.resize(v_count * 3);
  if (options.with_normals) mesh.normals.resize(v_count * 3);
  if (options.with_tangents) mesh.tangents.resize(v_count * 4);
  mesh.influences.influences_per_vertex = k;
  mesh.influences.joints.assign(v_count * k, 0);
  mesh.influences.weights.assign(v_count * k, 0.0f);

  // Ring directions: 16 around, and the same shifted half a step for odd rings.
  std::array<float, 2 * kVerticesPerRing> ring_cos{}, ring_sin{};
  for (uint32_t i = 0; i < 2 * kVerticesPerRing; ++i) {
    const double angle = std::numbers::pi * i / kVerticesPerRing;
    ring_cos[i] = static_cast<float>(std::cos(angle));
    ring_sin[i] = static_cast<float>(std::sin(angle));
  }

  // Scratch for the nearest joints of one vertex, allocated once.
  const size_t kept = std::min<size_t>(k, joint_count);
  std::vector<Candidate> nearest(kept);
  // Keeps the weight finite for a vertex on a joint (m², well below any tube radius squared).
  constexpr float kEpsilon = 1e-4f;
  // Joints off a vertex's own chain (its limb and the limb's ancestors) count as this much farther
  // (m², added to the squared distance): a thigh is not dragged by the other leg, a hand not by
  // the head, yet every one of the K slots still gets a small nonzero weight.
  constexpr float kOffChainPenalty = 0.25f;
  std::vector<float> penalty(joint_count);

  Random random(StreamSeed(options.seed, 2));
  const std::array<size_t, 6> per_limb = VerticesPerLimb(options.vertex_count);
  size_t v = 0;
  for (size_t l = 0; l < kLimbs.size(); ++l) {
    const Limb& limb = kLimbs[l];
    const float handedness = l % 2 == 0 ? 1.0f : -1.0f;
    const size_t count = per_limb[l];
    std::fill(penalty.begin(), penalty.end(), kOffChainPenalty);
    const size_t first = FirstJointOf(l, n);
    for (size_t j = first; j < first + n; ++j) penalty[j] = 0.0f;
    for (int32_t a = skeleton.parents[first]; a != Skeleton::kNoParent;
         a = skeleton.parents[static_cast<size_t>(a)]) {
      penalty[static_cast<size_t>(a)] = 0.0f;
    }
    const size_t rings = (count + kVerticesPerRing - 1) / kVerticesPerRing;
    for (size_t i = 0; i < count; ++i, ++v) {
      const size_t ring = i / kVerticesPerRing;
      const size_t around = 2 * (i % kVerticesPerRing) + (ring % 2);
      const double t = (static_cast<double>(ring) + 0.5) / static_cast<double>(rings);
      const double profile =
          limb.rounded ? 0.35 + 0.65 * std::sin(std::numbers::pi * t) : 1.0 - limb.taper * t;
      const float radius =
          static_cast<float>(limb.radius * profile) * (1.0f + 0.08f * random.Signed());
      const Float3 center =
          Add(limb.start, Scale(limb.direction, static_cast<float>(limb.length * t)));
      const Float3 radial = NormalizeOrKeep(
          Add(Scale(limb.side, ring_cos[around]), Scale(limb.up, ring_sin[around])));
      const Float3 p = Add(center, Scale(radial, radius));
      mesh.positions[v * 3 + 0] = p.x;
      mesh.positions[v * 3 + 1] = p.y;
      mesh.positions[v * 3 + 2] = p.z;
      if (options.with_normals) {
        mesh.normals[v * 3 + 0] = radial.x;
        mesh.normals[v * 3 + 1] = radial.y;
        mesh.normals[v * 3 + 2] = radial.z;
      }
      if (options.with_tangents) {
        mesh.tangents[v * 4 + 0] = limb.direction.x;
        mesh.tangents[v * 4 + 1] = limb.direction.y;
        mesh.tangents[v * 4 + 2] = limb.direction.z;
        mesh.tangents[v * 4 + 3] = handedness;
      }

      // The `kept` nearest joints, nearest first; ties keep the lower joint index first.
      // The off-chain penalty makes the distance chain-aware.
      size_t found = 0;
      for (size_t j = 0; j < joint_count; ++j) {
        const Float3& q = joint_positions[j];
        const float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
        const float d2 = dx * dx + dy * dy + dz * dz + penalty[j];
        if (found == kept && !(d2 < nearest[kept - 1].distance2)) continue;
        size_t slot = found < kept ? found++ : kept - 1;
        for (; slot > 0 && nearest[slot - 1].distance2 > d2; --slot)
          nearest[slot] = nearest[slot - 1];
        nearest[slot] = {d2, static_cast<uint16_t>(j)};
      }

      // Weight ∝ 1 / (d² + ε)²: local enough to look like a skin, smooth everywhere. Distances
      // ascend, so weights descend (division by the sum keeps the order).
      float* weights = &mesh.influences.weights[v * k];
      uint16_t* joints = &mesh.influences.joints[v * k];
      float sum = 0.0f;
      for (size_t s = 0; s < kept; ++s) {
        const float inverse = 1.0f / (nearest[s].distance2 + kEpsilon);
        weights[s] = inverse * inverse;
        joints[s] = nearest[s].joint;
        sum += weights[s];
      }
      for (size_t s = 0; s < kept; ++s) weights[s] /= sum;
      // Slots past the joint count stay joint 0 with weight 0.
    }
  }

  if (Status s = skeleton.Validate(); !s) return s;
  if (Status s = mesh.Validate(joint_count); !s) return s;
  return character;
}

Status PoseCharacter(const Skeleton& skeleton, float time_seconds, uint32_t instance,
                     std::span<Float4x4> out_locals) {
  const size_t joint_count = skeleton.joint_count();
  if (out_locals.size() != joint_count) {
    return {Error::kSizeMismatch,
            "out_locals has " + std::to_string(out_locals.size()) + " entries for " +
                std::to_string(joint_count) + " joints",
            "out_locals"};
  }
  if (skeleton.rest_local.size() != joint_count) {
    return {Error::kSizeMismatch,
            "rest_local has " + std::to_string(skeleton.rest_local.size()) + " entries for " +
                std::to_string(joint_count) + " joints",
            "skeleton/rest_local"};
  }
  // Unit axes chosen by joint index alone (no seed): bend, swing, and two diagonals.
  static constexpr std::array<std::array<double, 3>, 4> kAxes = {
      {{1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, {0.6, 0.0, 0.8}, {0.0, 0.8, 0.6}}};
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  // The golden angle spreads instances' phases evenly however many there are.
  constexpr double kGoldenAngle = 2.399963229728653;
  for (size_t j = 0; j < joint_count; ++j) {
    const auto& axis = kAxes[j % kAxes.size()];
    const double phase = std::fmod(
        0.7 * static_cast<double>(j) + kGoldenAngle * static_cast<double>(instance), kTwoPi);
    const double angle = 0.35 * std::sin(1.7 * static_cast<double>(time_seconds) + phase);
    const Float4x4 rotation =
        ComposeTrs({0, 0, 0}, QuatAxisAngle(axis[0], axis[1], axis[2], angle), {1, 1, 1});
    out_locals[j] = Multiply(skeleton.rest_local[j], rotation);
  }
  return {};
}

}  // namespace sinew::procedural
