// The procedural character: sinew's embedded default asset for tests and `sinew bench`.
// A tube-like body (trunk, head, two arms, two legs) around a joint tree, smooth weights,
// deterministic from a seed. Needs no file.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/asset/skeleton.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::procedural {

struct CharacterOptions {
  // Exact number of vertices; >= 1.
  uint32_t vertex_count = 20000;
  // Influence slots per vertex, K = 4·n (4, 8, 12, ...). Slots past the skeleton's joint count get
  // weight 0.
  uint32_t influences_per_vertex = 4;
  // Joints along each limb (>= 1); the skeleton has 1 + 6 · joints_per_limb joints.
  uint32_t joints_per_limb = 4;
  // Same seed, same character: bit for bit within one build (compilers that fuse multiply-adds
  // may differ in the last bit of a float).
  uint32_t seed = 1;
  // Also generate normals and tangents.
  bool with_normals = true;
  bool with_tangents = true;
};

// A character: its mesh (dense influences, palette indexed by joint) and its skeleton.
struct Character {
  Primitive mesh;
  Skeleton skeleton;
};

// Builds a character whose skeleton and mesh pass Skeleton::Validate() and
// Primitive::Validate(skeleton.joint_count()). Weights are normalized (sum 1) and
// sorted descending within each vertex. kInvalidArgument for vertex_count 0 or joints_per_limb 0,
// kInvalidInfluenceCount for K not a positive multiple of 4.
Result<Character> MakeCharacter(const CharacterOptions& options);

// A deterministic animated pose: the local transform of every joint at `time_seconds`, for crowd
// member `instance` (each instance moves with its own phase). At any time, a small rotation of each
// joint about its rest transform. `out_locals` must have skeleton.joint_count() entries.
Status PoseCharacter(const Skeleton& skeleton, float time_seconds, uint32_t instance,
                     std::span<Float4x4> out_locals);

}  // namespace sinew::procedural
