// A small builder of .g4tf documents and a valid skinned, blend-shaped character, for G4MF loader
// tests that change one piece of it and assert the exact error (or warning) and where it is.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/g4mf_writer.h"

namespace sinew::loader::g4mf_testing {

// A JSON object kept as its members' raw JSON text, in order, so that a test can set, replace or
// drop one member and leave the rest as they were.
class JsonObject {
 public:
  JsonObject() = default;
  JsonObject(std::initializer_list<std::pair<std::string, std::string>> members)
      : members_(members) {}

  // Replaces the member `key` (keeping its place) or appends it; `value` is raw JSON text.
  JsonObject& Set(const std::string& key, std::string value);
  // Drops the member `key` (a test failure when there is none).
  JsonObject& Erase(const std::string& key);
  // The raw JSON text of `key`, or null.
  const std::string* Find(const std::string& key) const;
  std::string Json() const;

 private:
  std::vector<std::pair<std::string, std::string>> members_;
};

// A .g4tf document: the top-level arrays as editable objects, plus one buffer of data that Add*
// appends to, 16-byte aligned, one buffer view and one accessor per call.
struct Document {
  JsonObject asset{{"dimension", "3"}};
  std::vector<JsonObject> nodes;
  std::vector<JsonObject> meshes;
  std::vector<JsonObject> accessors;
  std::vector<JsonObject> buffer_views;
  // The buffers; when unset, one buffer holding `data` as a base64 data: URI.
  std::optional<std::vector<JsonObject>> buffers;
  // Other top-level members ("shapes", "materials", "files", ...), in order.
  JsonObject extra;
  std::vector<uint8_t> data;  // The bytes of buffer 0.

  // Appends `bytes` (whole elements of `component_type` x `vector_size`) as a new buffer view at a
  // 16-byte aligned offset and an accessor over it; returns the accessor's index.
  uint32_t AddBytes(std::string_view component_type, uint32_t vector_size,
                    std::span<const uint8_t> bytes);
  // Points accessor `accessor` at a new view holding `bytes` (the old view stays, unused), with
  // the given component type and vector size.
  void RefillBytes(uint32_t accessor, std::string_view component_type, uint32_t vector_size,
                   std::span<const uint8_t> bytes);

  template <typename T>
  uint32_t Add(std::string_view component_type, std::initializer_list<T> values,
               uint32_t vector_size = 1) {
    return AddBytes(component_type, vector_size, AsBytes(values));
  }
  template <typename T>
  void Refill(uint32_t accessor, std::string_view component_type, std::initializer_list<T> values,
              uint32_t vector_size = 1) {
    RefillBytes(accessor, component_type, vector_size, AsBytes(values));
  }

  uint32_t Float32(std::initializer_list<float> v, uint32_t vs = 1) {
    return Add("float32", v, vs);
  }
  uint32_t Float64(std::initializer_list<double> v, uint32_t vs = 1) {
    return Add("float64", v, vs);
  }
  // float16 values given as their raw IEEE 754 half bits (0x3C00 is 1.0).
  uint32_t Float16(std::initializer_list<uint16_t> v, uint32_t vs = 1) {
    return Add("float16", v, vs);
  }
  uint32_t Int32(std::initializer_list<int32_t> v, uint32_t vs = 1) { return Add("int32", v, vs); }
  uint32_t Uint32(std::initializer_list<uint32_t> v, uint32_t vs = 1) {
    return Add("uint32", v, vs);
  }
  uint32_t Uint16(std::initializer_list<uint16_t> v, uint32_t vs = 1) {
    return Add("uint16", v, vs);
  }
  uint32_t Uint8(std::initializer_list<uint8_t> v, uint32_t vs = 1) { return Add("uint8", v, vs); }

  // The default buffer 0 object: {"byteLength": data.size(), "uri": "data:...;base64,..."}.
  JsonObject DataBuffer() const;
  // The whole document as JSON text.
  std::string Json() const;

