// The files `sinew bake` writes from a BakeResult (docs/bake.md): the manifest PREFIX.json with
// PREFIX.bin (little-endian float32), or one text mesh PREFIX.ply / PREFIX.obj for people.
#pragma once

#include <string>

#include "bake.h"
#include "sinew/asset/asset.h"

namespace sinew::tool {

// What the manifest records about the request.
struct BakeManifestInfo {
  std::string source;          // the input file as given
  std::string device = "cpu";  // "cpu" or "gpu"
  BakeOptions options;         // time and pose as asked
};

// Writes PREFIX.json + PREFIX.bin. False when a file cannot be written.
bool WriteBakeBin(const std::string& prefix, const BakeManifestInfo& info, const Asset& asset,
                  const BakeResult& baked);

// Writes PREFIX.<format>, format "ply" or "obj": every primitive's vertices (positions; normals
// where every primitive has them for OBJ, zeros where missing for PLY) and triangles (indexed or
// not; other topologies give vertices only). False when the file cannot be written.
bool WriteBakeMesh(const std::string& prefix, const std::string& format, const std::string& source,
                   const BakeResult& baked);

// The triangles of a baked primitive as vertex index triples (its indices, or 0, 1, 2, ... when it
// has none); empty for lines, points and the other topologies.
std::vector<uint32_t> BakedTriangles(const BakedPrimitive& b);

// One bake of a series: the time code it is written at, and what was baked there.
struct BakeFrame {
  double time_code = 0;
  BakeResult baked;
};

// Writes PREFIX.usda: per baked primitive a Mesh (triangles; a Points prim for other topologies)
// whose points and normals are time samples, one per frame. A primitive of a mesh named by a prim
// path ("/Root/Mesh", as the UsdSkel loader names them) is written at that path; others under
// /Baked, named by their node (and primitive, for a mesh of several). Each rigid binding named by a
// prim path is a prim of its type there, its xformOp:transform time-sampled (BakeResult::rigid).
// Everything is in scene space: the prims above are written as plain Xforms without transforms.
// `frames` all bake the same primitives. False when the file cannot be written.
// The stage's metadata: the time codes' rate, and the up axis and units the scene-space
// coordinates are in (those of the source's stage for a USD source; Y and 1 for glTF and G4MF).
struct BakeStage {
  double time_codes_per_second = 24;
  std::string up_axis = "Y";
  double meters_per_unit = 1;
};
bool WriteBakeUsda(const std::string& prefix, const std::string& source, const Asset& asset,
                   const BakeStage& stage, const std::vector<BakeFrame>& frames);

}  // namespace sinew::tool
