// G4MF (3D) -> sinew::Asset. Passes in dependency order: asset, names, buffers, views, accessors,
// nodes (one object each, then hierarchy, skeleton membership, joints), meshes (surfaces, skin,
// blend shapes), then one Skin per skinned mesh instance. Every index is range-checked and every
// byte range bounded before it is read. The JSON is read as the glTF loader reads it: off
// simdjson's tape with Fields and Path (common/json.h), pointers formatted only for an error or a
// warning. The rules, and the G4MF specification files they come from: docs/G4MF.md, "Validation
// rules", whose rule names the comments below use.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/buffers.h"
#include "common/components.h"
#include "common/influence_layout_option.h"
#include "common/json.h"
#include "common/json_syntax.h"
#include "g4mf/accessor.h"
#include "g4mf/g4b.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"

namespace sinew::loader {
namespace {

using g4mf::Accessor;

// A node object's properties: its name, transform, children and components.
constexpr std::string_view kNodeKeys[] = {
    "name",   "position", "basis",        "rotor",         "scale",   "children", "bone",
    "camera", "light",    "meshInstance", "modelInstance", "physics", "skeleton"};
struct NodeKey {
  enum : size_t {
    kName,
    kPosition,
    kBasis,
    kRotor,
    kScale,
    kChildren,
    // The node components, mutually exclusive (docs/G4MF.md, Validation rules: node components), in
    // the order their conflicts are reported.
    kBone,
    kCamera,
    kLight,
    kMeshInstance,
    kModelInstance,
    kPhysics,
    kSkeleton
  };
};
using NodeFields = Fields<std::size(kNodeKeys)>;

struct NodeInfo {
  bool bone = false;
  bool skeleton = false;
  int32_t skeleton_of = -1;     // The skeleton a bone belongs to (itself for a skeleton).
  std::vector<int32_t> joints;  // skeleton.joints, -1 kept.
  int32_t mesh = -1;            // meshInstance.mesh
  bool has_blend_amounts = false;
  std::vector<float> blend_amounts;
};

struct MeshInfo {
  bool skinned = false;
  uint32_t group_count = 0;  // 1 + the largest group (0 without entries)
  size_t shape_count = 0;
  std::vector<std::string> group_names;  // skin.groupNames (empty: none given)
};

struct LoadState {
  const G4mfOptions* options = nullptr;
  std::filesystem::path base_dir;
  const g4mf::G4bFile* g4b = nullptr;
  size_t input_bytes = 0;
  std::vector<std::vector<uint8_t>> owned_buffers;
  std::vector<std::span<const uint8_t>> buffers;
  std::vector<BufferView> views;
  std::vector<Accessor> accessors;
  size_t material_count = 0;
  size_t shape_count = 0;
  std::vector<NodeInfo> nodes;
  std::vector<MeshInfo> meshes;
  // Output the asset may grow to (expanded corners, dense morph targets), so that a small file
  // whose objects all reference one large accessor cannot make the loader allocate without bound.
  size_t output_budget = 0;
  std::vector<Warning>* warnings = nullptr;
  Asset* asset = nullptr;
  std::vector<std::filesystem::path>* files_read = nullptr;  // LoadedAsset::external_files
  std::vector<uint32_t> children;                            // Scratch: one node's children.

