#include "bake_files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "json_writer.h"

namespace sinew::tool {
namespace {

// Triangles of a baked primitive (indexed or not); other topologies contribute points only.
std::vector<uint32_t> Triangles(const BakedPrimitive& b) {
  std::vector<uint32_t> tris;
  if (b.mode != 4) return tris;
  if (b.indices && !b.indices->empty()) return *b.indices;
  for (uint32_t v = 0; v < b.data.positions.size() / 3; ++v) tris.push_back(v);
  return tris;
}

}  // namespace

bool WriteBakeBin(const std::string& prefix, const BakeManifestInfo& info, const Asset& a,
                  const BakeResult& baked) {
  const BakeOptions& o = info.options;
  std::ofstream bin(prefix + ".bin", std::ios::binary);
  std::string text;
  JsonWriter json(&text);
  json.BeginObject();
  json.Key("format").String("sinew-bake");
  json.Key("version").Int(1);
  json.Key("source").String(info.source);
  json.Key("bin").String(std::filesystem::path(prefix + ".bin").filename().string());
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
  json.Key("skinning").String(info.skinning);
  json.Key("primitives").BeginArray();
  uint64_t offset = 0;
  // Appends `v` to the binary and its offset to the manifest as NAMEByteOffset (none if empty).
  const auto stream = [&](const std::vector<float>& v, const char* name) {
    if (v.empty()) return;
    json.Key(std::string(name) + "ByteOffset").Int(int64_t(offset));
    bin.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * 4));
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
    stream(b.data.positions, "positions");
    stream(b.data.normals, "normals");
    stream(b.data.tangents, "tangents");
    json.EndObject();
  }
  json.EndArray();
  json.Key("byteLength").Int(int64_t(offset));
  json.EndObject();
  std::ofstream manifest(prefix + ".json");
  manifest << text;
  bin.close();
  manifest.close();
  return json.Done() && bool(bin) && bool(manifest);
}

bool WriteBakeMesh(const std::string& prefix, const std::string& format, const std::string& source,
                   const BakeResult& baked) {
  const bool ply = format == "ply";
  if (!ply && format != "obj") return false;
  const std::string path = prefix + "." + format;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  size_t vertices = 0, faces = 0;
  bool all_normals = true;  // OBJ: vn lines only when every vertex has one (f v//vn)
  for (const BakedPrimitive& b : baked.primitives) {
    vertices += b.data.positions.size() / 3;
    faces += Triangles(b).size() / 3;
    all_normals &= !b.data.normals.empty();
  }
  if (ply) {
    std::fprintf(f,
                 "ply\nformat ascii 1.0\ncomment sinew bake %s\nelement vertex %zu\n"
                 "property float x\nproperty float y\nproperty float z\n"
                 "property float nx\nproperty float ny\nproperty float nz\n"
                 "element face %zu\nproperty list uchar uint vertex_indices\nend_header\n",
                 source.c_str(), vertices, faces);
  } else {
    std::fprintf(f, "# sinew bake %s\n", source.c_str());
  }
  for (const BakedPrimitive& b : baked.primitives) {
    const size_t n = b.data.positions.size() / 3;
    for (size_t v = 0; v < n; ++v) {
      const float* p = &b.data.positions[v * 3];
      const float* nrm = b.data.normals.empty() ? nullptr : &b.data.normals[v * 3];
      if (ply) {
        std::fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2], nrm ? nrm[0] : 0.0,
                     nrm ? nrm[1] : 0.0, nrm ? nrm[2] : 0.0);
      } else {
        std::fprintf(f, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
        if (all_normals) std::fprintf(f, "vn %.9g %.9g %.9g\n", nrm[0], nrm[1], nrm[2]);
      }
    }
  }
  size_t base = 0;
  for (const BakedPrimitive& b : baked.primitives) {
    const std::vector<uint32_t> tris = Triangles(b);
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
  return std::fclose(f) == 0;
}

}  // namespace sinew::tool