 private:
  template <typename T>
  static std::span<const uint8_t> AsBytes(std::initializer_list<T> values) {
    return {reinterpret_cast<const uint8_t*>(values.begin()), values.size() * sizeof(T)};
  }
};

// The character every test starts from, and the accessors a test may want to change. Nodes:
// Root (0) -> Armature (1, skeleton, joints [2, 3, -1, 3], position [10, 0, 0]) -> Hips (2, bone
// of length 1, position [0, 1, 0], rotor 90 degrees about +Z) -> Spine (3, bone, position
// [0, 1, 0]); Body (4, meshInstance of mesh 0, blendAmounts [0.25], position [0, 0, 1], basis 2·I)
// is Armature's second child.
// Mesh 0 "BodyMesh": vertices v0 (0,0,0), v1 (1,0,0), v2 (0,1,0), v3 (1,1,0); one surface of the
// triangles (0,1,2) and (2,1,3) whose normals bind (0,0,1) everywhere except v2's corner in the
// second triangle, which binds (0,1,0) (so v2 becomes two GPU vertices); a skin with v0: group 0
// (1.0), v1: groups 1, 0 (0.5 each: a tie, authored in decreasing group order), v2: groups 3
// (0.75), 2 (0.25), v3: none, group names Hips, Spine, Loose, Tail; one blend shape "Smile" with
// position offsets v2 +(0,0,0.5), v0 +(0.25,0,0), and a normal offset +(1,0,0) on normal value 1,
// amounts [0.5].
struct Character {
  Document doc;
  uint32_t positions = 0;             // float32 x3
  uint32_t simplexes = 0;             // uint16 x3
  uint32_t normal_values = 0;         // float32 x3
  uint32_t normal_simplexes = 0;      // uint8 x3
  uint32_t skin_vertices = 0;         // uint32
  uint32_t skin_groups = 0;           // uint16
  uint32_t skin_weights = 0;          // float32
  uint32_t blend_indices = 0;         // uint8
  uint32_t blend_offsets = 0;         // float64 x3
  uint32_t blend_normal_indices = 0;  // uint32
  uint32_t blend_normal_offsets = 0;  // float16 x3
};

Character ValidCharacter();

// `text` with the first `from` replaced by `to` (a test failure when `from` is absent).
std::string Replace(std::string text, const std::string& from, const std::string& to);

// Loads `bytes` from memory, followed by the zero padding the loader requires; external buffers
// resolve against ".".
Result<LoadedAsset> LoadBytes(std::span<const uint8_t> bytes, const G4mfOptions& options = {});
Result<LoadedAsset> LoadText(const std::string& text, const G4mfOptions& options = {});
Result<LoadedAsset> Load(const Document& doc, const G4mfOptions& options = {});

// A .g4b chunk: FourCC type and encoding (g4mf/g4b.h's constants) and the stored data.
struct G4bChunkSpec {
  uint32_t type = 0;
  uint32_t encoding = 0;
  std::vector<uint8_t> data;
};

// A .g4b file: the header ("G4MF", version 0, u64 file size), then each chunk's 16-byte header
// (type, encoding, u64 data size) and data, padded to 16 bytes (plain JSON with spaces, the rest
// with zeros).
std::vector<uint8_t> MakeG4b(const std::vector<G4bChunkSpec>& chunks);

// `data` as one Zstd frame (with its content size).
std::vector<uint8_t> Zstd(std::span<const uint8_t> data);

std::vector<uint8_t> Bytes(const std::string& text);

// Loading fails with exactly `code` at `where` (and a message).
void ExpectError(const std::string& text, Error code, const std::string& where);
void ExpectError(const Document& doc, Error code, const std::string& where);

// The document loads, with exactly one warning, at `where`.
void ExpectOneWarning(const Document& doc, const std::string& where);

// `asset` written as .g4tf by WriteG4mf and loaded back from memory, without a warning expected
// (test failures otherwise; an empty asset when either step fails).
Asset WriteAndLoadG4mf(const Asset& asset, G4mfWriteReport* report = nullptr);

}  // namespace sinew::loader::g4mf_testing