  void Warn(const Path& where, std::string message) {
    warnings->push_back({where.ToString(), std::move(message)});
  }
  LoadStatus Spend(size_t bytes, const Path& where) {
    if (bytes > output_budget) {
      return {Error::kInvalidValue,
              "the asset would expand to more than " + std::to_string(output_budget) +
                  " bytes of vertex data (objects reuse accessors too often)",
              where.ToString()};
    }
    output_budget -= bytes;
    return {};
  }
};

// The pointers of the top-level arrays that later checks point into.
constexpr Path kNodesPath("/nodes");
constexpr Path kMeshesPath("/meshes");

// ---------------------------------------------------------------------------------------------
// Asset, names

LoadStatus CheckAsset(LoadState& c, TapeObject root) {
  TapeObject asset;
  bool present = false;
  SINEW_TRY(OptionalObject(FindField(root, "asset"), kDocumentRoot, &asset, &present));
  if (!present) return {Error::kMissingProperty, "a G4MF file needs \"asset\"", "/asset"};
  static constexpr std::string_view kKeys[] = {"dimension", "extensionsRequired", "extensionsUsed"};
  enum { kDimension, kExtensionsRequired, kExtensionsUsed };
  const Fields f(asset, kKeys);
  if (!f[kDimension].present) {
    return {Error::kMissingProperty, "asset.dimension is required (not a valid G4MF file)",
            "/asset/dimension"};
  }
  int64_t d = 0;
  if (!f[kDimension].value.GetInt64(&d)) {
    return {Error::kWrongType, "asset.dimension must be an integer (not a valid G4MF file)",
            "/asset/dimension"};
  }
  if (d != 3) {
    return {Error::kUnsupportedFeature,
            "sinew reads 3D G4MF files; this one has dimension " + std::to_string(d),
            "/asset/dimension"};
  }
  const Path asset_path(kDocumentRoot, "asset");
  std::vector<std::string_view> names;
  SINEW_TRY(OptionalStrings(f[kExtensionsRequired], asset_path, &names));
  if (!names.empty()) {  // sinew implements no G4MF extension yet
    return {Error::kUnsupportedExtension,
            "required extension \"" + std::string(names[0]) + "\" is not supported by sinew",
            "/asset/extensionsRequired/0"};
  }
  SINEW_TRY(OptionalStrings(f[kExtensionsUsed], asset_path, &names));
  c.asset->extensions_used.assign(names.begin(), names.end());
  return {};
}

// Names are unique across all items of the file and avoid " # * . : | ? @ < > { } [ ] / \ %
// (docs/G4MF.md, Validation rules: names). Runs before the passes that read these arrays: an
// array that is not one is reported here, an entry that is not an object by its own pass.
LoadStatus CheckNames(TapeObject root) {
  static constexpr std::string_view kArrays[] = {"accessors", "bufferViews", "buffers",
                                                 "files",     "materials",   "meshes",
                                                 "nodes",     "shapes",      "textures"};
  constexpr std::string_view kForbidden = "\"#*.:|?@<>{}[]/\\%";
  const Fields arrays(root, kArrays);
  // Each name -> the array (index into kArrays) and item that has it.
  std::unordered_map<std::string_view, std::pair<size_t, size_t>> seen;
  for (size_t a = 0; a < std::size(kArrays); ++a) {
    TapeArray array;
    bool present = false;
    SINEW_TRY(OptionalArray(arrays[a], kDocumentRoot, &array, &present));
    if (!present) continue;
    const Path array_path(kDocumentRoot, kArrays[a]);
    size_t i = 0;
    for (const TapeValue e : array) {
      const Path where(array_path, i);
      const size_t item = i++;
      TapeObject o;
      if (!GetObject(e, &o)) continue;
      std::string_view name;
      bool named = false;
      SINEW_TRY(OptionalString(FindField(o, "name"), where, &name, &named));
      if (!named) continue;
      const size_t bad = name.find_first_of(kForbidden);
      if (bad != std::string_view::npos) {
        return {Error::kInvalidValue,
                "name \"" + std::string(name) + "\" contains '" + name[bad] +
                    "', which G4MF names must not",
                Path(where, "name").ToString()};
      }
      auto [it, inserted] = seen.emplace(name, std::pair(a, item));
      if (!inserted) {
        const Path first_array(kDocumentRoot, kArrays[it->second.first]);
        return {Error::kInvalidValue,
                "name \"" + std::string(name) + "\" is already used by " +
                    Path(first_array, it->second.second).ToString() +
                    " (names are unique across the file)",
                Path(where, "name").ToString()};
      }
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Buffers, views, accessors

LoadStatus DecodeZstd(LoadState& c, std::span<const uint8_t> stored, size_t byte_length,
                      const Path& where, std::vector<uint8_t>* out) {
  const size_t bound = std::min(c.options->max_buffer_bytes, stored.size() * 1024 + (1u << 20));
  g4mf::G4bChunk chunk;
  chunk.encoding = g4mf::kG4bEncodingZstd;
  chunk.data = stored;
  auto decoded = g4mf::DecodeG4bChunk(chunk, byte_length, bound);
  if (!decoded) {
    ErrorInfo err = decoded.error();
    err.where = where.ToString();
    return err;
  }
  *out = std::move(decoded.value());
  return {};
}

// Buffer i's bytes from data chunk `chunk` of the .g4b file: the chunk itself when it is plain and
// the buffer is not Zstd (into c.buffers[i]; *plain set), else decoded into c.owned_buffers[i].
LoadStatus ReadChunkBuffer(LoadState& c, uint64_t chunk, uint64_t byte_length, bool zstd,
                           const Path& where, size_t i, bool* plain) {
  if (!c.g4b) {
    return {Error::kInvalidReference, "\"chunk\" needs a binary .g4b file",
            Path(where, "chunk").ToString()};
  }
  if (chunk >= c.g4b->chunks.size() || chunk == c.g4b->json_chunk) {
    return {Error::kInvalidReference,
            "chunk " + std::to_string(chunk) + " is not a data chunk of this file (it has " +
                std::to_string(c.g4b->chunks.size()) + " chunks, JSON is chunk " +
                std::to_string(c.g4b->json_chunk) + ")",
            Path(where, "chunk").ToString()};
  }
  const g4mf::G4bChunk& data = c.g4b->chunks[chunk];
  if (data.encoding == g4mf::kG4bEncodingNone && !zstd) {
    if (data.data.size() != byte_length) {
      return {Error::kOutOfBounds,
              "byteLength " + std::to_string(byte_length) + " but chunk " + std::to_string(chunk) +
                  " holds " + std::to_string(data.data.size()) + " bytes",
              Path(where, "byteLength").ToString()};
    }
    c.buffers[i] = data.data;
    *plain = true;
    return {};
  }
  if (data.encoding == g4mf::kG4bEncodingZstd && zstd) {
    return {Error::kInvalidValue, "the buffer and its chunk both say Zstd (encoded twice?)",
            Path(where, "encoding").ToString()};
  }
  return DecodeZstd(c, data.data, size_t(byte_length), Path(where, "chunk"), &c.owned_buffers[i]);
}

// Buffer i's bytes from its uri (a data: URI or a file), Zstd-decoded when the buffer says so,
// into c.owned_buffers[i], cut to byteLength.
LoadStatus ReadUriBuffer(LoadState& c, std::string_view uri, uint64_t byte_length, bool zstd,
                         const Path& where, size_t i) {
  std::vector<uint8_t>& owned = c.owned_buffers[i];
  SINEW_TRY(ReadBufferUri(c.base_dir, uri, Path(where, "uri"), c.options->read_file, &owned,
                          c.files_read));
  if (zstd) {
    std::vector<uint8_t> stored = std::move(owned);
    SINEW_TRY(DecodeZstd(c, stored, size_t(byte_length), Path(where, "uri"), &owned));
  } else {
    SINEW_TRY(CheckByteLength(byte_length, owned.size(), where));
  }
  owned.resize(size_t(byte_length));
  return {};
}

LoadStatus ReadBuffer(LoadState& c, TapeObject o, const Path& where, size_t i) {
  static constexpr std::string_view kKeys[] = {"byteLength", "chunk", "uri", "encoding"};
  enum { kByteLength, kChunk, kUri, kEncoding };
  const Fields f(o, kKeys);
  uint64_t byte_length = 0, chunk = 0;
  bool has_chunk = false, has_uri = false, has_encoding = false;
  std::string_view uri, encoding;
  SINEW_TRY(RequireUint(f[kByteLength], where, &byte_length));
  SINEW_TRY(OptionalUint(f[kChunk], where, &chunk, &has_chunk));
  SINEW_TRY(OptionalString(f[kUri], where, &uri, &has_uri));
  SINEW_TRY(OptionalString(f[kEncoding], where, &encoding, &has_encoding));
  if (has_chunk == has_uri) {
    return {has_chunk ? Error::kInvalidValue : Error::kMissingProperty,
            "a buffer has exactly one of \"uri\" and \"chunk\"", where.ToString()};
  }
  if (byte_length > c.options->max_buffer_bytes) {
    return {Error::kInvalidValue,
            "byteLength " + std::to_string(byte_length) + " is above the loader's limit of " +
                std::to_string(c.options->max_buffer_bytes),
            Path(where, "byteLength").ToString()};
  }
  const bool zstd = has_encoding && encoding == "Zstd";
  if (has_encoding && !zstd) {
    return {Error::kUnsupportedFeature,
            "buffer encoding \"" + std::string(encoding) + "\" (sinew decodes Zstd)",
            Path(where, "encoding").ToString()};
  }
  if (has_chunk) {
    bool plain = false;
    SINEW_TRY(ReadChunkBuffer(c, chunk, byte_length, zstd, where, i, &plain));
    if (plain) return {};
  } else {
    SINEW_TRY(ReadUriBuffer(c, uri, byte_length, zstd, where, i));
  }
  c.input_bytes += c.owned_buffers[i].size();
  c.buffers[i] = c.owned_buffers[i];
  return {};
}

LoadStatus LoadBuffers(LoadState& c, TapeObject root) {
  ObjectArray buffers;
  SINEW_TRY(RootObjects(root, "buffers", &buffers));
  c.buffers.resize(buffers.size());
  c.owned_buffers.resize(buffers.size());
  return buffers.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    return ReadBuffer(c, o, where, i);
  });
}

LoadStatus LoadViews(LoadState& c, TapeObject root) {
  ObjectArray views;
  SINEW_TRY(RootObjects(root, "bufferViews", &views));
  c.views.resize(views.size());
  static constexpr std::string_view kKeys[] = {"buffer", "byteOffset", "byteLength"};
  enum { kBuffer, kByteOffset, kByteLength };
  return views.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    const Fields f(o, kKeys);
    int32_t buffer = -1;
    uint64_t offset = 0, length = 0;
    SINEW_TRY(OptionalIndex(f[kBuffer], where, c.buffers.size(), &buffer));
    if (buffer < 0) {  // "buffer" defaults to 0
      if (c.buffers.empty()) {
        return {Error::kInvalidReference, "buffer 0 (the default) does not exist",
                Path(where, "buffer").ToString()};
      }
      buffer = 0;
    }
    SINEW_TRY(OptionalUint(f[kByteOffset], where, &offset));
    SINEW_TRY(RequireUint(f[kByteLength], where, &length));
    return ResolveView(c.buffers[size_t(buffer)], size_t(buffer), offset, length, where,
                       &c.views[i]);
  });
}

LoadStatus ReadAccessor(const LoadState& c, TapeObject o, const Path& where, Accessor* a) {
  static constexpr std::string_view kKeys[] = {"bufferView", "componentType", "vectorSize"};
  enum { kBufferView, kComponentType, kVectorSize };
  const Fields f(o, kKeys);
  uint32_t view = 0;
  std::string_view type_name;
  uint64_t vector_size = 1;
  SINEW_TRY(RequireIndex(f[kBufferView], where, c.views.size(), &view));
  SINEW_TRY(RequireString(f[kComponentType], where, &type_name));
  SINEW_TRY(OptionalUint(f[kVectorSize], where, &vector_size));
  auto type = g4mf::ParseComponentType(type_name);
  if (!type) {
    ErrorInfo err = type.error();
    err.where = Path(where, "componentType").ToString();
    return err;
  }
  if (vector_size == 0 || vector_size > 256) {
    return {Error::kInvalidValue, "vectorSize must be 1..256 (sinew's limit)",
            Path(where, "vectorSize").ToString()};
  }
  // Whole elements, component-aligned offset (docs/G4MF.md, Validation rules: accessor layout).
  const BufferView& v = c.views[view];
  const size_t element = type->bytes * size_t(vector_size);
  if (v.bytes.size() % element != 0) {
    return {Error::kInvalidValue,
            "bufferView " + std::to_string(view) + " holds " + std::to_string(v.bytes.size()) +
                " bytes, not a multiple of the " + std::to_string(element) + "-byte element",
            Path(where, "bufferView").ToString()};
  }
  if (v.byte_offset % type->bytes != 0) {
    return {Error::kInvalidValue,
            "bufferView " + std::to_string(view) + " starts at byte " +
                std::to_string(v.byte_offset) + ", not a multiple of the " +
                std::to_string(type->bytes) + "-byte component",
            Path(where, "bufferView").ToString()};
  }
  a->bytes = v.bytes;
  a->type = *type;
  a->vector_size = uint32_t(vector_size);
  a->count = v.bytes.size() / element;
  a->type_name = type_name;
  return {};
}

LoadStatus LoadAccessors(LoadState& c, TapeObject root) {
  ObjectArray accessors;
  SINEW_TRY(RootObjects(root, "accessors", &accessors));
  return accessors.ReadInto(&c.accessors, [&](TapeObject o, const Path& where, Accessor* a) {
    return ReadAccessor(c, o, where, a);
  });
}

// The accessor field f (of the object at `where`) refers to, checked for vector size and kind.
enum class Want { kFloat, kUnsigned, kAny };

LoadStatus RequireAccessor(const LoadState& c, const Field& f, const Path& where,
                           uint32_t vector_size, Want want, uint32_t* index) {
  SINEW_TRY(RequireIndex(f, where, c.accessors.size(), index));
  const Accessor& a = c.accessors[*index];
  if (a.vector_size != vector_size) {
    return {Error::kInvalidValue,
            "accessor " + std::to_string(*index) + " has vectorSize " +
                std::to_string(a.vector_size) + ", this property needs " +
                std::to_string(vector_size),
            Path(where, f.key).ToString()};
  }
  if (want == Want::kFloat && !a.is_float()) {
    return {Error::kInvalidValue,
            "accessor " + std::to_string(*index) + " is " + std::string(a.type_name) +
                "; this property needs a floating-point component type",
            Path(where, f.key).ToString()};
  }
  if (want == Want::kUnsigned && !a.is_unsigned()) {
    return {Error::kInvalidValue,
            "accessor " + std::to_string(*index) + " is " + std::string(a.type_name) +
                "; this property needs an unsigned integer component type",
            Path(where, f.key).ToString()};
  }
  return {};
}

// Every component of `a` as a float, finite (kNonFiniteValue at `where` naming the component).
LoadStatus FiniteFloats(const Accessor& a, const Path& where, std::vector<float>* out) {
  *out = g4mf::ReadFloats(a);
  const size_t i = FindNonFinite(*out);
  if (i == out->size()) return {};
  return {Error::kNonFiniteValue, "component " + std::to_string(i) + " is not finite",
          where.ToString()};
}

// Indices from accessor `index`, each < `size` (kInvalidReference naming the element).
LoadStatus IndicesBelow(const LoadState& c, uint32_t index, size_t size, const Path& where,
                        const char* what, std::vector<uint32_t>* out) {
  SINEW_TRY(g4mf::ReadUints(c.accessors[index], where, out));
  for (size_t i = 0; i < out->size(); ++i) {
    if ((*out)[i] >= size) {
      return {Error::kInvalidReference,
              "element " + std::to_string(i) + " is " + std::to_string((*out)[i]) +
                  " but there are " + std::to_string(size) + " " + what,
              where.ToString()};
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Nodes

// position (3), basis (9, column-major) or rotor (4, [s, xy, xz, yz]) + scale (1 or 3, > 0)
// (docs/G4MF.md, Validation rules: transforms).
LoadStatus LoadTransform(LoadState& c, const NodeFields& f, const Path& where, Node* node) {
  std::vector<double> position, basis, rotor, scale;
  bool has_position = false, has_basis = false, has_rotor = false, has_scale = false;
  SINEW_TRY(OptionalNumbers(f[NodeKey::kPosition], where, 3, &position, &has_position));
  SINEW_TRY(OptionalNumbers(f[NodeKey::kBasis], where, 9, &basis, &has_basis));
  SINEW_TRY(OptionalNumbers(f[NodeKey::kRotor], where, 4, &rotor, &has_rotor));
  SINEW_TRY(OptionalNumbers(f[NodeKey::kScale], where, 0, &scale, &has_scale));
  if (has_basis && (has_rotor || has_scale)) {
    return {Error::kInvalidValue, "\"basis\" excludes \"rotor\" and \"scale\"",
            Path(where, "basis").ToString()};
  }
  if (has_position) {
    node->translation = {float(position[0]), float(position[1]), float(position[2])};
  }
  if (has_scale) {
    if (scale.size() != 1 && scale.size() != 3) {
      return {Error::kInvalidValue,
              "scale has 1 or 3 numbers in 3D, found " + std::to_string(scale.size()),
              Path(where, "scale").ToString()};
    }
    for (size_t k = 0; k < scale.size(); ++k) {
      if (!(scale[k] > 0)) {
        const Path scale_path(where, "scale");
        return {Error::kInvalidValue, "scale must be positive (flips need a basis)",
                Path(scale_path, k).ToString()};
      }
    }
    node->scale = scale.size() == 1 ? Float3{float(scale[0]), float(scale[0]), float(scale[0])}
                                    : Float3{float(scale[0]), float(scale[1]), float(scale[2])};
  }
  if (has_rotor) {
    const double norm = std::sqrt(rotor[0] * rotor[0] + rotor[1] * rotor[1] + rotor[2] * rotor[2] +
                                  rotor[3] * rotor[3]);
    if (!(norm > 1e-6)) {
      return {Error::kInvalidValue, "rotor has zero length", Path(where, "rotor").ToString()};
    }
    if (std::fabs(norm - 1) > 1e-3) {
      c.Warn(Path(where, "rotor"),
             "rotor length " + std::to_string(norm) + " is not 1; normalized");
    }
    // [s, xy, xz, yz] -> quaternion (x, y, z, w) = (yz, -xz, xy, s) (G4MF specification,
    // transform.md; docs/G4MF.md).
    node->rotation = {float(rotor[3] / norm), float(-rotor[2] / norm), float(rotor[1] / norm),
                      float(rotor[0] / norm)};
  }
  if (has_basis) {
    node->has_matrix = true;
    node->matrix = Float4x4{};
    for (int col = 0; col < 3; ++col) {
      for (int row = 0; row < 3; ++row) node->matrix.m[col][row] = float(basis[col * 3 + row]);
    }
    node->matrix.m[3] = {node->translation.x, node->translation.y, node->translation.z, 1};
  }
  return {};
}

// A bone's length, mass and shape (docs/G4MF.md, Validation rules: bones); a mass of exactly 0 is
// allowed (the schema's exclusive minimum contradicts the text, which sinew follows).
LoadStatus LoadBone(const LoadState& c, TapeObject bone, const Path& where) {
  static constexpr std::string_view kKeys[] = {"length", "mass", "shape"};
  enum { kLength, kMass, kShape };
  const Fields f(bone, kKeys);
  double length = 0, mass = 0;
  bool has_length = false, has_mass = false;
  int32_t shape = -1;
  SINEW_TRY(OptionalNumber(f[kLength], where, &length, &has_length));
  SINEW_TRY(OptionalNumber(f[kMass], where, &mass, &has_mass));
  SINEW_TRY(OptionalIndex(f[kShape], where, c.shape_count, &shape));
  if (has_length && length < 0) {
    return {Error::kInvalidValue, "bone length must not be negative",
            Path(where, "length").ToString()};
  }
  if (has_mass && mass < 0) {
    return {Error::kInvalidValue, "bone mass must not be negative", Path(where, "mass").ToString()};
  }
  if (shape >= 0 && !has_length) {
    return {Error::kMissingProperty, "a bone with \"shape\" must define \"length\"",
            Path(where, "length").ToString()};
  }
  return {};
}

// skeleton.joints: node indices or -1, kept as written (checked against the hierarchy later).
LoadStatus LoadSkeleton(TapeObject skeleton, const Path& sw, size_t node_count, NodeInfo* info) {
  TapeArray joints;
  bool present = false;
  SINEW_TRY(OptionalArray(FindField(skeleton, "joints"), sw, &joints, &present));
  if (!present) return {};
  const Path joints_path(sw, "joints");
  size_t j = 0;
  for (const TapeValue joint : joints) {
    const Path jw(joints_path, j++);
    int64_t v = 0;
    if (!joint.GetInt64(&v)) {
      return {Error::kWrongType, "expected an integer node index or -1", jw.ToString()};
    }
    if (v < -1 || v >= int64_t(node_count)) {
      return {Error::kInvalidReference,
              "joint " + std::to_string(v) + " is neither -1 nor one of the " +
                  std::to_string(node_count) + " nodes",
              jw.ToString()};
    }
    info->joints.push_back(int32_t(v));
  }
  return {};
}

// meshInstance: the mesh, its blendAmounts (checked against the mesh's shapes later) and its
// materials (each -1 or a material index).
LoadStatus LoadMeshInstance(const LoadState& c, TapeObject instance, const Path& mw, Node* node,
                            NodeInfo* info) {
  static constexpr std::string_view kKeys[] = {"mesh", "blendAmounts", "materials"};
  enum { kMesh, kBlendAmounts, kMaterials };
  const Fields f(instance, kKeys);
  uint32_t mesh = 0;
  SINEW_TRY(RequireIndex(f[kMesh], mw, c.meshes.size(), &mesh));
  info->mesh = int32_t(mesh);
  node->mesh = int32_t(mesh);
  std::vector<double> amounts;
  SINEW_TRY(OptionalNumbers(f[kBlendAmounts], mw, 0, &amounts, &info->has_blend_amounts));
  info->blend_amounts.assign(amounts.begin(), amounts.end());
  TapeArray materials;
  bool present = false;
  SINEW_TRY(OptionalArray(f[kMaterials], mw, &materials, &present));
  if (!present) return {};
  const Path materials_path(mw, "materials");
  size_t k = 0;
  for (const TapeValue m : materials) {
    int64_t v = 0;
    if (!m.GetInt64(&v) || v < -1 || v >= int64_t(c.material_count)) {
      return {Error::kInvalidReference, "expected -1 or a material index",
              Path(materials_path, k).ToString()};
    }
    ++k;
  }
  return {};
}

// A node's component: at most one (docs/G4MF.md, Validation rules: node components); a bone, a
// skeleton or a mesh instance read, the others only counted.
LoadStatus LoadComponent(LoadState& c, const NodeFields& f, const Path& where, size_t node_count,
                         Node* node, NodeInfo* info) {
  constexpr size_t kNone = std::size(kNodeKeys);
  size_t component = kNone;
  for (size_t k = NodeKey::kBone; k <= NodeKey::kSkeleton; ++k) {
    if (!f[k].present) continue;
    if (component != kNone) {
      return {Error::kInvalidValue,
              "\"" + std::string(kNodeKeys[component]) + "\" and \"" + std::string(kNodeKeys[k]) +
                  "\" are mutually exclusive node components",
              Path(where, kNodeKeys[k]).ToString()};
    }
    component = k;
  }
  if (component != NodeKey::kBone && component != NodeKey::kSkeleton &&
      component != NodeKey::kMeshInstance) {
    return {};
  }
  TapeObject part;
  bool present = false;
  SINEW_TRY(OptionalObject(f[component], where, &part, &present));
  const Path part_path(where, kNodeKeys[component]);
  if (component == NodeKey::kBone) {
    info->bone = true;
    return LoadBone(c, part, part_path);
  }
  if (component == NodeKey::kSkeleton) {
    info->skeleton = true;
    return LoadSkeleton(part, part_path, node_count, info);
  }
  return LoadMeshInstance(c, part, part_path, node, info);
}

// One node object (node i of node_count): name, transform (none on the root node 0), children,
// component.
LoadStatus ReadNode(LoadState& c, TapeObject o, const Path& where, size_t i, size_t node_count) {
  const NodeFields f(o, kNodeKeys);
  Node& node = c.asset->nodes[i];
  SINEW_TRY(OptionalString(f[NodeKey::kName], where, &node.name));
  if (i == 0 && (f[NodeKey::kPosition].present || f[NodeKey::kBasis].present ||
                 f[NodeKey::kRotor].present || f[NodeKey::kScale].present)) {
    return {Error::kInvalidValue, "the root node 0 must not have a transform", where.ToString()};
  }
  SINEW_TRY(LoadTransform(c, f, where, &node));
  c.children.clear();
  SINEW_TRY(OptionalIndices(f[NodeKey::kChildren], where, node_count, &c.children));
  c.asset->SetChildren(i, c.children);
  return LoadComponent(c, f, where, node_count, &node, &c.nodes[i]);
}

// Hierarchy: node 0 is the only root; every other node has exactly one parent and is reached from
// the root (no cycles). *order: the nodes parents first (breadth-first from node 0).
LoadStatus LinkHierarchy(LoadState& c, std::vector<uint32_t>* order) {
  std::vector<Node>& nodes = c.asset->nodes;
  const size_t count = nodes.size();
  for (size_t n = 0; n < count; ++n) {
    const std::span<const uint32_t> children = c.asset->Children(n);
    for (size_t k = 0; k < children.size(); ++k) {
      const uint32_t child = children[k];
      if (child != 0 && nodes[child].parent < 0) {
        nodes[child].parent = int32_t(n);
        continue;
      }
      const Path node(kNodesPath, n), children_path(node, "children");
      if (child == 0) {
        return {Error::kInvalidHierarchy, "the root node 0 cannot be a child",
                Path(children_path, k).ToString()};
      }
      return {Error::kInvalidHierarchy,
              "node " + std::to_string(child) + " already has parent " +
                  std::to_string(nodes[child].parent),
              Path(children_path, k).ToString()};
    }
  }
  order->reserve(count);
  if (count) order->push_back(0);
  for (size_t k = 0; k < order->size(); ++k) {
    for (uint32_t child : c.asset->Children((*order)[k])) order->push_back(child);
  }
  if (order->size() == count) return {};
  std::vector<bool> reached(count, false);
  for (uint32_t n : *order) reached[n] = true;
  const size_t lost = size_t(std::find(reached.begin(), reached.end(), false) - reached.begin());
  return {Error::kInvalidHierarchy,
          "node " + std::to_string(lost) +
              " is not a descendant of the root node 0 (a second root, or a cycle)",
          Path(kNodesPath, lost).ToString()};
}

// Skeleton membership (docs/G4MF.md, Validation rules: skeleton membership): a bone's parent is a
// bone or a skeleton; it belongs to that skeleton, and only to it: a skeleton whose parent is a
// bone or a skeleton would make its bones belong to two (a skeleton elsewhere, e.g. under a mesh
// instance, is fine). `order`: parents first.
LoadStatus AssignSkeletons(LoadState& c, const std::vector<uint32_t>& order) {
  const std::vector<Node>& nodes = c.asset->nodes;
  for (uint32_t n : order) {
    NodeInfo& info = c.nodes[n];
    const int32_t parent = nodes[n].parent;
    if (info.skeleton && parent >= 0 && c.nodes[size_t(parent)].skeleton_of >= 0) {
      return {Error::kInvalidHierarchy,
              "a skeleton inside skeleton node " +
                  std::to_string(c.nodes[size_t(parent)].skeleton_of) + " (its parent node " +
                  std::to_string(parent) +
                  " is a bone or skeleton): its bones would belong to two skeletons (#12, "
                  "skeleton.md:78)",
              Path(Path(kNodesPath, n), "skeleton").ToString()};
    }
    if (info.skeleton) info.skeleton_of = int32_t(n);
    if (!info.bone) continue;
    if (parent < 0 || (!c.nodes[size_t(parent)].bone && !c.nodes[size_t(parent)].skeleton)) {
      return {Error::kInvalidHierarchy,
              "a bone's parent must be a bone or a skeleton" +
                  (parent < 0 ? std::string() : ", node " + std::to_string(parent) + " is neither"),
              Path(Path(kNodesPath, n), "bone").ToString()};
    }
    info.skeleton_of = c.nodes[size_t(parent)].skeleton_of;
  }
  return {};
}

// Skeleton n's joints (docs/G4MF.md, Validation rules: joints): each a bone of this skeleton, or
// -1; the order rules only warn (they contradict the duplicates and -1 the spec also allows).
LoadStatus CheckJoints(LoadState& c, size_t n) {
  const NodeInfo& info = c.nodes[n];
  const std::vector<Node>& nodes = c.asset->nodes;
  const Path node_path(kNodesPath, n), skeleton_path(node_path, "skeleton"),
      joints_path(skeleton_path, "joints");
  int32_t last = -1;
  bool ordered = true;
  std::unordered_map<int32_t, size_t> first_slot;  // joint node -> its first slot
  for (size_t j = 0; j < info.joints.size(); ++j) {
    const int32_t joint = info.joints[j];
    if (joint < 0) continue;
    if (!c.nodes[size_t(joint)].bone) {
      return {Error::kInvalidValue, "joint node " + std::to_string(joint) + " is not a bone",
              Path(joints_path, j).ToString()};
    }
    if (c.nodes[size_t(joint)].skeleton_of != int32_t(n)) {
      return {Error::kInvalidValue,
              "joint node " + std::to_string(joint) + " is not a bone of this skeleton",
              Path(joints_path, j).ToString()};
    }
    if (!first_slot.emplace(joint, j).second) continue;  // a duplicate: allowed
    if (joint <= last) ordered = false;
    last = joint;
    const int32_t parent = nodes[size_t(joint)].parent;
    if (c.nodes[size_t(parent)].bone && !first_slot.count(parent) &&
        std::find(info.joints.begin() + ptrdiff_t(j), info.joints.end(), parent) !=
            info.joints.end()) {
      ordered = false;  // the parent bone is listed after its child
    }
  }
  if (!ordered) {
    c.Warn(joints_path,
           "joints are not in strictly increasing, parents-first order (#11, skeleton.md:132)");
  }
  // A single root bone is the skeleton's first child. (That it is the first joint when it is one
  // follows from parents first, warned above, if -1 and duplicates are set aside.)
  if (!info.skeleton) return {};
  const std::span<const uint32_t> children = c.asset->Children(n);
  const auto is_bone = [&](uint32_t child) { return c.nodes[child].bone; };
  if (std::count_if(children.begin(), children.end(), is_bone) != 1) return {};
  const uint32_t root_bone = *std::find_if(children.begin(), children.end(), is_bone);
  if (children[0] != root_bone) {
    c.Warn(Path(node_path, "children"), "the skeleton's single root bone, node " +
                                            std::to_string(root_bone) +
                                            ", is not its first child (#11, skeleton.md:132)");
  }
  return {};
}

LoadStatus LoadNodes(LoadState& c, TapeObject root) {
  ObjectArray array;
  SINEW_TRY(RootObjects(root, "nodes", &array));
  const size_t count = array.size();
  c.asset->nodes.resize(count);
  c.nodes.resize(count);
  SINEW_TRY(array.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    return ReadNode(c, o, where, i, count);
  }));
  std::vector<uint32_t> order;
  SINEW_TRY(LinkHierarchy(c, &order));
  SINEW_TRY(AssignSkeletons(c, order));
  for (size_t n = 0; n < count; ++n) SINEW_TRY(CheckJoints(c, n));
  return {};
}

// ---------------------------------------------------------------------------------------------
// Meshes

// A binding of per-corner values (normals, texture coordinates) to a surface's simplexes.
struct Binding {
  bool present = false;
  std::vector<float> values;
  size_t value_count = 0;
  std::vector<uint32_t> corners;  // value index per corner
};

// The binding in field f of the surface at sw: `values` of vector_size floats, bound per corner
// by `simplexes` (the only binding sinew reads).
LoadStatus LoadBinding(const LoadState& c, const Field& f, const Path& sw, uint32_t vector_size,
                       size_t corner_count, Binding* out) {
  TapeObject o;
  SINEW_TRY(OptionalObject(f, sw, &o, &out->present));
  if (!out->present) return {};
  const Path bw(sw, f.key);
  static constexpr std::string_view kKeys[] = {"simplexes", "values", "perSimplex", "geometry"};
  enum { kSimplexes, kValues, kPerSimplex, kGeometry };
  const Fields bf(o, kKeys);
  if (!bf[kSimplexes].present) {
    for (const int other : {kPerSimplex, kGeometry}) {
      if (bf[size_t(other)].present) {
        return {Error::kUnsupportedFeature,
                "\"" + std::string(kKeys[other]) +
                    "\" bindings are not read by sinew (only per-corner \"simplexes\")",
                Path(bw, kKeys[other]).ToString()};
      }
    }
  }
  uint32_t values = 0, simplexes = 0;
  SINEW_TRY(RequireAccessor(c, bf[kValues], bw, vector_size, Want::kFloat, &values));
  SINEW_TRY(RequireAccessor(c, bf[kSimplexes], bw, 3, Want::kUnsigned, &simplexes));
  SINEW_TRY(FiniteFloats(c.accessors[values], Path(bw, "values"), &out->values));
  out->value_count = c.accessors[values].count;
  if (c.accessors[simplexes].count * 3 != corner_count) {
    return {Error::kSizeMismatch,
            "binds " + std::to_string(c.accessors[simplexes].count) +
                " simplexes, the surface has " + std::to_string(corner_count / 3),
            Path(bw, "simplexes").ToString()};
  }
  return IndicesBelow(c, simplexes, out->value_count, Path(bw, "simplexes"), "values",
                      &out->corners);
}

struct Surface {
  std::vector<uint32_t> corners;  // G4MF vertex per corner
  int32_t material = -1;
  Binding normals, texture_map;
};

// One surface of a mesh with vertex_count vertices: triangles, their material and bindings.
LoadStatus ReadSurface(const LoadState& c, TapeObject so, const Path& sw, size_t vertex_count,
                       Surface* surface) {
  static constexpr std::string_view kKeys[] = {"simplexes", "material", "normals", "textureMap"};
  enum { kSimplexes, kMaterial, kNormals, kTextureMap };
  const Fields f(so, kKeys);
  uint32_t simplexes = 0;
  SINEW_TRY(RequireIndex(f[kSimplexes], sw, c.accessors.size(), &simplexes));
  if (c.accessors[simplexes].vector_size != 3) {
    return {Error::kUnsupportedFeature,
            "simplexes of " + std::to_string(c.accessors[simplexes].vector_size) +
                " vertices; sinew draws triangles (3) in 3D",
            Path(sw, "simplexes").ToString()};
  }
  SINEW_TRY(IndicesBelow(c, simplexes, vertex_count, Path(sw, "simplexes"), "vertices",
                         &surface->corners));
  SINEW_TRY(OptionalIndex(f[kMaterial], sw, c.material_count, &surface->material));
  SINEW_TRY(LoadBinding(c, f[kNormals], sw, 3, surface->corners.size(), &surface->normals));
  return LoadBinding(c, f[kTextureMap], sw, 2, surface->corners.size(), &surface->texture_map);
}

// Groups sinew accepts: a palette of 65,536 entries is 3 MiB per instance.
constexpr uint32_t kMaxGroups = 1u << 16;

// A skin's COO triplets, decoded: vertex, group and weight per item.
struct SkinTriplets {
  std::vector<uint32_t> vertices, groups;
  std::vector<float> weights;
};

// The skin's vertices, groups and weights accessors (docs/G4MF.md, Validation rules: skin
// triplets): one item each, vertices < vertex_count.
LoadStatus ReadSkinTriplets(const LoadState& c, TapeObject skin, const Path& where,
                            size_t vertex_count, SkinTriplets* out) {
  static constexpr std::string_view kKeys[] = {"vertices", "groups", "weights"};
  enum { kVertices, kGroups, kWeights };
  const Fields f(skin, kKeys);
  uint32_t vertices = 0, groups = 0, weights = 0;
  SINEW_TRY(RequireAccessor(c, f[kVertices], where, 1, Want::kUnsigned, &vertices));
  SINEW_TRY(RequireAccessor(c, f[kGroups], where, 1, Want::kUnsigned, &groups));
  SINEW_TRY(RequireAccessor(c, f[kWeights], where, 1, Want::kFloat, &weights));
  const size_t n = c.accessors[vertices].count;
  if (c.accessors[groups].count != n || c.accessors[weights].count != n) {
    return {Error::kSizeMismatch,
            "vertices, groups and weights hold " + std::to_string(n) + ", " +
                std::to_string(c.accessors[groups].count) + " and " +
                std::to_string(c.accessors[weights].count) + " items; they must match",
            where.ToString()};
  }
  SINEW_TRY(
      IndicesBelow(c, vertices, vertex_count, Path(where, "vertices"), "vertices", &out->vertices));
  SINEW_TRY(g4mf::ReadUints(c.accessors[groups], Path(where, "groups"), &out->groups));
  out->weights = g4mf::ReadFloats(c.accessors[weights]);
  return {};
}

// skin.groupNames: unique, non-empty strings (docs/G4MF.md, Validation rules: group names).
LoadStatus ReadGroupNames(const Field& f, const Path& where,
                          std::vector<std::string>* group_names) {
  TapeArray names;
  bool present = false;
  SINEW_TRY(OptionalArray(f, where, &names, &present));
  if (!present) return {};
  const Path names_path(where, f.key);
  std::unordered_map<std::string_view, size_t> seen;
  size_t k = 0;
  for (const TapeValue e : names) {
    const Path nw(names_path, k);
    std::string_view name;
    if (!e.GetString(&name)) return {Error::kWrongType, "expected a string", nw.ToString()};
    if (name.empty()) return {Error::kInvalidValue, "group names must not be empty", nw.ToString()};
    if (!seen.emplace(name, k).second) {
      return {Error::kInvalidValue, "group name \"" + std::string(name) + "\" is used twice",
              nw.ToString()};
    }
    group_names->emplace_back(name);
    ++k;
  }
  return {};
}

// The triplets as rows per vertex (CSR): vertices non-decreasing, each vertex's weights finite,
// non-negative and descending; equal weights in increasing group order.
LoadStatus BuildSkinRows(LoadState& c, const SkinTriplets& t, const Path& where,
                         size_t vertex_count, SparseInfluences* out) {
  const size_t n = t.vertices.size();
  out->offsets.assign(vertex_count + 1, 0);
  out->groups.resize(n);
  out->weights.resize(n);
  uint32_t group_count = 0;
  size_t unnormalized = 0;
  for (size_t e = 0; e < n;) {
    const uint32_t v = t.vertices[e];
    if (e > 0 && v < t.vertices[e - 1]) {
      return {Error::kInvalidValue,
              "vertices must not decrease: item " + std::to_string(e) + " is " + std::to_string(v) +
                  " after " + std::to_string(t.vertices[e - 1]),
              Path(where, "vertices").ToString()};
    }
    size_t end = e;
    double sum = 0;
    while (end < n && t.vertices[end] == v) {
      const float w = t.weights[end];
      if (!std::isfinite(w)) {
        return {Error::kNonFiniteValue, "weight " + std::to_string(end) + " is not finite",
                Path(where, "weights").ToString()};
      }
      if (w < 0) {
        return {Error::kUnsupportedFeature,
                "weight " + std::to_string(end) +
                    " is negative (G4MF does not forbid it; sinew skins with non-negative "
                    "weights)",
                Path(where, "weights").ToString()};
      }
      if (end > e && w > t.weights[end - 1]) {
        return {Error::kInvalidValue,
                "weights of vertex " + std::to_string(v) + " must descend: item " +
                    std::to_string(end) + " is heavier than the one before",
                Path(where, "weights").ToString()};
      }
      // The palette has 1 + the largest group entries per instance: bounded, so a corrupt
      // group cannot make it huge (and group_count cannot wrap).
      if (t.groups[end] >= kMaxGroups) {
        return {Error::kUnsupportedFeature,
                "group " + std::to_string(t.groups[end]) + " (item " + std::to_string(end) +
                    "): sinew supports groups below " + std::to_string(kMaxGroups),
                Path(where, "groups").ToString()};
      }
      group_count = std::max(group_count, t.groups[end] + 1);
      sum += w;
      ++end;
    }
    if (std::fabs(sum - 1) > 1e-3) ++unnormalized;
    // Ties in increasing group order (sinew's canonical order; the result is the same).
    std::vector<std::pair<float, uint32_t>> row;
    for (size_t i = e; i < end; ++i) row.emplace_back(t.weights[i], t.groups[i]);
    std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    for (size_t i = e; i < end; ++i) {
      out->weights[i] = row[i - e].first;
      out->groups[i] = row[i - e].second;
    }
    out->offsets[v + 1] = uint32_t(end - e);
    e = end;
  }
  for (size_t v = 0; v < vertex_count; ++v) out->offsets[v + 1] += out->offsets[v];
  out->group_count = std::max<uint32_t>(group_count, 1);
  if (unnormalized) {
    c.Warn(Path(where, "weights"),
           std::to_string(unnormalized) +
               " vertices have weights that do not sum to 1; used as authored (G4MF does not "
               "normalize)");
  }
  return {};
}

// Sparse influences over the G4MF vertices, from the skin's COO triplets (docs/G4MF.md,
// Validation rules: skin triplets, group names, weight sums).
LoadStatus LoadSkin(LoadState& c, TapeObject skin, const Path& where, size_t vertex_count,
                    SparseInfluences* out, std::vector<std::string>* group_names) {
  SkinTriplets triplets;
  SINEW_TRY(ReadSkinTriplets(c, skin, where, vertex_count, &triplets));
  SINEW_TRY(ReadGroupNames(FindField(skin, "groupNames"), where, group_names));
  return BuildSkinRows(c, triplets, where, vertex_count, out);
}

// A blend shape's sparse offsets: indices into a target array and one offset vector each.
struct SparseOffsets {
  bool present = false;
  std::vector<uint32_t> indices;
  std::vector<float> offsets;
};

// The sparse offsets in field f of the object at `where`: `indices` (< target_count) and as many
// `offsets` of vector_size components.
LoadStatus LoadSparseOffsets(const LoadState& c, const Field& f, const Path& where,
                             size_t target_count, uint32_t vector_size, SparseOffsets* out) {
  TapeObject o;
  SINEW_TRY(OptionalObject(f, where, &o, &out->present));
  if (!out->present) return {};
  const Path w(where, f.key);
  static constexpr std::string_view kKeys[] = {"indices", "offsets"};
  enum { kIndices, kOffsets };
  const Fields sf(o, kKeys);
  uint32_t indices = 0, offsets = 0;
  SINEW_TRY(RequireAccessor(c, sf[kIndices], w, 1, Want::kUnsigned, &indices));
  SINEW_TRY(RequireAccessor(c, sf[kOffsets], w, vector_size, Want::kAny, &offsets));
  if (c.accessors[offsets].count != c.accessors[indices].count) {
    return {Error::kSizeMismatch,
            std::to_string(c.accessors[indices].count) + " indices but " +
                std::to_string(c.accessors[offsets].count) + " offsets",
            Path(w, "offsets").ToString()};
  }
  SINEW_TRY(IndicesBelow(c, indices, target_count, Path(w, "indices"), "targets", &out->indices));
  return FiniteFloats(c.accessors[offsets], Path(w, "offsets"), &out->offsets);
}

struct BlendShape {
  SparseOffsets position;
  // Per mesh surface: normal offsets (indices into that surface's normal values).
  std::vector<SparseOffsets> surface_normals;
};

// One entry of a shape's "surfaces" (the object at bw): normal and textureMap offsets for one of
// the mesh's surfaces, each only where that surface has the binding, not both absent.
LoadStatus ReadBlendSurface(const LoadState& c, TapeObject so, const Path& bw,
                            const std::vector<Surface>& surfaces, std::vector<bool>* used,
                            BlendShape* shape) {
  static constexpr std::string_view kKeys[] = {"surface", "normal", "textureMap"};
  enum { kSurface, kNormal, kTextureMap };
  const Fields f(so, kKeys);
  uint32_t surface = 0;
  SINEW_TRY(RequireIndex(f[kSurface], bw, surfaces.size(), &surface));
  if ((*used)[surface]) {
    return {Error::kInvalidValue,
            "surface " + std::to_string(surface) + " is listed twice in this shape",
            Path(bw, "surface").ToString()};
  }
  (*used)[surface] = true;
  const Surface& target = surfaces[surface];
  // Offsets for a binding the surface lacks, checked before their indices (which would all be out
  // of range of its zero values and hide this error).
  if (!target.normals.present && f[kNormal].present) {
    return {Error::kInvalidReference,
            "normal offsets for surface " + std::to_string(surface) + ", which has no normals",
            Path(bw, "normal").ToString()};
  }
  if (!target.texture_map.present && f[kTextureMap].present) {
    return {
        Error::kInvalidReference,
        "textureMap offsets for surface " + std::to_string(surface) + ", which has no textureMap",
        Path(bw, "textureMap").ToString()};
  }
  SparseOffsets uv;
  SINEW_TRY(LoadSparseOffsets(c, f[kNormal], bw, target.normals.value_count, 3,
                              &shape->surface_normals[surface]));
  SINEW_TRY(LoadSparseOffsets(c, f[kTextureMap], bw, target.texture_map.value_count, 2, &uv));
  if (!shape->surface_normals[surface].present && !uv.present) {
    return {Error::kInvalidValue, "an empty blend surface must be omitted", bw.ToString()};
  }
  return {};
}

// Blend shape k of `shape_count` (the object at sw): its name, position offsets and per-surface
// offsets.
LoadStatus ReadBlendShape(const LoadState& c, TapeObject o, const Path& sw, size_t k,
                          size_t shape_count, size_t vertex_count,
                          const std::vector<Surface>& surfaces, Mesh* mesh, BlendShape* shape) {
  static constexpr std::string_view kKeys[] = {"name", "position", "surfaces"};
  enum { kName, kPosition, kSurfaces };
  const Fields f(o, kKeys);
  // The shape's name (optional; a string, as every G4MF name): Mesh::target_names, "" for an
  // unnamed shape, and empty when no shape is named.
  std::string_view name;
  bool named = false;
  SINEW_TRY(OptionalString(f[kName], sw, &name, &named));
  if (named) mesh->target_names.resize(shape_count);
  if (!mesh->target_names.empty()) mesh->target_names[k] = std::string(name);
  SINEW_TRY(LoadSparseOffsets(c, f[kPosition], sw, vertex_count, 3, &shape->position));
  shape->surface_normals.resize(surfaces.size());
  ObjectArray list;
  bool present = false;
  SINEW_TRY(OptionalObjects(f[kSurfaces], sw, &list, &present));
  if (present && list.size() == 0) {
    return {Error::kInvalidValue, "an empty \"surfaces\" array must be omitted",
            Path(sw, "surfaces").ToString()};
  }
  if (list.size() > surfaces.size()) {
    return {Error::kInvalidValue,
            std::to_string(list.size()) + " blend surfaces but the mesh has " +
                std::to_string(surfaces.size()),
            Path(sw, "surfaces").ToString()};
  }
  std::vector<bool> used(surfaces.size(), false);
  return list.ForEach([&](TapeObject so, const Path& bw, size_t) -> LoadStatus {
    return ReadBlendSurface(c, so, bw, surfaces, &used, shape);
  });
}

LoadStatus LoadBlend(const LoadState& c, TapeObject blend, const Path& where, size_t vertex_count,
                     const std::vector<Surface>& surfaces, Mesh* mesh,
                     std::vector<BlendShape>* shapes) {
  static constexpr std::string_view kKeys[] = {"shapes", "amounts"};
  enum { kShapes, kAmounts };
  const Fields f(blend, kKeys);
  ObjectArray array;
  SINEW_TRY(OptionalObjects(f[kShapes], where, &array));
  shapes->resize(array.size());
  SINEW_TRY(array.ForEach([&](TapeObject o, const Path& sw, size_t k) -> LoadStatus {
    return ReadBlendShape(c, o, sw, k, array.size(), vertex_count, surfaces, mesh, &(*shapes)[k]);
  }));
  std::vector<double> amounts;
  bool has_amounts = false;
  SINEW_TRY(OptionalNumbers(f[kAmounts], where, 0, &amounts, &has_amounts));
  if (has_amounts && amounts.size() != shapes->size()) {
    return {Error::kSizeMismatch,
            std::to_string(amounts.size()) + " amounts for " + std::to_string(shapes->size()) +
                " shapes",
            Path(where, "amounts").ToString()};
  }
  mesh->weights.assign(amounts.begin(), amounts.end());
  return {};
}

// The shape's normal offsets for a surface, or null (also for the points of a surface-less mesh).
const SparseOffsets* SurfaceNormals(const BlendShape& shape, size_t surface) {
  return surface < shape.surface_normals.size() && shape.surface_normals[surface].present
             ? &shape.surface_normals[surface]
             : nullptr;
}

// Blend shapes as dense morph targets over a primitive's n vertices: by the corner's vertex
// (positions) or normal value (normals).
void ScatterTargets(const std::vector<BlendShape>& shapes, size_t surface_index, size_t n,
                    const std::vector<uint32_t>& source_vertex, size_t position_count,
                    const std::vector<uint32_t>& source_normal, size_t normal_count, Primitive* p) {
  // Offsets per source item first: a duplicate index adds up (as UsdSkel applies them).
  const auto scatter = [n](const SparseOffsets& sparse, const std::vector<uint32_t>& source,
                           size_t source_count, std::vector<float>* out) {
    std::vector<float> sum(source_count * 3, 0.0f);
    for (size_t k = 0; k < sparse.indices.size(); ++k) {
      for (size_t x = 0; x < 3; ++x) sum[sparse.indices[k] * 3 + x] += sparse.offsets[k * 3 + x];
    }
    out->assign(n * 3, 0.0f);
    for (size_t i = 0; i < n; ++i) std::memcpy(&(*out)[i * 3], &sum[size_t(source[i]) * 3], 12);
  };
  p->targets.resize(shapes.size());
  for (size_t s = 0; s < shapes.size(); ++s) {
    MorphTarget& t = p->targets[s];
    if (shapes[s].position.present) {
      scatter(shapes[s].position, source_vertex, position_count, &t.positions);
    }
    if (const SparseOffsets* normals = SurfaceNormals(shapes[s], surface_index)) {
      scatter(*normals, source_normal, normal_count, &t.normals);
    }
  }
}

// Surface -> primitive: one GPU vertex per distinct (vertex, normal value) corner.
LoadStatus BuildPrimitive(LoadState& c, const std::vector<float>& positions, const Surface& surface,
                          size_t surface_index, const SparseInfluences* skin,
                          const std::vector<BlendShape>& shapes, const Path& where, Primitive* p) {
  const size_t corners = surface.corners.size();
  std::unordered_map<uint64_t, uint32_t> remap;
  remap.reserve(corners);
  std::vector<uint32_t> source_vertex, source_normal;
  p->indices.resize(corners);
  for (size_t k = 0; k < corners; ++k) {
    const uint32_t v = surface.corners[k];
    const uint32_t nrm = surface.normals.present ? surface.normals.corners[k] : 0;
    const uint64_t key = (uint64_t(v) << 32) | nrm;
    auto [it, inserted] = remap.emplace(key, uint32_t(source_vertex.size()));
    if (inserted) {
      source_vertex.push_back(v);
      source_normal.push_back(nrm);
    }
    p->indices[k] = it->second;
  }
  const size_t n = source_vertex.size();
  size_t floats = n * (surface.normals.present ? 6 : 3);
  for (const BlendShape& shape : shapes) {
    floats +=
        (shape.position.present ? 3 * n : 0) + (SurfaceNormals(shape, surface_index) ? 3 * n : 0);
  }
  SINEW_TRY(c.Spend(floats * sizeof(float) + corners * 4, where));
  p->positions.resize(n * 3);
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(&p->positions[i * 3], &positions[size_t(source_vertex[i]) * 3], 12);
  }
  if (surface.normals.present) {
    p->normals.resize(n * 3);
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(&p->normals[i * 3], &surface.normals.values[size_t(source_normal[i]) * 3], 12);
    }
  }
  if (skin) {
    SparseInfluences& out = p->sparse_influences;
    out.group_count = skin->group_count;
    out.offsets.resize(n + 1);
    out.offsets[0] = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t v = source_vertex[i];
      const uint32_t begin = skin->offsets[v], end = skin->offsets[v + 1];
      out.groups.insert(out.groups.end(), skin->groups.begin() + begin, skin->groups.begin() + end);
      out.weights.insert(out.weights.end(), skin->weights.begin() + begin,
                         skin->weights.begin() + end);
      out.offsets[i + 1] = uint32_t(out.groups.size());
    }
  }
  ScatterTargets(shapes, surface_index, n, source_vertex, positions.size() / 3, source_normal,
                 surface.normals.value_count, p);
  p->material = surface.material;
  p->mode = 4;
  return {};
}

