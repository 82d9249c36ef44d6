// Procedural blend shapes for a procedural character: many sparse shapes, each moving a compact
// region of 2-10% of the vertices with a smooth falloff, some with an in-between — the shape of a
// facial rig, for the tests and `sinew bench`.
#pragma once

#include <cstdint>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/asset/skinned_mesh.h"
#include "sinew/core/error.h"

namespace sinew::procedural {

struct FaceShapeOptions {
  uint32_t shapes = 50;          // primary shapes
  float min_fraction = 0.02f;    // of the vertices each shape moves, at least
  float max_fraction = 0.10f;    // at most
  uint32_t inbetween_every = 5;  // every n-th shape gets an in-between at 0.5 (0: none)
  uint32_t seed = 1;
};

struct FaceShapes {
  // Primary targets first (0 .. shapes-1), then one in-between target per shape that has one.
  std::vector<MorphTarget> targets;
  std::vector<InbetweenShape> inbetweens;  // for cpu::SubShapeWeightsJob
  std::vector<size_t> touched;             // vertices each target moves
};

// Shapes over `mesh` (its positions; normal offsets when it has normals). Deterministic for a
// seed. kInvalidArgument for an empty mesh or fractions outside 0 < min <= max <= 1.
Result<FaceShapes> MakeFaceShapes(const SkinnedMesh& mesh, const FaceShapeOptions& options = {});

}  // namespace sinew::procedural
