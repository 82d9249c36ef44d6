#include "bake_files.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "json_writer.h"
#include "output_file.h"
#include "sinew/loader/usda_writer.h"

namespace sinew::tool {

namespace {

// `text` on one line, for a PLY or OBJ comment: a control character (a newline in a file name)
// written '?', which would otherwise end the comment and break the file.
std::string OneLine(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

// `text` as a .usda string, quoted: backslashes, quotes and control characters escaped (the
// reader's escapes, \x for the control characters).
std::string UsdaString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out + '"';
}

}  // namespace

// Triangles of a baked primitive (indexed or not); other topologies contribute points only.
std::vector<uint32_t> BakedTriangles(const BakedPrimitive& b) {
  std::vector<uint32_t> tris;
  if (b.mode != 4) return tris;
  if (b.indices && !b.indices->empty()) return *b.indices;
  for (uint32_t v = 0; v < b.data.positions.size() / 3; ++v) tris.push_back(v);
  return tris;
}

namespace {

// A skinning method as the manifest names it (UsdSkel's skel:skinningMethod tokens).
const char* ManifestName(SkinningMethod method) {
  return method == SkinningMethod::kDualQuaternion ? "dualQuaternion" : "linear";
}

// The method every skinned primitive and rigid binding of the bake was blended with, "mixed"
// where they differ ("linear" where there are none).
std::string SkinningOf(const Asset& a, const BakeResult& baked) {
  bool linear = false, dual = false;
  const auto note = [&](SkinningMethod m) {
    (m == SkinningMethod::kDualQuaternion ? dual : linear) = true;
  };
  for (const BakedPrimitive& b : baked.primitives) {
    if (b.mesh < 0) continue;
    const Primitive& p = a.meshes[size_t(b.mesh)].primitives[b.primitive];
    if (p.skinned()) note(p.skinning);
  }
  for (size_t r = 0; r < baked.rigid.size() && r < a.rigid_bindings.size(); ++r) {
    note(a.rigid_bindings[r].skinning);
  }
  return linear && dual
             ? "mixed"
             : ManifestName(dual ? SkinningMethod::kDualQuaternion : SkinningMethod::kLinear);
}

}  // namespace

bool WriteBakeBin(const std::string& prefix, const BakeManifestInfo& info, const Asset& a,
                  const BakeResult& baked) {
  const BakeOptions& o = info.options;
  const std::string bin_path = prefix + ".bin";
  std::FILE* const bin = std::fopen(bin_path.c_str(), "wb");
  std::string text;
  JsonWriter json(&text);
  json.BeginObject();
  json.Key("format").String("sinew-bake");
  json.Key("version").Int(1);
  json.Key("source").String(info.source);
  json.Key("bin").String(std::filesystem::path(bin_path).filename().string());
  json.Key("space").String("scene");
  json.Key("device").String(info.device);
  json.Key("animation");
  if (baked.animation >= 0) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("index").Int(baked.animation);
    json.Key("name").String(a.animations[size_t(baked.animation)].name);
    json.EndObject();
  } else {
    json.Null();
  }
  json.Key("time").Number(o.time);
  json.Key("pose").String(o.pose);
  json.Key("skinning").String(SkinningOf(a, baked));
  json.Key("primitives").BeginArray();
  uint64_t offset = 0;
  // Appends `v` to the binary and its offset to the manifest as NAMEByteOffset (none if empty).
  const auto stream = [&](const std::vector<float>& v, const char* name) {
    if (v.empty()) return;
    json.Key(std::string(name) + "ByteOffset").Int(int64_t(offset));
    if (bin != nullptr) (void)std::fwrite(v.data(), sizeof(float), v.size(), bin);
    offset += v.size() * 4;
  };
  for (const BakedPrimitive& b : baked.primitives) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("node").Int(b.node);
    json.Key("nodeName").String(a.nodes[b.node].name);
    json.Key("mesh").Int(b.mesh);
    json.Key("primitive").Int(b.primitive);
    json.Key("vertexCount").Int(int64_t(b.data.positions.size() / 3));
    json.Key("material").Int(b.material);
    if (b.mesh >= 0) {
      json.Key("skinning")
          .String(ManifestName(a.meshes[size_t(b.mesh)].primitives[b.primitive].skinning));
    }
    stream(b.data.positions, "positions");
    stream(b.data.normals, "normals");
    stream(b.data.tangents, "tangents");
    json.EndObject();
  }
  json.EndArray();
  // Rigid bindings: their scene-space transform, 16 numbers column by column.
  json.Key("rigid").BeginArray();
  for (size_t r = 0; r < baked.rigid.size() && r < a.rigid_bindings.size(); ++r) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String(a.rigid_bindings[r].name);
    json.Key("node").Int(a.rigid_bindings[r].node);
    json.Key("matrix").BeginArray();
    for (const auto& column : baked.rigid[r].m) {
      for (const float v : column) json.Number(v);
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.Key("byteLength").Int(int64_t(offset));
  json.EndObject();
  // No manifest for a .bin that was not written whole (CloseOutputFile removes it). Of a bake
  // that failed, what it wrote is removed, and only that: a file it could not open is not its
  // own. (errno stays the first failure's, for the caller's message.)
  if (bin == nullptr || !CloseOutputFile(bin, bin_path)) return false;
  if (!json.Done() || !WriteOutputFile(prefix + ".json", text)) {
    const int error = errno;
    std::remove(bin_path.c_str());
    errno = error;
    return false;
  }
  return true;
}

