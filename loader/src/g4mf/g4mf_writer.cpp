#include "sinew/loader/g4mf_writer.h"

#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "common/base64.h"
#include "common/load_status.h"
#include "g4mf/g4b.h"
#include "sinew/cpu/evaluate_scene.h"

namespace sinew::loader {
namespace {

// One BLOB with 16-byte aligned views, and the JSON text of the views and accessors over it.
class Blob {
 public:
  template <typename T>
  uint32_t Accessor(const std::vector<T>& values, std::string_view component_type,
                    uint32_t vector_size) {
    bytes_.resize((bytes_.size() + 15) / 16 * 16, 0);
    const size_t offset = bytes_.size();
    const size_t length = values.size() * sizeof(T);
    bytes_.resize(offset + length);
    if (length) std::memcpy(bytes_.data() + offset, values.data(), length);
    const uint32_t index = count_++;
    Append(&views_, "{\"byteOffset\":" + std::to_string(offset) +
                        ",\"byteLength\":" + std::to_string(length) + "}");
    Append(&accessors_,
           "{\"bufferView\":" + std::to_string(index) + ",\"componentType\":\"" +
               std::string(component_type) + "\"" +
               (vector_size == 1 ? "" : ",\"vectorSize\":" + std::to_string(vector_size)) + "}");
    return index;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  const std::string& views() const { return views_; }
  const std::string& accessors() const { return accessors_; }

 private:
  static void Append(std::string* list, const std::string& item) {
    if (!list->empty()) *list += ',';
    *list += item;
  }
  std::vector<uint8_t> bytes_;
  std::string views_, accessors_;
  uint32_t count_ = 0;
};

std::string Number(float v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", double(v));
  return text;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", ch);
      out += escaped;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// G4MF names avoid " # * . : | ? @ < > { } [ ] / \ % and are unique across the file.
class Names {
 public:
  std::string Unique(std::string_view wanted, std::string_view fallback) {
    std::string name(wanted.empty() ? fallback : wanted);
    for (char& ch : name) {
      if (std::string_view("\"#*.:|?@<>{}[]/\\%").find(ch) != std::string_view::npos) ch = '_';
    }
    std::string candidate = name;
    for (int n = 2; !used_.insert(candidate).second; ++n)
      candidate = name + "_" + std::to_string(n);
    return candidate;
  }

 private:
  std::set<std::string> used_;
};

// Position + basis of an affine matrix (column-major 3x3, no homogeneous row).
std::string TransformJson(const Float4x4& m) {
  std::string out = "\"position\":[" + Number(m.m[3][0]) + "," + Number(m.m[3][1]) + "," +
                    Number(m.m[3][2]) + "],\"basis\":[";
  for (int col = 0; col < 3; ++col) {
    for (int row = 0; row < 3; ++row) {
      out += Number(m.m[col][row]);
      if (col * 3 + row < 8) out += ",";
    }
  }
  return out + "]";
}

struct NodeJson {
  std::string body;  // everything but children
  std::vector<uint32_t> children;
};

// What a mesh's primitives add up to: the G4MF vertices (every primitive's, in order), its
// surfaces and its skin's COO triplets.
struct MeshParts {
  std::vector<float> positions;
  std::vector<uint32_t> skin_vertices, skin_groups;
  std::vector<float> skin_weights;
  std::string surfaces;
  std::vector<size_t> base;  // Per primitive: the G4MF vertex of its vertex 0.
  bool skinned = false;
};

// A primitive's influences as COO triplets over G4MF vertices from `base`: sparse rows as they are;
// dense slots nonzero, heaviest first, ties by lower joint.
void AppendInfluences(const Primitive& prim, size_t base, MeshParts* parts) {
  const SparseInfluences& sparse = prim.sparse_influences;
  if (!sparse.offsets.empty()) {
    parts->skinned = true;
    for (size_t v = 0; v + 1 < sparse.offsets.size(); ++v) {
      for (uint32_t e = sparse.offsets[v]; e < sparse.offsets[v + 1]; ++e) {
        parts->skin_vertices.push_back(uint32_t(base + v));
        parts->skin_groups.push_back(sparse.groups[e]);
        parts->skin_weights.push_back(sparse.weights[e]);
      }
    }
    return;
  }
  const DenseInfluences& d = prim.influences;
  if (d.joints.empty()) return;
  parts->skinned = true;
  const uint32_t k = d.influences_per_vertex;
  std::vector<std::pair<float, uint16_t>> row;
  for (size_t v = 0; v < prim.vertex_count(); ++v) {
    row.clear();
    for (uint32_t s = 0; s < k; ++s) {
      if (d.weights[v * k + s] != 0.0f) row.emplace_back(d.weights[v * k + s], d.joints[v * k + s]);
    }
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    for (const auto& [w, j] : row) {
      parts->skin_vertices.push_back(uint32_t(base + v));
      parts->skin_groups.push_back(j);
      parts->skin_weights.push_back(w);
    }
  }
}

// Primitive p (triangles) as a surface of the mesh: its vertices appended, its corners and
// per-corner normals, its influences.
Status AppendPrimitive(const Mesh& mesh, size_t p, Blob* blob, MeshParts* parts) {
  const Primitive& prim = mesh.primitives[p];
  if (prim.mode != 4) {
    return {Error::kUnsupportedFeature,
            "primitive " + std::to_string(p) + " of mesh '" + mesh.name +
                "' is not triangles; G4MF surfaces here are triangles",
            ""};
  }
  const size_t base = parts->positions.size() / 3;
  parts->base[p] = base;
  parts->positions.insert(parts->positions.end(), prim.positions.begin(), prim.positions.end());
  std::vector<uint32_t> corners = prim.indices;
  if (corners.empty()) {
    corners.resize(prim.vertex_count());
    for (size_t i = 0; i < corners.size(); ++i) corners[i] = uint32_t(i);
  }
  std::vector<uint32_t> simplexes(corners);
  for (uint32_t& v : simplexes) v += uint32_t(base);
  std::string surface = "{\"simplexes\":" + std::to_string(blob->Accessor(simplexes, "uint32", 3));
  if (!prim.normals.empty()) {
    surface +=
        ",\"normals\":{\"values\":" + std::to_string(blob->Accessor(prim.normals, "float32", 3)) +
        ",\"simplexes\":" + std::to_string(blob->Accessor(corners, "uint32", 3)) + "}";
  }
  if (!parts->surfaces.empty()) parts->surfaces += ",";
  parts->surfaces += surface + "}";
  AppendInfluences(prim, base, parts);
  return {};
}

// Blend shape t: the nonzero position offsets over the G4MF vertices, and per surface the nonzero
// normal offsets over its normal values; named by Mesh::target_names, else "Shape<t>".
std::string ShapeJson(const Mesh& mesh, size_t t, const std::vector<size_t>& base, Blob* blob) {
  std::vector<uint32_t> indices;
  std::vector<float> offsets;
  std::string shape_surfaces;
  for (size_t p = 0; p < mesh.primitives.size(); ++p) {
    const Primitive& prim = mesh.primitives[p];
    if (t >= prim.targets.size()) continue;
    const MorphTarget& target = prim.targets[t];
    for (size_t v = 0; v < target.positions.size() / 3; ++v) {
      const float* o = &target.positions[v * 3];
      if (o[0] == 0 && o[1] == 0 && o[2] == 0) continue;
      indices.push_back(uint32_t(base[p] + v));
      offsets.insert(offsets.end(), o, o + 3);
    }
    std::vector<uint32_t> normal_indices;
    std::vector<float> normal_offsets;
    for (size_t v = 0; !prim.normals.empty() && v < target.normals.size() / 3; ++v) {
      const float* o = &target.normals[v * 3];
      if (o[0] == 0 && o[1] == 0 && o[2] == 0) continue;
      normal_indices.push_back(uint32_t(v));
      normal_offsets.insert(normal_offsets.end(), o, o + 3);
    }
    if (normal_indices.empty()) continue;
    if (!shape_surfaces.empty()) shape_surfaces += ",";
    shape_surfaces +=
        "{\"surface\":" + std::to_string(p) +
        ",\"normal\":{\"indices\":" + std::to_string(blob->Accessor(normal_indices, "uint32", 1)) +
        ",\"offsets\":" + std::to_string(blob->Accessor(normal_offsets, "float32", 3)) + "}}";
  }
  // The target's name when the asset has one (glTF extras.targetNames, a G4MF shape name).
  const bool named = t < mesh.target_names.size() && !mesh.target_names[t].empty();
  std::string shape =
      "{\"name\":" + JsonString(named ? mesh.target_names[t] : "Shape" + std::to_string(t));
  if (!indices.empty()) {
    shape += ",\"position\":{\"indices\":" + std::to_string(blob->Accessor(indices, "uint32", 1)) +
             ",\"offsets\":" + std::to_string(blob->Accessor(offsets, "float32", 3)) + "}";
  }
  if (!shape_surfaces.empty()) shape += ",\"surfaces\":[" + shape_surfaces + "]";
  return shape + "}";
}

// `weights` as a JSON array, 0 for the targets that are in-betweens of `mesh`'s shapes: sinew
// drives those through their primary and ignores their own weight, which a G4MF reader, with no
// in-betweens, would apply.
std::string AmountsJson(const Mesh& mesh, std::span<const float> weights) {
  std::vector<bool> inbetween(weights.size(), false);
  for (const InbetweenShape& shape : mesh.inbetween_shapes) {
    for (const InbetweenShape::Inbetween& i : shape.inbetweens) {
      if (i.target < inbetween.size()) inbetween[i.target] = true;
    }
  }
  std::string json = "[";
  for (size_t t = 0; t < weights.size(); ++t) {
    json += (t ? "," : "") + Number(inbetween[t] ? 0.0f : weights[t]);
  }
  return json + "]";
}

// The mesh's "blend" property (with its leading comma), or nothing without morph targets.
std::string BlendJson(const Mesh& mesh, const std::vector<size_t>& base, Blob* blob) {
  const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
  if (!targets) return "";
  std::string shapes;
  for (size_t t = 0; t < targets; ++t) {
    if (!shapes.empty()) shapes += ",";
    shapes += ShapeJson(mesh, t, base, blob);
  }
  std::string json = ",\"blend\":{\"shapes\":[" + shapes + "]";
  if (!mesh.weights.empty()) json += ",\"amounts\":" + AmountsJson(mesh, mesh.weights);
  return json + "}";
}

Status WriteMesh(const Mesh& mesh, const std::string& name, Blob* blob, std::string* out) {
  MeshParts parts;
  parts.base.resize(mesh.primitives.size());
  for (size_t p = 0; p < mesh.primitives.size(); ++p) {
    SINEW_TRY(AppendPrimitive(mesh, p, blob, &parts));
  }
  std::string json = "{\"name\":" + JsonString(name) + ",\"vertices\":" +
                     std::to_string(blob->Accessor(parts.positions, "float32", 3)) +
                     ",\"surfaces\":[" + parts.surfaces + "]";
  if (parts.skinned) {
    json += ",\"skin\":{\"vertices\":" +
            std::to_string(blob->Accessor(parts.skin_vertices, "uint32", 1)) +
            ",\"groups\":" + std::to_string(blob->Accessor(parts.skin_groups, "uint32", 1)) +
            ",\"weights\":" + std::to_string(blob->Accessor(parts.skin_weights, "float32", 1)) +
            "}";
  }
  *out = json + BlendJson(mesh, parts.base, blob) + "}";
  return {};
}

void Put32(std::vector<uint8_t>* out, uint32_t v) {
  uint8_t b[4];
  std::memcpy(b, &v, 4);
  out->insert(out->end(), b, b + 4);
}
void Put64(std::vector<uint8_t>* out, uint64_t v) {
  uint8_t b[8];
  std::memcpy(b, &v, 8);
  out->insert(out->end(), b, b + 8);
}
void PutChunk(std::vector<uint8_t>* out, uint32_t type, uint32_t encoding,
              std::span<const uint8_t> data, uint8_t pad) {
  Put32(out, type);
  Put32(out, encoding);
  Put64(out, data.size());
  out->insert(out->end(), data.begin(), data.end());
  out->resize((out->size() + 15) / 16 * 16, pad);
}

// The mesh instance's JSON (without the closing brace): name, meshInstance, blendAmounts.
// `mesh` is the index of the written mesh `node` instantiates.
std::string InstanceJson(const Asset& asset, const Node& node, size_t mesh, Names* names) {
  std::string instance = "\"name\":" + JsonString(names->Unique(node.name, "Instance")) +
                         ",\"meshInstance\":{\"mesh\":" + std::to_string(mesh);
  if (!node.weights.empty()) {
    instance += ",\"blendAmounts\":" + AmountsJson(asset.meshes[size_t(node.mesh)], node.weights);
  }
  return instance + "}";
}

// The nodes and meshes written so far, and the names and blob they share.
struct Writer {
  explicit Writer(const Asset& a) : asset(a), nodes(1) {
    nodes[0].body = "\"name\":" + JsonString(names.Unique("Root", "Root"));
  }

  // The G4MF mesh of asset mesh `index`, written on first use.
  Result<size_t> MeshOf(int32_t index) {
    auto [it, inserted] = written_meshes.emplace(index, written_meshes.size());
    if (inserted) {
      const Mesh& mesh = asset.meshes[size_t(index)];
      std::string json;
      SINEW_TRY(
          WriteMesh(mesh, names.Unique(mesh.name, "Mesh" + std::to_string(index)), &blob, &json));
      meshes += (meshes.empty() ? "" : ",") + json;
    }
    return it->second;
  }

  const Asset& asset;
  Blob blob;
  Names names;
  std::vector<NodeJson> nodes;
  std::map<int32_t, size_t> written_meshes;  // asset mesh -> G4MF mesh
  std::map<uint32_t, size_t> bone_of;        // asset joint node -> its first G4MF bone
  std::string meshes;
};

// Node n's skin as a skeleton node under the root: its bones (the skin's joints) in the bind pose,
// each under its nearest ancestor among the joints; its joints; the mesh instance under it.
Status WriteSkinnedInstance(size_t n, Writer* w) {
  const Asset& asset = w->asset;
  std::vector<NodeJson>& nodes = w->nodes;
  const Node& node = asset.nodes[n];
  const Skin& skin = asset.skins[size_t(node.skin)];
  const size_t skeleton = nodes.size();
  nodes[0].children.push_back(uint32_t(skeleton));
  nodes.push_back({});
  const size_t first_bone = nodes.size();
  std::vector<Float4x4> bind_world(skin.joints.size());
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    if (std::count(skin.joints.begin(), skin.joints.end(), skin.joints[j]) != 1) {
      return Status(Error::kUnsupportedFeature, "skin joints must be distinct", "");
    }
    if (!Invert(skin.inverse_binds[j], &bind_world[j])) {
      return Status(Error::kUnsupportedFeature,
                    "joint " + std::to_string(j) + " of skin '" + skin.name +
                        "' has a singular inverse bind matrix",
                    "");
    }
  }
  nodes.resize(first_bone + skin.joints.size());
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    // Parent: the nearest ancestor that is a joint of this skin, else the skeleton.
    int32_t parent_joint = -1;
    for (int32_t a = asset.nodes[skin.joints[j]].parent; a >= 0 && parent_joint < 0;
         a = asset.nodes[size_t(a)].parent) {
      auto it = std::find(skin.joints.begin(), skin.joints.end(), uint32_t(a));
      if (it != skin.joints.end()) parent_joint = int32_t(it - skin.joints.begin());
    }
    Float4x4 local = bind_world[j];
    if (parent_joint >= 0) local = Multiply(skin.inverse_binds[size_t(parent_joint)], local);
    nodes[first_bone + j].body =
        "\"name\":" +
        JsonString(w->names.Unique(asset.nodes[skin.joints[j]].name, "Bone" + std::to_string(j))) +
        "," + TransformJson(local) + ",\"bone\":{}";
    const size_t parent = parent_joint >= 0 ? first_bone + size_t(parent_joint) : skeleton;
    nodes[parent].children.push_back(uint32_t(first_bone + j));
    w->bone_of.emplace(skin.joints[j], first_bone + j);
  }
  // Group g -> bone: the skin's own map (an asset loaded from G4MF), else group g = joint g.
  std::string joints;
  for (size_t g = 0;
       g < (skin.group_joints.empty() ? skin.joints.size() : skin.group_joints.size()); ++g) {
    const int32_t joint = skin.JointOfInfluence(g);
    joints += (g ? "," : "") +
              (joint < 0 ? std::string("-1") : std::to_string(first_bone + size_t(joint)));
  }
  SINEW_TRY_ASSIGN(const size_t mesh, w->MeshOf(node.mesh));
  nodes[skeleton].body =
      "\"name\":" + JsonString(w->names.Unique(skin.name, "Skeleton" + std::to_string(n))) +
      ",\"skeleton\":{\"joints\":[" + joints + "]}";
  nodes[skeleton].children.push_back(uint32_t(nodes.size()));
  nodes.push_back({InstanceJson(w->asset, node, mesh, &w->names), {}});
  return {};
}

// Node n's mesh instance without a skin, after every skeleton: under the bone of its nearest
// ancestor that is a written joint (following it as in the original), else under the root, at its
// rest transform relative to that bone (or the scene). `world`: scene-space rest matrices.
Status WriteUnskinnedInstance(size_t n, const std::vector<Float4x4>& world, Writer* w) {
  const Asset& asset = w->asset;
  size_t parent = 0;
  Float4x4 local = world[n];
  for (int32_t a = int32_t(n); a >= 0; a = asset.nodes[size_t(a)].parent) {
    auto bone = w->bone_of.find(uint32_t(a));
    if (bone == w->bone_of.end()) continue;
    Float4x4 inverse;
    if (!Invert(world[size_t(a)], &inverse)) continue;  // a singular joint: place it in the scene
    parent = bone->second;
    local = Multiply(inverse, world[n]);
    break;
  }
  SINEW_TRY_ASSIGN(const size_t mesh, w->MeshOf(asset.nodes[n].mesh));
  w->nodes[parent].children.push_back(uint32_t(w->nodes.size()));
  w->nodes.push_back(
      {TransformJson(local) + "," + InstanceJson(asset, asset.nodes[n], mesh, &w->names), {}});
  return {};
}

// Mesh m by its name, or "mesh m" when it has none.
std::string MeshName(const Asset& asset, size_t m) {
  return asset.meshes[m].name.empty() ? "mesh " + std::to_string(m) : asset.meshes[m].name;
}

// The meshes no node instantiates and the animations, which G4MF files do not hold; and, one
// sentence each, what the written meshes lose.
void ReportLeftOut(const Writer& w, G4mfWriteReport* report) {
  const Asset& asset = w.asset;
  for (size_t m = 0; m < asset.meshes.size(); ++m) {
    if (!w.written_meshes.count(int32_t(m))) report->meshes_left_out.push_back(MeshName(asset, m));
  }
  for (size_t a = 0; a < asset.animations.size(); ++a) {
    report->animations_left_out.push_back(asset.animations[a].name.empty()
                                              ? "animation " + std::to_string(a)
                                              : asset.animations[a].name);
  }
  for (const RigidBinding& rigid : asset.rigid_bindings) {
    report->other_left_out.push_back("rigid " + rigid.type + " " + rigid.name +
                                     ": G4MF has no rigid bindings");
  }
  for (size_t m = 0; m < asset.meshes.size(); ++m) {
    if (!w.written_meshes.count(int32_t(m))) continue;
    const Mesh& mesh = asset.meshes[m];
    if (!mesh.inbetween_shapes.empty()) {
      report->other_left_out.push_back(
          MeshName(asset, m) + ": the in-betweens of " +
          std::to_string(mesh.inbetween_shapes.size()) +
          " shapes (G4MF blends each shape linearly: an in-between's target is written as a "
          "shape of its own, at amount 0, and its primary no longer passes through it)");
    }
  }
  for (size_t m = 0; m < asset.meshes.size(); ++m) {
    if (!w.written_meshes.count(int32_t(m))) continue;
    const auto& primitives = asset.meshes[m].primitives;
    if (std::any_of(primitives.begin(), primitives.end(),
                    [](const Primitive& p) { return p.dual_quaternion(); })) {
      report->other_left_out.push_back(
          MeshName(asset, m) +
          ": dual-quaternion skinning (G4MF names no skinning method: its readers blend "
          "matrices)");
    }
  }
  for (size_t m = 0; m < asset.meshes.size(); ++m) {
    if (!w.written_meshes.count(int32_t(m))) continue;
    const auto& primitives = asset.meshes[m].primitives;
    if (std::any_of(primitives.begin(), primitives.end(), [](const Primitive& p) {
          return p.skinned() && !p.dual_quaternion() && p.normal_blend == NormalBlend::kPerJoint &&
                 !p.normals.empty();
        })) {
      report->other_left_out.push_back(
          MeshName(asset, m) +
          ": UsdSkel's normal rule (a G4MF reader skins normals by the blended matrix)");
    }
  }
}

// The document's JSON: nodes, meshes, accessors, views and the one buffer (in chunk 1 of a .g4b,
// else a base64 data: URI).
std::string DocumentJson(const Writer& w, bool binary) {
  std::string node_list;
  for (size_t n = 0; n < w.nodes.size(); ++n) {
    if (n) node_list += ',';
    node_list += '{';
    node_list += w.nodes[n].body;
    if (!w.nodes[n].children.empty()) {
      node_list += ",\"children\":[";
      for (size_t c = 0; c < w.nodes[n].children.size(); ++c) {
        if (c) node_list += ',';
        node_list += std::to_string(w.nodes[n].children[c]);
      }
      node_list += "]";
    }
    node_list += "}";
  }
  const std::vector<uint8_t>& data = w.blob.bytes();
  std::string buffer = "{\"byteLength\":" + std::to_string(data.size());
  buffer += binary
                ? ",\"chunk\":1}"
                : ",\"uri\":\"data:application/octet-stream;base64," + EncodeBase64(data) + "\"}";
  return "{\"asset\":{\"dimension\":3,\"generator\":\"sinew WriteG4mf\"},"
         "\"nodes\":[" +
         node_list + "],\"meshes\":[" + w.meshes + "],\"accessors\":[" + w.blob.accessors() +
         "],\"bufferViews\":[" + w.blob.views() + "],\"buffers\":[" + buffer + "]}";
}

// A .g4b file: the JSON chunk, then the BLOB chunk (Zstd-encoded when asked).
Result<std::vector<uint8_t>> PackG4b(const std::string& json, const std::vector<uint8_t>& data,
                                     bool zstd) {
  std::vector<uint8_t> stored = data;
  uint32_t encoding = g4mf::kG4bEncodingNone;
  if (zstd) {
    stored.resize(ZSTD_compressBound(data.size()));
    const size_t size = ZSTD_compress(stored.data(), stored.size(), data.data(), data.size(), 9);
    if (ZSTD_isError(size)) {
      return Status(Error::kInvalidArgument, std::string("Zstd: ") + ZSTD_getErrorName(size), "");
    }
    stored.resize(size);
    encoding = g4mf::kG4bEncodingZstd;
  }
  std::vector<uint8_t> file;
  Put32(&file, g4mf::kG4bMagic);
  Put32(&file, 0);
  Put64(&file, 0);  // total size, patched below
  PutChunk(&file, g4mf::kG4bChunkJson, g4mf::kG4bEncodingNone,
           std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size()), ' ');
  PutChunk(&file, g4mf::kG4bChunkBlob, encoding, stored, 0);
  const uint64_t total = file.size();
  std::memcpy(file.data() + 8, &total, 8);
  return file;
}

}  // namespace

