// glTF 2.0 -> sinew::Asset. One pass per top-level array, in dependency order: buffers, views,
// accessors, then the objects that use them. Every index is range-checked here, every byte range
// before it is read, so nothing downstream (least of all the GPU) sees an invalid reference.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "accessor.h"
#include "common/buffer_uri.h"
#include "common/influence_layout_option.h"
#include "common/json.h"
#include "extensions.h"
#include "glb.h"
#include "sinew/loader/file.h"
#include "sinew/loader/gltf.h"

namespace sinew::loader {
namespace {

using gltf::AccessorDesc;
using gltf::AccessorType;
using gltf::ComponentType;

// Extensions whose semantics sinew implements (an unknown one in extensionsRequired is an error).
constexpr std::string_view kSupportedExtensions[] = {
    "KHR_mesh_quantization",  // Quantized attributes decode through the accessor layer.
    "KHR_character",          // Recognised: marks the asset as a character, no data to read.
    gltf::kVariantsExtension, gltf::kBindPoseExtension, gltf::kInbetweensExtension,
};

struct BufferView {
  std::span<const uint8_t> bytes;
  uint32_t byte_stride = 0;
  uint64_t byte_offset = 0;  // In its buffer, for the alignment rules.
};

// Everything the object passes share. Kept in the GltfLoader between loads (Reset keeps the
// vectors' capacity), so a reused loader does not fault in fresh scratch memory every time.
struct LoadState {
  const GltfOptions* options = nullptr;
  std::filesystem::path base_dir;
  std::span<const uint8_t> glb_bin;
  bool has_glb_bin = false;
  std::vector<std::vector<uint8_t>> owned_buffers;  // decoded data: URIs and external files
  std::vector<std::span<const uint8_t>> buffers;
  std::vector<BufferView> views;
  std::vector<AccessorDesc> accessors;
  size_t material_count = 0;
  bool quantized = false;  // KHR_mesh_quantization is in extensionsUsed.
  std::vector<Warning>* warnings = nullptr;
  Asset* asset = nullptr;

  void Reset(const GltfOptions& o, const std::filesystem::path& dir, LoadedAsset* out) {
    options = &o;
    base_dir = dir;
    glb_bin = {};
    has_glb_bin = false;
    owned_buffers.clear();
    buffers.clear();
    views.clear();
    accessors.clear();
    material_count = 0;
    quantized = false;
    warnings = &out->warnings;
    asset = &out->asset;
  }
};

std::string AccessorPointer(size_t index) { return Pointer("/accessors", index); }

// ---------------------------------------------------------------------------------------------
// Buffers, views, accessors

Status LoadBuffers(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "buffers", "", &array, &present); !s) return s;
  if (!present) return {};
  c.buffers.resize(array.size());
  c.owned_buffers.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/buffers", i);
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    uint64_t byte_length = 0;
    if (Status s = RequireUint(o, "byteLength", where, &byte_length); !s) return s;
    std::string_view uri;
    bool has_uri = false;
    if (Status s = OptionalString(o, "uri", where, &uri, &has_uri); !s) return s;
    std::span<const uint8_t> bytes;
    if (!has_uri) {
      if (i != 0 || !c.has_glb_bin) {
        return {Error::kMissingProperty,
                "a buffer without uri must be buffer 0 of a GLB with a BIN chunk",
                Pointer(where, "uri")};
      }
      bytes = c.glb_bin;
    } else {
      std::vector<uint8_t>& owned = c.owned_buffers[i];
      if (Status s = ReadBufferUri(c.base_dir, uri, Pointer(where, "uri"), &owned); !s) return s;
      bytes = owned;
    }
    if (bytes.size() < byte_length) {
      return {Error::kOutOfBounds,
              "byteLength " + std::to_string(byte_length) + " but the data has " +
                  std::to_string(bytes.size()) + " bytes",
              Pointer(where, "byteLength")};
    }
    c.buffers[i] = bytes.first(static_cast<size_t>(byte_length));
    ++i;
  }
  return {};
}

Status LoadViews(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "bufferViews", "", &array, &present); !s) return s;
  if (!present) return {};
  c.views.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/bufferViews", i);
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    uint32_t buffer = 0;
    uint64_t offset = 0, length = 0, stride = 0;
    bool has_stride = false;
    if (Status s = RequireIndex(o, "buffer", where, c.buffers.size(), &buffer); !s) return s;
    if (Status s = OptionalUint(o, "byteOffset", where, &offset); !s) return s;
    if (Status s = RequireUint(o, "byteLength", where, &length); !s) return s;
    if (Status s = OptionalUint(o, "byteStride", where, &stride, &has_stride); !s) return s;
    if (length == 0)
      return {Error::kInvalidValue, "byteLength must be >= 1", Pointer(where, "byteLength")};
    const uint64_t size = c.buffers[buffer].size();
    if (offset > size || length > size - offset) {
      return {Error::kOutOfBounds,
              "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + length) +
                  ") past the buffer's " + std::to_string(size),
              Pointer(where, "byteLength")};
    }
    if (has_stride && (stride < 4 || stride > 252 || stride % 4 != 0)) {
      return {Error::kInvalidValue,
              "byteStride " + std::to_string(stride) + " must be a multiple of 4 in [4, 252]",
              Pointer(where, "byteStride")};
    }
    c.views[i].bytes =
        c.buffers[buffer].subspan(static_cast<size_t>(offset), static_cast<size_t>(length));
    c.views[i].byte_stride = static_cast<uint32_t>(stride);
    c.views[i].byte_offset = offset;
    ++i;
  }
  return {};
}