// Mesh i's primitives: one per surface, or one of points when it has none.
LoadStatus BuildPrimitives(LoadState& c, const std::vector<float>& positions,
                           const std::vector<Surface>& surfaces, const SparseInfluences* skin,
                           const std::vector<BlendShape>& shapes, const Path& where, Mesh* mesh) {
  if (surfaces.empty()) {  // No surfaces: the vertices as points.
    const size_t vertex_count = positions.size() / 3;
    Surface points;
    points.corners.resize(vertex_count);
    for (size_t v = 0; v < vertex_count; ++v) points.corners[v] = uint32_t(v);
    SINEW_TRY(BuildPrimitive(c, positions, points, 0, skin, shapes, where,
                             &mesh->primitives.emplace_back()));
    mesh->primitives.back().indices.clear();
    mesh->primitives.back().mode = 0;
  }
  mesh->primitives.reserve(surfaces.size());
  const Path surfaces_path(where, "surfaces");
  for (size_t s = 0; s < surfaces.size(); ++s) {
    SINEW_TRY(BuildPrimitive(c, positions, surfaces[s], s, skin, shapes, Path(surfaces_path, s),
                             &mesh->primitives.emplace_back()));
  }
  return {};
}

// One mesh object (mesh i): vertices, surfaces, skin and blend shapes, built into primitives.
LoadStatus ReadMesh(LoadState& c, TapeObject o, const Path& where, size_t i) {
  static constexpr std::string_view kKeys[] = {"name", "vertices", "surfaces", "skin", "blend"};
  enum { kName, kVertices, kSurfaces, kSkin, kBlend };
  const Fields f(o, kKeys);
  Mesh& mesh = c.asset->meshes[i];
  SINEW_TRY(OptionalString(f[kName], where, &mesh.name));
  uint32_t vertices = 0;
  SINEW_TRY(RequireAccessor(c, f[kVertices], where, 3, Want::kAny, &vertices));
  std::vector<float> positions;
  SINEW_TRY(FiniteFloats(c.accessors[vertices], Path(where, "vertices"), &positions));
  const size_t vertex_count = c.accessors[vertices].count;

  ObjectArray list;
  SINEW_TRY(OptionalObjects(f[kSurfaces], where, &list));
  std::vector<Surface> surfaces(list.size());
  SINEW_TRY(list.ForEach([&](TapeObject so, const Path& sw, size_t j) -> LoadStatus {
    return ReadSurface(c, so, sw, vertex_count, &surfaces[j]);
  }));

  TapeObject skin;
  SparseInfluences influences;
  std::vector<std::string> group_names;
  bool skinned = false;
  SINEW_TRY(OptionalObject(f[kSkin], where, &skin, &skinned));
  if (skinned) {
    SINEW_TRY(LoadSkin(c, skin, Path(where, "skin"), vertex_count, &influences, &group_names));
  }
  TapeObject blend;
  bool has_blend = false;
  std::vector<BlendShape> shapes;
  SINEW_TRY(OptionalObject(f[kBlend], where, &blend, &has_blend));
  if (has_blend) {
    SINEW_TRY(LoadBlend(c, blend, Path(where, "blend"), vertex_count, surfaces, &mesh, &shapes));
  }
  c.meshes[i] = {skinned, influences.group_count, shapes.size(), std::move(group_names)};
  return BuildPrimitives(c, positions, surfaces, skinned ? &influences : nullptr, shapes, where,
                         &mesh);
}