bool WriteBakeMesh(const std::string& prefix, const std::string& format, const std::string& source,
                   const BakeResult& baked) {
  const bool ply = format == "ply";
  if (!ply && format != "obj") return false;
  const std::string path = prefix + "." + format;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  size_t vertices = 0, faces = 0;
  // Normals only when every vertex has one: OBJ's vn lines (f v//vn), PLY's nx, ny, nz.
  bool all_normals = true;
  for (const BakedPrimitive& b : baked.primitives) {
    vertices += b.data.positions.size() / 3;
    faces += BakedTriangles(b).size() / 3;
    all_normals &= !b.data.normals.empty();
  }
  if (ply) {
    std::fprintf(f,
                 "ply\nformat ascii 1.0\ncomment sinew bake %s\nelement vertex %zu\n"
                 "property float x\nproperty float y\nproperty float z\n%s"
                 "element face %zu\nproperty list uchar uint vertex_indices\nend_header\n",
                 OneLine(source).c_str(), vertices,
                 all_normals ? "property float nx\nproperty float ny\nproperty float nz\n" : "",
                 faces);
  } else {
    std::fprintf(f, "# sinew bake %s\n", OneLine(source).c_str());
  }
  for (const BakedPrimitive& b : baked.primitives) {
    const size_t n = b.data.positions.size() / 3;
    for (size_t v = 0; v < n; ++v) {
      const float* p = &b.data.positions[v * 3];
      const float* nrm = b.data.normals.empty() ? nullptr : &b.data.normals[v * 3];
      if (ply && all_normals) {
        std::fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2], nrm[0], nrm[1],
                     nrm[2]);
      } else if (ply) {
        std::fprintf(f, "%.9g %.9g %.9g\n", p[0], p[1], p[2]);
      } else {
        std::fprintf(f, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
        if (all_normals) std::fprintf(f, "vn %.9g %.9g %.9g\n", nrm[0], nrm[1], nrm[2]);
      }
    }
  }
  size_t base = 0;
  for (const BakedPrimitive& b : baked.primitives) {
    const std::vector<uint32_t> tris = BakedTriangles(b);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
      const size_t i0 = base + tris[t], i1 = base + tris[t + 1], i2 = base + tris[t + 2];
      if (ply) {
        std::fprintf(f, "3 %zu %zu %zu\n", i0, i1, i2);
      } else if (all_normals) {  // OBJ indices are 1-based; v and vn share them here
        std::fprintf(f, "f %zu//%zu %zu//%zu %zu//%zu\n", i0 + 1, i0 + 1, i1 + 1, i1 + 1, i2 + 1,
                     i2 + 1);
      } else {
        std::fprintf(f, "f %zu %zu %zu\n", i0 + 1, i1 + 1, i2 + 1);
      }
    }
    base += b.data.positions.size() / 3;
  }
  return CloseOutputFile(f, path);
}

