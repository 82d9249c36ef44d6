// Writing a skinned sinew::Asset (typically loaded from glTF) as a 3D G4MF file: how sinew makes
// G4MF test data (no public G4MF files exist), and a converter for engines that want G4MF.
//
// What is written, per node that instantiates a skinned mesh:
// - a skeleton node under the root (node 0), at the origin, whose bones are the skin's joints,
//   posed in the *bind pose* (each bone's skeleton-space transform is inverse(inverse bind
//   matrix)), since G4MF binds at the file's pose and stores no inverse bind matrices; a bone's
//   parent is its nearest ancestor among the skin's joints, else the skeleton. Bone transforms are
//   written as position + basis (exact for any affine matrix). joints = the skin's joints in
//   order, so G4MF group g is the glTF joint index g (or, for a skin with group_joints, that map).
// - a mesh-instance node (no transform) under the skeleton, with the node's morph weights as
//   blendAmounts.
// Then, per node that instantiates a mesh without a skin (a G4MF meshInstance needs no skin):
// a mesh-instance node under the bone of its nearest ancestor that is a written joint (so a head
// or a prop attached to a bone follows it; transform = its rest transform relative to that joint),
// else under the root at its rest scene-space transform. Other nodes are left out (G4MF nodes
// without a component add nothing here), and so are animations (G4MF has none).
// Per mesh (written once, however many instances):
// - every triangle primitive's vertices, concatenated, as the shared vertices; one
//   surface per primitive (simplexes; normals bound per corner to the same vertex order); the
//   influences, if any, as COO triplets (dense: zero weights dropped, weights descending, ties by
//   lower joint; sparse: the rows as they are);
//   morph targets as sparse blend shapes (position offsets, and normal offsets per surface; named
//   by Mesh::target_names, "Shape<t>" where a target has no name), the mesh weights as
//   blend.amounts (0 for a target that is an in-between, as in each instance's blendAmounts).
// Corner order is kept: corner k of primitive p is corner k of surface p, so a loaded G4MF
// primitive can be compared with the original corner by corner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"

namespace sinew::loader {

struct G4mfWriteOptions {
  bool binary = false;  // .g4b (JSON chunk + one BLOB chunk) instead of .g4tf (base64 data: URI)
  bool zstd = false;    // .g4b only: store the BLOB chunk Zstd-encoded
};

// What WriteG4mf left out, for a converter to tell its user: meshes no node instantiates, and
// every animation (by name, or "mesh N" / "animation N" when unnamed); and, one sentence each,
// what G4MF cannot say: rigid bindings (UsdSkel's implicit gprims), UsdSkel's normal rule
// (NormalBlend::kPerJoint: a G4MF reader skins normals by the blended matrix), dual-quaternion
// skinning, and a mesh's in-betweens (G4MF blends shapes linearly: an in-between's target is
// written as a shape of its own, at amount 0).
struct G4mfWriteReport {
  std::vector<std::string> meshes_left_out;
  std::vector<std::string> animations_left_out;
  std::vector<std::string> other_left_out;
};

// The file's bytes, and (if `report` is given) what was left out. Errors: kInvalidArgument when
// the asset has no mesh instance; kUnsupportedFeature for a primitive that is not triangles
// (mode 4), or a skin whose joints are not all distinct; the scene evaluation's errors for a
// node hierarchy it cannot evaluate (kInvalidHierarchy).
Result<std::vector<uint8_t>> WriteG4mf(const Asset& asset, const G4mfWriteOptions& options = {},
                                       G4mfWriteReport* report = nullptr);

}  // namespace sinew::loader