LoadStatus LoadMeshes(LoadState& c, TapeObject root) {
  ObjectArray meshes;
  SINEW_TRY(RootObjects(root, "meshes", &meshes));
  c.asset->meshes.resize(meshes.size());
  c.meshes.resize(meshes.size());
  return meshes.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    return ReadMesh(c, o, where, i);
  });
}

// ---------------------------------------------------------------------------------------------
// Skins of mesh instances, scene

// Rest world transforms, parents first (node 0 is the root; parents precede by construction of
// the breadth-first order, recomputed here).
std::vector<Float4x4> RestWorld(const Asset& asset) {
  const std::vector<Node>& nodes = asset.nodes;
  std::vector<Float4x4> world(nodes.size());
  std::vector<uint32_t> order;
  if (!nodes.empty()) order.push_back(0);
  for (size_t k = 0; k < order.size(); ++k) {
    const Node& node = nodes[order[k]];
    const Float4x4 local =
        node.has_matrix ? node.matrix : ComposeTrs(node.translation, node.rotation, node.scale);
    world[order[k]] = node.parent < 0 ? local : Multiply(world[size_t(node.parent)], local);
    for (uint32_t child : asset.Children(node)) order.push_back(child);
  }
  return world;
}

// Group names must agree between the meshes one skeleton skins (docs/G4MF.md, Validation rules:
// group names). `named`: the skeleton's group names so far, and the mesh that named each first.
LoadStatus CheckGroupNames(const MeshInfo& mesh, int32_t mesh_index, int32_t skeleton,
                           std::vector<std::pair<std::string_view, int32_t>>* named) {
  for (size_t g = 0; g < mesh.group_names.size(); ++g) {
    if (g == named->size()) named->emplace_back(mesh.group_names[g], mesh_index);
    if ((*named)[g].first == mesh.group_names[g]) continue;
    const Path mesh_path(kMeshesPath, size_t(mesh_index)), skin_path(mesh_path, "skin"),
        names_path(skin_path, "groupNames");
    return {Error::kInvalidValue,
            "group " + std::to_string(g) + " is \"" + mesh.group_names[g] + "\" here but \"" +
                std::string((*named)[g].first) + "\" in mesh " +
                std::to_string((*named)[g].second) + ", which skeleton node " +
                std::to_string(skeleton) + " also skins (#6, skeleton.md:39)",
            Path(names_path, g).ToString()};
  }
  return {};
}

