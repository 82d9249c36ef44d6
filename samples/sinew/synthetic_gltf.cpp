#include "synthetic_gltf.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "json_writer.h"

namespace sinew::tool {
namespace {

// Shared binary data (every character's accessors point into the same views):
// 64 vertices: positions VEC3 f32, normals VEC3 f32, joints VEC4 u8, weights VEC4 f32;
// 96 u16 indices; 20 inverse bind MAT4; 5 key times; 5 rotations VEC4.
constexpr uint32_t kVertices = 64;
constexpr uint32_t kIndices = 96;
constexpr uint32_t kKeys = 5;

struct Layout {
  size_t positions, normals, joints, weights, indices, ibm, times, rotations, total;
  float position_min[3], position_max[3];  // POSITION's min and max, which glTF requires
};

std::vector<uint8_t> MakeBuffer(uint32_t joints, Layout* l) {
  std::vector<uint8_t> b;
  const auto put = [&](const void* p, size_t n) {
    const size_t at = b.size();
    b.resize(at + n);
    std::memcpy(b.data() + at, p, n);
    while (b.size() % 4) b.push_back(0);
    return at;
  };
  std::vector<float> f(kVertices * 3);
  for (uint32_t v = 0; v < kVertices; ++v) {
    f[v * 3] = float(v % 4);
    f[v * 3 + 1] = float(v / 4) * 0.1f;
    f[v * 3 + 2] = 0;
  }
  for (int c = 0; c < 3; ++c) {
    l->position_min[c] = l->position_max[c] = f[size_t(c)];
    for (uint32_t v = 0; v < kVertices; ++v) {
      l->position_min[c] = std::min(l->position_min[c], f[v * 3 + size_t(c)]);
      l->position_max[c] = std::max(l->position_max[c], f[v * 3 + size_t(c)]);
    }
  }
  l->positions = put(f.data(), f.size() * 4);
  for (uint32_t v = 0; v < kVertices; ++v) f[v * 3] = 0, f[v * 3 + 1] = 0, f[v * 3 + 2] = 1;
  l->normals = put(f.data(), f.size() * 4);
  std::vector<uint8_t> j(kVertices * 4);
  for (uint32_t v = 0; v < kVertices; ++v) {
    j[v * 4] = uint8_t(v % joints);
    j[v * 4 + 1] = uint8_t((v + 1) % joints);
  }
  l->joints = put(j.data(), j.size());
  std::vector<float> w(kVertices * 4, 0.0f);
  for (uint32_t v = 0; v < kVertices; ++v) w[v * 4] = 0.75f, w[v * 4 + 1] = 0.25f;
  l->weights = put(w.data(), w.size() * 4);
  std::vector<uint16_t> idx(kIndices);
  for (uint32_t i = 0; i < kIndices; ++i) idx[i] = uint16_t(i % kVertices);
  l->indices = put(idx.data(), idx.size() * 2);
  std::vector<float> m(size_t{joints} * 16, 0.0f);
  for (uint32_t k = 0; k < joints; ++k) {
    for (int d = 0; d < 4; ++d) m[k * 16 + d * 5] = 1.0f;
    m[k * 16 + 13] = -0.1f * float(k);
  }
  l->ibm = put(m.data(), m.size() * 4);
  const float times[kKeys] = {0, 0.25f, 0.5f, 0.75f, 1};
  l->times = put(times, sizeof(times));
  std::vector<float> r(kKeys * 4, 0.0f);
  for (uint32_t k = 0; k < kKeys; ++k) r[k * 4 + 3] = 1.0f;
  l->rotations = put(r.data(), r.size() * 4);
  l->total = b.size();
  return b;
}

// Per character: 6 mesh/skin accessors, then 2 per channel (input, output), one channel a joint.
uint32_t AccessorsPerCharacter(const SyntheticGltfOptions& o) {
  return 6 + 2 * o.joints_per_character;
}

// Per character: a mesh node, then a joint chain.
uint32_t NodesPerCharacter(const SyntheticGltfOptions& o) { return 1 + o.joints_per_character; }

// "min" and "max" of an accessor (glTF requires them of POSITION and of animation inputs).
void WriteBounds(JsonWriter& json, const float* min, const float* max, int components) {
  json.Key("min").BeginArray();
  for (int c = 0; c < components; ++c) json.Number(min[c], JsonWriter::Significant(9));
  json.EndArray();
  json.Key("max").BeginArray();
  for (int c = 0; c < components; ++c) json.Number(max[c], JsonWriter::Significant(9));
  json.EndArray();
}

// One view per stream of the shared buffer.
void WriteBufferViews(JsonWriter& json, const Layout& l) {
  const size_t offsets[] = {l.positions, l.normals, l.joints,    l.weights, l.indices,
                            l.ibm,       l.times,   l.rotations, l.total};
  json.Key("bufferViews").BeginArray();
  for (int v = 0; v < 8; ++v) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("buffer").Int(0);
    json.Key("byteOffset").Int(int64_t(offsets[v]));
    json.Key("byteLength").Int(int64_t(offsets[v + 1] - offsets[v]));
    json.EndObject();
  }
  json.EndArray();
}

// Every character's accessors into the shared views.
void WriteAccessors(JsonWriter& json, const Layout& l, const SyntheticGltfOptions& o) {
  const float time_min = 0, time_max = 1;
  const auto accessor = [&](int view, int type, uint32_t count, const char* kind,
                            const float* min = nullptr, const float* max = nullptr,
                            int components = 0) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("bufferView").Int(view);
    json.Key("componentType").Int(type);
    json.Key("count").Int(count);
    json.Key("type").String(kind);
    if (min) WriteBounds(json, min, max, components);
    json.EndObject();
  };
  json.Key("accessors").BeginArray();
  for (uint32_t c = 0; c < o.characters; ++c) {
    accessor(0, 5126, kVertices, "VEC3", l.position_min, l.position_max, 3);
    accessor(1, 5126, kVertices, "VEC3");
    accessor(2, 5121, kVertices, "VEC4");
    accessor(3, 5126, kVertices, "VEC4");
    accessor(4, 5123, kIndices, "SCALAR");
    accessor(5, 5126, o.joints_per_character, "MAT4");
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      accessor(6, 5126, kKeys, "SCALAR", &time_min, &time_max, 1);
      accessor(7, 5126, kKeys, "VEC4");
    }
  }
  json.EndArray();
}

