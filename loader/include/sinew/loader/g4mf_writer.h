// Writing a skinned sinew::Asset (typically loaded from glTF) as a 3D G4MF file: how sinew makes
// G4MF test data (no public G4MF files exist), and a converter for engines that want G4MF.
//
// What is written, per node that instantiates a skinned mesh (other nodes are left out):
// - a skeleton node under the root (node 0), at the origin, whose bones are the skin's joints,
//   posed in the *bind pose* (each bone's skeleton-space transform is inverse(inverse bind
//   matrix)), since G4MF binds at the file's pose and stores no inverse bind matrices; a bone's
//   parent is its nearest ancestor among the skin's joints, else the skeleton. Bone transforms are
//   written as position + basis (exact for any affine matrix). joints = the skin's joints in
//   order, so G4MF group g is the glTF joint index g (or, for a skin with group_joints, that map).
// - a mesh-instance node (no transform) under the skeleton, with the node's morph weights as
//   blendAmounts.
// - the mesh: every triangle primitive's vertices, concatenated, as the shared vertices; one
//   surface per primitive (simplexes; normals bound per corner to the same vertex order); the
//   influences as COO triplets (dense: zero weights dropped, weights descending, ties by lower
//   joint; sparse: the rows as they are);
//   morph targets as sparse blend shapes (position offsets, and normal offsets per surface; named
//   by Mesh::target_names, "Shape<t>" where a target has no name), the mesh weights as
//   blend.amounts.
// Corner order is kept: corner k of primitive p is corner k of surface p, so a loaded G4MF
// primitive can be compared with the original corner by corner.
#pragma once

#include <cstdint>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"

namespace sinew::loader {

struct G4mfWriteOptions {
  bool binary = false;  // .g4b (JSON chunk + one BLOB chunk) instead of .g4tf (base64 data: URI)
  bool zstd = false;    // .g4b only: store the BLOB chunk Zstd-encoded
};

// The file's bytes. Errors: kInvalidArgument when the asset has no skinned mesh instance;
// kUnsupportedFeature for a primitive that is not triangles (mode 4), or a skin whose joints are
// not all distinct.
Result<std::vector<uint8_t>> WriteG4mf(const Asset& asset, const G4mfWriteOptions& options = {});

}  // namespace sinew::loader
