// The G4MF loader (3D files only: asset.dimension == 3): .g4tf (JSON with base64 or external
// buffers) and .g4b (binary chunks, optionally Zstd-encoded) into a validated sinew::Asset.
// Semantics and the rules checked: docs/G4MF.md.
//
// How G4MF maps onto sinew::Asset:
// - One scene whose single root is node 0. Nodes keep position + rotor/scale as T·R·S (rotor
//   [s, xy, xz, yz] -> quaternion (yz, -xz, xy, s)) or position + basis as a matrix.
// - Each mesh surface becomes a primitive. G4MF shares de-duplicated vertices between surfaces
//   and binds normals per corner; every distinct (vertex, normal) corner pair becomes one GPU
//   vertex, and its influences and position offsets are those of its G4MF vertex. Texture
//   coordinates are validated but not loaded (sinew loads no texture data from any format).
// - A skin becomes sparse influences (CSR) on each primitive; ties between equal weights are put
//   in increasing group order (an order G4MF leaves open; the result does not change).
// - A node with a meshInstance of a skinned mesh, whose parent is a skeleton, gets its own Skin:
//   joints = the distinct bones of skeleton.joints, inverse_binds from the file's rest pose
//   (inverse(world(bone)) · world(mesh node), docs/G4MF.md), group_joints = group -> joint.
// - Blend shapes become morph targets (dense over the primitive's vertices); blend.amounts the
//   mesh's weights, meshInstance.blendAmounts the node's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "sinew/asset/influence_layout.h"
#include "sinew/core/error.h"
#include "sinew/loader/file.h"
#include "sinew/loader/loaded_asset.h"

namespace sinew::loader {

struct G4mfOptions {
  // Upper bound on the decoded size of any one buffer (Zstd or base64 data, external files),
  // checked before allocating. A Zstd buffer may also decode to at most 1024 times its stored
  // size plus 1 MiB (so a few corrupt bytes never claim gigabytes).
  size_t max_buffer_bytes = size_t(1) << 32;
  // Layout of each skinned primitive's influences (sinew/asset/influence_layout.h): G4MF's own
  // sparse rows, or dense with dense_k slots per vertex (0: enough for the longest row, nothing
  // dropped; fewer keeps each vertex's heaviest entries, scaled to its authored total), or kAuto:
  // fewer bytes. Dense indices are groups, like the sparse ones (Skin::group_joints maps both).
  InfluenceLayout influences = InfluenceLayout::kSparse;
  uint32_t dense_k = 0;
  // Reads the file LoadG4mf is given and the buffers a URI names (sinew/loader/file.h); empty:
  // the file system (ReadFile).
  FileReader read_file;
};

// Loads a .g4tf or .g4b file (detected by content: the "G4MF" magic). External buffers resolve
// relative to the file's folder. Errors carry a code, a message and where (a JSON pointer such as
// "/meshes/0/skin/weights", a .g4b byte offset, a path, or for kJsonSyntax the line and column of
// the fault, "line 3, column 13").
Result<LoadedAsset> LoadG4mf(const std::filesystem::path& path, const G4mfOptions& options = {});

// Loads from memory. `bytes` must be followed by at least ReadPadding() readable bytes (as
// ReadFile's FileBytes are). External buffer URIs resolve against `base_dir`.
Result<LoadedAsset> LoadG4mfFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& base_dir,
                                       const G4mfOptions& options = {});

}  // namespace sinew::loader