Status LoadAccessors(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "accessors", "", &array, &present); !s) return s;
  if (!present) return {};
  c.accessors.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    AccessorDesc& a = c.accessors[i];
    a.index = static_cast<uint32_t>(i);
    const std::string where = AccessorPointer(i);
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    uint64_t component = 0;
    if (Status s = RequireUint(o, "componentType", where, &component); !s) return s;
    if (!gltf::ParseComponentType(component, &a.component_type)) {
      return {Error::kInvalidValue, "unknown componentType " + std::to_string(component),
              Pointer(where, "componentType")};
    }
    std::string_view type;
    if (Status s = RequireString(o, "type", where, &type); !s) return s;
    if (!gltf::ParseAccessorType(type, &a.type)) {
      return {Error::kInvalidValue, "unknown type '" + std::string(type) + "'",
              Pointer(where, "type")};
    }
    if (Status s = OptionalBool(o, "normalized", where, &a.normalized); !s) return s;
    if (Status s = RequireUint(o, "count", where, &a.count); !s) return s;
    if (a.count == 0) return {Error::kInvalidValue, "count must be >= 1", Pointer(where, "count")};
    if (Status s = OptionalUint(o, "byteOffset", where, &a.byte_offset); !s) return s;
    int32_t view = -1;
    if (Status s = OptionalIndex(o, "bufferView", where, c.views.size(), &view); !s) return s;
    if (view >= 0) {
      a.view = gltf::ViewBytes{c.views[size_t(view)].bytes, c.views[size_t(view)].byte_stride};
      // glTF 2.0 §3.6.2.4: the offset into the buffer is a multiple of the component size too.
      if ((c.views[size_t(view)].byte_offset + a.byte_offset) %
              gltf::ComponentSize(a.component_type) !=
          0) {
        return {Error::kInvalidValue,
                "bufferView.byteOffset + byteOffset is not a multiple of the component size",
                Pointer(where, "byteOffset")};
      }
    } else if (a.byte_offset != 0) {
      return {Error::kInvalidValue, "byteOffset without bufferView", Pointer(where, "byteOffset")};
    }
    Object sparse;
    bool has_sparse = false;
    if (Status s = OptionalObject(o, "sparse", where, &sparse, &has_sparse); !s) return s;
    if (has_sparse) {
      const std::string sw = Pointer(where, "sparse");
      gltf::SparseDesc d;
      uint64_t count = 0;
      if (Status s = RequireUint(sparse, "count", sw, &count); !s) return s;
      d.count = static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX));
      if (count != d.count) return {Error::kInvalidValue, "count too large", Pointer(sw, "count")};
      for (const char* part : {"indices", "values"}) {
        Object po;
        bool has_part = false;
        if (Status s = OptionalObject(sparse, part, sw, &po, &has_part); !s) return s;
        if (!has_part) return {Error::kMissingProperty, "required", Pointer(sw, part)};
        const std::string pw = Pointer(sw, part);
        uint32_t pv = 0;
        uint64_t po_offset = 0;
        if (Status s = RequireIndex(po, "bufferView", pw, c.views.size(), &pv); !s) return s;
        if (Status s = OptionalUint(po, "byteOffset", pw, &po_offset); !s) return s;
        if (c.views[pv].byte_stride != 0) {
          return {Error::kInvalidValue, "a sparse bufferView must not have byteStride",
                  Pointer(pw, "bufferView")};
        }
        const gltf::ViewBytes vb{c.views[pv].bytes, 0};
        if (std::string_view(part) == "indices") {
          uint64_t ic = 0;
          if (Status s = RequireUint(po, "componentType", pw, &ic); !s) return s;
          if (!gltf::ParseComponentType(ic, &d.index_type)) {
            return {Error::kInvalidValue, "unknown componentType", Pointer(pw, "componentType")};
          }
          d.indices = vb;
          d.indices_byte_offset = po_offset;
        } else {
          d.values = vb;
          d.values_byte_offset = po_offset;
        }
      }
      a.sparse = d;
    }
    if (Status s = gltf::ValidateAccessor(a); !s) return s;
    ++i;
  }
  return {};
}

// Component types an accessor may have in a given role (glTF 2.0 §3.7.2.1 and §3.11, widened by
// KHR_mesh_quantization): one bit per (componentType, normalized) pair.
enum Components : uint32_t {
  kF32 = 1u << 0,
  kI8 = 1u << 1,
  kI8N = 1u << 2,
  kU8 = 1u << 3,
  kU8N = 1u << 4,
  kI16 = 1u << 5,
  kI16N = 1u << 6,
  kU16 = 1u << 7,
  kU16N = 1u << 8,
  kU32 = 1u << 9,
};

uint32_t ComponentBit(const AccessorDesc& a) {
  switch (a.component_type) {
    case ComponentType::kFloat:
      return kF32;
    case ComponentType::kByte:
      return a.normalized ? kI8N : kI8;
    case ComponentType::kUnsignedByte:
      return a.normalized ? kU8N : kU8;
    case ComponentType::kShort:
      return a.normalized ? kI16N : kI16;
    case ComponentType::kUnsignedShort:
      return a.normalized ? kU16N : kU16;
    case ComponentType::kUnsignedInt:
      return a.normalized ? 0u : uint32_t{kU32};
  }
  return 0;
}

// kInvalidValue at `where` unless accessor `index` has one of `allowed` (`quantized_allowed` too
// when the asset uses KHR_mesh_quantization).
Status CheckComponents(const LoadState& c, uint32_t index, uint32_t allowed,
                       uint32_t quantized_allowed, const char* role, const std::string& where) {
  const AccessorDesc& a = c.accessors[index];
  if (ComponentBit(a) & (allowed | (c.quantized ? quantized_allowed : 0))) return {};
  return {Error::kInvalidValue,
          std::string("componentType ") + gltf::ComponentTypeName(a.component_type) +
              (a.normalized ? " (normalized)" : "") + " is not allowed for " + role +
              (c.quantized || !quantized_allowed ? "" : " without KHR_mesh_quantization"),
          where};
}

constexpr uint32_t kAnyQuantizedPosition = kI8 | kI8N | kU8 | kU8N | kI16 | kI16N | kU16 | kU16N;
constexpr uint32_t kSignedNormalized = kI8N | kI16N;
constexpr uint32_t kNormalizedRotation = kI8N | kU8N | kI16N | kU16N;

