// G4MF (3D) -> sinew::Asset. Passes in dependency order: asset, buffers, views, accessors, nodes
// (transforms, components, hierarchy), skeletons and bones, meshes (surfaces, skin, blend
// shapes), then one Skin per skinned mesh instance. Every index is range-checked and every
// byte range bounded before it is read. The rules and their sources: notes/g4mf.md, whose
// validator checklist numbers (#1..#17) the comments below cite.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/buffer_uri.h"
#include "common/influence_layout_option.h"
#include "common/json.h"
#include "g4mf/accessor.h"
#include "g4mf/g4b.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"

namespace sinew::loader {
namespace {

using g4mf::Accessor;

// The node components, mutually exclusive (node.md:71, #14).
constexpr std::string_view kComponents[] = {"bone",          "camera",  "light",   "meshInstance",
                                            "modelInstance", "physics", "skeleton"};

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
  struct View {
    std::span<const uint8_t> bytes;
    uint64_t byte_offset = 0;
  };
  std::vector<View> views;
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

  void Warn(std::string where, std::string message) {
    warnings->push_back({std::move(where), std::move(message)});
  }
  Status Spend(size_t bytes, const std::string& where) {
    if (bytes > output_budget) {
      return {Error::kInvalidValue,
              "the asset would expand to more than " + std::to_string(output_budget) +
                  " bytes of vertex data (objects reuse accessors too often)",
              where};
    }
    output_budget -= bytes;
    return {};
  }
};

std::string AccessorPointer(size_t index) { return Pointer("/accessors", index); }

// The elements of the array o[key]: none when the key is absent (kWrongType when not an array).
Status Elements(Object o, std::string_view key, std::string_view where, std::vector<Element>* out,
                bool* present) {
  Array array;
  bool found = false;
  SINEW_TRY(OptionalArray(o, key, where, &array, &found));
  if (present) *present = found;
  out->clear();
  if (found) out->assign(array.begin(), array.end());
  return {};
}

// ---------------------------------------------------------------------------------------------
// Asset, names

Status CheckAsset(LoadState& c, Object root) {
  Object asset;
  bool present = false;
  SINEW_TRY(OptionalObject(root, "asset", "", &asset, &present));
  if (!present) return {Error::kMissingProperty, "a G4MF file needs \"asset\"", "/asset"};
  Element dimension;
  if (asset.at_key("dimension").get(dimension) != simdjson::SUCCESS) {
    return {Error::kMissingProperty, "asset.dimension is required (not a valid G4MF file)",
            "/asset/dimension"};
  }
  int64_t d = 0;
  if (dimension.get_int64().get(d) != simdjson::SUCCESS) {
    return {Error::kWrongType, "asset.dimension must be an integer (not a valid G4MF file)",
            "/asset/dimension"};
  }
  if (d != 3) {
    return {Error::kUnsupportedFeature,
            "sinew reads 3D G4MF files; this one has dimension " + std::to_string(d),
            "/asset/dimension"};
  }
  std::vector<std::string_view> names;
  SINEW_TRY(OptionalStrings(asset, "extensionsRequired", "/asset", &names));
  if (!names.empty()) {  // sinew implements no G4MF extension yet
    return {Error::kUnsupportedExtension,
            "required extension \"" + std::string(names[0]) + "\" is not supported by sinew",
            "/asset/extensionsRequired/0"};
  }
  SINEW_TRY(OptionalStrings(asset, "extensionsUsed", "/asset", &names));
  c.asset->extensions_used.assign(names.begin(), names.end());
  return {};
}

// Names are unique across all items of the file and avoid " # * . : | ? @ < > { } [ ] / \ %
// (core.md:52).
Status CheckNames(Object root) {
  constexpr std::string_view kArrays[] = {"accessors", "bufferViews", "buffers",
                                          "files",     "materials",   "meshes",
                                          "nodes",     "shapes",      "textures"};
  constexpr std::string_view kForbidden = "\"#*.:|?@<>{}[]/\\%";
  std::unordered_map<std::string_view, std::string> seen;
  for (std::string_view key : kArrays) {
    std::vector<Element> array;
    bool present = false;
    SINEW_TRY(Elements(root, key, "", &array, &present));
    size_t i = 0;
    for (Element e : array) {
      const std::string where = Pointer(Pointer("", key), i++);
      Object o;
      if (e.get_object().get(o) != simdjson::SUCCESS) continue;  // reported by its own pass
      std::string_view name;
      bool named = false;
      SINEW_TRY(OptionalString(o, "name", where, &name, &named));
      if (!named) continue;
      const size_t bad = name.find_first_of(kForbidden);
      if (bad != std::string_view::npos) {
        return {Error::kInvalidValue,
                "name \"" + std::string(name) + "\" contains '" + name[bad] +
                    "', which G4MF names must not",
                Pointer(where, "name")};
      }
      auto [it, inserted] = seen.emplace(name, where);
      if (!inserted) {
        return {Error::kInvalidValue,
                "name \"" + std::string(name) + "\" is already used by " + it->second +
                    " (names are unique across the file)",
                Pointer(where, "name")};
      }
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Buffers, views, accessors

Status DecodeZstd(LoadState& c, std::span<const uint8_t> stored, size_t byte_length,
                  const std::string& where, std::vector<uint8_t>* out) {
  const size_t bound = std::min(c.options->max_buffer_bytes, stored.size() * 1024 + (1u << 20));
  g4mf::G4bChunk chunk;
  chunk.encoding = g4mf::kG4bEncodingZstd;
  chunk.data = stored;
  auto decoded = g4mf::DecodeG4bChunk(chunk, byte_length, bound);
  if (!decoded) {
    ErrorInfo err = decoded.error();
    err.where = where;
    return err;
  }
  *out = std::move(decoded.value());
  return {};
}

Status LoadBuffers(LoadState& c, Object root) {
  std::vector<Element> array;
  bool present = false;
  SINEW_TRY(Elements(root, "buffers", "", &array, &present));
  c.buffers.resize(array.size());
  c.owned_buffers.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/buffers", i);
    Object o;
    SINEW_TRY(AsObject(e, where, &o));
    uint64_t byte_length = 0, chunk = 0;
    bool has_chunk = false, has_uri = false, has_encoding = false;
    std::string_view uri, encoding;
    SINEW_TRY(RequireUint(o, "byteLength", where, &byte_length));
    SINEW_TRY(OptionalUint(o, "chunk", where, &chunk, &has_chunk));
    SINEW_TRY(OptionalString(o, "uri", where, &uri, &has_uri));
    SINEW_TRY(OptionalString(o, "encoding", where, &encoding, &has_encoding));
    if (has_chunk == has_uri) {
      return {has_chunk ? Error::kInvalidValue : Error::kMissingProperty,
              "a buffer has exactly one of \"uri\" and \"chunk\"", where};
    }
    if (byte_length > c.options->max_buffer_bytes) {
      return {Error::kInvalidValue,
              "byteLength " + std::to_string(byte_length) + " is above the loader's limit of " +
                  std::to_string(c.options->max_buffer_bytes),
              Pointer(where, "byteLength")};
    }
    const bool zstd = has_encoding && encoding == "Zstd";
    if (has_encoding && !zstd) {
      return {Error::kUnsupportedFeature,
              "buffer encoding \"" + std::string(encoding) + "\" (sinew decodes Zstd)",
              Pointer(where, "encoding")};
    }
    std::vector<uint8_t>& owned = c.owned_buffers[i];
    if (has_chunk) {
      if (!c.g4b) {
        return {Error::kInvalidReference, "\"chunk\" needs a binary .g4b file",
                Pointer(where, "chunk")};
      }
      if (chunk >= c.g4b->chunks.size() || chunk == c.g4b->json_chunk) {
        return {Error::kInvalidReference,
                "chunk " + std::to_string(chunk) + " is not a data chunk of this file (it has " +
                    std::to_string(c.g4b->chunks.size()) + " chunks, JSON is chunk " +
                    std::to_string(c.g4b->json_chunk) + ")",
                Pointer(where, "chunk")};
      }
      const g4mf::G4bChunk& data = c.g4b->chunks[chunk];
      if (data.encoding == g4mf::kG4bEncodingNone && !zstd) {
        if (data.data.size() != byte_length) {
          return {Error::kOutOfBounds,
                  "byteLength " + std::to_string(byte_length) + " but chunk " +
                      std::to_string(chunk) + " holds " + std::to_string(data.data.size()) +
                      " bytes",
                  Pointer(where, "byteLength")};
        }
        c.buffers[i] = data.data;
        ++i;
        continue;
      }
      if (data.encoding == g4mf::kG4bEncodingZstd && zstd) {
        return {Error::kInvalidValue, "the buffer and its chunk both say Zstd (encoded twice?)",
                Pointer(where, "encoding")};
      }
      SINEW_TRY(DecodeZstd(c, data.data, size_t(byte_length), Pointer(where, "chunk"), &owned));
    } else {
      SINEW_TRY(ReadBufferUri(c.base_dir, uri, Pointer(where, "uri"), &owned));
      if (zstd) {
        std::vector<uint8_t> stored = std::move(owned);
        SINEW_TRY(DecodeZstd(c, stored, size_t(byte_length), Pointer(where, "uri"), &owned));
      } else if (owned.size() < byte_length) {
        return {Error::kOutOfBounds,
                "byteLength " + std::to_string(byte_length) + " but the data has " +
                    std::to_string(owned.size()) + " bytes",
                Pointer(where, "byteLength")};
      }
      owned.resize(size_t(byte_length));
    }
    c.input_bytes += owned.size();
    c.buffers[i] = owned;
    ++i;
  }
  return {};
}

Status LoadViews(LoadState& c, Object root) {
  std::vector<Element> array;
  bool present = false;
  SINEW_TRY(Elements(root, "bufferViews", "", &array, &present));
  c.views.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/bufferViews", i);
    Object o;
    SINEW_TRY(AsObject(e, where, &o));
    int32_t buffer = -1;
    uint64_t offset = 0, length = 0;
    SINEW_TRY(OptionalIndex(o, "buffer", where, c.buffers.size(), &buffer));
    if (buffer < 0) {  // "buffer" defaults to 0
      if (c.buffers.empty()) {
        return {Error::kInvalidReference, "buffer 0 (the default) does not exist",
                Pointer(where, "buffer")};
      }
      buffer = 0;
    }
    SINEW_TRY(OptionalUint(o, "byteOffset", where, &offset));
    SINEW_TRY(RequireUint(o, "byteLength", where, &length));
    const uint64_t size = c.buffers[size_t(buffer)].size();
    if (offset > size || length > size - offset) {
      return {Error::kOutOfBounds,
              "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + length) +
                  ") reach past buffer " + std::to_string(buffer) + " (" + std::to_string(size) +
                  " bytes)",
              Pointer(where, "byteLength")};
    }
    c.views[i].bytes = c.buffers[size_t(buffer)].subspan(size_t(offset), size_t(length));
    c.views[i].byte_offset = offset;
    ++i;
  }
  return {};
}

Status LoadAccessors(LoadState& c, Object root) {
  std::vector<Element> array;
  bool present = false;
  SINEW_TRY(Elements(root, "accessors", "", &array, &present));
  c.accessors.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = AccessorPointer(i);
    Object o;
    SINEW_TRY(AsObject(e, where, &o));
    uint32_t view = 0;
    std::string_view type_name;
    uint64_t vector_size = 1;
    SINEW_TRY(RequireIndex(o, "bufferView", where, c.views.size(), &view));
    SINEW_TRY(RequireString(o, "componentType", where, &type_name));
    SINEW_TRY(OptionalUint(o, "vectorSize", where, &vector_size));
    auto type = g4mf::ParseComponentType(type_name);
    if (!type) {
      ErrorInfo err = type.error();
      err.where = Pointer(where, "componentType");
      return err;
    }
    if (vector_size == 0 || vector_size > 256) {
      return {Error::kInvalidValue, "vectorSize must be 1..256 (sinew's limit)",
              Pointer(where, "vectorSize")};
    }
    // #17: whole elements, component-aligned offset (data.md:112).
    const LoadState::View& v = c.views[view];
    const size_t element = type->bytes * size_t(vector_size);
    if (v.bytes.size() % element != 0) {
      return {Error::kInvalidValue,
              "bufferView " + std::to_string(view) + " holds " + std::to_string(v.bytes.size()) +
                  " bytes, not a multiple of the " + std::to_string(element) + "-byte element",
              Pointer(where, "bufferView")};
    }
    if (v.byte_offset % type->bytes != 0) {
      return {Error::kInvalidValue,
              "bufferView " + std::to_string(view) + " starts at byte " +
                  std::to_string(v.byte_offset) + ", not a multiple of the " +
                  std::to_string(type->bytes) + "-byte component",
              Pointer(where, "bufferView")};
    }
    Accessor& a = c.accessors[i];
    a.bytes = v.bytes;
    a.type = *type;
    a.vector_size = uint32_t(vector_size);
    a.count = v.bytes.size() / element;
    a.type_name = type_name;
    ++i;
  }
  return {};
}

// The accessor o[key] refers to, checked for vector size and kind.
enum class Want { kFloat, kUnsigned, kAny };

Status RequireAccessor(const LoadState& c, Object o, std::string_view key, const std::string& where,
                       uint32_t vector_size, Want want, uint32_t* index) {
  SINEW_TRY(RequireIndex(o, key, where, c.accessors.size(), index));
  const Accessor& a = c.accessors[*index];
  const std::string at = Pointer(where, key);
  if (a.vector_size != vector_size) {
    return {Error::kInvalidValue,
            "accessor " + std::to_string(*index) + " has vectorSize " +
                std::to_string(a.vector_size) + ", this property needs " +
                std::to_string(vector_size),
            at};
  }
  if (want == Want::kFloat && !a.is_float()) {
    return {Error::kInvalidValue,
            "accessor " + std::to_string(*index) + " is " + std::string(a.type_name) +
                "; this property needs a floating-point component type",
            at};
  }
  if (want == Want::kUnsigned && !a.is_unsigned()) {
    return {Error::kInvalidValue,
            "accessor " + std::to_string(*index) + " is " + std::string(a.type_name) +
                "; this property needs an unsigned integer component type",
            at};
  }
  return {};
}

Result<std::vector<float>> FiniteFloats(const Accessor& a, const std::string& where) {
  std::vector<float> out = g4mf::ReadFloats(a);
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i])) {
      return Status(Error::kNonFiniteValue, "component " + std::to_string(i) + " is not finite",
                    where);
    }
  }
  return out;
}

