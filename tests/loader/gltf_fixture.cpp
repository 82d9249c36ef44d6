#include "loader/gltf_fixture.h"

#include <gtest/gtest.h>

#include "sinew/loader/file.h"

namespace sinew::loader::testing {

std::string Base64(const std::vector<uint8_t>& bytes) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const uint32_t n = (uint32_t(bytes[i]) << 16) |
                       (i + 1 < bytes.size() ? uint32_t(bytes[i + 1]) << 8 : 0) |
                       (i + 2 < bytes.size() ? uint32_t(bytes[i + 2]) : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}

std::vector<uint8_t> BufferBytes() {
  std::vector<uint8_t> b;
  Append<float>(&b, {0, 0, 0, 1, 0, 0, 0, 1, 0});
  Append<uint8_t>(&b, {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0});
  Append<float>(&b, {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
  Append<float>(&b, {0, 1});
  Append<float>(&b, {0, 0, 0, 1, 0, 0, 0.7071068f, 0.7071068f});
  return b;
}

std::string DataUri(const std::vector<uint8_t>& bytes) {
  return "data:application/octet-stream;base64," + Base64(bytes);
}

std::string BufferUri() { return DataUri(BufferBytes()); }

std::string ValidGltf() {
  return R"({
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0, 2]}],
  "nodes": [
    {"name": "root", "children": [1]},
    {"name": "tip", "translation": [0, 1, 0]},
    {"mesh": 0, "skin": 0}
  ],
  "skins": [{"joints": [0, 1]}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
  "animations": [{"samplers": [{"input": 3, "output": 4}],
                  "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}],
  "buffers": [{"byteLength": 136, "uri": ")" +
         BufferUri() + R"("}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 136}],
  "accessors": [
    {"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3, "type": "VEC3",
     "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 0, "byteOffset": 36, "componentType": 5121, "count": 3, "type": "VEC4"},
    {"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 3, "type": "VEC4"},
    {"bufferView": 0, "byteOffset": 96, "componentType": 5126, "count": 2, "type": "SCALAR"},
    {"bufferView": 0, "byteOffset": 104, "componentType": 5126, "count": 2, "type": "VEC4"}
  ]
})";
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture has no '" << from << "'";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

Result<LoadedAsset> LoadBytes(const std::string& bytes) {
  std::vector<uint8_t> padded(bytes.begin(), bytes.end());
  padded.resize(bytes.size() + ReadPadding(), 0);
  return LoadGltfFromMemory({padded.data(), bytes.size()}, ".");
}

void ExpectError(const std::string& json, Error code, const std::string& where) {
  auto loaded = LoadBytes(json);
  ASSERT_FALSE(loaded.ok()) << "loaded, expected " << ErrorName(code) << " at " << where;
  EXPECT_EQ(loaded.code(), code) << loaded.error().ToString();
  EXPECT_EQ(loaded.error().where, where) << loaded.error().ToString();
  EXPECT_FALSE(loaded.error().message.empty());
}

}  // namespace sinew::loader::testing