// The Skin of mesh instance n, a child of skeleton node `skeleton_node`: joints = the distinct
// bones of skeleton.joints, bound at the rest pose (rest transforms invertible: docs/G4MF.md,
// Validation rules: rest transforms).
LoadStatus BuildInstanceSkin(const LoadState& c, size_t n, int32_t skeleton_node,
                             const std::vector<Float4x4>& world, Skin* skin) {
  const NodeInfo& skeleton = c.nodes[size_t(skeleton_node)];
  skin->name = c.asset->nodes[size_t(skeleton_node)].name;
  skin->skeleton = skeleton_node;
  for (int32_t joint : skeleton.joints) {
    if (joint < 0) {
      skin->group_joints.push_back(-1);
      continue;
    }
    auto it = std::find(skin->joints.begin(), skin->joints.end(), uint32_t(joint));
    if (it == skin->joints.end()) {
      Float4x4 inverse;
      if (!Invert(world[size_t(joint)], &inverse)) {
        return {Error::kInvalidValue,
                "bone node " + std::to_string(joint) +
                    " has a singular rest transform; G4MF binds at the rest pose",
                Path(kNodesPath, size_t(joint)).ToString()};
      }
      skin->joints.push_back(uint32_t(joint));
      skin->inverse_binds.push_back(Multiply(inverse, world[n]));
      it = skin->joints.end() - 1;
    }
    skin->group_joints.push_back(int32_t(it - skin->joints.begin()));
  }
  return {};
}