Result<std::vector<uint8_t>> WriteG4mf(const Asset& asset, const G4mfWriteOptions& options,
                                       G4mfWriteReport* report) {
  if (report) *report = {};
  Writer w(asset);
  for (size_t n = 0; n < asset.nodes.size(); ++n) {
    if (asset.nodes[n].mesh >= 0 && asset.nodes[n].skin >= 0) {
      SINEW_TRY(WriteSkinnedInstance(n, &w));
    }
  }
  // Scene-space rest matrices, any node order.
  SINEW_TRY_ASSIGN(const auto rest, cpu::EvaluateScene(asset));
  for (size_t n = 0; n < asset.nodes.size(); ++n) {
    if (asset.nodes[n].mesh >= 0 && asset.nodes[n].skin < 0) {
      SINEW_TRY(WriteUnskinnedInstance(n, rest.world, &w));
    }
  }
  if (w.written_meshes.empty()) {
    return Status(Error::kInvalidArgument, "the asset has no mesh instance to write", "");
  }
  if (report) ReportLeftOut(w, report);
  const std::string json = DocumentJson(w, options.binary);
  if (!options.binary) return std::vector<uint8_t>(json.begin(), json.end());
  return PackG4b(json, w.blob.bytes(), options.zstd);
}

}  // namespace sinew::loader