// Decodes accessor `index` (already validated) as floats, checking its type first.
Status ReadAccessorFloats(const LoadState& c, uint32_t index,
                          std::initializer_list<AccessorType> types, const std::string& where,
                          std::vector<float>* out) {
  const AccessorDesc& a = c.accessors[index];
  if (std::find(types.begin(), types.end(), a.type) == types.end()) {
    return {Error::kInvalidValue, "accessor " + std::to_string(index) + " has the wrong type",
            where};
  }
  out->resize(static_cast<size_t>(a.count) * gltf::ComponentCount(a.type));
  return gltf::ReadFloats(a, *out);
}

// ---------------------------------------------------------------------------------------------
// Nodes and scenes

Status LoadNodes(LoadState& c, Object root, size_t mesh_count, size_t skin_count) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "nodes", "", &array, &present); !s) return s;
  if (!present) return {};
  std::vector<Node>& nodes = c.asset->nodes;
  nodes.resize(array.size());
  std::vector<double> numbers;
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/nodes", i);
    Node& n = nodes[i];
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    std::string_view name;
    if (Status s = OptionalString(o, "name", where, &name); !s) return s;
    n.name = name;
    if (Status s = OptionalIndices(o, "children", where, nodes.size(), &n.children); !s) {
      return s;
    }
    if (Status s = OptionalIndex(o, "mesh", where, mesh_count, &n.mesh); !s) return s;
    if (Status s = OptionalIndex(o, "skin", where, skin_count, &n.skin); !s) return s;
    if (n.skin >= 0 && n.mesh < 0) {
      return {Error::kInvalidValue, "a node with a skin must have a mesh", Pointer(where, "skin")};
    }
    bool has_t = false, has_r = false, has_s = false;
    if (Status s = OptionalNumbers(o, "translation", where, 3, &numbers, &has_t); !s) return s;
    if (has_t) n.translation = {float(numbers[0]), float(numbers[1]), float(numbers[2])};
    if (Status s = OptionalNumbers(o, "rotation", where, 4, &numbers, &has_r); !s) return s;
    if (has_r) {
      const double len = std::sqrt(numbers[0] * numbers[0] + numbers[1] * numbers[1] +
                                   numbers[2] * numbers[2] + numbers[3] * numbers[3]);
      if (len < 1e-6) {
        return {Error::kInvalidValue, "rotation is not a unit quaternion",
                Pointer(where, "rotation")};
      }
      if (std::fabs(len - 1.0) > 1e-3) {
        c.warnings->push_back({Pointer(where, "rotation"), "rotation quaternion normalized"});
      }
      n.rotation = {float(numbers[0] / len), float(numbers[1] / len), float(numbers[2] / len),
                    float(numbers[3] / len)};
    }
    if (Status s = OptionalNumbers(o, "scale", where, 3, &numbers, &has_s); !s) return s;
    if (has_s) n.scale = {float(numbers[0]), float(numbers[1]), float(numbers[2])};
    if (Status s = OptionalNumbers(o, "matrix", where, 16, &numbers, &n.has_matrix); !s) {
      return s;
    }
    if (n.has_matrix) {
      if (has_t || has_r || has_s) {
        return {Error::kInvalidValue, "a node has both matrix and translation/rotation/scale",
                Pointer(where, "matrix")};
      }
      for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row) n.matrix.m[col][row] = float(numbers[col * 4 + row]);
    }
    bool has_weights = false;
    if (Status s = OptionalNumbers(o, "weights", where, 0, &numbers, &has_weights); !s) {
      return s;
    }
    if (has_weights) n.weights.assign(numbers.begin(), numbers.end());
    ++i;
  }
  // Parents: each node at most one, none its own ancestor.
  for (size_t p = 0; p < nodes.size(); ++p) {
    for (size_t k = 0; k < nodes[p].children.size(); ++k) {
      const uint32_t child = nodes[p].children[k];
      if (nodes[child].parent >= 0 || child == p) {
        return {Error::kInvalidValue,
                child == p ? "a node is its own child"
                           : "node " + std::to_string(child) + " has more than one parent",
                Pointer(Pointer(Pointer("/nodes", p), "children"), k)};
      }
      nodes[child].parent = static_cast<int32_t>(p);
    }
  }
  // Cycles: walk up from each node; state 1 = on the current walk, 2 = known to reach a root.
  std::vector<uint8_t> state(nodes.size(), 0);
  std::vector<size_t> walk;
  for (size_t start = 0; start < nodes.size(); ++start) {
    walk.clear();
    int64_t at = static_cast<int64_t>(start);
    while (at >= 0 && state[size_t(at)] == 0) {
      state[size_t(at)] = 1;
      walk.push_back(size_t(at));
      at = nodes[size_t(at)].parent;
    }
    if (at >= 0 && state[size_t(at)] == 1) {
      return {Error::kInvalidValue,
              "the node hierarchy has a cycle through node " + std::to_string(at),
              Pointer("/nodes", size_t(at))};
    }
    for (size_t w : walk) state[w] = 2;
  }
  return {};
}

Status LoadScenes(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "scenes", "", &array, &present); !s) return s;
  if (present) {
    c.asset->scenes.resize(array.size());
    size_t i = 0;
    for (Element e : array) {
      const std::string where = Pointer("/scenes", i);
      Scene& scene = c.asset->scenes[i];
      Object o;
      if (Status s = AsObject(e, where, &o); !s) return s;
      std::string_view name;
      if (Status s = OptionalString(o, "name", where, &name); !s) return s;
      scene.name = name;
      if (Status s = OptionalIndices(o, "nodes", where, c.asset->nodes.size(), &scene.nodes); !s) {
        return s;
      }
      for (size_t k = 0; k < scene.nodes.size(); ++k) {
        if (c.asset->nodes[scene.nodes[k]].parent >= 0) {
          return {Error::kInvalidValue, "a scene's nodes must be root nodes",
                  Pointer(Pointer(where, "nodes"), k)};
        }
      }
      ++i;
    }
  }
  return OptionalIndex(root, "scene", "", c.asset->scenes.size(), &c.asset->scene);
}

// ---------------------------------------------------------------------------------------------
// Meshes

