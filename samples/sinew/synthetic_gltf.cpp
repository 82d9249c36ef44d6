#include "synthetic_gltf.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

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

}  // namespace

Result<size_t> WriteSyntheticGltf(const std::filesystem::path& path,
                                  const SyntheticGltfOptions& o) {
  Layout l{};
  const std::vector<uint8_t> buffer = MakeBuffer(o.joints_per_character, &l);
  const std::string nl = o.pretty ? "\n" : "", in = o.pretty ? "  " : "", sp = o.pretty ? " " : "";
  std::ostringstream j;
  const auto key = [&](const char* k) { return std::string("\"") + k + "\":" + sp; };
  j << "{" << nl << in << key("asset") << "{" << key("version") << "\"2.0\"," << sp
    << key("generator") << "\"sinew synthetic\"}," << nl;
  // Views: one per stream.
  const size_t offsets[] = {l.positions, l.normals, l.joints,    l.weights, l.indices,
                            l.ibm,       l.times,   l.rotations, l.total};
  j << in << key("buffers") << "[{" << key("byteLength") << buffer.size() << "," << sp << key("uri")
    << "\"" << path.stem().string() << ".bin\"}]," << nl;
  j << in << key("bufferViews") << "[";
  for (int v = 0; v < 8; ++v) {
    j << (v ? "," : "") << nl << in << in << "{" << key("buffer") << "0," << sp << key("byteOffset")
      << offsets[v] << "," << sp << key("byteLength") << offsets[v + 1] - offsets[v] << "}";
  }
  j << nl << in << "]," << nl;
  // Accessors: per character 6 mesh/skin accessors + 2 per channel (input, output).
  const uint32_t per_char = 6 + 2 * o.joints_per_character;
  j << in << key("accessors") << "[";
  bool first = true;
  // `bounds`: the accessor's "min" and "max" members, or empty (glTF requires them of POSITION
  // and of animation inputs).
  const auto accessor = [&](int view, int type, uint32_t count, const char* kind,
                            const std::string& bounds = {}) {
    j << (first ? "" : ",") << nl << in << in << "{" << key("bufferView") << view << "," << sp
      << key("componentType") << type << "," << sp << key("count") << count << "," << sp
      << key("type") << "\"" << kind << "\"" << bounds << "}";
    first = false;
  };
  const auto number = [](float v) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", double(v));
    return std::string(text);
  };
  const std::string position_bounds =
      "," + sp + key("min") + "[" + number(l.position_min[0]) + "," + number(l.position_min[1]) +
      "," + number(l.position_min[2]) + "]," + sp + key("max") + "[" + number(l.position_max[0]) +
      "," + number(l.position_max[1]) + "," + number(l.position_max[2]) + "]";
  const std::string time_bounds = "," + sp + key("min") + "[0]," + sp + key("max") + "[1]";
  for (uint32_t c = 0; c < o.characters; ++c) {
    accessor(0, 5126, kVertices, "VEC3", position_bounds);
    accessor(1, 5126, kVertices, "VEC3");
    accessor(2, 5121, kVertices, "VEC4");
    accessor(3, 5126, kVertices, "VEC4");
    accessor(4, 5123, kIndices, "SCALAR");
    accessor(5, 5126, o.joints_per_character, "MAT4");
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      accessor(6, 5126, kKeys, "SCALAR", time_bounds);
      accessor(7, 5126, kKeys, "VEC4");
    }
  }
  j << nl << in << "]," << nl;
  // Nodes: per character a mesh node, then a joint chain.
  const uint32_t per_char_nodes = 1 + o.joints_per_character;
  j << in << key("nodes") << "[";
  for (uint32_t c = 0; c < o.characters; ++c) {
    const uint32_t base = c * per_char_nodes;
    j << (c ? "," : "") << nl << in << in << "{" << key("name") << "\"character_" << c << "\","
      << sp << key("mesh") << c << "," << sp << key("skin") << c << "}";
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      j << "," << nl << in << in << "{" << key("name") << "\"c" << c << "_joint_" << k << "\","
        << sp << key("translation") << "[0," << sp << (k ? "0.1" : "0") << "," << sp << "0]," << sp
        << key("rotation") << "[0," << sp << "0," << sp << "0," << sp << "1]";
      if (k + 1 < o.joints_per_character) {
        j << "," << sp << key("children") << "[" << base + 2 + k << "]";
      }
      j << "}";
    }
  }
  j << nl << in << "]," << nl;
  j << in << key("scene") << "0," << nl << in << key("scenes") << "[{" << key("nodes") << "[";
  for (uint32_t c = 0; c < o.characters; ++c) {
    j << (c ? "," : "") << c * per_char_nodes << "," << c * per_char_nodes + 1;
  }
  j << "]}]," << nl;
  j << in << key("meshes") << "[";
  for (uint32_t c = 0; c < o.characters; ++c) {
    const uint32_t a = c * per_char;
    j << (c ? "," : "") << nl << in << in << "{" << key("primitives") << "[{" << key("attributes")
      << "{" << key("POSITION") << a << "," << sp << key("NORMAL") << a + 1 << "," << sp
      << key("JOINTS_0") << a + 2 << "," << sp << key("WEIGHTS_0") << a + 3 << "}," << sp
      << key("indices") << a + 4 << "}]}";
  }
  j << nl << in << "]," << nl;
  j << in << key("skins") << "[";
  for (uint32_t c = 0; c < o.characters; ++c) {
    j << (c ? "," : "") << nl << in << in << "{" << key("inverseBindMatrices") << c * per_char + 5
      << "," << sp << key("joints") << "[";
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      j << (k ? "," : "") << c * per_char_nodes + 1 + k;
    }
    j << "]}";
  }
  j << nl << in << "]," << nl;
  j << in << key("animations") << "[";
  for (uint32_t c = 0; c < o.characters; ++c) {
    const uint32_t a = c * per_char + 6;
    j << (c ? "," : "") << nl << in << in << "{" << key("name") << "\"clip_" << c << "\"," << sp
      << key("samplers") << "[";
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      j << (k ? "," : "") << "{" << key("input") << a + 2 * k << "," << sp << key("output")
        << a + 2 * k + 1 << "}";
    }
    j << "]," << sp << key("channels") << "[";
    for (uint32_t k = 0; k < o.joints_per_character; ++k) {
      j << (k ? "," : "") << "{" << key("sampler") << k << "," << sp << key("target") << "{"
        << key("node") << c * per_char_nodes + 1 + k << "," << sp << key("path")
        << "\"rotation\"}}";
    }
    j << "]}";
  }
  j << nl << in << "]" << nl << "}" << nl;

  const std::string json = j.str();
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
