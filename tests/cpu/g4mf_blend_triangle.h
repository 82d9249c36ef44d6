// A hand-written G4MF (.g4tf) character with one blend shape and blendAmounts, and its deformation
// computed by hand, shared by the CPU and GPU tests (docs/semantics.md, "Blend shapes").
//
// Nodes: Root (0) -> Armature (1, skeleton, joints [2]) -> Hips (2, bone, at the origin), Body (3,
// meshInstance of mesh 0, blendAmounts [0.5]) and Body2 (4, meshInstance of mesh 0, no
// blendAmounts: the mesh's amounts [0.25]). Mesh 0 "BodyMesh": the triangle v0 (0,0,0), v1 (1,0,0),
// v2 (0,1,0), one surface whose corners all bind the normal (0,0,1), every vertex skinned to group
// 0 (Hips) with weight 1; blend shape "Bulge": v1 +(0,0,1), v2 +(0.5,0,0), normal value 0 +(1,0,0).
// At amount a, blend first: v0 (0,0,0), v1 (1,0,a), v2 (a/2,1,0), every normal (a,0,1)/√(1+a²);
// then skinning: at rest the identity; with Hips turned 90° about +Z (PoseHips), (x,y,z) ->
// (-y,x,z), so the offsets turn with the mesh: v1 (0,1,a), v2 (-1,a/2,0), normal (0,a,1)/√(1+a²).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"

namespace sinew::testing {

inline Result<loader::LoadedAsset> LoadG4mfBlendTriangle() {
  const std::string g4tf = R"({"asset": {"dimension": 3},
    "nodes": [
      {"name": "Root", "children": [1]},
      {"name": "Armature", "skeleton": {"joints": [2]}, "children": [2, 3, 4]},
      {"name": "Hips", "bone": {"length": 1}},
      {"name": "Body", "meshInstance": {"mesh": 0, "blendAmounts": [0.5]}},
      {"name": "Body2", "meshInstance": {"mesh": 0}}],
    "meshes": [{"name": "BodyMesh", "vertices": 0,
      "surfaces": [{"simplexes": 1, "normals": {"values": 2, "simplexes": 3}}],
      "skin": {"vertices": 4, "groups": 5, "weights": 6, "groupNames": ["Hips"]},
      "blend": {"amounts": [0.25], "shapes": [{"name": "Bulge",
        "position": {"indices": 7, "offsets": 8},
        "surfaces": [{"surface": 0, "normal": {"indices": 9, "offsets": 10}}]}]}}],
    "accessors": [
      {"bufferView": 0, "componentType": "float32", "vectorSize": 3},
      {"bufferView": 1, "componentType": "uint8", "vectorSize": 3},
      {"bufferView": 2, "componentType": "float32", "vectorSize": 3},
      {"bufferView": 3, "componentType": "uint8", "vectorSize": 3},
      {"bufferView": 4, "componentType": "uint32"},
      {"bufferView": 5, "componentType": "uint16"},
      {"bufferView": 6, "componentType": "float32"},
      {"bufferView": 7, "componentType": "uint32"},
      {"bufferView": 8, "componentType": "float32", "vectorSize": 3},
      {"bufferView": 9, "componentType": "uint32"},
      {"bufferView": 10, "componentType": "float32", "vectorSize": 3}],
    "bufferViews": [
      {"byteOffset": 0, "byteLength": 36}, {"byteOffset": 48, "byteLength": 3},
      {"byteOffset": 64, "byteLength": 12}, {"byteOffset": 80, "byteLength": 3},
      {"byteOffset": 96, "byteLength": 12}, {"byteOffset": 112, "byteLength": 6},
      {"byteOffset": 128, "byteLength": 12}, {"byteOffset": 144, "byteLength": 8},
      {"byteOffset": 160, "byteLength": 24}, {"byteOffset": 192, "byteLength": 4},
      {"byteOffset": 208, "byteLength": 12}],
    "buffers": [{"byteLength": 220, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAECAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAACAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIA/AACAPwAAgD8AAAAAAQAAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAACAPwAAAD8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAA=="}]})";
  std::vector<uint8_t> bytes(g4tf.begin(), g4tf.end());
  bytes.resize(g4tf.size() + loader::ReadPadding(), 0);
  return loader::LoadG4mfFromMemory(std::span(bytes.data(), g4tf.size()), ".");
}

// Turns Hips 90° about +Z (its rest transform is the identity; the inverse bind stays the rest's).
inline void PoseHips(Asset* a) {
  Node& hips = a->nodes[2];
  hips.has_matrix = false;
  hips.translation = {};
  hips.scale = {1, 1, 1};
  hips.rotation = {0, 0, std::sqrt(0.5f), std::sqrt(0.5f)};
}

// The three vertices' positions and normals (xyz each) at amount `a`, at rest or posed.
struct BlendTriangle {
  std::vector<float> positions, normals;
};
inline BlendTriangle ExpectedBlendTriangle(float a, bool posed) {
  const float n = 1 / std::sqrt(1 + a * a);
  BlendTriangle t;
  if (!posed) {
    t.positions = {0, 0, 0, 1, 0, a, a / 2, 1, 0};
    for (int v = 0; v < 3; ++v) t.normals.insert(t.normals.end(), {a * n, 0, n});
  } else {
    t.positions = {0, 0, 0, 0, 1, a, -1, a / 2, 0};
    for (int v = 0; v < 3; ++v) t.normals.insert(t.normals.end(), {0, a * n, n});
  }
  return t;
}

// The cases both the CPU and the GPU test run: a mesh-instance node, its morph weights (empty: the
// file's blendAmounts, as the scene pose holds them) and the amount they amount to.
struct BlendTriangleCase {
  uint32_t node;
  std::vector<float> weights;
  float amount;
};
inline const std::vector<BlendTriangleCase>& BlendTriangleCases() {
  static const std::vector<BlendTriangleCase> cases = {
      {3, {}, 0.5f}, {4, {}, 0.25f}, {3, {0}, 0}, {3, {-1}, -1}, {3, {2}, 2}};
  return cases;
}

}  // namespace sinew::testing