LoadStatus BuildSkins(LoadState& c) {
  std::vector<Node>& nodes = c.asset->nodes;
  const std::vector<Float4x4> world = RestWorld(*c.asset);
  // Skeleton node -> each group's name and the mesh that named it first.
  std::unordered_map<int32_t, std::vector<std::pair<std::string_view, int32_t>>> names_of;
  for (size_t n = 0; n < nodes.size(); ++n) {
    const NodeInfo& info = c.nodes[n];
    if (info.mesh < 0) continue;
    const Path node_path(kNodesPath, n), where(node_path, "meshInstance");
    const MeshInfo& mesh = c.meshes[size_t(info.mesh)];
    if (info.has_blend_amounts) {
      if (info.blend_amounts.size() != mesh.shape_count) {
        return {Error::kSizeMismatch,
                std::to_string(info.blend_amounts.size()) + " blendAmounts for a mesh with " +
                    std::to_string(mesh.shape_count) + " blend shapes",
                Path(where, "blendAmounts").ToString()};
      }
      nodes[n].weights = info.blend_amounts;
    }
    if (!mesh.skinned) continue;
    const int32_t parent = nodes[n].parent;
    // docs/G4MF.md, Validation rules: skinned instances.
    if (parent < 0 || !c.nodes[size_t(parent)].skeleton) {
      c.Warn(where,
             "mesh " + std::to_string(info.mesh) +
                 " has a skin but this node is not a direct child of a skeleton: drawn unskinned");
      continue;
    }
    SINEW_TRY(CheckGroupNames(mesh, info.mesh, parent, &names_of[parent]));
    Skin skin;
    SINEW_TRY(BuildInstanceSkin(c, n, parent, world, &skin));
    // docs/G4MF.md, Validation rules: groups past the joints.
    if (mesh.group_count > skin.group_joints.size()) {
      c.Warn(where, "groups " + std::to_string(skin.group_joints.size()) + ".." +
                        std::to_string(mesh.group_count - 1) +
                        " have no joint in this skeleton: they do nothing (untransformed)");
    }
    nodes[n].skin = int32_t(c.asset->skins.size());
    c.asset->skins.push_back(std::move(skin));
  }
  if (!nodes.empty()) {
    c.asset->scenes.push_back({"", {0}});
    c.asset->scene = 0;
  }
  return {};
}