// Per character a mesh node, then a chain of joints 0.1 apart.
void WriteNodes(JsonWriter& json, const SyntheticGltfOptions& o) {
  json.Key("nodes").BeginArray();
  for (uint32_t c = 0; c < o.characters; ++c) {
    const uint32_t base = c * NodesPerCharacter(o);
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String("character_" + std::to_string(c));
    json.Key("mesh").Int(c);
    json.Key("skin").Int(c);
    json.EndObject();
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      json.BeginObject(JsonWriter::kInline);
      char name[48];
      std::snprintf(name, sizeof(name), "c%u_joint_%u", c, k);
      json.Key("name").String(name);
      json.Key("translation").BeginArray().Int(0);
      if (k) {
        json.Number(0.1);
      } else {
        json.Int(0);
      }
      json.Int(0).EndArray();
      json.Key("rotation").BeginArray().Int(0).Int(0).Int(0).Int(1).EndArray();
      if (k + 1 < o.joints_per_character) {
        json.Key("children").BeginArray().Int(base + 2 + k).EndArray();
      }
      json.EndObject();
    }
  }
  json.EndArray();
}

// The default scene: every character's mesh node and joint root.
void WriteScenes(JsonWriter& json, const SyntheticGltfOptions& o) {
  json.Key("scene").Int(0);
  json.Key("scenes").BeginArray(JsonWriter::kInline).BeginObject();
  json.Key("nodes").BeginArray();
  for (uint32_t c = 0; c < o.characters; ++c) {
    json.Int(c * NodesPerCharacter(o)).Int(c * NodesPerCharacter(o) + 1);
  }
  json.EndArray().EndObject().EndArray();
}