// glTF 2.0 §3.6.2.4: vertex attribute elements start on 4-byte boundaries in their view.
Status CheckVertexAlignment(const LoadState& c, uint32_t accessor, const std::string& where) {
  const AccessorDesc& a = c.accessors[accessor];
  if (a.view && (a.byte_offset % 4 != 0 || a.view->byte_stride % 4 != 0)) {
    return {Error::kInvalidValue, "vertex attribute data must be 4-byte aligned", where};
  }
  return {};
}

// Checks an attribute accessor's count against the primitive's vertex count, and its alignment.
Status CheckCount(const LoadState& c, uint32_t accessor, size_t vertex_count,
                  const std::string& where) {
  if (Status s = CheckVertexAlignment(c, accessor, where); !s) return s;
  if (c.accessors[accessor].count != vertex_count) {
    return {Error::kInvalidValue,
            "count " + std::to_string(c.accessors[accessor].count) + " differs from POSITION's " +
                std::to_string(vertex_count),
            where};
  }
  return {};
}

Status LoadInfluences(LoadState& c, Object attributes, const std::string& aw, size_t vertex_count,
                      Primitive* p) {
  // JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, ... contiguous from 0.
  size_t sets = 0;
  while (true) {
    Element ignored;
    const std::string key = "JOINTS_" + std::to_string(sets);
    if (attributes.at_key(key).get(ignored) != simdjson::SUCCESS) break;
    ++sets;
  }
  Element stray;
  if (attributes.at_key("WEIGHTS_" + std::to_string(sets)).get(stray) == simdjson::SUCCESS) {
    return {Error::kMissingProperty, "WEIGHTS_" + std::to_string(sets) + " without its JOINTS",
            Pointer(aw, "JOINTS_" + std::to_string(sets))};
  }
  if (sets == 0) return {};
  const uint32_t k = static_cast<uint32_t>(4 * sets);
  p->influences.influences_per_vertex = k;
  p->influences.joints.assign(vertex_count * k, 0);
  p->influences.weights.assign(vertex_count * k, 0.0f);
  std::vector<uint32_t> joints(vertex_count * 4);
  std::vector<float> weights(vertex_count * 4);
  for (size_t set = 0; set < sets; ++set) {
    const std::string jk = "JOINTS_" + std::to_string(set), wk = "WEIGHTS_" + std::to_string(set);
    uint32_t ja = 0, wa = 0;
    if (Status s = RequireIndex(attributes, jk, aw, c.accessors.size(), &ja); !s) return s;
    if (Status s = RequireIndex(attributes, wk, aw, c.accessors.size(), &wa); !s) return s;
    const std::string jw = Pointer(aw, jk), ww = Pointer(aw, wk);
    if (Status s = CheckCount(c, ja, vertex_count, jw); !s) return s;
    if (Status s = CheckCount(c, wa, vertex_count, ww); !s) return s;
    if (Status s = CheckComponents(c, ja, kU8 | kU16, 0, jk.c_str(), jw); !s) return s;
    if (Status s = CheckComponents(c, wa, kF32 | kU8N | kU16N, 0, wk.c_str(), ww); !s) return s;
    if (c.accessors[ja].type != AccessorType::kVec4 ||
        c.accessors[wa].type != AccessorType::kVec4) {
      return {Error::kInvalidValue, "JOINTS_n and WEIGHTS_n must be VEC4",
              c.accessors[ja].type != AccessorType::kVec4 ? jw : ww};
    }
    if (Status s = gltf::ReadUints(c.accessors[ja], joints); !s) {
      ErrorInfo err = s.error();
      err.where = jw + " (" + err.where + ")";
      return err;
    }
    if (Status s = gltf::ReadFloats(c.accessors[wa], weights); !s) return s;
    for (size_t v = 0; v < vertex_count; ++v) {
      for (size_t s = 0; s < 4; ++s) {
        const uint32_t joint = joints[v * 4 + s];
        const float weight = weights[v * 4 + s];
        if (!(weight >= 0.0f)) {
          return {Error::kInvalidValue,
                  "vertex " + std::to_string(v) + " has weight " + std::to_string(weight) +
                      " (weights must be >= 0)",
                  ww};
        }
        if (joint > 0xFFFF) {
          return {Error::kUnsupportedFeature, "joint indices above 65535", jw};
        }
        p->influences.joints[v * k + set * 4 + s] = static_cast<uint16_t>(joint);
        p->influences.weights[v * k + set * 4 + s] = weight;
      }
    }
  }
  // Weight sums: glTF says they SHOULD be 1; real files differ. Normalize by default (warned).
  size_t off = 0, zero = 0;
  for (size_t v = 0; v < vertex_count; ++v) {
    float* w = &p->influences.weights[v * k];
    double sum = 0;
    for (uint32_t s = 0; s < k; ++s) sum += w[s];
    if (sum == 0.0) {
      ++zero;
      continue;
    }
    if (std::fabs(sum - 1.0) > 2e-3) ++off;
    if (c.options->weights == WeightMode::kNormalize) {
      for (uint32_t s = 0; s < k; ++s) w[s] = static_cast<float>(w[s] / sum);
    }
  }
  if (off) {
    c.warnings->push_back(
        {Pointer(aw, "WEIGHTS_0"),
         std::to_string(off) + " of " + std::to_string(vertex_count) +
             " vertices have weights that do not sum to 1" +
             (c.options->weights == WeightMode::kNormalize ? "; normalized"
                                                           : "; kept as authored")});
  }
  if (zero) {
    c.warnings->push_back({Pointer(aw, "WEIGHTS_0"),
                           std::to_string(zero) + " vertices have no weight; they keep their rest "
                                                  "position"});
  }
  return {};
}