// Indices from accessor `index`, each < `size` (kInvalidReference naming the element).
Result<std::vector<uint32_t>> IndicesBelow(const LoadState& c, uint32_t index, size_t size,
                                           const std::string& where, const char* what) {
  auto values = g4mf::ReadUints(c.accessors[index], where);
  if (!values) return values;
  for (size_t i = 0; i < values->size(); ++i) {
    if ((*values)[i] >= size) {
      return Status(Error::kInvalidReference,
                    "element " + std::to_string(i) + " is " + std::to_string((*values)[i]) +
                        " but there are " + std::to_string(size) + " " + what,
                    where);
    }
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// Nodes

// #15: position (3), basis (9, column-major) or rotor (4, [s, xy, xz, yz]) + scale (1 or 3, > 0).
Status LoadTransform(LoadState& c, Object o, const std::string& where, Node* node) {
  std::vector<double> position, basis, rotor, scale;
  bool has_position = false, has_basis = false, has_rotor = false, has_scale = false;
  SINEW_TRY(OptionalNumbers(o, "position", where, 3, &position, &has_position));
  SINEW_TRY(OptionalNumbers(o, "basis", where, 9, &basis, &has_basis));
  SINEW_TRY(OptionalNumbers(o, "rotor", where, 4, &rotor, &has_rotor));
  SINEW_TRY(OptionalNumbers(o, "scale", where, 0, &scale, &has_scale));
  if (has_basis && (has_rotor || has_scale)) {
    return {Error::kInvalidValue, "\"basis\" excludes \"rotor\" and \"scale\"",
            Pointer(where, "basis")};
  }
  if (has_position)
    node->translation = {float(position[0]), float(position[1]), float(position[2])};
  if (has_scale) {
    if (scale.size() != 1 && scale.size() != 3) {
      return {Error::kInvalidValue,
              "scale has 1 or 3 numbers in 3D, found " + std::to_string(scale.size()),
              Pointer(where, "scale")};
    }
    for (size_t k = 0; k < scale.size(); ++k) {
      if (!(scale[k] > 0)) {
        return {Error::kInvalidValue, "scale must be positive (flips need a basis)",
                Pointer(Pointer(where, "scale"), k)};
      }
    }
    node->scale = scale.size() == 1 ? Float3{float(scale[0]), float(scale[0]), float(scale[0])}
                                    : Float3{float(scale[0]), float(scale[1]), float(scale[2])};
  }
  if (has_rotor) {
    const double norm = std::sqrt(rotor[0] * rotor[0] + rotor[1] * rotor[1] + rotor[2] * rotor[2] +
                                  rotor[3] * rotor[3]);
    if (!(norm > 1e-6)) {
      return {Error::kInvalidValue, "rotor has zero length", Pointer(where, "rotor")};
    }
    if (std::fabs(norm - 1) > 1e-3) {
      c.Warn(Pointer(where, "rotor"),
             "rotor length " + std::to_string(norm) + " is not 1; normalized");
    }
    // [s, xy, xz, yz] -> quaternion (x, y, z, w) = (yz, -xz, xy, s) (transform.md:60-66).
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

bool HasTransform(Object o) {
  for (std::string_view key : {"position", "basis", "rotor", "scale"}) {
    Element e;
    if (o.at_key(key).get(e) == simdjson::SUCCESS) return true;
  }
  return false;
}

Status LoadBone(LoadState& c, Object bone, const std::string& where) {
  double length = 0, mass = 0;
  bool has_length = false, has_mass = false;
  int32_t shape = -1;
  SINEW_TRY(OptionalNumber(bone, "length", where, &length, &has_length));
  SINEW_TRY(OptionalNumber(bone, "mass", where, &mass, &has_mass));
  SINEW_TRY(OptionalIndex(bone, "shape", where, c.shape_count, &shape));
  // #13 (skeleton.md:98, 106, 118); a mass of exactly 0 is allowed (the schema's exclusive
  // minimum contradicts the text, which sinew follows).
  if (has_length && length < 0) {
    return {Error::kInvalidValue, "bone length must not be negative", Pointer(where, "length")};
  }
  if (has_mass && mass < 0) {
    return {Error::kInvalidValue, "bone mass must not be negative", Pointer(where, "mass")};
  }
  if (shape >= 0 && !has_length) {
    return {Error::kMissingProperty, "a bone with \"shape\" must define \"length\"",
            Pointer(where, "length")};
  }
  return {};
}

Status LoadNodes(LoadState& c, Object root) {
  std::vector<Element> array;
  bool present = false;
  SINEW_TRY(Elements(root, "nodes", "", &array, &present));
  const size_t count = array.size();
  std::vector<Node>& nodes = c.asset->nodes;
  nodes.resize(count);
  c.nodes.resize(count);
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/nodes", i);
    Object o;
    SINEW_TRY(AsObject(e, where, &o));
    Node& node = nodes[i];
    NodeInfo& info = c.nodes[i];
    std::string_view name;
    SINEW_TRY(OptionalString(o, "name", where, &name));
    node.name = std::string(name);
    if (i == 0 && HasTransform(o)) {
      return {Error::kInvalidValue, "the root node 0 must not have a transform", where};
    }
    SINEW_TRY(LoadTransform(c, o, where, &node));
    std::vector<uint32_t> children;
    SINEW_TRY(OptionalIndices(o, "children", where, count, &children));
    c.asset->SetChildren(i, children);
    // #14: one component at most.
    std::string_view component;
    for (std::string_view key : kComponents) {
      Element value;
      if (o.at_key(key).get(value) != simdjson::SUCCESS) continue;
      if (!component.empty()) {
        return {Error::kInvalidValue,
                "\"" + std::string(component) + "\" and \"" + std::string(key) +
                    "\" are mutually exclusive node components",
                Pointer(where, key)};
      }
      component = key;
    }
    Object part;
    if (component == "bone") {
      info.bone = true;
      SINEW_TRY(OptionalObject(o, "bone", where, &part, &present));
      SINEW_TRY(LoadBone(c, part, Pointer(where, "bone")));
    } else if (component == "skeleton") {
      info.skeleton = true;
      SINEW_TRY(OptionalObject(o, "skeleton", where, &part, &present));
      const std::string sw = Pointer(where, "skeleton");
      std::vector<Element> joints;
      SINEW_TRY(Elements(part, "joints", sw, &joints, &present));
      size_t j = 0;
      for (Element joint : joints) {
        int64_t v = 0;
        const std::string jw = Pointer(Pointer(sw, "joints"), j++);
        if (joint.get_int64().get(v) != simdjson::SUCCESS) {
          return {Error::kWrongType, "expected an integer node index or -1", jw};
        }
        if (v < -1 || v >= int64_t(count)) {
          return {Error::kInvalidReference,
                  "joint " + std::to_string(v) + " is neither -1 nor one of the " +
                      std::to_string(count) + " nodes",
                  jw};
        }
        info.joints.push_back(int32_t(v));
      }
    } else if (component == "meshInstance") {
      SINEW_TRY(OptionalObject(o, "meshInstance", where, &part, &present));
      const std::string mw = Pointer(where, "meshInstance");
      uint32_t mesh = 0;
      SINEW_TRY(RequireIndex(part, "mesh", mw, c.meshes.size(), &mesh));
      info.mesh = int32_t(mesh);
      node.mesh = int32_t(mesh);
      std::vector<double> amounts;
      SINEW_TRY(OptionalNumbers(part, "blendAmounts", mw, 0, &amounts, &info.has_blend_amounts));
      info.blend_amounts.assign(amounts.begin(), amounts.end());
      std::vector<Element> materials;
      SINEW_TRY(Elements(part, "materials", mw, &materials, &present));
      size_t k = 0;
      for (Element m : materials) {
        int64_t v = 0;
        if (m.get_int64().get(v) != simdjson::SUCCESS || v < -1 || v >= int64_t(c.material_count)) {
          return {Error::kInvalidReference, "expected -1 or a material index",
                  Pointer(Pointer(mw, "materials"), k)};
        }
        ++k;
      }
    }
    ++i;
  }
  // Hierarchy: node 0 is the only root; every other node has exactly one parent and is reached
  // from the root (no cycles).
  for (size_t n = 0; n < count; ++n) {
    const std::span<const uint32_t> children = c.asset->Children(n);
    for (size_t k = 0; k < children.size(); ++k) {
      const uint32_t child = children[k];
      const std::string where = Pointer(Pointer(Pointer("/nodes", n), "children"), k);
      if (child == 0) {
        return {Error::kInvalidHierarchy, "the root node 0 cannot be a child", where};
      }
      if (nodes[child].parent >= 0) {
        return {Error::kInvalidHierarchy,
                "node " + std::to_string(child) + " already has parent " +
                    std::to_string(nodes[child].parent),
                where};
      }
      nodes[child].parent = int32_t(n);
    }
  }
  std::vector<uint32_t> order;  // parents first
  order.reserve(count);
  if (count) order.push_back(0);
  for (size_t k = 0; k < order.size(); ++k) {
    for (uint32_t child : c.asset->Children(order[k])) order.push_back(child);
  }
  if (order.size() != count) {
    std::vector<bool> reached(count, false);
    for (uint32_t n : order) reached[n] = true;
    const size_t lost = size_t(std::find(reached.begin(), reached.end(), false) - reached.begin());
    return {Error::kInvalidHierarchy,
            "node " + std::to_string(lost) +
                " is not a descendant of the root node 0 (a second "
                "root, or a cycle)",
            Pointer("/nodes", lost)};
  }
  // #12: a bone's parent is a bone or a skeleton; it belongs to that skeleton, and only to it: a
  // skeleton whose parent is a bone or a skeleton would make its bones belong to two (a skeleton
  // elsewhere, e.g. under a mesh instance, is fine).
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
              Pointer(Pointer("/nodes", n), "skeleton")};
    }
    if (info.skeleton) info.skeleton_of = int32_t(n);
    if (!info.bone) continue;
    if (parent < 0 || (!c.nodes[size_t(parent)].bone && !c.nodes[size_t(parent)].skeleton)) {
      return {Error::kInvalidHierarchy,
              "a bone's parent must be a bone or a skeleton" +
                  (parent < 0 ? std::string() : ", node " + std::to_string(parent) + " is neither"),
              Pointer(Pointer("/nodes", n), "bone")};
    }
    info.skeleton_of = c.nodes[size_t(parent)].skeleton_of;
  }
  // #10, #11: joints are bones of this skeleton (or -1); order rules only warn (they contradict
  // the duplicates and -1 the spec also allows).
  for (size_t n = 0; n < count; ++n) {
    const NodeInfo& info = c.nodes[n];
    int32_t last = -1;
    bool ordered = true;
    std::unordered_map<int32_t, size_t> first_slot;  // joint node -> its first slot
    for (size_t j = 0; j < info.joints.size(); ++j) {
      const int32_t joint = info.joints[j];
      if (joint < 0) continue;
      const std::string jw =
          Pointer(Pointer(Pointer(Pointer("/nodes", n), "skeleton"), "joints"), j);
      if (!c.nodes[size_t(joint)].bone) {
        return {Error::kInvalidValue, "joint node " + std::to_string(joint) + " is not a bone", jw};
      }
      if (c.nodes[size_t(joint)].skeleton_of != int32_t(n)) {
        return {Error::kInvalidValue,
                "joint node " + std::to_string(joint) + " is not a bone of this skeleton", jw};
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
      c.Warn(Pointer(Pointer(Pointer("/nodes", n), "skeleton"), "joints"),
             "joints are not in strictly increasing, parents-first order (#11, skeleton.md:132)");
    }
    // #11: a single root bone is the skeleton's first child. (That it is the first joint when it
    // is one follows from parents first, warned above, if -1 and duplicates are set aside.)
    if (!info.skeleton) continue;
    const std::span<const uint32_t> children = c.asset->Children(n);
    const auto is_bone = [&](uint32_t child) { return c.nodes[child].bone; };
    if (std::count_if(children.begin(), children.end(), is_bone) != 1) continue;
    const uint32_t root_bone = *std::find_if(children.begin(), children.end(), is_bone);
    if (children[0] != root_bone) {
      c.Warn(Pointer(Pointer("/nodes", n), "children"),
             "the skeleton's single root bone, node " + std::to_string(root_bone) +
                 ", is not its first child (#11, skeleton.md:132)");
    }
  }
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

Status LoadBinding(const LoadState& c, Object surface, std::string_view key,
                   const std::string& where, uint32_t vector_size, size_t corner_count,
                   Binding* out) {
  Object o;
  SINEW_TRY(OptionalObject(surface, key, where, &o, &out->present));
  if (!out->present) return {};
  const std::string bw = Pointer(where, key);
  Element unused;
  if (o.at_key("simplexes").get(unused) != simdjson::SUCCESS) {
    for (std::string_view other : {"perSimplex", "geometry"}) {
      if (o.at_key(other).get(unused) == simdjson::SUCCESS) {
        return {Error::kUnsupportedFeature,
                "\"" + std::string(other) +
                    "\" bindings are not read by sinew (only per-corner "
                    "\"simplexes\")",
                Pointer(bw, other)};
      }
    }
  }
  uint32_t values = 0, simplexes = 0;
  SINEW_TRY(RequireAccessor(c, o, "values", bw, vector_size, Want::kFloat, &values));
  SINEW_TRY(RequireAccessor(c, o, "simplexes", bw, 3, Want::kUnsigned, &simplexes));
  auto floats = FiniteFloats(c.accessors[values], Pointer(bw, "values"));
  if (!floats) return floats.status();
  out->values = std::move(floats.value());
  out->value_count = c.accessors[values].count;
  if (c.accessors[simplexes].count * 3 != corner_count) {
    return {Error::kSizeMismatch,
            "binds " + std::to_string(c.accessors[simplexes].count) +
                " simplexes, the surface has " + std::to_string(corner_count / 3),
            Pointer(bw, "simplexes")};
  }
  auto corners = IndicesBelow(c, simplexes, out->value_count, Pointer(bw, "simplexes"), "values");
  if (!corners) return corners.status();
  out->corners = std::move(corners.value());
  return {};
}

struct Surface {
  std::vector<uint32_t> corners;  // G4MF vertex per corner
  int32_t material = -1;
  Binding normals, texture_map;
};

// Groups sinew accepts: a palette of 65,536 entries is 3 MiB per instance.
constexpr uint32_t kMaxGroups = 1u << 16;

// Sparse influences over the G4MF vertices, from the skin's COO triplets (#1-#8).
Status LoadSkin(LoadState& c, Object skin, const std::string& where, size_t vertex_count,
                SparseInfluences* out, std::vector<std::string>* group_names) {
  uint32_t vertices = 0, groups = 0, weights = 0;
  SINEW_TRY(RequireAccessor(c, skin, "vertices", where, 1, Want::kUnsigned, &vertices));
  SINEW_TRY(RequireAccessor(c, skin, "groups", where, 1, Want::kUnsigned, &groups));
  SINEW_TRY(RequireAccessor(c, skin, "weights", where, 1, Want::kFloat, &weights));
  const size_t n = c.accessors[vertices].count;
  if (c.accessors[groups].count != n || c.accessors[weights].count != n) {
    return {Error::kSizeMismatch,
            "vertices, groups and weights hold " + std::to_string(n) + ", " +
                std::to_string(c.accessors[groups].count) + " and " +
                std::to_string(c.accessors[weights].count) + " items; they must match",
            where};
  }
  auto vertex = IndicesBelow(c, vertices, vertex_count, Pointer(where, "vertices"), "vertices");
  if (!vertex) return vertex.status();
  auto group = g4mf::ReadUints(c.accessors[groups], Pointer(where, "groups"));
  if (!group) return group.status();
  const std::vector<float> weight = g4mf::ReadFloats(c.accessors[weights]);
  // Names (#6).
  std::vector<Element> names;
  bool present = false;
  SINEW_TRY(Elements(skin, "groupNames", where, &names, &present));
  std::unordered_map<std::string_view, size_t> seen;
  size_t k = 0;
  for (Element e : names) {
    const std::string nw = Pointer(Pointer(where, "groupNames"), k);
    std::string_view name;
    if (e.get_string().get(name) != simdjson::SUCCESS) {
      return {Error::kWrongType, "expected a string", nw};
    }
    if (name.empty()) return {Error::kInvalidValue, "group names must not be empty", nw};
    if (!seen.emplace(name, k).second) {
      return {Error::kInvalidValue, "group name \"" + std::string(name) + "\" is used twice", nw};
    }
    group_names->emplace_back(name);
    ++k;
  }
  out->offsets.assign(vertex_count + 1, 0);
  out->groups.resize(n);
  out->weights.resize(n);
  uint32_t group_count = 0;
  size_t unnormalized = 0;
  for (size_t e = 0; e < n;) {
    const uint32_t v = (*vertex)[e];
    if (e > 0 && v < (*vertex)[e - 1]) {  // #4
      return {Error::kInvalidValue,
              "vertices must not decrease: item " + std::to_string(e) + " is " + std::to_string(v) +
                  " after " + std::to_string((*vertex)[e - 1]),
              Pointer(where, "vertices")};
    }
    size_t end = e;
    double sum = 0;
    while (end < n && (*vertex)[end] == v) {
      const float w = weight[end];
      const std::string ww = Pointer(where, "weights");
      if (!std::isfinite(w)) {
        return {Error::kNonFiniteValue, "weight " + std::to_string(end) + " is not finite", ww};
      }
      if (w < 0) {
        return {Error::kUnsupportedFeature,
                "weight " + std::to_string(end) +
                    " is negative (G4MF does not forbid it; sinew "
                    "skins with non-negative weights)",
                ww};
      }
      if (end > e && w > weight[end - 1]) {  // #5
        return {Error::kInvalidValue,
                "weights of vertex " + std::to_string(v) + " must descend: item " +
                    std::to_string(end) + " is heavier than the one before",
                ww};
      }
      // The palette has 1 + the largest group entries per instance: bounded, so a corrupt
      // group cannot make it huge (and group_count cannot wrap).
      if ((*group)[end] >= kMaxGroups) {
        return {Error::kUnsupportedFeature,
                "group " + std::to_string((*group)[end]) + " (item " + std::to_string(end) +
                    "): sinew supports groups below " + std::to_string(kMaxGroups),
                Pointer(where, "groups")};
      }
      group_count = std::max(group_count, (*group)[end] + 1);
      sum += w;
      ++end;
    }
    if (std::fabs(sum - 1) > 1e-3) ++unnormalized;
    // Ties in increasing group order (sinew's canonical order; the result is the same).
    std::vector<std::pair<float, uint32_t>> row;
    for (size_t i = e; i < end; ++i) row.emplace_back(weight[i], (*group)[i]);
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
    c.Warn(Pointer(where, "weights"),
           std::to_string(unnormalized) +
               " vertices have weights that do not sum to 1; used as authored (G4MF does not "
               "normalize)");
  }
  return {};
}

// A blend shape's sparse offsets: indices into a target array and one offset vector each.
struct SparseOffsets {
  bool present = false;
  std::vector<uint32_t> indices;
  std::vector<float> offsets;
};

Status LoadSparseOffsets(const LoadState& c, Object parent, std::string_view key,
                         const std::string& where, size_t target_count, uint32_t vector_size,
                         SparseOffsets* out) {
  Object o;
  SINEW_TRY(OptionalObject(parent, key, where, &o, &out->present));
  if (!out->present) return {};
  const std::string w = Pointer(where, key);
  uint32_t indices = 0, offsets = 0;
  SINEW_TRY(RequireAccessor(c, o, "indices", w, 1, Want::kUnsigned, &indices));
  SINEW_TRY(RequireAccessor(c, o, "offsets", w, vector_size, Want::kAny, &offsets));
  if (c.accessors[offsets].count != c.accessors[indices].count) {
    return {Error::kSizeMismatch,
            std::to_string(c.accessors[indices].count) + " indices but " +
                std::to_string(c.accessors[offsets].count) + " offsets",
            Pointer(w, "offsets")};
  }
  auto idx = IndicesBelow(c, indices, target_count, Pointer(w, "indices"), "targets");
  if (!idx) return idx.status();
  auto values = FiniteFloats(c.accessors[offsets], Pointer(w, "offsets"));
  if (!values) return values.status();
  out->indices = std::move(idx.value());
  out->offsets = std::move(values.value());
  return {};
}

struct BlendShape {
  SparseOffsets position;
  // Per mesh surface: normal offsets (indices into that surface's normal values).
  std::vector<SparseOffsets> surface_normals;
};

Status LoadBlend(LoadState& c, Object blend, const std::string& where, size_t vertex_count,
                 const std::vector<Surface>& surfaces, Mesh* mesh,
                 std::vector<BlendShape>* shapes) {
  std::vector<Element> array;
  bool present = false;
  SINEW_TRY(Elements(blend, "shapes", where, &array, &present));
  shapes->resize(array.size());
  size_t k = 0;
  for (Element e : array) {
    const std::string sw = Pointer(Pointer(where, "shapes"), k);
    Object o;
    SINEW_TRY(AsObject(e, sw, &o));
    BlendShape& shape = (*shapes)[k];
    // The shape's name (optional; a string, as every G4MF name): Mesh::target_names, "" for an
    // unnamed shape, and empty when no shape is named.
    std::string_view name;
    bool named = false;
    SINEW_TRY(OptionalString(o, "name", sw, &name, &named));
    if (named) mesh->target_names.resize(array.size());
    if (!mesh->target_names.empty()) mesh->target_names[k] = std::string(name);
    SINEW_TRY(LoadSparseOffsets(c, o, "position", sw, vertex_count, 3, &shape.position));
    shape.surface_normals.resize(surfaces.size());
    std::vector<Element> list;
    SINEW_TRY(Elements(o, "surfaces", sw, &list, &present));
    if (present && list.size() == 0) {
      return {Error::kInvalidValue, "an empty \"surfaces\" array must be omitted",
              Pointer(sw, "surfaces")};
    }
    if (list.size() > surfaces.size()) {
      return {Error::kInvalidValue,
              std::to_string(list.size()) + " blend surfaces but the mesh has " +
                  std::to_string(surfaces.size()),
              Pointer(sw, "surfaces")};
    }
    std::vector<bool> used(surfaces.size(), false);
    size_t j = 0;
    for (Element se : list) {
      const std::string bw = Pointer(Pointer(sw, "surfaces"), j++);
      Object so;
      SINEW_TRY(AsObject(se, bw, &so));
      uint32_t surface = 0;
      SINEW_TRY(RequireIndex(so, "surface", bw, surfaces.size(), &surface));
      if (used[surface]) {
        return {Error::kInvalidValue,
                "surface " + std::to_string(surface) + " is listed twice in this shape",
                Pointer(bw, "surface")};
      }
      used[surface] = true;
      const Surface& target = surfaces[surface];
      // Offsets for a binding the surface lacks, checked before their indices (which would all
      // be out of range of its zero values and hide this error).
      Element unused;
      if (!target.normals.present && so.at_key("normal").get(unused) == simdjson::SUCCESS) {
        return {Error::kInvalidReference,
                "normal offsets for surface " + std::to_string(surface) + ", which has no normals",
                Pointer(bw, "normal")};
      }
      if (!target.texture_map.present && so.at_key("textureMap").get(unused) == simdjson::SUCCESS) {
        return {Error::kInvalidReference,
                "textureMap offsets for surface " + std::to_string(surface) +
                    ", which has no textureMap",
                Pointer(bw, "textureMap")};
      }
      SparseOffsets uv;
      SINEW_TRY(LoadSparseOffsets(c, so, "normal", bw, target.normals.value_count, 3,
                                  &shape.surface_normals[surface]));
      SINEW_TRY(LoadSparseOffsets(c, so, "textureMap", bw, target.texture_map.value_count, 2, &uv));
      if (!shape.surface_normals[surface].present && !uv.present) {
        return {Error::kInvalidValue, "an empty blend surface must be omitted", bw};
      }
    }
    ++k;
  }
  std::vector<double> amounts;
  bool has_amounts = false;
  SINEW_TRY(OptionalNumbers(blend, "amounts", where, 0, &amounts, &has_amounts));
  if (has_amounts && amounts.size() != shapes->size()) {
    return {Error::kSizeMismatch,
            std::to_string(amounts.size()) + " amounts for " + std::to_string(shapes->size()) +
                " shapes",
            Pointer(where, "amounts")};
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

// Surface -> primitive: one GPU vertex per distinct (vertex, normal value) corner.
Status BuildPrimitive(LoadState& c, const std::vector<float>& positions, const Surface& surface,
                      size_t surface_index, const SparseInfluences* skin,
                      const std::vector<BlendShape>& shapes, const std::string& where,
                      Primitive* p) {
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
  // Blend shapes: dense offsets over this primitive's vertices, by the corner's vertex (positions)
  // or normal value (normals).
  p->targets.resize(shapes.size());
  for (size_t s = 0; s < shapes.size(); ++s) {
    MorphTarget& t = p->targets[s];
    const auto scatter = [n](const SparseOffsets& sparse, const std::vector<uint32_t>& source,
                             size_t source_count, std::vector<float>* out) {
      // Offsets per source item first: a duplicate index adds up (as UsdSkel applies them).
      std::vector<float> sum(source_count * 3, 0.0f);
      for (size_t k = 0; k < sparse.indices.size(); ++k) {
        for (size_t x = 0; x < 3; ++x) sum[sparse.indices[k] * 3 + x] += sparse.offsets[k * 3 + x];
      }
      out->assign(n * 3, 0.0f);
      for (size_t i = 0; i < n; ++i) std::memcpy(&(*out)[i * 3], &sum[size_t(source[i]) * 3], 12);
    };
    if (shapes[s].position.present) {
      scatter(shapes[s].position, source_vertex, positions.size() / 3, &t.positions);
    }
    if (const SparseOffsets* normals = SurfaceNormals(shapes[s], surface_index)) {
      scatter(*normals, source_normal, surface.normals.value_count, &t.normals);
    }
  }
  p->material = surface.material;
  p->mode = 4;
  return {};
}

Status LoadMeshes(LoadState& c, Object root) {
  std::vector<Element> array;
  bool present = false;
  SINEW_TRY(Elements(root, "meshes", "", &array, &present));
  c.asset->meshes.resize(array.size());
  c.meshes.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/meshes", i);
    Object o;
    SINEW_TRY(AsObject(e, where, &o));
    Mesh& mesh = c.asset->meshes[i];
    std::string_view name;
    SINEW_TRY(OptionalString(o, "name", where, &name));
    mesh.name = std::string(name);
    uint32_t vertices = 0;
    SINEW_TRY(RequireAccessor(c, o, "vertices", where, 3, Want::kAny, &vertices));
    auto positions = FiniteFloats(c.accessors[vertices], Pointer(where, "vertices"));
    if (!positions) return positions.status();
    const size_t vertex_count = c.accessors[vertices].count;

    std::vector<Element> list;
    SINEW_TRY(Elements(o, "surfaces", where, &list, &present));
    std::vector<Surface> surfaces(list.size());
    size_t j = 0;
    for (Element se : list) {
      const std::string sw = Pointer(Pointer(where, "surfaces"), j);
      Object so;
      SINEW_TRY(AsObject(se, sw, &so));
      Surface& surface = surfaces[j++];
      uint32_t simplexes = 0;
      SINEW_TRY(RequireIndex(so, "simplexes", sw, c.accessors.size(), &simplexes));
      if (c.accessors[simplexes].vector_size != 3) {
        return {Error::kUnsupportedFeature,
                "simplexes of " + std::to_string(c.accessors[simplexes].vector_size) +
                    " vertices; sinew draws triangles (3) in 3D",
                Pointer(sw, "simplexes")};
      }
      auto corners = IndicesBelow(c, simplexes, vertex_count, Pointer(sw, "simplexes"), "vertices");
      if (!corners) return corners.status();
      surface.corners = std::move(corners.value());
      SINEW_TRY(OptionalIndex(so, "material", sw, c.material_count, &surface.material));
      SINEW_TRY(LoadBinding(c, so, "normals", sw, 3, surface.corners.size(), &surface.normals));
      SINEW_TRY(
          LoadBinding(c, so, "textureMap", sw, 2, surface.corners.size(), &surface.texture_map));
    }

    Object skin;
    SparseInfluences influences;
    std::vector<std::string> group_names;
    bool skinned = false;
    SINEW_TRY(OptionalObject(o, "skin", where, &skin, &skinned));
    if (skinned) {
      SINEW_TRY(LoadSkin(c, skin, Pointer(where, "skin"), vertex_count, &influences, &group_names));
    }
    Object blend;
    bool has_blend = false;
    std::vector<BlendShape> shapes;
    SINEW_TRY(OptionalObject(o, "blend", where, &blend, &has_blend));
    if (has_blend) {
      SINEW_TRY(
          LoadBlend(c, blend, Pointer(where, "blend"), vertex_count, surfaces, &mesh, &shapes));
    }
    c.meshes[i] = {skinned, influences.group_count, shapes.size(), std::move(group_names)};

    if (surfaces.empty()) {  // No surfaces: the vertices as points.
      Surface points;
      points.corners.resize(vertex_count);
      for (size_t v = 0; v < vertex_count; ++v) points.corners[v] = uint32_t(v);
      SINEW_TRY(BuildPrimitive(c, *positions, points, 0, skinned ? &influences : nullptr, shapes,
                               where, &mesh.primitives.emplace_back()));
      mesh.primitives.back().indices.clear();
      mesh.primitives.back().mode = 0;
    }
    mesh.primitives.reserve(surfaces.size());
    for (size_t s = 0; s < surfaces.size(); ++s) {
      SINEW_TRY(BuildPrimitive(c, *positions, surfaces[s], s, skinned ? &influences : nullptr,
                               shapes, Pointer(Pointer(where, "surfaces"), s),
                               &mesh.primitives.emplace_back()));
    }
    ++i;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Skins of mesh instances, scene

Status BuildSkins(LoadState& c) {
  std::vector<Node>& nodes = c.asset->nodes;
  // Rest world transforms, parents first (node 0 is the root; parents precede by construction of
  // the breadth-first order, recomputed here).
  std::vector<Float4x4> world(nodes.size());
  std::vector<uint32_t> order;
  if (!nodes.empty()) order.push_back(0);
  for (size_t k = 0; k < order.size(); ++k) {
    const Node& node = nodes[order[k]];
    const Float4x4 local =
        node.has_matrix ? node.matrix : ComposeTrs(node.translation, node.rotation, node.scale);
    world[order[k]] = node.parent < 0 ? local : Multiply(world[size_t(node.parent)], local);
    for (uint32_t child : c.asset->Children(node)) order.push_back(child);
  }
  // Skeleton node -> each group's name and the mesh that named it first.
  std::unordered_map<int32_t, std::vector<std::pair<std::string_view, int32_t>>> names_of;
  for (size_t n = 0; n < nodes.size(); ++n) {
    const NodeInfo& info = c.nodes[n];
    if (info.mesh < 0) continue;
    const std::string where = Pointer(Pointer("/nodes", n), "meshInstance");
    const MeshInfo& mesh = c.meshes[size_t(info.mesh)];
    if (info.has_blend_amounts) {
      if (info.blend_amounts.size() != mesh.shape_count) {
        return {Error::kSizeMismatch,
                std::to_string(info.blend_amounts.size()) + " blendAmounts for a mesh with " +
                    std::to_string(mesh.shape_count) + " blend shapes",
                Pointer(where, "blendAmounts")};
      }
      nodes[n].weights = info.blend_amounts;
    }
    if (!mesh.skinned) continue;
    const int32_t parent = nodes[n].parent;
    if (parent < 0 || !c.nodes[size_t(parent)].skeleton) {  // #9
      c.Warn(where,
             "mesh " + std::to_string(info.mesh) +
                 " has a skin but this node is not a direct child of a skeleton: drawn unskinned");
      continue;
    }
    // #6: the meshes one skeleton skins give a group the same name (where both name it).
    std::vector<std::pair<std::string_view, int32_t>>& named = names_of[parent];
    for (size_t g = 0; g < mesh.group_names.size(); ++g) {
      if (g == named.size()) named.emplace_back(mesh.group_names[g], info.mesh);
      if (named[g].first == mesh.group_names[g]) continue;
      return {Error::kInvalidValue,
              "group " + std::to_string(g) + " is \"" + mesh.group_names[g] + "\" here but \"" +
                  std::string(named[g].first) + "\" in mesh " + std::to_string(named[g].second) +
                  ", which skeleton node " + std::to_string(parent) +
                  " also skins (#6, skeleton.md:39)",
              Pointer(Pointer(Pointer(Pointer("/meshes", size_t(info.mesh)), "skin"), "groupNames"),
                      g)};
    }
    const NodeInfo& skeleton = c.nodes[size_t(parent)];
    Skin skin;
    skin.name = nodes[size_t(parent)].name;
    skin.skeleton = parent;
    for (int32_t joint : skeleton.joints) {
      if (joint < 0) {
        skin.group_joints.push_back(-1);
        continue;
      }
      auto it = std::find(skin.joints.begin(), skin.joints.end(), uint32_t(joint));
      if (it == skin.joints.end()) {
        Float4x4 inverse;
        if (!Invert(world[size_t(joint)], &inverse)) {  // #16
          return {Error::kInvalidValue,
                  "bone node " + std::to_string(joint) +
                      " has a singular rest transform; G4MF binds at the rest pose",
                  Pointer("/nodes", size_t(joint))};
        }
        skin.joints.push_back(uint32_t(joint));
        skin.inverse_binds.push_back(Multiply(inverse, world[n]));
        it = skin.joints.end() - 1;
      }
      skin.group_joints.push_back(int32_t(it - skin.joints.begin()));
    }
    if (mesh.group_count > skin.group_joints.size()) {  // #7
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
  Element doc;
  if (padding < simdjson::SIMDJSON_PADDING) {
    return Status(Error::kInvalidArgument, "the JSON must be followed by simdjson's padding");
  }
  if (auto error = parser.parse(json.data(), json.size(), false).get(doc)) {
    return Status(Error::kJsonSyntax, simdjson::error_message(error), "");
  }
  Object root;
  SINEW_TRY(AsObject(doc, "", &root));
  LoadedAsset out;
  LoadState c;
  c.options = &options;
  c.base_dir = base_dir;
  c.g4b = g4b;
  c.input_bytes = file_size;
  c.warnings = &out.warnings;
  c.asset = &out.asset;
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
  auto file = g4mf::ParseG4b(bytes);
  if (!file) return file.status();
  const g4mf::G4bChunk& json = file->chunks[file->json_chunk];
  const size_t bound = std::min(options.max_buffer_bytes, json.data.size() * 1024 + (1u << 20));
  auto decoded = g4mf::DecodeG4bChunk(json, g4mf::kFromFrame, bound, padding);
  if (!decoded) return decoded.status();
  return LoadDocument(std::span(decoded->data(), decoded->size() - padding), padding, &*file,
                      bytes.size(), base_dir, options);
}

Result<LoadedAsset> LoadG4mf(const std::filesystem::path& path, const G4mfOptions& options) {
  auto file = ReadFile(path);
  if (!file) return file.status();
  return LoadG4mfFromMemory(std::span(file->data(), file->size), path.parent_path(), options);
}

}  // namespace sinew::loader