void WriteMeshes(JsonWriter& json, const SyntheticGltfOptions& o) {
  json.Key("meshes").BeginArray();
  for (uint32_t c = 0; c < o.characters; ++c) {
    const uint32_t a = c * AccessorsPerCharacter(o);
    json.BeginObject(JsonWriter::kInline);
    json.Key("primitives").BeginArray().BeginObject();
    json.Key("attributes").BeginObject();
    json.Key("POSITION").Int(a);
    json.Key("NORMAL").Int(a + 1);
    json.Key("JOINTS_0").Int(a + 2);
    json.Key("WEIGHTS_0").Int(a + 3);
    json.EndObject();
    json.Key("indices").Int(a + 4);
    json.EndObject().EndArray();
    json.EndObject();
  }
  json.EndArray();
}

void WriteSkins(JsonWriter& json, const SyntheticGltfOptions& o) {
  json.Key("skins").BeginArray();
  for (uint32_t c = 0; c < o.characters; ++c) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("inverseBindMatrices").Int(c * AccessorsPerCharacter(o) + 5);
    json.Key("joints").BeginArray();
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      json.Int(c * NodesPerCharacter(o) + 1 + k);
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
}

// Per character a clip turning each joint (a rotation channel each).
void WriteAnimations(JsonWriter& json, const SyntheticGltfOptions& o) {
  json.Key("animations").BeginArray();
  for (uint32_t c = 0; c < o.characters; ++c) {
    const uint32_t a = c * AccessorsPerCharacter(o) + 6;
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String("clip_" + std::to_string(c));
    json.Key("samplers").BeginArray();
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      json.BeginObject().Key("input").Int(a + 2 * k).Key("output").Int(a + 2 * k + 1).EndObject();
    }
    json.EndArray();
    json.Key("channels").BeginArray();
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      json.BeginObject().Key("sampler").Int(k).Key("target").BeginObject();
      json.Key("node").Int(c * NodesPerCharacter(o) + 1 + k).Key("path").String("rotation");
      json.EndObject().EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace

Result<size_t> WriteSyntheticGltf(const std::filesystem::path& path,
                                  const SyntheticGltfOptions& o) {
  Layout l{};
  const std::vector<uint8_t> buffer = MakeBuffer(o.joints_per_character, &l);
  std::string json;
  JsonWriter j(&json, o.pretty ? 2 : 0);
  j.BeginObject();
  j.Key("asset").BeginObject(JsonWriter::kInline);
  j.Key("version").String("2.0").Key("generator").String("sinew synthetic");
  j.EndObject();
  j.Key("buffers").BeginArray(JsonWriter::kInline).BeginObject();
  j.Key("byteLength").Int(int64_t(buffer.size())).Key("uri").String(path.stem().string() + ".bin");
  j.EndObject().EndArray();
  WriteBufferViews(j, l);
  WriteAccessors(j, l, o);
  WriteNodes(j, o);
  WriteScenes(j, o);
  WriteMeshes(j, o);
  WriteSkins(j, o);
  WriteAnimations(j, o);
  j.EndObject();

  std::ofstream out(path, std::ios::binary);
  out.write(json.data(), std::streamsize(json.size()));
  std::filesystem::path bin = path;
  bin.replace_extension(".bin");
  std::ofstream out_bin(bin, std::ios::binary);
  out_bin.write(reinterpret_cast<const char*>(buffer.data()), std::streamsize(buffer.size()));
  if (!out || !out_bin) {
    return ErrorInfo{Error::kFileReadFailed, "cannot write the synthetic asset", path.string(), 0};
  }
  return json.size();
}

}  // namespace sinew::tool