Status LoadPrimitive(LoadState& c, Object o, const std::string& where, Primitive* p) {
  Object attributes;
  bool has_attributes = false;
  if (Status s = OptionalObject(o, "attributes", where, &attributes, &has_attributes); !s) {
    return s;
  }
  if (!has_attributes) return {Error::kMissingProperty, "required", Pointer(where, "attributes")};
  const std::string aw = Pointer(where, "attributes");
  int32_t position = -1, normal = -1, tangent = -1;
  if (Status s = OptionalIndex(attributes, "POSITION", aw, c.accessors.size(), &position); !s)
    return s;
  if (Status s = OptionalIndex(attributes, "NORMAL", aw, c.accessors.size(), &normal); !s) return s;
  if (Status s = OptionalIndex(attributes, "TANGENT", aw, c.accessors.size(), &tangent); !s)
    return s;
  if (position < 0) {
    c.warnings->push_back({aw, "no POSITION: the primitive has no vertices to deform"});
    return {};
  }
  if (Status s = CheckVertexAlignment(c, uint32_t(position), Pointer(aw, "POSITION")); !s) return s;
  if (Status s = CheckComponents(c, uint32_t(position), kF32, kAnyQuantizedPosition, "POSITION",
                                 Pointer(aw, "POSITION"));
      !s) {
    return s;
  }
  if (Status s = ReadAccessorFloats(c, uint32_t(position), {AccessorType::kVec3},
                                    Pointer(aw, "POSITION"), &p->positions);
      !s) {
    return s;
  }
  const size_t vertex_count = p->vertex_count();
  if (normal >= 0) {
    if (Status s = CheckCount(c, uint32_t(normal), vertex_count, Pointer(aw, "NORMAL")); !s)
      return s;
    if (Status s = CheckComponents(c, uint32_t(normal), kF32, kSignedNormalized, "NORMAL",
                                   Pointer(aw, "NORMAL"));
        !s) {
      return s;
    }
    if (Status s = ReadAccessorFloats(c, uint32_t(normal), {AccessorType::kVec3},
                                      Pointer(aw, "NORMAL"), &p->normals);
        !s) {
      return s;
    }
  }
  if (tangent >= 0) {
    if (Status s = CheckCount(c, uint32_t(tangent), vertex_count, Pointer(aw, "TANGENT")); !s)
      return s;
    if (Status s = CheckComponents(c, uint32_t(tangent), kF32, kSignedNormalized, "TANGENT",
                                   Pointer(aw, "TANGENT"));
        !s) {
      return s;
    }
    if (Status s = ReadAccessorFloats(c, uint32_t(tangent), {AccessorType::kVec4},
                                      Pointer(aw, "TANGENT"), &p->tangents);
        !s) {
      return s;
    }
  }
  if (Status s = LoadInfluences(c, attributes, aw, vertex_count, p); !s) return s;

  uint64_t mode = 4;
  if (Status s = OptionalUint(o, "mode", where, &mode); !s) return s;
  if (mode > 6) return {Error::kInvalidValue, "mode must be 0 to 6", Pointer(where, "mode")};
  p->mode = static_cast<uint32_t>(mode);
  if (Status s = OptionalIndex(o, "material", where, c.material_count, &p->material); !s) return s;
  if (Status s = gltf::LoadVariantMappings(o, where, c.asset->variants.size(), c.material_count, p);
      !s) {
    return s;
  }
  int32_t indices = -1;
  if (Status s = OptionalIndex(o, "indices", where, c.accessors.size(), &indices); !s) return s;
  if (indices >= 0) {
    const AccessorDesc& a = c.accessors[size_t(indices)];
    if (a.type != AccessorType::kScalar) {
      return {Error::kInvalidValue, "indices must be SCALAR", Pointer(where, "indices")};
    }
    if (Status s = CheckComponents(c, uint32_t(indices), kU8 | kU16 | kU32, 0, "indices",
                                   Pointer(where, "indices"));
        !s) {
      return s;
    }
    p->indices.resize(static_cast<size_t>(a.count));
    if (Status s = gltf::ReadUints(a, p->indices); !s) return s;
    for (size_t i = 0; i < p->indices.size(); ++i) {
      if (p->indices[i] >= vertex_count) {
        return {Error::kInvalidValue,
                "index " + std::to_string(i) + " is " + std::to_string(p->indices[i]) +
                    " but there are " + std::to_string(vertex_count) + " vertices",
                Pointer(where, "indices")};
      }
    }
  }

  Array targets;
  bool has_targets = false;
  if (Status s = OptionalArray(o, "targets", where, &targets, &has_targets); !s) return s;
  if (has_targets) {
    p->targets.resize(targets.size());
    size_t t = 0;
    for (Element te : targets) {
      const std::string tw = Pointer(Pointer(where, "targets"), t);
      Object to;
      if (Status s = AsObject(te, tw, &to); !s) return s;
      MorphTarget& target = p->targets[t];
      const struct {
        const char* key;
        std::vector<float>* out;
      } streams[] = {{"POSITION", &target.positions},
                     {"NORMAL", &target.normals},
                     {"TANGENT", &target.tangents}};
      for (const auto& stream : streams) {
        int32_t accessor = -1;
        if (Status s = OptionalIndex(to, stream.key, tw, c.accessors.size(), &accessor); !s)
          return s;
        if (accessor < 0) continue;
        const std::string sw = Pointer(tw, stream.key);
        if (Status s = CheckCount(c, uint32_t(accessor), vertex_count, sw); !s) return s;
        const bool is_position = std::string_view(stream.key) == "POSITION";
        if (Status s =
                CheckComponents(c, uint32_t(accessor), kF32,
                                is_position ? (kI8 | kI8N | kI16 | kI16N) : kSignedNormalized,
                                "a morph target", sw);
            !s) {
          return s;
        }
        if (Status s =
                ReadAccessorFloats(c, uint32_t(accessor), {AccessorType::kVec3}, sw, stream.out);
            !s) {
          return s;
        }
      }
      ++t;
    }
  }
  return {};
}