Result<LoadedAsset> LoadDocument(std::span<const uint8_t> json, size_t padding,
                                 const g4mf::G4bFile* g4b, size_t file_size,
                                 const std::filesystem::path& base_dir,
                                 const G4mfOptions& options) {
  simdjson::dom::parser parser;
  if (padding < simdjson::SIMDJSON_PADDING) {
    return Status(Error::kInvalidArgument, "the JSON must be followed by simdjson's padding");
  }
  LoadedAsset out;
  const std::string context = JsonContext(g4b != nullptr);
  SkipByteOrderMark(&json, context + "byte 0", &out.warnings);
  if (const auto error = parser.parse(json.data(), json.size(), false).error()) {
    return JsonSyntaxError(json, error, context);
  }
  TapeObject root;
  SINEW_TRY(AsObject(TapeValue::Root(parser), kDocumentRoot, &root));
  LoadState c;
  c.options = &options;
  c.base_dir = base_dir;
  c.g4b = g4b;
  c.input_bytes = file_size;
  c.warnings = &out.warnings;
  c.asset = &out.asset;
  c.files_read = &out.external_files;
  c.material_count = ArraySize(root, "materials");
  c.shape_count = ArraySize(root, "shapes");
  SINEW_TRY(CheckAsset(c, root));
  SINEW_TRY(CheckNames(root));
  SINEW_TRY(LoadBuffers(c, root));
  c.output_budget = 64 * c.input_bytes + (size_t(64) << 20);
  SINEW_TRY(LoadViews(c, root));
  SINEW_TRY(LoadAccessors(c, root));
  c.meshes.resize(ArraySize(root, "meshes"));  // for meshInstance.mesh range checks
  SINEW_TRY(LoadNodes(c, root));
  SINEW_TRY(LoadMeshes(c, root));
  SINEW_TRY(BuildSkins(c));
  SINEW_TRY(UseLayout(out.asset, options.influences, options.dense_k, "surfaces"));
  return out;
}

}  // namespace

Result<LoadedAsset> LoadG4mfFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& base_dir,
                                       const G4mfOptions& options) {
  const size_t padding = ReadPadding();
  if (!g4mf::IsG4b(bytes)) {
    return LoadDocument(bytes, padding, nullptr, bytes.size(), base_dir, options);
  }
  SINEW_TRY_ASSIGN(const g4mf::G4bFile file, g4mf::ParseG4b(bytes));
  const g4mf::G4bChunk& json = file.chunks[file.json_chunk];
  const size_t bound = std::min(options.max_buffer_bytes, json.data.size() * 1024 + (1u << 20));
  SINEW_TRY_ASSIGN(const std::vector<uint8_t> decoded,
                   g4mf::DecodeG4bChunk(json, g4mf::kFromFrame, bound, padding));
  return LoadDocument(std::span(decoded.data(), decoded.size() - padding), padding, &file,
                      bytes.size(), base_dir, options);
}

Result<LoadedAsset> LoadG4mf(const std::filesystem::path& path, const G4mfOptions& options) {
  SINEW_TRY_ASSIGN(const FileBytes file, ReadFileWith(options.read_file, path));
  return LoadG4mfFromMemory(std::span(file.data(), file.size), path.parent_path(), options);
}

}  // namespace sinew::loader
