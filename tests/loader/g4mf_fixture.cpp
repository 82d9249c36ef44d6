#include "loader/g4mf_fixture.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "common/base64.h"
#include "g4mf/g4b.h"
#include "sinew/loader/file.h"

namespace sinew::loader::g4mf_testing {
namespace {

std::string Quoted(std::string_view text) {
  std::string out = "\"";
  out.append(text);
  return out += '"';
}

std::string JsonArray(const std::vector<JsonObject>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\n    " : "\n    ";
    out += items[i].Json();
  }
  return out + (items.empty() ? "]" : "\n  ]");
}

}  // namespace

JsonObject& JsonObject::Set(const std::string& key, std::string value) {
  for (auto& [k, v] : members_) {
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  }
  members_.emplace_back(key, std::move(value));
  return *this;
}

JsonObject& JsonObject::Erase(const std::string& key) {
  const auto it = std::find_if(members_.begin(), members_.end(),
                               [&](const auto& member) { return member.first == key; });
  EXPECT_NE(it, members_.end()) << "no member \"" << key << "\" to erase";
  if (it != members_.end()) members_.erase(it);
  return *this;
}

const std::string* JsonObject::Find(const std::string& key) const {
  for (const auto& [k, v] : members_) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string JsonObject::Json() const {
  std::string out = "{";
  for (size_t i = 0; i < members_.size(); ++i) {
    if (i) out += ", ";
    out += Quoted(members_[i].first);
    out += ": ";
    out += members_[i].second;
  }
  return out + "}";
}

uint32_t Document::AddBytes(std::string_view component_type, uint32_t vector_size,
                            std::span<const uint8_t> bytes) {
  accessors.emplace_back();
  const auto index = uint32_t(accessors.size() - 1);
  RefillBytes(index, component_type, vector_size, bytes);
  return index;
}

void Document::RefillBytes(uint32_t accessor, std::string_view component_type, uint32_t vector_size,
                           std::span<const uint8_t> bytes) {
  data.resize((data.size() + 15) / 16 * 16, 0);
  const size_t offset = data.size();
  data.insert(data.end(), bytes.begin(), bytes.end());
  buffer_views.push_back(
      {{"byteOffset", std::to_string(offset)}, {"byteLength", std::to_string(bytes.size())}});
  JsonObject& a = accessors.at(accessor);
  a = {{"bufferView", std::to_string(buffer_views.size() - 1)},
       {"componentType", Quoted(component_type)}};
  if (vector_size != 1) a.Set("vectorSize", std::to_string(vector_size));
}

JsonObject Document::DataBuffer() const {
  return {{"byteLength", std::to_string(data.size())},
          {"uri", Quoted("data:application/octet-stream;base64," + EncodeBase64(data))}};
}

std::string Document::Json() const {
  std::string out = "{\n  \"asset\": " + asset.Json();
  out += ",\n  \"nodes\": " + JsonArray(nodes);
  out += ",\n  \"meshes\": " + JsonArray(meshes);
  out += ",\n  \"accessors\": " + JsonArray(accessors);
  out += ",\n  \"bufferViews\": " + JsonArray(buffer_views);
  out += ",\n  \"buffers\": " + JsonArray(buffers ? *buffers : std::vector{DataBuffer()});
  const std::string more = extra.Json();  // {"a": 1, ...} -> its members after the others
  if (more.size() > 2) out += ",\n  " + more.substr(1, more.size() - 2);
  return out + "\n}\n";
}

Character ValidCharacter() {
  Character c;
  Document& d = c.doc;
  d.nodes = {
      {{"name", R"("Root")"}, {"children", "[1]"}},
      {{"name", R"("Armature")"},
       {"position", "[10, 0, 0]"},
       {"skeleton", R"({"joints": [2, 3, -1, 3]})"},
       {"children", "[2, 4]"}},
      // rotor [cos 45°, sin 45°, 0, 0]: 90° in the xy plane, +X toward +Y (about +Z).
      {{"name", R"("Hips")"},
       {"position", "[0, 1, 0]"},
       {"rotor", "[0.7071067811865476, 0.7071067811865476, 0, 0]"},
       {"bone", R"({"length": 1})"},
       {"children", "[3]"}},
      {{"name", R"("Spine")"}, {"position", "[0, 1, 0]"}, {"bone", "{}"}},
      {{"name", R"("Body")"},
       {"position", "[0, 0, 1]"},
       {"basis", "[2, 0, 0, 0, 2, 0, 0, 0, 2]"},
       {"meshInstance", R"({"mesh": 0, "blendAmounts": [0.25]})"}},
  };
  c.positions = d.Float32({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, 3);
  c.simplexes = d.Uint16({0, 1, 2, 2, 1, 3}, 3);
  c.normal_values = d.Float32({0, 0, 1, 0, 1, 0}, 3);
  c.normal_simplexes = d.Uint8({0, 0, 0, 1, 0, 0}, 3);
  c.skin_vertices = d.Uint32({0, 1, 1, 2, 2});
  c.skin_groups = d.Uint16({0, 1, 0, 3, 2});
  c.skin_weights = d.Float32({1, 0.5f, 0.5f, 0.75f, 0.25f});
  c.blend_indices = d.Uint8({2, 0});
  c.blend_offsets = d.Float64({0, 0, 0.5, 0.25, 0, 0}, 3);
  c.blend_normal_indices = d.Uint32({1});
  c.blend_normal_offsets = d.Float16({0x3C00, 0, 0}, 3);  // (1, 0, 0)
  const auto n = [](uint32_t index) { return std::to_string(index); };
  d.meshes = {{
      {"name", R"("BodyMesh")"},
      {"vertices", n(c.positions)},
      {"surfaces", R"([{"simplexes": )" + n(c.simplexes) + R"(, "normals": {"values": )" +
                       n(c.normal_values) + R"(, "simplexes": )" + n(c.normal_simplexes) + "}}]"},
      {"skin", R"({"vertices": )" + n(c.skin_vertices) + R"(, "groups": )" + n(c.skin_groups) +
                   R"(, "weights": )" + n(c.skin_weights) +
                   R"(, "groupNames": ["Hips", "Spine", "Loose", "Tail"]})"},
      {"blend", R"({"amounts": [0.5], "shapes": [{"name": "Smile", "position": {"indices": )" +
                    n(c.blend_indices) + R"(, "offsets": )" + n(c.blend_offsets) +
                    R"(}, "surfaces": [{"surface": 0, "normal": {"indices": )" +
                    n(c.blend_normal_indices) + R"(, "offsets": )" + n(c.blend_normal_offsets) +
                    "}}]}]}"},
  }};
  return c;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no '" << from << "' in " << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

Result<LoadedAsset> LoadBytes(std::span<const uint8_t> bytes, const G4mfOptions& options) {
  std::vector<uint8_t> padded(bytes.begin(), bytes.end());
  padded.resize(bytes.size() + ReadPadding(), 0);
  return LoadG4mfFromMemory({padded.data(), bytes.size()}, ".", options);
}

Result<LoadedAsset> LoadText(const std::string& text, const G4mfOptions& options) {
  return LoadBytes({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, options);
}

Result<LoadedAsset> Load(const Document& doc, const G4mfOptions& options) {
  return LoadText(doc.Json(), options);
}

std::vector<uint8_t> MakeG4b(const std::vector<G4bChunkSpec>& chunks) {
  std::vector<uint8_t> b(16, 0);
  const auto put32 = [&b](size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); };
  const auto put64 = [&b](size_t at, uint64_t v) { std::memcpy(b.data() + at, &v, 8); };
  put32(0, g4mf::kG4bMagic);
  for (const G4bChunkSpec& chunk : chunks) {
    const size_t at = b.size();
    b.resize(at + 16);
    put32(at, chunk.type);
    put32(at + 4, chunk.encoding);
    put64(at + 8, chunk.data.size());
    b.insert(b.end(), chunk.data.begin(), chunk.data.end());
    const bool text = chunk.type == g4mf::kG4bChunkJson && chunk.encoding == g4mf::kG4bEncodingNone;
    b.resize((b.size() + 15) / 16 * 16, text ? ' ' : 0);
  }
  put64(8, b.size());
  return b;
}

std::vector<uint8_t> Zstd(std::span<const uint8_t> data) {
  std::vector<uint8_t> out(ZSTD_compressBound(data.size()));
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  out.resize(ZSTD_isError(n) ? 0 : n);
  return out;
}

std::vector<uint8_t> Bytes(const std::string& text) { return {text.begin(), text.end()}; }

void ExpectError(const std::string& text, Error code, const std::string& where) {
  auto loaded = LoadText(text);
  ASSERT_FALSE(loaded.ok()) << "loaded, expected " << ErrorName(code) << " at " << where;
  EXPECT_EQ(loaded.code(), code) << loaded.error().ToString();
  EXPECT_EQ(loaded.error().where, where) << loaded.error().ToString();
  EXPECT_FALSE(loaded.error().message.empty());
}

void ExpectError(const Document& doc, Error code, const std::string& where) {
  ExpectError(doc.Json(), code, where);
}

void ExpectOneWarning(const Document& doc, const std::string& where) {
  auto loaded = Load(doc);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_EQ(loaded->warnings.size(), 1u);
  EXPECT_EQ(loaded->warnings[0].where, where) << loaded->warnings[0].message;
  EXPECT_FALSE(loaded->warnings[0].message.empty());
}

Asset WriteAndLoadG4mf(const Asset& asset, G4mfWriteReport* report) {
  auto bytes = WriteG4mf(asset, {}, report);
  EXPECT_TRUE(bytes.ok()) << bytes.error().ToString();
  if (!bytes.ok()) return {};
  const size_t size = bytes->size();
  bytes->resize(size + ReadPadding(), 0);
  auto loaded = LoadG4mfFromMemory(std::span(bytes->data(), size), ".");
  EXPECT_TRUE(loaded.ok()) << loaded.error().ToString();
  if (!loaded.ok()) return {};
  EXPECT_TRUE(loaded->warnings.empty())
      << loaded->warnings[0].where << ": " << loaded->warnings[0].message;
  return std::move(loaded->asset);
}

}  // namespace sinew::loader::g4mf_testing