Status LoadMeshes(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "meshes", "", &array, &present); !s) return s;
  if (!present) return {};
  c.asset->meshes.resize(array.size());
  std::vector<double> numbers;
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/meshes", i);
    Mesh& mesh = c.asset->meshes[i];
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    std::string_view name;
    if (Status s = OptionalString(o, "name", where, &name); !s) return s;
    mesh.name = name;
    Array primitives;
    if (Status s = RequireArray(o, "primitives", where, &primitives); !s) return s;
    if (primitives.size() == 0) {
      return {Error::kInvalidValue, "a mesh needs at least one primitive",
              Pointer(where, "primitives")};
    }
    mesh.primitives.resize(primitives.size());
    size_t p = 0;
    for (Element pe : primitives) {
      const std::string pw = Pointer(Pointer(where, "primitives"), p);
      Object po;
      if (Status s = AsObject(pe, pw, &po); !s) return s;
      if (Status s = LoadPrimitive(c, po, pw, &mesh.primitives[p]); !s) return s;
      if (mesh.primitives[p].targets.size() != mesh.primitives[0].targets.size()) {
        return {Error::kInvalidValue, "every primitive of a mesh must have the same target count",
                Pointer(pw, "targets")};
      }
      ++p;
    }
    bool has_weights = false;
    if (Status s = OptionalNumbers(o, "weights", where, 0, &numbers, &has_weights); !s) return s;
    if (has_weights) {
      if (numbers.size() != mesh.primitives[0].targets.size()) {
        return {Error::kInvalidValue,
                std::to_string(numbers.size()) + " weights for " +
                    std::to_string(mesh.primitives[0].targets.size()) + " morph targets",
                Pointer(where, "weights")};
      }
      mesh.weights.assign(numbers.begin(), numbers.end());
    }
    if (Status s =
            gltf::LoadInbetweens(o, where, mesh.primitives[0].targets.size(), &mesh, c.warnings);
        !s) {
      return s;
    }
    ++i;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Skins

Status LoadSkins(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "skins", "", &array, &present); !s) return s;
  if (!present) return {};
  c.asset->skins.resize(array.size());
  size_t i = 0;
  std::vector<float> matrices;
  for (Element e : array) {
    const std::string where = Pointer("/skins", i);
    Skin& skin = c.asset->skins[i];
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    std::string_view name;
    if (Status s = OptionalString(o, "name", where, &name); !s) return s;
    skin.name = name;
    bool has_joints = false;
    if (Status s =
            OptionalIndices(o, "joints", where, c.asset->nodes.size(), &skin.joints, &has_joints);
        !s) {
      return s;
    }
    if (!has_joints) return {Error::kMissingProperty, "required", Pointer(where, "joints")};
    if (skin.joints.empty()) {
      return {Error::kInvalidValue, "a skin needs at least one joint", Pointer(where, "joints")};
    }
    if (Status s = OptionalIndex(o, "skeleton", where, c.asset->nodes.size(), &skin.skeleton); !s) {
      return s;
    }
    int32_t ibm = -1;
    if (Status s = OptionalIndex(o, "inverseBindMatrices", where, c.accessors.size(), &ibm); !s)
      return s;
    skin.inverse_binds.assign(skin.joints.size(), Float4x4::Identity());
    if (ibm >= 0) {
      const std::string iw = Pointer(where, "inverseBindMatrices");
      if (Status s = CheckComponents(c, uint32_t(ibm), kF32, 0, "inverseBindMatrices", iw); !s)
        return s;
      if (Status s = ReadAccessorFloats(c, uint32_t(ibm), {AccessorType::kMat4}, iw, &matrices); !s)
        return s;
      if (matrices.size() / 16 < skin.joints.size()) {
        return {Error::kInvalidValue,
                std::to_string(matrices.size() / 16) + " inverse bind matrices for " +
                    std::to_string(skin.joints.size()) + " joints",
                iw};
      }
      for (size_t j = 0; j < skin.joints.size(); ++j) {
        for (int col = 0; col < 4; ++col)
          for (int row = 0; row < 4; ++row)
            skin.inverse_binds[j].m[col][row] = matrices[j * 16 + size_t(col) * 4 + size_t(row)];
      }
    }
    if (Status s = gltf::LoadBindPoses(o, where, &skin); !s) return s;
    ++i;
  }
  return {};
}