namespace {

// A prim of the written layer: its kind and body, its children in the order first named.
struct UsdPrim {
  std::string name, kind = "Xform", body;
  std::vector<UsdPrim> children;

  UsdPrim& Child(const std::string& child) {
    for (UsdPrim& c : children) {
      if (c.name == child) return c;
    }
    children.push_back({child});
    return children.back();
  }

  void Write(std::string* out, int depth) const {
    const std::string indent(size_t(depth) * 4, ' ');
    *out += indent + "def " + kind + " \"" + name + "\"\n" + indent + "{\n" + body;
    for (const UsdPrim& c : children) c.Write(out, depth + 1);
    *out += indent + "}\n";
  }
};

// The path components of prim path `path` ("/Root/Sphere"), each a valid prim name.
std::vector<std::string> PathParts(const std::string& path) {
  std::vector<std::string> parts;
  for (size_t at = 1; at <= path.size();) {
    const size_t slash = std::min(path.find('/', at), path.size());
    parts.push_back(loader::UsdPrimName(path.substr(at, slash - at), "_"));
    at = slash + 1;
  }
  return parts;
}

// The path components of baked primitive `b`: its mesh's prim path, or /Baked/<node>[_<p>].
std::vector<std::string> PrimPath(const Asset& asset, const BakedPrimitive& b) {
  const std::string& mesh = b.mesh >= 0 ? asset.meshes[size_t(b.mesh)].name : std::string();
  const bool several = b.mesh >= 0 && asset.meshes[size_t(b.mesh)].primitives.size() > 1;
  std::vector<std::string> parts;
  if (!mesh.empty() && mesh[0] == '/') {
    parts = PathParts(mesh);
  } else {
    parts = {"Baked",
             loader::UsdPrimName(asset.nodes[b.node].name, "node" + std::to_string(b.node))};
  }
  if (several) (parts.back() += '_') += std::to_string(b.primitive);
  return parts;
}

// `value` in the shortest text that reads back as the same number.
void AppendNumber(std::string* out, double value) {
  char text[32];
  *out +=
      std::string_view(text, size_t(std::to_chars(text, text + sizeof(text), value).ptr - text));
}

void AppendNumber(std::string* out, float value) {
  char text[32];
  *out +=
      std::string_view(text, size_t(std::to_chars(text, text + sizeof(text), value).ptr - text));
}

void AppendSamples(std::string* out, const std::string& declaration,
                   const std::vector<BakeFrame>& frames, size_t primitive, bool normals) {
  *out += "        " + declaration + ".timeSamples = {\n";
  for (const BakeFrame& frame : frames) {
    const std::vector<float>& v = normals ? frame.baked.primitives[primitive].data.normals
                                          : frame.baked.primitives[primitive].data.positions;
    *out += "            ";
    AppendNumber(out, frame.time_code);
    *out += ": [";
    for (size_t i = 0; i + 2 < v.size(); i += 3) {
      *out += i ? ", (" : "(";
      for (size_t c = 0; c < 3; ++c) {
        if (c) *out += ", ";
        AppendNumber(out, v[i + c]);
      }
      *out += ")";
    }
    *out += "],\n";
  }
  *out += "        }\n";
}

// Rigid binding `r`'s transform at every frame, as UsdSkel bakes it: its only xformOp, a matrix
// written row by row for row vectors (sinew's column c is USD's row c).
void AppendRigidSamples(std::string* out, const std::vector<BakeFrame>& frames, size_t r) {
  *out += "        uniform token[] xformOpOrder = [\"xformOp:transform\"]\n";
  *out += "        matrix4d xformOp:transform.timeSamples = {\n";
  for (const BakeFrame& frame : frames) {
    const Float4x4& m = frame.baked.rigid[r];
    *out += "            ";
    AppendNumber(out, frame.time_code);
    *out += ": (";
    for (size_t c = 0; c < 4; ++c) {
      *out += c ? ", (" : "(";
      for (size_t k = 0; k < 4; ++k) {
        if (k) *out += ", ";
        AppendNumber(out, m.m[c][k]);
      }
      *out += ")";
    }
    *out += "),\n";
  }
  *out += "        }\n";
}

}  // namespace

