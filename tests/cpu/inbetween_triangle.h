// An in-between asset written with SINEW_morph_inbetweens, and its deformation computed by hand,
// shared by the CPU and GPU tests (docs/semantics.md, "In-betweens";
// docs/SINEW_morph_inbetweens.md).
//
// A triangle whose vertex 0 moves by (0, 1, 0) in the primary shape (target 0) and by (1, 0, 0)
// in an in-between at 0.5 (target 1). Sub-shapes [0 (null), 0.5 (I), 1 (P)], so vertex 0 at
// weight w is (0, 0, 0) + I·(1, 0, 0) + P·(0, 1, 0) with (P, I) resolved as UsdSkel does:
//   w = -0.5: I = -1 -> (-1, 0);   0.25: I = 0.5 -> (0.5, 0);   0.5: I = 1 -> (1, 0);
//   0.75: I = P = 0.5 -> (0.5, 0.5);   1: P = 1 -> (0, 1);   1.5: I = -1, P = 2 -> (-1, 2).
// Vertex 1, (1, 0, 0), is in no shape.
#pragma once

#include <string>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/loader/file.h"
#include "sinew/loader/gltf.h"

namespace sinew::testing {

inline Result<loader::LoadedAsset> LoadInbetweenTriangle() {
  const std::string gltf = R"({
    "asset": {"version": "2.0"}, "extensionsUsed": ["SINEW_morph_inbetweens"],
    "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0},
                                "targets": [{"POSITION": 1}, {"POSITION": 2}]}],
                "extensions": {"SINEW_morph_inbetweens": {
                  "shapes": [{"target": 0, "inbetweens": [{"target": 1, "weight": 0.5}]}]}}}],
    "accessors": [
      {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
       "min": [0, 0, 0], "max": [1, 1, 0]},
      {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3",
       "min": [0, 0, 0], "max": [0, 1, 0]},
      {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3",
       "min": [0, 0, 0], "max": [1, 0, 0]}],
    "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                    {"buffer": 0, "byteOffset": 36, "byteLength": 36},
                    {"buffer": 0, "byteOffset": 72, "byteLength": 36}],
    "buffers": [{"byteLength": 108, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}]
  })";
  std::vector<uint8_t> bytes(gltf.begin(), gltf.end());
  bytes.resize(gltf.size() + loader::ReadPadding(), 0);
  return loader::LoadGltfFromMemory(std::span(bytes.data(), gltf.size()), ".");
}

// The primary's weight and where vertex 0 is then (z stays 0).
struct InbetweenCase {
  float w, x, y;
};
inline constexpr InbetweenCase kInbetweenCases[] = {
    {-0.5f, -1, 0}, {0.25f, 0.5f, 0}, {0.5f, 1, 0}, {0.75f, 0.5f, 0.5f}, {1, 0, 1}, {1.5f, -1, 2}};

}  // namespace sinew::testing
