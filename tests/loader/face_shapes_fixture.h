// No shared skinned asset has blend shapes: the writers' tests give a character's mesh procedural
// ones (procedural::MakeFaceShapes: position and normal offsets, every fifth shape with an
// in-between at 0.5).
#pragma once

#include <gtest/gtest.h>

#include "sinew/asset/asset.h"
#include "sinew/procedural/face_shapes.h"

namespace sinew::loader::writer_testing {

// Ten shapes on `mesh`'s first primitive, each moving 5-20 % of its vertices, some with an
// in-between; a test failure (and `mesh` unchanged) when they cannot be made.
inline void AddFaceShapes(Mesh* mesh) {
  procedural::FaceShapeOptions o;
  o.shapes = 10;
  o.min_fraction = 0.05f;
  o.max_fraction = 0.2f;
  auto shapes = procedural::MakeFaceShapes(mesh->primitives.at(0), o);
  ASSERT_TRUE(shapes.ok()) << shapes.error().ToString();
  ASSERT_FALSE(shapes->inbetweens.empty());
  mesh->primitives[0].targets = shapes->targets;
  mesh->inbetween_shapes = shapes->inbetweens;
}

}  // namespace sinew::loader::writer_testing