bool WriteBakeUsda(const std::string& prefix, const std::string& source, const Asset& asset,
                   const BakeStage& stage, const std::vector<BakeFrame>& frames) {
  if (frames.empty()) return false;
  UsdPrim root;
  std::set<std::string> used;
  const BakeResult& first = frames.front().baked;
  for (size_t p = 0; p < first.primitives.size(); ++p) {
    const BakedPrimitive& b = first.primitives[p];
    std::vector<std::string> parts = PrimPath(asset, b);
    std::string joined;
    for (const std::string& part : parts) (joined += '/') += part;
    for (int n = 2; !used.insert(joined).second; ++n) {
      std::string suffix(1, '_');
      suffix += std::to_string(n);
      parts.back() += suffix;
      joined += suffix;
    }
    UsdPrim* prim = &root;
    for (const std::string& part : parts) prim = &prim->Child(part);
    const std::vector<uint32_t> tris = BakedTriangles(b);
    prim->kind = tris.empty() ? "Points" : "Mesh";
    std::string& body = prim->body;
    if (!tris.empty()) {
      body += "        int[] faceVertexCounts = [";
      for (size_t t = 0; t < tris.size() / 3; ++t) body += t ? ", 3" : "3";
      body += "]\n        int[] faceVertexIndices = [";
      for (size_t i = 0; i < tris.size(); ++i) body += (i ? ", " : "") + std::to_string(tris[i]);
      body += "]\n        uniform token subdivisionScheme = \"none\"\n";
    }
    AppendSamples(&body, "point3f[] points", frames, p, false);
    if (!b.data.normals.empty()) {
      AppendSamples(&body, "normal3f[] normals", frames, p, true);  // vertex interpolation
    }
  }
  for (size_t r = 0; r < asset.rigid_bindings.size() && r < first.rigid.size(); ++r) {
    const std::string& path = asset.rigid_bindings[r].name;
    if (path.empty() || path[0] != '/' || !used.insert(path).second) continue;
    UsdPrim* prim = &root;
    for (const std::string& part : PathParts(path)) prim = &prim->Child(part);
    prim->kind = asset.rigid_bindings[r].type;
    AppendRigidSamples(&prim->body, frames, r);
  }
  std::string out = "#usda 1.0\n(\n    doc = " + UsdaString("sinew bake " + source) + "\n";
  out += "    upAxis = \"" + stage.up_axis + "\"\n    metersPerUnit = ";
  AppendNumber(&out, stage.meters_per_unit);
  out += "\n    timeCodesPerSecond = ";
  AppendNumber(&out, stage.time_codes_per_second);
  out += "\n    startTimeCode = ";
  AppendNumber(&out, frames.front().time_code);
  out += "\n    endTimeCode = ";
  AppendNumber(&out, frames.back().time_code);
  out += "\n)\n\n";
  for (const UsdPrim& c : root.children) c.Write(&out, 0);
  return WriteOutputFile(prefix + ".usda", out);
}

}  // namespace sinew::tool
