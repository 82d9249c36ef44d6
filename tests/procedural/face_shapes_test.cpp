#include "sinew/procedural/face_shapes.h"

#include <gtest/gtest.h>

#include "sinew/procedural/character.h"

// Procedural face shapes: many sparse shapes over compact regions, some with an in-between,
// deterministic for a seed.

namespace sinew::procedural {
namespace {

SkinnedMesh Mesh(uint32_t vertices) {
  CharacterOptions o;
  o.vertex_count = vertices;
  auto m = MakeCharacter(o);
  EXPECT_TRUE(m.ok());
  return m.ok() ? std::move(m.value()) : SkinnedMesh{};
}

TEST(FaceShapes, MakesFiftyShapesEachMovingTwoToTenPercentOfTheVertices) {
  const SkinnedMesh mesh = Mesh(5000);
  auto face = MakeFaceShapes(mesh);
  ASSERT_TRUE(face.ok()) << face.error().ToString();
  ASSERT_EQ(face->targets.size(), 60u);  // 50 primaries + an in-between on every fifth
  ASSERT_EQ(face->inbetweens.size(), 10u);
  for (size_t t = 0; t < 50; ++t) {
    size_t moved = 0;
    for (size_t v = 0; v < mesh.vertex_count(); ++v) {
      const float* o = &face->targets[t].positions[v * 3];
      moved += o[0] != 0 || o[1] != 0 || o[2] != 0;
    }
    EXPECT_EQ(moved, face->touched[t]) << "shape " << t;
    EXPECT_LE(moved, size_t(0.10 * 5000) + 1) << "shape " << t;
    EXPECT_GE(moved, size_t(0.01 * 5000)) << "shape " << t;  // the falloff trims the edge
    EXPECT_EQ(face->targets[t].normals.size(), mesh.normals.size());
  }
  EXPECT_EQ(face->inbetweens[1].primary, 5u);
  EXPECT_EQ(face->inbetweens[1].inbetweens[0].target, 51u);
  EXPECT_FLOAT_EQ(face->inbetweens[1].inbetweens[0].weight, 0.5f);
}

TEST(FaceShapes, IsDeterministicForASeed) {
  const SkinnedMesh mesh = Mesh(800);
  FaceShapeOptions o;
  o.shapes = 8;
  auto a = MakeFaceShapes(mesh, o), b = MakeFaceShapes(mesh, o);
  ASSERT_TRUE(a.ok() && b.ok());
  for (size_t t = 0; t < a->targets.size(); ++t) {
    EXPECT_EQ(a->targets[t].positions, b->targets[t].positions);
  }
  o.seed = 2;
  auto c = MakeFaceShapes(mesh, o);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(a->targets[0].positions, c->targets[0].positions);
}

TEST(FaceShapes, RejectsBadFractionsAndAnEmptyMesh) {
  FaceShapeOptions o;
  o.min_fraction = 0.5f;
  o.max_fraction = 0.1f;
  EXPECT_EQ(MakeFaceShapes(Mesh(100), o).code(), Error::kInvalidArgument);
  EXPECT_EQ(MakeFaceShapes(SkinnedMesh{}).code(), Error::kInvalidArgument);
}

}  // namespace
}  // namespace sinew::procedural
