// Writing a skinned sinew::Asset (typically loaded from glTF) as a UsdSkel layer, as .usda text, a
// .usdc crate file or a .usdz package: what `sinew convert IN OUT.usda|.usdc|.usdz` writes, and how
// sinew proves that its UsdSkel reading agrees with its glTF reading (a character converted and
// read back deforms as the original).
//
// What is written, under one SkelRoot "/Root" at the origin (docs/usda.md, "Writing .usda"):
// - per skin that a drawn node instantiates (skins of the same joints with the same inverse binds
//   share one, as a character's meshes do), a Skeleton "Skeleton_<k>": its joints are the skin's,
//   parents first (a joint's parent is its nearest ancestor among the skin's joints, a joint
//   without one a root), named by the joints' node names made unique among siblings; each joint's
//   transform relative to its parent joint (a root's: its scene-space transform, so the Skeleton
//   and the SkelRoot stay at identity and skeleton space is scene space); bindTransforms the
//   inverses of the inverse bind matrices; restTransforms the rest pose;
// - with a clip, per skeleton a SkelAnimation "Animation" bound as skel:animationSource: the
//   joints' translations (float3), rotations (quatf) and scales (half3, the schema's type: scales
//   keep about three significant digits) at every key time of the clip's samplers (time code =
//   seconds × timeCodesPerSecond), and the blend-shape weights of the skin's meshes;
// - per primitive of a skinned drawn mesh, a Mesh "<node>_<p>" bound to its skeleton: points,
//   triangles, vertex normals, dense influences as primvars:skel:jointIndices / jointWeights
//   (elementSize K, vertex interpolation, indices in skeleton order; sparse influences written
//   dense at the K that drops nothing, a G4MF skin's groups as their joints), an identity
//   geomBindTransform, and its morph targets as BlendShape prims (offsets, normalOffsets;
//   in-betweens as inbetweens:<name> with their weight) named by Mesh::target_names.
// Left out, and listed in the report: unskinned drawn meshes, primitives that are not triangles
// or weigh a G4MF group that maps to no joint, tangents, and clips other than the one written.
// Materials are not written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sinew/asset/asset.h"
#include "sinew/core/error.h"
#include "sinew/loader/loaded_asset.h"

namespace sinew::loader {

struct UsdaWriteOptions {
  int32_t animation = 0;              // the clip written (-1 or none in the asset: no animation)
  double time_codes_per_second = 24;  // > 0
  // The stage's upAxis and metersPerUnit (> 0): what the asset's coordinates are in, as
  // LoadedAsset says (glTF and G4MF are Y-up meters; an asset loaded from USD keeps its stage's,
  // which `sinew convert` passes on).
  UpAxis up_axis = UpAxis::kY;
  double meters_per_unit = 1;
};

struct UsdaWriteReport {
  std::vector<std::string> left_out;  // what was not written, one sentence each
};

// `name` as a USD prim name: letters, digits and '_' (anything else becomes '_'), '_' first when
// it would start with a digit; `fallback` (sanitized the same way) when `name` is empty.
std::string UsdPrimName(std::string_view name, std::string_view fallback);

// The layer's text. kInvalidArgument when no drawn node has a skin, or for options out of range;
// kUnsupportedFeature for a skin listing a node twice or a joint whose transform relative to its
// parent joint has shear at a key time; kInvalidValue for a singular inverse bind matrix; the
// scene evaluation's errors (kInvalidHierarchy, the animation jobs').
Result<std::string> WriteUsda(const Asset& asset, const UsdaWriteOptions& options = {},
                              UsdaWriteReport* report = nullptr);

// The same layer as a binary crate file (.usdc, version 0.8.0: docs/usdc.md, "Writing .usdc").
// WriteUsda's errors.
Result<std::vector<uint8_t>> WriteUsdc(const Asset& asset, const UsdaWriteOptions& options = {},
                                       UsdaWriteReport* report = nullptr);

// The crate file in a .usdz package, as its one file `layer_name` ("Character.usdc").
Result<std::vector<uint8_t>> WriteUsdz(const Asset& asset, std::string_view layer_name,
                                       const UsdaWriteOptions& options = {},
                                       UsdaWriteReport* report = nullptr);

}  // namespace sinew::loader