// Node-level rules that need the meshes: node.weights has one weight per morph target; skinned
// meshes' joint indices are < the instantiating skin's joint count.
Status CheckSkinnedNodes(const LoadState& c) {
  const Asset& a = *c.asset;
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    const Node& node = a.nodes[n];
    if (!node.weights.empty()) {
      const size_t targets =
          node.mesh < 0 ? 0 : a.meshes[size_t(node.mesh)].primitives[0].targets.size();
      if (node.weights.size() != targets) {
        return {Error::kInvalidValue,
                std::to_string(node.weights.size()) + " weights for " + std::to_string(targets) +
                    " morph targets",
                Pointer(Pointer("/nodes", n), "weights")};
      }
    }
    if (node.skin < 0) continue;
    const size_t joint_count = a.skins[size_t(node.skin)].joints.size();
    const Mesh& mesh = a.meshes[size_t(node.mesh)];
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const std::vector<uint16_t>& joints = mesh.primitives[p].influences.joints;
      for (size_t i = 0; i < joints.size(); ++i) {
        if (joints[i] >= joint_count) {
          return {Error::kInvalidReference,
                  "joint index " + std::to_string(joints[i]) + " but skin " +
                      std::to_string(node.skin) + " (used by node " + std::to_string(n) + ") has " +
                      std::to_string(joint_count) + " joints",
                  Pointer(Pointer(Pointer(Pointer("/meshes", size_t(node.mesh)), "primitives"), p),
                          "attributes") +
                      "/JOINTS_" +
                      std::to_string(i % mesh.primitives[p].influences.influences_per_vertex / 4)};
        }
      }
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Animations

Status LoadAnimations(LoadState& c, Object root) {
  Array array;
  bool present = false;
  if (Status s = OptionalArray(root, "animations", "", &array, &present); !s) return s;
  if (!present) return {};
  c.asset->animations.resize(array.size());
  size_t i = 0;
  for (Element e : array) {
    const std::string where = Pointer("/animations", i);
    Animation& anim = c.asset->animations[i];
    Object o;
    if (Status s = AsObject(e, where, &o); !s) return s;
    std::string_view name;
    if (Status s = OptionalString(o, "name", where, &name); !s) return s;
    anim.name = name;
    Array samplers, channels;
    if (Status s = RequireArray(o, "samplers", where, &samplers); !s) return s;
    if (Status s = RequireArray(o, "channels", where, &channels); !s) return s;
    anim.samplers.resize(samplers.size());
    std::vector<uint32_t> output_accessor(samplers.size());
    size_t si = 0;
    for (Element se : samplers) {
      const std::string sw = Pointer(Pointer(where, "samplers"), si);
      Object so;
      if (Status s = AsObject(se, sw, &so); !s) return s;
      AnimationSampler& sampler = anim.samplers[si];
      uint32_t input = 0;
      if (Status s = RequireIndex(so, "input", sw, c.accessors.size(), &input); !s) return s;
      if (Status s = RequireIndex(so, "output", sw, c.accessors.size(), &output_accessor[si]); !s) {
        return s;
      }
      std::string_view interpolation = "LINEAR";
      if (Status s = OptionalString(so, "interpolation", sw, &interpolation); !s) return s;
      if (interpolation == "LINEAR") {
        sampler.interpolation = Interpolation::kLinear;
      } else if (interpolation == "STEP") {
        sampler.interpolation = Interpolation::kStep;
      } else if (interpolation == "CUBICSPLINE") {
        sampler.interpolation = Interpolation::kCubicSpline;
      } else {
        return {Error::kInvalidValue, "unknown interpolation '" + std::string(interpolation) + "'",
                Pointer(sw, "interpolation")};
      }
      const std::string iw = Pointer(sw, "input");
      if (Status s = CheckComponents(c, input, kF32, 0, "animation input", iw); !s) return s;
      if (Status s = ReadAccessorFloats(c, input, {AccessorType::kScalar}, iw, &sampler.input); !s)
        return s;
      for (size_t k = 1; k < sampler.input.size(); ++k) {
        if (!(sampler.input[k] > sampler.input[k - 1])) {
          return {Error::kInvalidValue,
                  "key times must increase strictly (key " + std::to_string(k) + ")", iw};
        }
      }
      if (sampler.interpolation == Interpolation::kCubicSpline && sampler.input.size() < 2) {
        return {Error::kInvalidValue, "CUBICSPLINE needs at least 2 keys", iw};
      }
      const AccessorDesc& out = c.accessors[output_accessor[si]];
      sampler.output.resize(static_cast<size_t>(out.count) * gltf::ComponentCount(out.type));
      if (Status s = gltf::ReadFloats(out, sampler.output); !s) return s;
      ++si;
    }
    anim.channels.resize(channels.size());
    size_t ci = 0;
    for (Element ce : channels) {
      const std::string cw = Pointer(Pointer(where, "channels"), ci);
      Object co, target;
      if (Status s = AsObject(ce, cw, &co); !s) return s;
      AnimationChannel& channel = anim.channels[ci];
      if (Status s = RequireIndex(co, "sampler", cw, anim.samplers.size(), &channel.sampler); !s) {
        return s;
      }
      bool has_target = false;
      if (Status s = OptionalObject(co, "target", cw, &target, &has_target); !s) return s;
      if (!has_target) return {Error::kMissingProperty, "required", Pointer(cw, "target")};
      const std::string tw = Pointer(cw, "target");
      if (Status s = OptionalIndex(target, "node", tw, c.asset->nodes.size(), &channel.node); !s) {
        return s;
      }
      std::string_view path;
      if (Status s = RequireString(target, "path", tw, &path); !s) return s;
      AnimationSampler& sampler = anim.samplers[channel.sampler];
      const AccessorDesc& out = c.accessors[output_accessor[channel.sampler]];
      AccessorType expected = AccessorType::kVec3;
      uint32_t components = 3;
      if (path == "translation" || path == "scale") {
        channel.path = path == "scale" ? AnimationPath::kScale : AnimationPath::kTranslation;
      } else if (path == "rotation") {
        channel.path = AnimationPath::kRotation;
        expected = AccessorType::kVec4;
        components = 4;
      } else if (path == "weights") {
        channel.path = AnimationPath::kWeights;
        expected = AccessorType::kScalar;
        components = 0;
        if (channel.node >= 0) {
          const Node& node = c.asset->nodes[size_t(channel.node)];
          if (node.mesh < 0) {
            return {Error::kInvalidValue, "a weights channel targets a node without a mesh",
                    Pointer(tw, "node")};
          }
          components = static_cast<uint32_t>(
              c.asset->meshes[size_t(node.mesh)].primitives[0].targets.size());
        }
      } else {
        // Paths defined by extensions (e.g. KHR_animation_pointer) are not animated by sinew.
        c.warnings->push_back({Pointer(tw, "path"), "path '" + std::string(path) + "' ignored"});
        channel.node = -1;
        ++ci;
        continue;
      }
      const std::string ow =
          Pointer(Pointer(Pointer(where, "samplers"), channel.sampler), "output");
      const bool moves =
          channel.path == AnimationPath::kTranslation || channel.path == AnimationPath::kScale;
      if (Status s = CheckComponents(c, output_accessor[channel.sampler],
                                     moves ? kF32 : (kF32 | kNormalizedRotation),
                                     moves ? kAnyQuantizedPosition : 0, "this animation path", ow);
          !s) {
        return s;
      }
      if (out.type != expected) {
        return {Error::kInvalidValue,
                "output accessor has the wrong type for '" + std::string(path) + "'",
                Pointer(Pointer(Pointer(where, "samplers"), channel.sampler), "output")};
      }
      const size_t keys = sampler.input.size();
      const size_t per_key = sampler.interpolation == Interpolation::kCubicSpline ? 3 : 1;
      if (components != 0 && sampler.output.size() != keys * per_key * components) {
        return {Error::kInvalidValue,
                std::to_string(sampler.output.size()) + " output values for " +
                    std::to_string(keys) + " keys of " + std::to_string(components) + " components",
                Pointer(Pointer(Pointer(where, "samplers"), channel.sampler), "output")};
      }
      if (sampler.components != 0 && components != 0 && sampler.components != components) {
        return {Error::kInvalidValue, "one sampler drives channels of different sizes", cw};
      }
      if (components != 0) sampler.components = components;
      ++ci;
    }
    ++i;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------

Status CheckAssetAndExtensions(LoadState& c, Object root) {
  Object asset;
  bool has_asset = false;
  if (Status s = OptionalObject(root, "asset", "", &asset, &has_asset); !s) return s;
  if (!has_asset) return {Error::kMissingProperty, "required", "/asset"};
  std::string_view version;
  if (Status s = RequireString(asset, "version", "/asset", &version); !s) return s;
  if (version.size() < 2 || version.substr(0, 2) != "2.") {
    return {Error::kUnsupportedFeature,
            "glTF version " + std::string(version) + " (sinew reads 2.x)", "/asset/version"};
  }
  std::string_view min_version;
  bool has_min = false;
  if (Status s = OptionalString(asset, "minVersion", "/asset", &min_version, &has_min); !s)
    return s;
  if (has_min && min_version != "2.0") {
    return {Error::kUnsupportedFeature, "minVersion " + std::string(min_version),
            "/asset/minVersion"};
  }
  for (const char* key : {"extensionsUsed", "extensionsRequired"}) {
    std::vector<std::string_view> names;
    if (Status s = OptionalStrings(root, key, "", &names); !s) return s;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string_view name = names[i];
      if (std::string_view(key) == "extensionsUsed") {
        c.asset->extensions_used.emplace_back(name);
        c.quantized |= name == "KHR_mesh_quantization";
      } else if (std::find(std::begin(kSupportedExtensions), std::end(kSupportedExtensions),
                           name) == std::end(kSupportedExtensions)) {
        return {Error::kUnsupportedExtension,
                "required extension " + std::string(name) + " is not supported by sinew",
                Pointer(Pointer("", key), i)};
      }
    }
  }
  Array materials;
  bool has_materials = false;
  if (Status s = OptionalArray(root, "materials", "", &materials, &has_materials); !s) return s;
  c.material_count = has_materials ? materials.size() : 0;
  return {};
}

}  // namespace

struct GltfLoader::Parser {
  simdjson::dom::parser dom;
  LoadState scratch;
};

GltfLoader::GltfLoader() : parser_(std::make_unique<Parser>()) {}
GltfLoader::~GltfLoader() = default;
GltfLoader::GltfLoader(GltfLoader&&) noexcept = default;
GltfLoader& GltfLoader::operator=(GltfLoader&&) noexcept = default;

Result<LoadedAsset> GltfLoader::LoadFromMemory(std::span<const uint8_t> bytes,
                                               const std::filesystem::path& base_dir,
                                               const GltfOptions& options) {
  LoadedAsset out;
  LoadState& c = parser_->scratch;
  c.Reset(options, base_dir, &out);
  std::span<const uint8_t> json = bytes;
  if (gltf::IsGlb(bytes)) {
    auto chunks = gltf::ParseGlb(bytes);
    if (!chunks) return chunks.status();
    json = chunks->json;
    c.glb_bin = chunks->bin;
    c.has_glb_bin = chunks->has_bin;
  }
  Element doc;
  // The caller guarantees ReadPadding() readable bytes after `bytes`, hence after `json` too.
  if (auto error = parser_->dom.parse(json.data(), json.size(), false).get(doc); error) {
    return ErrorInfo{Error::kJsonSyntax, simdjson::error_message(error), "", 0};
  }
  Object root;
  if (Status s = AsObject(doc, "", &root); !s) return s;
  if (Status s = CheckAssetAndExtensions(c, root); !s) return s;
  if (Status s = gltf::LoadVariantNames(root, c.asset); !s) return s;
  if (Status s = LoadBuffers(c, root); !s) return s;
  if (Status s = LoadViews(c, root); !s) return s;
  if (Status s = LoadAccessors(c, root); !s) return s;
  if (Status s = LoadNodes(c, root, ArraySize(root, "meshes"), ArraySize(root, "skins")); !s)
    return s;
  if (Status s = LoadScenes(c, root); !s) return s;
  if (Status s = LoadMeshes(c, root); !s) return s;
  if (Status s = LoadSkins(c, root); !s) return s;
  if (Status s = CheckSkinnedNodes(c); !s) return s;
  if (Status s = LoadAnimations(c, root); !s) return s;
  if (Status s = UseLayout(out.asset, options.influences, options.dense_k, "primitives"); !s) {
    return s;
  }
  return out;
}

namespace {

size_t CountValues(Element e) {
  size_t n = 1;
  if (Array a; e.get_array().get(a) == simdjson::SUCCESS) {
    for (Element child : a) n += CountValues(child);
  } else if (Object o; e.get_object().get(o) == simdjson::SUCCESS) {
    for (auto field : o) n += CountValues(field.value);
  }
  return n;
}

}  // namespace

Result<GltfLoader::JsonParseStats> GltfLoader::ParseJsonOnly(std::span<const uint8_t> bytes,
                                                             bool count_values) {
  std::span<const uint8_t> json = bytes;
  if (gltf::IsGlb(bytes)) {
    auto chunks = gltf::ParseGlb(bytes);
    if (!chunks) return chunks.status();
    json = chunks->json;
  }
  Element doc;
  if (auto error = parser_->dom.parse(json.data(), json.size(), false).get(doc); error) {
    return ErrorInfo{Error::kJsonSyntax, simdjson::error_message(error), "", 0};
  }
  JsonParseStats stats;
  stats.json_bytes = json.size();
  if (count_values) stats.values = CountValues(doc);
  return stats;
}

Result<LoadedAsset> GltfLoader::Load(const std::filesystem::path& path,
                                     const GltfOptions& options) {
  auto file = ReadFile(path);
  if (!file) return file.status();
  return LoadFromMemory({file->data(), file->size}, path.parent_path(), options);
}

Result<LoadedAsset> LoadGltf(const std::filesystem::path& path, const GltfOptions& options) {
  return GltfLoader().Load(path, options);
}

Result<LoadedAsset> LoadGltfFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& base_dir,
                                       const GltfOptions& options) {
  return GltfLoader().LoadFromMemory(bytes, base_dir, options);
}

}  // namespace sinew::loader
