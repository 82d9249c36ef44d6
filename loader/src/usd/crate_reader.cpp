#include "usd/crate_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "usd/crate_format.h"
#include "usd/integer_coding.h"
#include "usd/lz4_blocks.h"
#include "usd/usda_lexer.h"
#include "usd/value.h"

namespace sinew::loader::usd {
namespace {

using crate::SpecType;
using crate::Type;

// Whether a path element is a variant selection, "{set=variant}" (a variant set's own path ends
// in "{set=}"): a set named as an identifier, a variant name or none. Its parts in *set and
// *variant when asked for.
bool VariantElement(std::string_view element, std::string_view* set, std::string_view* variant) {
  if (element.size() < 3 || element.front() != '{' || element.back() != '}') return false;
  const size_t equals = element.find('=');
  if (equals == std::string_view::npos) return false;
  const std::string_view s = element.substr(1, equals - 1);
  const std::string_view v = element.substr(equals + 1, element.size() - equals - 2);
  if (!IsIdentifier(s) || (!v.empty() && !IsVariantName(v))) return false;
  if (set) *set = s;
  if (variant) *variant = v;
  return true;
}

// LZ4's largest expansion: a block cannot decompress to more than this many bytes per byte.
constexpr uint64_t kLz4MaxRatio = 255;

// count × size, or UINT64_MAX when that overflows (sizes read from a file may be anything).
constexpr uint64_t Times(uint64_t count, uint64_t size) noexcept {
  return size && count > UINT64_MAX / size ? UINT64_MAX : count * size;
}

// How a crate value type is held in the model: the model's type and the bytes of one element.
struct TypeLayout {
  ValueType type;
  uint8_t bytes;  // in the file, per element (strings, tokens and assets: a uint32 index)
};

// The model's type of an array-capable crate type; false for the others.
bool LayoutOf(Type type, TypeLayout* out) {
  switch (type) {
    case Type::kBool:
      *out = {ValueType::kBool, 1};
      return true;
    case Type::kUChar:
      *out = {ValueType::kUChar, 1};
      return true;
    case Type::kInt:
      *out = {ValueType::kInt, 4};
      return true;
    case Type::kUInt:
      *out = {ValueType::kUInt, 4};
      return true;
    case Type::kInt64:
      *out = {ValueType::kInt64, 8};
      return true;
    case Type::kUInt64:
      *out = {ValueType::kUInt64, 8};
      return true;
    case Type::kHalf:
      *out = {ValueType::kHalf, 2};
      return true;
    case Type::kFloat:
      *out = {ValueType::kFloat, 4};
      return true;
    case Type::kDouble:
      *out = {ValueType::kDouble, 8};
      return true;
    case Type::kTimeCode:
      *out = {ValueType::kTimeCode, 8};
      return true;
    case Type::kString:
      *out = {ValueType::kString, 4};
      return true;
    case Type::kToken:
      *out = {ValueType::kToken, 4};
      return true;
    case Type::kAssetPath:
      *out = {ValueType::kAsset, 4};
      return true;
    case Type::kMatrix2d:
      *out = {ValueType::kMatrix2d, 32};
      return true;
    case Type::kMatrix3d:
      *out = {ValueType::kMatrix3d, 72};
      return true;
    case Type::kMatrix4d:
      *out = {ValueType::kMatrix4d, 128};
      return true;
    case Type::kQuatd:
      *out = {ValueType::kQuatd, 32};
      return true;
    case Type::kQuatf:
      *out = {ValueType::kQuatf, 16};
      return true;
    case Type::kQuath:
      *out = {ValueType::kQuath, 8};
      return true;
    case Type::kVec2d:
      *out = {ValueType::kDouble2, 16};
      return true;
    case Type::kVec2f:
      *out = {ValueType::kFloat2, 8};
      return true;
    case Type::kVec2h:
      *out = {ValueType::kHalf2, 4};
      return true;
    case Type::kVec2i:
      *out = {ValueType::kInt2, 8};
      return true;
    case Type::kVec3d:
      *out = {ValueType::kDouble3, 24};
      return true;
    case Type::kVec3f:
      *out = {ValueType::kFloat3, 12};
      return true;
    case Type::kVec3h:
      *out = {ValueType::kHalf3, 6};
      return true;
    case Type::kVec3i:
      *out = {ValueType::kInt3, 12};
      return true;
    case Type::kVec4d:
      *out = {ValueType::kDouble4, 32};
      return true;
    case Type::kVec4f:
      *out = {ValueType::kFloat4, 16};
      return true;
    case Type::kVec4h:
      *out = {ValueType::kHalf4, 8};
      return true;
    case Type::kVec4i:
      *out = {ValueType::kInt4, 16};
      return true;
    default:
      return false;
  }
}

bool IsQuaternion(ValueType type) {
  return type == ValueType::kQuath || type == ValueType::kQuatf || type == ValueType::kQuatd;
}
bool IsMatrix(ValueType type) {
  return type == ValueType::kMatrix2d || type == ValueType::kMatrix3d ||
         type == ValueType::kMatrix4d;
}

// One entry of the path table.
struct PathEntry {
  std::string path;       // "/", "/Root/Mesh", "/Root/Mesh.points"
  std::string_view name;  // the last element (a token's text)
  int32_t parent = -1;
  bool property = false;
  bool set = false;
};

struct Field {
  uint32_t token = 0;
  uint64_t rep = 0;
};

struct Spec {
  uint32_t path = 0, fieldset = 0;
  SpecType type = SpecType::kUnknown;
};

// A spec's fields by name.
using Fields = std::vector<std::pair<std::string_view, uint64_t>>;

class CrateReader {
 public:
  CrateReader(std::span<const uint8_t> file, const UsdcOptions& options)
      : file_(file), options_(options) {}

  bool Read(Layer* layer);
  ErrorInfo& error() { return error_; }

 private:
  // A read position inside [begin, end) of the file; `what` names it for errors.
  struct Cursor {
    uint64_t pos = 0, end = 0;
    std::string_view what;
  };

  bool Fail(Error code, std::string message, std::string_view what, uint64_t offset) {
    if (error_.code == Error::kNone) {
      error_ = {code, std::move(message), std::string(what) + " at byte " + std::to_string(offset),
                0};
    }
    return false;
  }
  bool Invalid(const Cursor& c, std::string message) {
    return Fail(Error::kInvalidUsdc, std::move(message), c.what, c.pos);
  }
  bool Raw(Cursor& c, void* out, uint64_t n) {
    if (c.end - c.pos < n || c.pos > c.end) {
      return Fail(Error::kOutOfBounds,
                  std::to_string(n) + " bytes past the end of " +
                      (c.end == file_.size() ? std::string("the file") : std::string(c.what)),
                  c.what, c.pos);
    }
    if (n) std::memcpy(out, file_.data() + c.pos, n);
    c.pos += n;
    return true;
  }
  template <typename T>
  bool Get(Cursor& c, T* out) {
    return Raw(c, out, sizeof(T));
  }
  // A count of elements of `bytes` each that must fit in what is left of the cursor's range.
  bool Count(Cursor& c, uint64_t count, uint64_t bytes, std::string_view of) {
    if (bytes && count > (c.end - c.pos) / bytes) {
      return Fail(Error::kOutOfBounds,
                  std::to_string(count) + " " + std::string(of) + " do not fit in the " +
                      std::to_string(c.end - c.pos) + " bytes left",
                  c.what, c.pos);
    }
    return true;
  }
  // Charges `bytes` that are about to be decoded (allocated) against the read's budget: each
  // value can be reached from many places in a file, so the budget is for the whole read.
  bool Limit(const Cursor& c, uint64_t bytes, std::string_view of) {
    decoded_ = bytes > options_.max_decoded_bytes ? UINT64_MAX : decoded_ + bytes;
    if (decoded_ > options_.max_decoded_bytes) {
      return Fail(Error::kUnsupportedFeature,
                  std::string(of) + " of " + std::to_string(bytes) +
                      " bytes would take the read past its limit of " +
                      std::to_string(options_.max_decoded_bytes) + " decoded bytes",
                  c.what, c.pos);
    }
    return true;
  }
  // The cursor at a file offset (a value's payload): within the file.
  bool At(uint64_t offset, Cursor* c) {
    *c = {offset, file_.size(), where_};
    if (offset > file_.size()) {
      return Fail(Error::kOutOfBounds, "a value's offset is past the end of the file", where_,
                  offset);
    }
    return true;
  }

  // Sections.
  bool Bootstrap();
  bool Toc();
  bool Section(std::string_view name, Cursor* c);
  bool Tokens();
  bool Strings();
  bool FieldsSection();
  bool FieldSets();
  bool Paths();
  bool Specs();
  // `count` integers stored as: uint64 compressed size, then the LZ4-compressed integer coding.
  template <typename T>
  bool CompressedInts(Cursor& c, std::vector<T>* out, uint64_t count, std::string_view of);
  // The decoded tree of the PATHS section (iterative: a sibling waits on a stack).
  bool BuildPaths(const Cursor& c, const std::vector<uint32_t>& index,
                  const std::vector<int32_t>& element, const std::vector<int32_t>& jump);

  // Values.
  bool TokenAt(uint32_t index, std::string* out, const Cursor& c);
  bool StringAt(uint32_t index, std::string* out, const Cursor& c);
  bool PathAt(uint32_t index, std::string* out, const Cursor& c);
  // Any value the model can hold, typed by its crate type.
  bool Unpack(uint64_t rep, Value* out, uint32_t depth);
  bool Inlined(uint64_t rep, const TypeLayout& layout, Value* out);
  bool Elements(Cursor& c, const TypeLayout& layout, uint64_t count, Value* out);
  bool Array(uint64_t rep, const TypeLayout& layout, Value* out);
  bool CompressedArray(Cursor& c, const TypeLayout& layout, uint64_t count, Value* out);
  template <typename T>
  bool Lookup(Cursor& c, const TypeLayout& layout, uint64_t count, Value* out);
  bool Dictionary(uint64_t rep, Value* out, uint32_t depth);
  // A dictionary's entries at the cursor (uint64 count, then each key and value), the cursor left
  // after the last one; with `out` null, stepped over without decoding keys or values.
  bool DictionaryEntries(Cursor& c, usd::Dictionary* out, uint32_t depth);
  // A reference's or payload's layer offset (two doubles), checked as the text reader checks one.
  bool LayerOffsetAt(Cursor& c, LayerOffset* out);
  // A prim's `references` (ReferenceListOp) or `payload` (PayloadListOp, or a single Payload as
  // older files write it) into *out.
  bool ReferenceListValue(uint64_t rep, bool payload, ReferenceList* out);
  bool ReferenceItem(Cursor& c, bool payload, Reference* out);
  // The layer's `subLayers` (a StringVector) and `subLayerOffsets` (a LayerOffsetVector).
  bool SubLayerOffsets(uint64_t rep, std::vector<LayerOffset>* out);
  // A vector<T> (uint64 count, then elements) of tokens, strings, paths or doubles.
  bool Vector(Cursor& c, ValueType element, Value* out);
  bool ListOpValue(uint64_t rep, ValueType element, ListOp* out);
  bool TimeSamplesValue(uint64_t rep, std::vector<TimeSample>* out);
  bool EnumValue(uint64_t rep, Type type, uint32_t count, uint32_t* out);
  bool Names(uint64_t rep, std::vector<std::string>* out);
  // A prim's `variantSelection` (a VariantSelectionMap): a count, then each set's name and its
  // variant as string indices.
  bool VariantSelections(uint64_t rep, std::vector<VariantSelection>* out);

  // The layer.
  Fields FieldsOf(const Spec& spec);
  bool Refused(std::string_view key, uint64_t rep);
  bool Generic(std::string_view key, uint64_t rep, Metadata* metadata);
  bool LayerFields(const Fields& fields, Layer* layer, std::vector<std::string>* children);
  bool PrimFields(const Fields& fields, Prim* prim, std::vector<std::string>* children,
                  std::vector<std::string>* properties);
  bool AttributeFields(const Fields& fields, Attribute* attribute);
  bool RelationshipFields(const Fields& fields, Relationship* relationship);
  bool Typed(const Attribute& attribute, Value* value);
  bool BuildLayer(Layer* layer);

  std::span<const uint8_t> file_;
  UsdcOptions options_;
  ErrorInfo error_;
  uint32_t version_ = 0;
  uint64_t toc_ = 0;
  struct SectionEntry {
    std::string name;
    uint64_t start = 0, size = 0;
  };
  std::vector<SectionEntry> sections_;
  std::vector<std::string> tokens_;
  std::vector<uint32_t> strings_;
  std::vector<Field> fields_;
  std::vector<uint32_t> fieldsets_;
  std::vector<PathEntry> paths_;
  std::vector<Spec> specs_;
  std::string where_ = "value";  // the spec whose values are read, for errors
  uint64_t decoded_ = 0;         // bytes charged by Limit()
};

bool CrateReader::Bootstrap() {
  Cursor c{0, file_.size(), "bootstrap"};
  char magic[8];
  uint8_t version[8];
  if (!Raw(c, magic, 8)) return false;
  if (std::memcmp(magic, crate::kMagic, 8) != 0)
    return Fail(Error::kInvalidUsdc, "not a crate file (no PXR-USDC)", "bootstrap", 0);
  if (!Raw(c, version, 8) || !Get(c, &toc_)) return false;
  version_ = crate::Version(version[0], version[1], version[2]);
  if (version_ < crate::kOldestVersion || version_ > crate::kNewestVersion) {
    return Fail(Error::kUnsupportedFeature,
                "crate version " + std::to_string(version[0]) + "." + std::to_string(version[1]) +
                    "." + std::to_string(version[2]) + " (sinew reads 0.4.0 to 0.12.0)",
                "bootstrap", 8);
  }
  if (toc_ < crate::kBootstrapSize || toc_ > file_.size()) {
    return Fail(Error::kOutOfBounds,
                "table of contents offset " + std::to_string(toc_) + " is outside the file",
                "bootstrap", 16);
  }
  return true;
}

bool CrateReader::Toc() {
  Cursor c{toc_, file_.size(), "table of contents"};
  uint64_t count = 0;
  if (!Get(c, &count) || !Count(c, count, crate::kSectionEntrySize, "sections")) return false;
  for (uint64_t i = 0; i < count; ++i) {
    char name[16];
    SectionEntry s;
    const uint64_t at = c.pos;
    if (!Raw(c, name, 16) || !Get(c, &s.start) || !Get(c, &s.size)) return false;
    if (!std::memchr(name, 0, 16)) return Invalid(c, "a section name without its NUL");
    s.name = name;
    if (s.start > file_.size() || s.size > file_.size() - s.start) {
      return Fail(Error::kOutOfBounds,
                  "section " + s.name + " (bytes " + std::to_string(s.start) + " + " +
                      std::to_string(s.size) + ") reaches past the end of the file",
                  "table of contents", at);
    }
    sections_.push_back(std::move(s));
  }
  return true;
}

bool CrateReader::Section(std::string_view name, Cursor* c) {
  for (const SectionEntry& s : sections_) {
    if (s.name == name) {
      *c = {s.start, s.start + s.size, name};
      return true;
    }
  }
  return Fail(Error::kInvalidUsdc, "no " + std::string(name) + " section", "table of contents",
              toc_);
}

template <typename T>
bool CrateReader::CompressedInts(Cursor& c, std::vector<T>* out, uint64_t count,
                                 std::string_view of) {
  uint64_t compressed = 0;
  if (!Get(c, &compressed) || !Count(c, compressed, 1, "compressed bytes")) return false;
  // Each integer takes at least two bits of the decompressed coding.
  const uint64_t most = compressed * kLz4MaxRatio + 64;  // compressed fits in the file
  if (count / 4 > most) {
    return Invalid(c, std::to_string(count) + " " + std::string(of) + " cannot come from " +
                          std::to_string(compressed) + " compressed bytes");
  }
  if (!Limit(c, Times(count, sizeof(T)), of)) return false;
  const uint64_t capacity = std::min<uint64_t>(MaxEncodedIntegersSize(count, sizeof(T)), most);
  if (!Limit(c, capacity, of)) return false;
  std::vector<uint8_t> coded(capacity);
  std::string why;
  size_t written = 0;
  if (!Lz4Decompress(file_.subspan(c.pos, compressed), coded, &why, &written)) {
    return Invalid(c, std::string(of) + ": " + why);
  }
  out->resize(count);
  if (!DecodeIntegers(std::span<const uint8_t>(coded.data(), written), std::span<T>(*out), &why)) {
    return Invalid(c, std::string(of) + ": " + why);
  }
  c.pos += compressed;
  return true;
}

bool CrateReader::Tokens() {
  Cursor c;
  if (!Section("TOKENS", &c)) return false;
  uint64_t count = 0, size = 0, compressed = 0;
  if (!Get(c, &count) || !Get(c, &size) || !Get(c, &compressed)) return false;
  if (!Count(c, compressed, 1, "compressed bytes")) return false;
  if (size > compressed * kLz4MaxRatio + 64 || count > size) {
    return Invalid(c, std::to_string(count) + " tokens of " + std::to_string(size) +
                          " bytes cannot come from " + std::to_string(compressed) +
                          " compressed bytes");
  }
  if (!Limit(c, size, "the tokens")) return false;
  std::vector<uint8_t> text(size);
  std::string why;
  if (!Lz4Decompress(file_.subspan(c.pos, compressed), text, &why))
    return Invalid(c, "tokens: " + why);
  if (!Limit(c, Times(count, sizeof(std::string)), "the tokens")) return false;
  tokens_.reserve(count);
  const char* p = reinterpret_cast<const char*>(text.data());
  const char* end = p + text.size();
  for (uint64_t i = 0; i < count; ++i) {
    const char* nul = static_cast<const char*>(std::memchr(p, 0, size_t(end - p)));
    if (!nul) return Invalid(c, "token " + std::to_string(i) + " has no terminating NUL");
    tokens_.emplace_back(p, nul);
    p = nul + 1;
  }
  return true;
}

bool CrateReader::Strings() {
  Cursor c;
  if (!Section("STRINGS", &c)) return false;
  uint64_t count = 0;
  if (!Get(c, &count) || !Count(c, count, 4, "strings")) return false;
  strings_.resize(count);
  for (uint32_t& s : strings_) {
    if (!Get(c, &s)) return false;
    if (s >= tokens_.size())
      return Invalid(
          c, "a string names token " + std::to_string(s) + " of " + std::to_string(tokens_.size()));
  }
  return true;
}

bool CrateReader::FieldsSection() {
  Cursor c;
  if (!Section("FIELDS", &c)) return false;
  uint64_t count = 0;
  std::vector<uint32_t> names;
  if (!Get(c, &count) || !CompressedInts(c, &names, count, "field names")) return false;
  uint64_t compressed = 0;
  if (!Get(c, &compressed) || !Count(c, compressed, 1, "compressed bytes")) return false;
  if (Times(count, 8) > compressed * kLz4MaxRatio + 64) {
    return Invalid(c, std::to_string(count) + " field values cannot come from " +
                          std::to_string(compressed) + " compressed bytes");
  }
  if (!Limit(c, Times(count, 8), "the field values")) return false;
  std::vector<uint64_t> reps(count);
  std::string why;
  if (!Lz4Decompress(file_.subspan(c.pos, compressed),
                     std::span(reinterpret_cast<uint8_t*>(reps.data()), reps.size() * 8), &why)) {
    return Invalid(c, "field values: " + why);
  }
  fields_.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (names[i] >= tokens_.size())
      return Invalid(c, "field " + std::to_string(i) + " names token " + std::to_string(names[i]) +
                            " of " + std::to_string(tokens_.size()));
    fields_[i] = {names[i], reps[i]};
  }
  return true;
}

bool CrateReader::FieldSets() {
  Cursor c;
  if (!Section("FIELDSETS", &c)) return false;
  uint64_t count = 0;
  if (!Get(c, &count) || !CompressedInts(c, &fieldsets_, count, "field sets")) return false;
  for (uint32_t f : fieldsets_) {
    if (f != ~0u && f >= fields_.size())
      return Invalid(c, "a field set names field " + std::to_string(f) + " of " +
                            std::to_string(fields_.size()));
  }
  return true;
}

bool CrateReader::Paths() {
  Cursor c;
  if (!Section("PATHS", &c)) return false;
  uint64_t count = 0, encoded = 0;
  if (!Get(c, &count) || !Get(c, &encoded)) return false;
  // Every path but the empty one (which may have a slot) is in the encoded tree.
  if (count > encoded + 1) {
    return Invalid(
        c, std::to_string(count) + " paths, but " + std::to_string(encoded) + " encoded ones");
  }
  if (!Limit(c, Times(count, sizeof(PathEntry)), "the path table")) return false;
  std::vector<uint32_t> index;
  std::vector<int32_t> element, jump;
  if (!CompressedInts(c, &index, encoded, "path indices") ||
      !CompressedInts(c, &element, encoded, "path elements") ||
      !CompressedInts(c, &jump, encoded, "path jumps")) {
    return false;
  }
  paths_.resize(count);
  return BuildPaths(c, index, element, jump);
}

bool CrateReader::BuildPaths(const Cursor& c, const std::vector<uint32_t>& index,
                             const std::vector<int32_t>& element,
                             const std::vector<int32_t>& jump) {
  std::vector<uint8_t> seen(index.size());
  struct Pending {
    uint64_t at;
    int32_t parent;  // path index
    uint32_t depth;  // of the entry
  };
  std::vector<Pending> pending;
  if (!index.empty()) pending.push_back({0, -1, 0});
  // Prims nest max_depth deep; a property and a relationship target may add two levels.
  const uint32_t deepest = options_.max_depth + 2;
  while (!pending.empty()) {
    auto [at, parent, depth] = pending.back();
    pending.pop_back();
    while (true) {
      if (depth > deepest) {
        return Fail(Error::kUnsupportedFeature, "paths nest deeper than " + std::to_string(deepest),
                    c.what, c.pos);
      }
      if (at >= index.size() || seen[at]) {
        return Invalid(c, "the path tree jumps to entry " + std::to_string(at) +
                              (at < index.size() ? ", reached twice" : ", past its end"));
      }
      seen[at] = 1;
      const uint32_t p = index[at];
      if (p >= paths_.size() || paths_[p].set)
        return Invalid(c,
                       "path entry " + std::to_string(at) + " names path " + std::to_string(p) +
                           (p < paths_.size() ? " again" : " of " + std::to_string(paths_.size())));
      PathEntry& e = paths_[p];
      e.set = true;
      e.parent = parent;
      if (parent < 0) {
        e.path = "/";
      } else {
        const int32_t t = element[at];
        const uint64_t token = t < 0 ? uint64_t(-int64_t(t)) : uint64_t(t);
        if (token >= tokens_.size())
          return Invalid(c, "path entry " + std::to_string(at) + " names token " +
                                std::to_string(token) + " of " + std::to_string(tokens_.size()));
        e.property = t < 0;
        e.name = tokens_[token];
        const std::string& base = paths_[size_t(parent)].path;
        // A variant selection's element, "{lod=high}" (or a variant set's, "{lod=}"), follows
        // the prim without a separator; the model puts '/' before the prims inside it.
        const bool selection = !e.property && e.name.starts_with('{');
        if (selection && (base == "/" || !VariantElement(e.name, nullptr, nullptr))) {
          return Invalid(c, "path entry " + std::to_string(at) + ": a variant selection '" +
                                Excerpt(e.name) + "'" + (base == "/" ? " below the root" : ""));
        }
        // A prim's name is an identifier (a relationship target's element, "[/B]", is no
        // prim's), as the text reader holds them: the model's paths rely on it.
        if (!e.property && !selection && !e.name.starts_with('[') && !IsIdentifier(e.name)) {
          return Invalid(c, "path entry " + std::to_string(at) + ": a prim named '" +
                                Excerpt(e.name) + "', which is not an identifier");
        }
        e.path.reserve(base.size() + e.name.size() + 1);
        e.path = base;
        if (e.property) {
          e.path += '.';
        } else if (base != "/" && !selection) {
          e.path += '/';
        }
        e.path += e.name;
        if (!Limit(c, e.path.size(), "the paths")) return false;
      }
      const int32_t j = jump[at];
      const bool child = j > 0 || j == -1, sibling = j >= 0;
      if (child && sibling) pending.push_back({at + uint64_t(j), parent, depth});
      if (child) parent = int32_t(p), ++depth;
      if (!child && !sibling) break;
      ++at;
    }
  }
  return true;
}

bool CrateReader::Specs() {
  Cursor c;
  if (!Section("SPECS", &c)) return false;
  uint64_t count = 0;
  std::vector<uint32_t> path, fieldset, type;
  if (!Get(c, &count) || !CompressedInts(c, &path, count, "spec paths") ||
      !CompressedInts(c, &fieldset, count, "spec field sets") ||
      !CompressedInts(c, &type, count, "spec types")) {
    return false;
  }
  specs_.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (path[i] >= paths_.size() || !paths_[path[i]].set)
      return Invalid(c, "spec " + std::to_string(i) + " names path " + std::to_string(path[i]) +
                            ", which the path table lacks");
    if (fieldset[i] >= fieldsets_.size() && !(fieldset[i] == fieldsets_.size()))
      return Invalid(c, "spec " + std::to_string(i) + " names field set " +
                            std::to_string(fieldset[i]) + " of " +
                            std::to_string(fieldsets_.size()));
    if (type[i] == uint32_t(SpecType::kUnknown) || type[i] > uint32_t(SpecType::kVariantSet))
      return Invalid(
          c, "spec " + std::to_string(i) + " has the unknown spec type " + std::to_string(type[i]));
    specs_[i] = {path[i], fieldset[i], SpecType(type[i])};
  }
  return true;
}

bool CrateReader::TokenAt(uint32_t index, std::string* out, const Cursor& c) {
  if (index >= tokens_.size())
    return Invalid(c, "token " + std::to_string(index) + " of " + std::to_string(tokens_.size()));
  *out = tokens_[index];
  return true;
}
bool CrateReader::StringAt(uint32_t index, std::string* out, const Cursor& c) {
  if (index >= strings_.size())
    return Invalid(c, "string " + std::to_string(index) + " of " + std::to_string(strings_.size()));
  *out = tokens_[strings_[index]];
  return true;
}
bool CrateReader::PathAt(uint32_t index, std::string* out, const Cursor& c) {
  if (index >= paths_.size() || !paths_[index].set)
    return Invalid(c, "path " + std::to_string(index) + " of " + std::to_string(paths_.size()));
  *out = paths_[index].path;
  return true;
}

// Makes `out` an empty value of `layout`'s type, with the storage that type uses.
void Prepare(const TypeLayout& layout, bool array, Value* out) {
  const ValueTypeInfo& info = Info(layout.type);
  out->type = layout.type;
  out->array = array;
  out->blocked = false;
  out->components = info.components;
  switch (StorageOf(info.scalar)) {
    case Storage::kInt32:
      out->data = std::vector<int32_t>();
      break;
    case Storage::kInt64:
      out->data = std::vector<int64_t>();
      break;
    case Storage::kFloat:
      out->data = std::vector<float>();
      break;
    case Storage::kDouble:
      out->data = std::vector<double>();
      break;
    case Storage::kString:
      out->data = std::vector<std::string>();
      break;
    case Storage::kDictionary:
      out->data = usd::Dictionary();
      break;
  }
}

// Adds one number (given as double or integer) to the value's storage.
void PushNumber(Value* out, double real, int64_t integer, bool is_integer) {
  std::visit(
      [&](auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::vector<int32_t>>) {
          v.push_back(int32_t(is_integer ? integer : int64_t(real)));
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          v.push_back(is_integer ? integer : int64_t(real));
        } else if constexpr (std::is_same_v<V, std::vector<float>>) {
          v.push_back(is_integer ? float(integer) : float(real));
        } else if constexpr (std::is_same_v<V, std::vector<double>>) {
          v.push_back(is_integer ? double(integer) : real);
        }
      },
      out->data);
}

// A quaternion's four numbers are stored imaginary part first; the model keeps (real, i, j, k).
template <typename T>
void RealFirst(std::vector<T>& v, size_t first) {
  std::rotate(v.begin() + std::ptrdiff_t(first), v.begin() + std::ptrdiff_t(first + 3),
              v.begin() + std::ptrdiff_t(first + 4));
}
void QuaternionRealFirst(Value* out) {
  std::visit(
      [](auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::vector<float>> ||
                      std::is_same_v<V, std::vector<double>>) {
          for (size_t i = 0; i + 4 <= v.size(); i += 4) RealFirst(v, i);
        }
      },
      out->data);
}

bool CrateReader::Inlined(uint64_t rep, const TypeLayout& layout, Value* out) {
  Prepare(layout, false, out);
  const uint64_t payload = crate::Payload(rep);
  uint8_t bytes[8];
  std::memcpy(bytes, &payload, 8);  // little-endian: the value's bytes first
  const ValueTypeInfo& info = Info(layout.type);
  Cursor c{0, 0, where_};
  switch (crate::TypeOf(rep)) {
    case Type::kString:
    case Type::kToken:
    case Type::kAssetPath: {
      std::string s;
      if (!(crate::TypeOf(rep) == Type::kString ? StringAt(uint32_t(payload), &s, c)
                                                : TokenAt(uint32_t(payload), &s, c))) {
        return false;
      }
      std::get<std::vector<std::string>>(out->data).push_back(std::move(s));
      return true;
    }
    case Type::kBool:
    case Type::kUChar:
      PushNumber(out, 0, bytes[0], true);
      return true;
    case Type::kInt: {
      int32_t v;
      std::memcpy(&v, bytes, 4);
      PushNumber(out, 0, v, true);
      return true;
    }
    case Type::kUInt: {
      uint32_t v;
      std::memcpy(&v, bytes, 4);
      PushNumber(out, 0, int64_t(v), true);
      return true;
    }
    case Type::kInt64: {
      int32_t v;  // inlined when it fits in 32 bits
      std::memcpy(&v, bytes, 4);
      PushNumber(out, 0, v, true);
      return true;
    }
    case Type::kUInt64: {
      uint32_t v;
      std::memcpy(&v, bytes, 4);
      PushNumber(out, 0, int64_t(v), true);
      return true;
    }
    case Type::kHalf: {
      uint16_t v;
      std::memcpy(&v, bytes, 2);
      PushNumber(out, HalfToFloat(v), 0, false);
      return true;
    }
    case Type::kFloat:
    case Type::kDouble:  // a double that a float holds exactly is inlined as that float
    case Type::kTimeCode: {
      float v;
      std::memcpy(&v, bytes, 4);
      PushNumber(out, v, 0, false);
      return true;
    }
    default:
      break;
  }
  if (layout.type == ValueType::kHalf2) {  // four bytes: its two halves as they are
    for (int k = 0; k < 2; ++k)
      PushNumber(out, HalfToFloat(uint16_t(bytes[2 * k] | (bytes[2 * k + 1] << 8))), 0, false);
    return true;
  }
  if (IsMatrix(layout.type)) {
    // A diagonal matrix of small integers: the diagonal as int8s.
    const uint32_t n = info.rows;
    for (uint32_t r = 0; r < n; ++r) {
      for (uint32_t k = 0; k < n; ++k) PushNumber(out, 0, r == k ? int8_t(bytes[r]) : 0, true);
    }
    return true;
  }
  // A vector (or quaternion) of small integers: its components as int8s.
  for (uint32_t k = 0; k < info.components && k < 4; ++k)
    PushNumber(out, 0, int8_t(bytes[k]), true);
  if (IsQuaternion(layout.type)) QuaternionRealFirst(out);
  return true;
}

bool CrateReader::Elements(Cursor& c, const TypeLayout& layout, uint64_t count, Value* out) {
  if (!Count(c, count, layout.bytes, "elements")) return false;
  const ValueTypeInfo& info = Info(layout.type);
  const uint64_t numbers = count * info.components;
  if (!Limit(c, Times(numbers, 8), "an array")) return false;
  const uint8_t* p = file_.data() + c.pos;
  c.pos += count * layout.bytes;
  const Scalar scalar = info.scalar;
  if (scalar == Scalar::kString || scalar == Scalar::kToken || scalar == Scalar::kAsset) {
    auto& strings = std::get<std::vector<std::string>>(out->data);
    strings.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      uint32_t index;
      std::memcpy(&index, p + 4 * i, 4);
      // Tokens are token indices; strings and asset paths in arrays, string indices.
      if (!(scalar == Scalar::kToken ? TokenAt(index, &strings[i], c)
                                     : StringAt(index, &strings[i], c)))
        return false;
    }
    return true;
  }
  const uint32_t width = layout.bytes / info.components;
  const auto each = [&](auto&& push) {
    for (uint64_t i = 0; i < numbers; ++i) push(p + i * width);
  };
  std::visit(
      [&](auto& v) {
        using V = std::decay_t<decltype(v)>;
        using E = typename V::value_type;
        if constexpr (std::is_arithmetic_v<E>) {
          v.resize(numbers);
          size_t i = 0;
          each([&](const uint8_t* at) {
            switch (scalar) {
              case Scalar::kBool:
              case Scalar::kUChar:
                v[i++] = E(at[0]);
                break;
              case Scalar::kInt: {
                int32_t x;
                std::memcpy(&x, at, 4);
                v[i++] = E(x);
                break;
              }
              case Scalar::kUInt: {
                uint32_t x;
                std::memcpy(&x, at, 4);
                v[i++] = E(x);
                break;
              }
              case Scalar::kInt64:
              case Scalar::kUInt64: {
                int64_t x;
                std::memcpy(&x, at, 8);
                v[i++] = E(x);
                break;
              }
              case Scalar::kHalf: {
                uint16_t x;
                std::memcpy(&x, at, 2);
                v[i++] = E(HalfToFloat(x));
                break;
              }
              case Scalar::kFloat: {
                float x;
                std::memcpy(&x, at, 4);
                v[i++] = E(x);
                break;
              }
              default: {
                double x;
                std::memcpy(&x, at, 8);
                v[i++] = E(x);
                break;
              }
            }
          });
        }
      },
      out->data);
  if (scalar == Scalar::kUInt64) {
    for (int64_t v : std::get<std::vector<int64_t>>(out->data)) {
      if (v < 0)
        return Fail(Error::kInvalidValue, "a uint64 beyond 9223372036854775807", where_, c.pos);
    }
  }
  if (IsQuaternion(layout.type)) QuaternionRealFirst(out);
  return true;
}

template <typename T>
bool CrateReader::Lookup(Cursor& c, const TypeLayout& layout, uint64_t count, Value* out) {
  char code = 0;
  if (!Get(c, &code)) return false;
  auto& numbers = std::get<std::vector<T>>(out->data);
  if (code == 'i') {
    std::vector<int32_t> ints;
    if (!CompressedInts(c, &ints, count, "array elements")) return false;
    numbers.assign(ints.begin(), ints.end());
    return true;
  }
  if (code != 't')
    return Invalid(c, std::string("unknown array compression code ") + std::to_string(int(code)));
  uint32_t size = 0;
  if (!Get(c, &size)) return false;
  Value table;
  Prepare(layout, true, &table);
  if (!Elements(c, layout, size, &table)) return false;
  std::vector<uint32_t> indices;
  if (!CompressedInts(c, &indices, count, "array indices")) return false;
  const auto& entries = std::get<std::vector<T>>(table.data);
  numbers.resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    if (indices[i] >= entries.size())
      return Invalid(c, "array index " + std::to_string(indices[i]) + " past its table of " +
                            std::to_string(entries.size()));
    numbers[i] = entries[indices[i]];
  }
  return true;
}

bool CrateReader::CompressedArray(Cursor& c, const TypeLayout& layout, uint64_t count, Value* out) {
  switch (layout.type) {
    case ValueType::kInt: {
      std::vector<int32_t> v;
      if (!CompressedInts(c, &v, count, "array elements")) return false;
      std::get<std::vector<int32_t>>(out->data) = std::move(v);
      return true;
    }
    case ValueType::kUInt: {
      std::vector<uint32_t> v;
      if (!CompressedInts(c, &v, count, "array elements")) return false;
      std::get<std::vector<int64_t>>(out->data).assign(v.begin(), v.end());
      return true;
    }
    case ValueType::kInt64:
    case ValueType::kUInt64: {
      std::vector<int64_t> v;
      if (!CompressedInts(c, &v, count, "array elements")) return false;
      if (layout.type == ValueType::kUInt64 &&
          std::any_of(v.begin(), v.end(), [](int64_t x) { return x < 0; })) {
        return Fail(Error::kInvalidValue, "a uint64 beyond 9223372036854775807", where_, c.pos);
      }
      std::get<std::vector<int64_t>>(out->data) = std::move(v);
      return true;
    }
    case ValueType::kHalf:
    case ValueType::kFloat:
      return Lookup<float>(c, layout, count, out);
    case ValueType::kDouble:
    case ValueType::kTimeCode:
      return Lookup<double>(c, layout, count, out);
    default:
      return Invalid(c,
                     std::string("a compressed array of ") + std::string(Info(layout.type).name));
  }
}

bool CrateReader::Array(uint64_t rep, const TypeLayout& layout, Value* out) {
  Prepare(layout, true, out);
  const uint64_t payload = crate::Payload(rep);
  if (payload == 0) return true;  // an empty array
  Cursor c;
  if (!At(payload, &c)) return false;
  if (version_ < crate::Version(0, 5, 0)) {
    uint32_t rank;
    if (!Get(c, &rank)) return false;
  }
  uint64_t count = 0;
  if (version_ < crate::Version(0, 7, 0)) {
    uint32_t n = 0;
    if (!Get(c, &n)) return false;
    count = n;
  } else if (!Get(c, &count)) {
    return false;
  }
  if (rep & crate::kCompressedBit) return CompressedArray(c, layout, count, out);
  return Elements(c, layout, count, out);
}

bool CrateReader::Vector(Cursor& c, ValueType element, Value* out) {
  uint64_t count = 0;
  if (!Get(c, &count)) return false;
  if (element == ValueType::kDouble) {
    const TypeLayout layout{ValueType::kDouble, 8};
    Prepare(layout, true, out);
    return Elements(c, layout, count, out);
  }
  out->type = element == ValueType::kToken    ? ValueType::kToken
              : element == ValueType::kString ? ValueType::kString
                                              : ValueType::kPath;
  out->array = true;
  out->components = 1;
  out->data = std::vector<std::string>();
  if (!Count(c, count, 4, "indices")) return false;
  auto& strings = std::get<std::vector<std::string>>(out->data);
  strings.resize(count);
  for (std::string& s : strings) {
    uint32_t index = 0;
    if (!Get(c, &index)) return false;
    const bool ok = element == ValueType::kToken    ? TokenAt(index, &s, c)
                    : element == ValueType::kString ? StringAt(index, &s, c)
                                                    : PathAt(index, &s, c);
    if (!ok) return false;
  }
  return true;
}

bool CrateReader::Dictionary(uint64_t rep, Value* out, uint32_t depth) {
  out->type = ValueType::kDictionary;
  out->array = false;
  out->components = 1;
  out->data = usd::Dictionary();
  if ((rep & crate::kInlinedBit) || crate::Payload(rep) == 0) return true;  // empty, inlined
  Cursor c;
  if (!At(crate::Payload(rep), &c)) return false;
  return DictionaryEntries(c, &std::get<usd::Dictionary>(out->data), depth);
}

bool CrateReader::DictionaryEntries(Cursor& c, usd::Dictionary* out, uint32_t depth) {
  uint64_t count = 0;
  if (!Get(c, &count) || !Count(c, count, 12, "dictionary entries")) return false;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t key = 0;
    int64_t offset = 0;
    if (!Get(c, &key)) return false;
    DictionaryEntry entry;
    if (out && !StringAt(key, &entry.key, c)) return false;
    // An offset from itself to the value's ValueRep (the value's own data between the two); the
    // next entry follows the ValueRep.
    const uint64_t from = c.pos;
    if (!Get(c, &offset)) return false;
    if (offset < 8) return Invalid(c, "a dictionary value's offset points backwards");
    c.pos = from + uint64_t(offset);
    uint64_t value_rep = 0;
    if (!Get(c, &value_rep)) return false;
    if (!out) continue;
    if (!Unpack(value_rep, &entry.value, depth + 1)) return false;
    out->push_back(std::move(entry));
  }
  return true;
}

bool CrateReader::LayerOffsetAt(Cursor& c, LayerOffset* out) {
  const uint64_t at = c.pos;
  if (!Get(c, &out->offset) || !Get(c, &out->scale)) return false;
  Error code = Error::kNone;
  if (const char* fault = out->Fault(&code)) return Fail(code, fault, where_, at);
  return true;
}

bool CrateReader::ReferenceItem(Cursor& c, bool payload, Reference* out) {
  uint32_t asset = 0, path = 0;
  if (!Get(c, &asset) || !Get(c, &path) || !StringAt(asset, &out->asset, c)) return false;
  // No prim (the referenced layer's defaultPrim) is the empty path, which the PATHS tree does
  // not hold: an index within the table that it leaves unset.
  if (path >= paths_.size() || paths_[path].set) {
    if (!PathAt(path, &out->prim, c)) return false;
    if (out->prim.find('.') != std::string::npos || !out->prim.starts_with('/')) {
      return Fail(Error::kInvalidValue,
                  "a reference names a prim, not a property: <" + out->prim + ">", where_, c.pos);
    }
  }
  // Payloads carry a layer offset from version 0.8.0; references always, and custom data.
  if (!payload || version_ >= crate::Version(0, 8, 0)) {
    if (!LayerOffsetAt(c, &out->time)) return false;
  }
  if (!payload) {
    // Custom data, which nothing in sinew reads: its entries are stepped over, values unread.
    if (!DictionaryEntries(c, nullptr, 1)) return false;
  }
  return true;
}

bool CrateReader::ReferenceListValue(uint64_t rep, bool payload, ReferenceList* out) {
  const Type type = crate::TypeOf(rep);
  Cursor c;
  if (payload && type == Type::kPayload) {
    // A single payload: how OpenUSD stores an explicit list of one payload with an asset path,
    // and `payload = None` as a payload without one.
    Reference r;
    if (!At(crate::Payload(rep), &c) || !ReferenceItem(c, true, &r)) return false;
    if (r.asset.empty()) {
      out->Set(ListOpKind::kExplicit, {});
    } else {
      out->Set(ListOpKind::kExplicit, {std::move(r)});
    }
    return true;
  }
  if (type != (payload ? Type::kPayloadListOp : Type::kReferenceListOp)) {
    return Fail(
        Error::kWrongType,
        payload ? "'payload' is not a payload list op" : "'references' is not a reference list op",
        where_, crate::Payload(rep));
  }
  uint8_t header = 0;
  if (!At(crate::Payload(rep), &c) || !Get(c, &header)) return false;
  const bool is_explicit = header & crate::kListOpIsExplicit;
  if (is_explicit) out->Set(ListOpKind::kExplicit, {});
  for (const auto& [bit, kind] : crate::kListOpLists) {
    if (!(header & bit)) continue;
    // Only an explicit list op's explicit items count, and only an edit's other lists: Sdf
    // holds no more. (The explicit list comes first: an explicit op's reading ends after it.)
    const bool explicit_items = kind == ListOpKind::kExplicit;
    if (is_explicit && !explicit_items) break;
    uint64_t count = 0;
    if (!Get(c, &count) || !Count(c, count, payload ? 8 : 32, "references")) return false;
    if (!Limit(c, count * sizeof(Reference), "references")) return false;
    std::vector<Reference> items(count);
    for (Reference& r : items) {
      if (!ReferenceItem(c, payload, &r)) return false;
      if (r.asset.empty() && r.prim.empty()) {
        return Fail(Error::kInvalidValue, "a reference without an asset path or a prim", where_,
                    c.pos);
      }
    }
    if (is_explicit == explicit_items) out->Set(kind, std::move(items));
  }
  return true;
}

bool CrateReader::SubLayerOffsets(uint64_t rep, std::vector<LayerOffset>* out) {
  if (crate::TypeOf(rep) != Type::kLayerOffsetVector) {
    return Fail(Error::kWrongType, "'subLayerOffsets' is not a list of layer offsets", where_,
                crate::Payload(rep));
  }
  Cursor c;
  uint64_t count = 0;
  if (!At(crate::Payload(rep), &c) || !Get(c, &count) || !Count(c, count, 16, "layer offsets")) {
    return false;
  }
  out->resize(count);
  for (LayerOffset& offset : *out) {
    if (!LayerOffsetAt(c, &offset)) return false;
  }
  return true;
}

bool CrateReader::Unpack(uint64_t rep, Value* out, uint32_t depth) {
  if (depth > options_.max_depth) {
    return Fail(Error::kUnsupportedFeature,
                "values nest deeper than " + std::to_string(options_.max_depth), where_,
                crate::Payload(rep));
  }
  // Each value decoded costs a Value, whether or not its data was decoded before: values that
  // many dictionary entries share cannot multiply the work without bound.
  const Cursor at{crate::Payload(rep), file_.size(), where_};
  if (!Limit(at, sizeof(Value), "the values")) return false;
  const Type type = crate::TypeOf(rep);
  TypeLayout layout;
  if (LayoutOf(type, &layout)) {
    if (rep & crate::kArrayBit) return Array(rep, layout, out);
    if (rep & crate::kInlinedBit) return Inlined(rep, layout, out);
    Prepare(layout, false, out);
    Cursor c;
    return At(crate::Payload(rep), &c) && Elements(c, layout, 1, out);
  }
  Cursor c;
  switch (type) {
    case Type::kDictionary:
      return Dictionary(rep, out, depth);
    case Type::kTokenVector:
      return At(crate::Payload(rep), &c) && Vector(c, ValueType::kToken, out);
    case Type::kStringVector:
      return At(crate::Payload(rep), &c) && Vector(c, ValueType::kString, out);
    case Type::kPathVector:
      return At(crate::Payload(rep), &c) && Vector(c, ValueType::kPath, out);
    case Type::kDoubleVector:
      return At(crate::Payload(rep), &c) && Vector(c, ValueType::kDouble, out);
    case Type::kValueBlock:
      *out = Value{};
      out->blocked = true;
      return true;
    default:
      return Fail(Error::kUnsupportedFeature, "a value of crate type " + std::to_string(int(type)),
                  where_, crate::Payload(rep));
  }
}

bool CrateReader::ListOpValue(uint64_t rep, ValueType element, ListOp* out) {
  Cursor c;
  uint8_t header = 0;
  if (!At(crate::Payload(rep), &c) || !Get(c, &header)) return false;
  if (header & crate::kListOpIsExplicit) out->written |= 1u << unsigned(ListOpKind::kExplicit);
  for (const auto& [bit, kind] : crate::kListOpLists) {
    if (!(header & bit)) continue;
    Value items;
    if (!Vector(c, element, &items)) return false;
    out->Items(kind) = std::get<std::vector<std::string>>(std::move(items.data));
    out->written |= uint8_t(1u << unsigned(kind));
  }
  return true;
}

bool CrateReader::TimeSamplesValue(uint64_t rep, std::vector<TimeSample>* out) {
  // An offset from itself to the times' ValueRep; right after that ValueRep, an offset from
  // itself to the values: their count, then a ValueRep each.
  Cursor c;
  int64_t offset = 0;
  if (!At(crate::Payload(rep), &c) || !Get(c, &offset)) return false;
  if (offset < 8) return Invalid(c, "time samples whose times' offset points backwards");
  c.pos = crate::Payload(rep) + uint64_t(offset);
  uint64_t times_rep = 0;
  Value times;
  if (!Get(c, &times_rep) || !Unpack(times_rep, &times, 1)) return false;
  if (times.doubles().size() != times.size() || times.components != 1) {
    return Invalid(c, "time sample times that are not doubles");
  }
  const uint64_t from = c.pos;
  if (!Get(c, &offset)) return false;
  if (offset < 8) return Invalid(c, "time samples whose values' offset points backwards");
  Cursor v;
  uint64_t count = 0;
  if (!At(from + uint64_t(offset), &v) || !Get(v, &count)) return false;
  if (count != times.size())
    return Invalid(v, std::to_string(count) + " time sample values for " +
                          std::to_string(times.size()) + " times");
  if (!Count(v, count, 8, "time sample values")) return false;
  out->resize(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t value_rep = 0;
    if (!Get(v, &value_rep)) return false;
    (*out)[i].time = times.doubles()[i];
    if (!Unpack(value_rep, &(*out)[i].value, 1)) return false;
  }
  std::stable_sort(out->begin(), out->end(),
                   [](const TimeSample& a, const TimeSample& b) { return a.time < b.time; });
  return true;
}

bool CrateReader::EnumValue(uint64_t rep, Type type, uint32_t count, uint32_t* out) {
  const Cursor c{crate::Payload(rep), crate::Payload(rep), where_};
  if (crate::TypeOf(rep) != type || !(rep & crate::kInlinedBit) || crate::Payload(rep) >= count) {
    return Invalid(c, "a malformed specifier or variability");
  }
  *out = uint32_t(crate::Payload(rep));
  return true;
}

bool CrateReader::VariantSelections(uint64_t rep, std::vector<VariantSelection>* out) {
  if (crate::TypeOf(rep) != Type::kVariantSelectionMap || (rep & crate::kInlinedBit) ||
      (rep & crate::kArrayBit)) {
    return Fail(Error::kWrongType, "'variantSelection' is not a variant selection map", where_,
                crate::Payload(rep));
  }
  Cursor c;
  uint64_t count = 0;
  if (!At(crate::Payload(rep), &c) || !Get(c, &count) || !Count(c, count, 8, "selections")) {
    return false;
  }
  out->clear();
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t set = 0, variant = 0;
    VariantSelection& s = out->emplace_back();
    if (!Get(c, &set) || !Get(c, &variant) || !StringAt(set, &s.set, c) ||
        !StringAt(variant, &s.variant, c)) {
      return false;
    }
    if (!IsIdentifier(s.set) || (!s.variant.empty() && !IsVariantName(s.variant))) {
      return Fail(Error::kInvalidValue,
                  "variantSelection: '" + Excerpt(s.set) + "' = '" + Excerpt(s.variant) +
                      "' is not a variant set's name and a variant's (or \"\")",
                  where_, crate::Payload(rep));
    }
  }
  // By set name, each set once, as the text reader keeps them (OpenUSD writes them so).
  std::stable_sort(
      out->begin(), out->end(),
      [](const VariantSelection& a, const VariantSelection& b) { return a.set < b.set; });
  out->erase(std::unique(out->begin(), out->end(),
                         [](const VariantSelection& a, const VariantSelection& b) {
                           return a.set == b.set;
                         }),
             out->end());
  return true;
}

bool CrateReader::Names(uint64_t rep, std::vector<std::string>* out) {
  Value v;
  if (!Unpack(rep, &v, 1)) return false;
  if (v.type != ValueType::kToken || !v.array) {
    return Fail(Error::kInvalidUsdc, "a list of names that is not a token vector", where_,
                crate::Payload(rep));
  }
  *out = std::get<std::vector<std::string>>(std::move(v.data));
  return true;
}

Fields CrateReader::FieldsOf(const Spec& spec) {
  Fields out;
  for (size_t i = spec.fieldset; i < fieldsets_.size() && fieldsets_[i] != ~0u; ++i) {
    const Field& f = fields_[fieldsets_[i]];
    out.emplace_back(tokens_[f.token], f.rep);
  }
  return out;
}

// The items' type of a list op of tokens, strings or paths; false for any other type.
bool ListOpOf(Type type, ValueType* element) {
  if (type != Type::kTokenListOp && type != Type::kStringListOp && type != Type::kPathListOp) {
    return false;
  }
  *element = type == Type::kTokenListOp    ? ValueType::kToken
             : type == Type::kStringListOp ? ValueType::kString
                                           : ValueType::kPath;
  return true;
}

// The composition arcs sinew does not compose, which a flattened layer has none of.
bool CrateReader::Refused(std::string_view key, uint64_t rep) {
  // (Variant sets, inherits and specializes are composed on prims and variants only: PrimFields
  // reads them first.)
  const bool arc = key == "inheritPaths" || key == "specializes" || key == "relocates" ||
                   key == "layerRelocates" || key == "variantSetNames" || key == "variantSelection";
  if (!arc) return false;
  // An empty list is no arc (writers leave empty subLayers behind).
  const Type type = crate::TypeOf(rep);
  if (ValueType element; ListOpOf(type, &element)) {
    ListOp op;
    bool empty = ListOpValue(rep, element, &op);
    for (unsigned k = 0; k <= unsigned(ListOpKind::kReorder) && empty; ++k) {
      empty = op.Items(ListOpKind(k)).empty();
    }
    if (empty) return false;
  } else if (TypeLayout layout; LayoutOf(type, &layout) || type == Type::kTokenVector ||
                                type == Type::kStringVector || type == Type::kPathVector) {
    Value v;
    if (Unpack(rep, &v, 1) && v.size() == 0) return false;
  }
  if (error_.code == Error::kNone) {
    Fail(Error::kUnsupportedFeature,
         "composition arc '" + std::string(key) +
             "': sinew composes sublayers, references, payloads, variant sets, inherits and "
             "specializes only "
             "(usdcat --flatten writes a layer without arcs)",
         where_, crate::Payload(rep));
  }
  return true;
}

bool CrateReader::Generic(std::string_view key, uint64_t rep, Metadata* metadata) {
  const Type type = crate::TypeOf(rep);
  if (ValueType element; ListOpOf(type, &element)) {
    ListOp op;
    if (!ListOpValue(rep, element, &op)) return false;
    for (unsigned k = 0; k <= unsigned(ListOpKind::kReorder); ++k) {
      if (!op.Has(ListOpKind(k))) continue;
      MetadataEntry e{std::string(key), ListOpKind(k), {}, 0};
      e.value.type = element;
      e.value.array = true;
      e.value.data = op.Items(ListOpKind(k));
      metadata->entries.push_back(std::move(e));
    }
    return true;
  }
  TypeLayout layout;
  const bool known = LayoutOf(type, &layout) || type == Type::kDictionary ||
                     type == Type::kTokenVector || type == Type::kStringVector ||
                     type == Type::kPathVector || type == Type::kDoubleVector ||
                     type == Type::kValueBlock;
  if (!known) return true;  // a kind of metadata nothing in sinew reads (layer offsets, ...)
  MetadataEntry e{std::string(key), ListOpKind::kExplicit, {}, 0};
  if (!Unpack(rep, &e.value, 1)) return false;
  metadata->entries.push_back(std::move(e));
  return true;
}

// A single number of a named field.
bool Number(const Value& v, double* out) {
  const std::optional<double> d = v.AsDouble();
  if (!d) return false;
  *out = *d;
  return true;
}

bool CrateReader::LayerFields(const Fields& fields, Layer* layer,
                              std::vector<std::string>* children) {
  std::vector<std::string> sub_layers;
  std::vector<LayerOffset> offsets;
  for (const auto& [key, rep] : fields) {
    if (key == "subLayers") {
      Value v;
      if (!Unpack(rep, &v, 1)) return false;
      if (v.type != ValueType::kString && v.type != ValueType::kAsset && v.size() != 0) {
        return Fail(Error::kWrongType, "'subLayers' is not a list of strings", where_,
                    crate::Payload(rep));
      }
      sub_layers.assign(v.strings().begin(), v.strings().end());
      continue;
    }
    if (key == "subLayerOffsets") {
      if (!SubLayerOffsets(rep, &offsets)) return false;
      continue;
    }
    if (Refused(key, rep)) return false;
    if (key == "primChildren") {
      if (!Names(rep, children)) return false;
      continue;
    }
    if (key == "primOrder") {
      if (!Names(rep, &layer->root_order)) return false;
      continue;
    }
    std::optional<double>* number = key == "timeCodesPerSecond" ? &layer->time_codes_per_second
                                    : key == "framesPerSecond"  ? &layer->frames_per_second
                                    : key == "startTimeCode"    ? &layer->start_time_code
                                    : key == "endTimeCode"      ? &layer->end_time_code
                                    : key == "metersPerUnit"    ? &layer->meters_per_unit
                                                                : nullptr;
    std::string* text = key == "upAxis"          ? &layer->up_axis
                        : key == "defaultPrim"   ? &layer->default_prim
                        : key == "documentation" ? &layer->doc
                                                 : nullptr;
    if (number || text) {
      Value v;
      if (!Unpack(rep, &v, 1)) return false;
      double d = 0;
      if (number && Number(v, &d)) {
        *number = d;
      } else if (text && v.strings().size() == 1) {
        *text = v.strings()[0];
      } else {
        return Fail(Error::kWrongType,
                    "layer metadata '" + std::string(key) + "' of the wrong type", where_,
                    crate::Payload(rep));
      }
      continue;
    }
    if (!Generic(key, rep, &layer->metadata)) return false;
  }
  // Sdf keeps an offset per sublayer (none written: all identity).
  if (!offsets.empty() && offsets.size() != sub_layers.size()) {
    return Fail(Error::kInvalidUsdc,
                std::to_string(offsets.size()) + " subLayerOffsets for " +
                    std::to_string(sub_layers.size()) + " subLayers",
                where_, 0);
  }
  for (size_t i = 0; i < sub_layers.size(); ++i) {
    if (sub_layers[i].empty())
      return Fail(Error::kInvalidValue, "an empty sublayer path", where_, 0);
    layer->sub_layers.push_back({sub_layers[i], offsets.empty() ? LayerOffset{} : offsets[i], 0});
  }
  return true;
}

bool CrateReader::PrimFields(const Fields& fields, Prim* prim, std::vector<std::string>* children,
                             std::vector<std::string>* properties) {
  for (const auto& [key, rep] : fields) {
    if (key == "references" || key == "payload") {
      const bool payload = key == "payload";
      if (!ReferenceListValue(rep, payload, payload ? &prim->payloads : &prim->references)) {
        return false;
      }
      continue;
    }
    if (key == "variantSetNames") {
      ListOp& sets = prim->MakeVariants().sets;
      ValueType element = ValueType::kString;
      if (!ListOpOf(crate::TypeOf(rep), &element) || element == ValueType::kPath) {
        return Fail(Error::kWrongType, "'variantSetNames' is not a list op of strings", where_,
                    crate::Payload(rep));
      }
      if (!ListOpValue(rep, element, &sets)) return false;
      for (unsigned k = 0; k <= unsigned(ListOpKind::kReorder); ++k) {
        for (const std::string& set : sets.Items(ListOpKind(k))) {
          if (!IsIdentifier(set)) {
            return Fail(Error::kInvalidValue,
                        "variant set name '" + Excerpt(set) + "' is not an identifier", where_,
                        crate::Payload(rep));
          }
        }
      }
    } else if (key == "variantSelection") {
      if (!VariantSelections(rep, &prim->MakeVariants().selections)) return false;
    } else if (key == "variantSetChildren") {
      std::vector<std::string> sets;  // the variant sets' specs say as much
      if (!Names(rep, &sets)) return false;
    } else if (key == "inheritPaths" || key == "specializes") {
      if (crate::TypeOf(rep) != Type::kPathListOp) {
        return Fail(Error::kWrongType, "'" + std::string(key) + "' is not a list op of paths",
                    where_, crate::Payload(rep));
      }
      std::shared_ptr<ListOp>& list = key == "inheritPaths" ? prim->inherits : prim->specializes;
      list = std::make_shared<ListOp>();
      if (!ListOpValue(rep, ValueType::kPath, list.get())) return false;
      for (unsigned k = 0; k <= unsigned(ListOpKind::kReorder); ++k) {
        for (const std::string& path : list->Items(ListOpKind(k))) {
          if (!path.starts_with('/') || path == "/" ||
              path.find_first_of(".{}[]") != std::string::npos) {
            return Fail(Error::kInvalidValue,
                        std::string(key) + ": <" + Excerpt(path) + "> is not an absolute prim path",
                        where_, crate::Payload(rep));
          }
        }
      }
    } else if (Refused(key, rep)) {
      return false;
    } else if (key == "specifier") {
      uint32_t s = 0;
      if (!EnumValue(rep, Type::kSpecifier, 3, &s)) return false;
      prim->specifier = Specifier(s);
    } else if (key == "primChildren") {
      if (!Names(rep, children)) return false;
    } else if (key == "properties") {
      if (!Names(rep, properties)) return false;
    } else if (key == "primOrder") {
      if (!Names(rep, &prim->child_order)) return false;
    } else if (key == "propertyOrder") {
      if (!Names(rep, &prim->property_order)) return false;
    } else if (key == "apiSchemas" && crate::TypeOf(rep) == Type::kTokenListOp) {
      if (!ListOpValue(rep, ValueType::kToken, &prim->api_schemas)) return false;
    } else if (key == "typeName" || key == "kind" || key == "documentation") {
      Value v;
      if (!Unpack(rep, &v, 1)) return false;
      if (v.strings().size() != 1)
        return Fail(Error::kWrongType, "'" + std::string(key) + "' is not a token or string",
                    where_, crate::Payload(rep));
      (key == "typeName" ? prim->type_name
       : key == "kind"   ? prim->kind
                         : prim->doc) = v.strings()[0];
    } else if (key == "active" || key == "instanceable") {
      Value v;
      if (!Unpack(rep, &v, 1)) return false;
      if (v.type != ValueType::kBool || v.ints().size() != 1)
        return Fail(Error::kWrongType, "'" + std::string(key) + "' is not a bool", where_,
                    crate::Payload(rep));
      (key == "active" ? prim->active : prim->instanceable) = v.ints()[0] != 0;
    } else if (!Generic(key, rep, &prim->metadata)) {
      return false;
    }
  }
  return true;
}

bool CrateReader::Typed(const Attribute& attribute, Value* value) {
  if (value->blocked) {  // typed as the attribute, as the text reader types `None`
    Prepare({attribute.type, 0}, attribute.array, value);
    value->blocked = true;
    return true;
  }
  const ValueTypeInfo& declared = Info(attribute.type);
  const ValueTypeInfo& stored = Info(value->type);
  const bool same = StorageOf(declared.scalar) == StorageOf(stored.scalar) &&
                    declared.components == stored.components && declared.rows == stored.rows &&
                    (declared.scalar == Scalar::kHalf) == (stored.scalar == Scalar::kHalf) &&
                    IsQuaternion(attribute.type) == IsQuaternion(value->type) &&
                    value->array == attribute.array;
  if (!same) {
    return Fail(Error::kWrongType,
                "the value is a " + std::string(stored.name) + (value->array ? "[]" : "") +
                    ", its attribute a " + std::string(declared.name) +
                    (attribute.array ? "[]" : ""),
                where_, 0);
  }
  value->type = attribute.type;
  return true;
}

bool CrateReader::AttributeFields(const Fields& fields, Attribute* attribute) {
  // The type first: the values are typed by it.
  bool typed = false;
  for (const auto& [key, rep] : fields) {
    if (key != "typeName") continue;
    Value v;
    if (!Unpack(rep, &v, 1)) return false;
    std::string_view name = v.AsString();
    attribute->array = name.size() > 2 && name.substr(name.size() - 2) == "[]";
    if (attribute->array) name.remove_suffix(2);
    const std::optional<ValueType> type = FindValueType(name);
    if (!type || *type == ValueType::kPath || *type == ValueType::kDictionary) {
      return Fail(Error::kUnsupportedFeature,
                  "unknown value type '" + std::string(v.AsString()) + "'", where_, 0);
    }
    attribute->type = *type;
    typed = true;
  }
  if (!typed) return Fail(Error::kInvalidUsdc, "an attribute without a typeName", where_, 0);
  for (const auto& [key, rep] : fields) {
    if (key == "typeName") continue;
    if (Refused(key, rep)) return false;
    if (key == "default") {
      attribute->default_value.emplace();
      if (!Unpack(rep, &*attribute->default_value, 1) ||
          !Typed(*attribute, &*attribute->default_value))
        return false;
    } else if (key == "timeSamples") {
      if (crate::TypeOf(rep) != Type::kTimeSamples)
        return Fail(Error::kInvalidUsdc, "timeSamples that are not time samples", where_,
                    crate::Payload(rep));
      attribute->has_time_samples = true;
      if (!TimeSamplesValue(rep, &attribute->time_samples)) return false;
      for (TimeSample& s : attribute->time_samples) {
        if (!Typed(*attribute, &s.value)) return false;
      }
    } else if (key == "variability") {
      uint32_t v = 0;
      if (!EnumValue(rep, Type::kVariability, 3, &v)) return false;
      attribute->variability = Variability(v);
    } else if (key == "custom" || key == "elementSize" || key == "weight" ||
               key == "interpolation" || key == "documentation") {
      Value v;
      if (!Unpack(rep, &v, 1)) return false;
      double d = 0;
      if (key == "custom" && Number(v, &d)) {
        attribute->custom = d != 0;
      } else if (key == "elementSize" && v.type == ValueType::kInt && v.ints().size() == 1) {
        attribute->element_size = v.ints()[0];
      } else if (key == "weight" && v.floats().size() == 1) {
        attribute->weight = v.floats()[0];
      } else if ((key == "interpolation" || key == "documentation") && v.strings().size() == 1) {
        (key == "interpolation" ? attribute->interpolation : attribute->doc) = v.strings()[0];
      } else {
        return Fail(Error::kWrongType, "'" + std::string(key) + "' of the wrong type", where_,
                    crate::Payload(rep));
      }
    } else if (key == "spline") {
      return Fail(Error::kUnsupportedFeature, "attribute splines ('spline')", where_,
                  crate::Payload(rep));
    } else if (key == "connectionPaths") {
      if (!ListOpValue(rep, ValueType::kPath, &attribute->connections)) return false;
    } else if (key == "connectionChildren" || key == "targetChildren") {
      continue;  // the paths of connection specs, which hold nothing the model keeps
    } else if (!Generic(key, rep, &attribute->metadata)) {
      return false;
    }
  }
  return true;
}

bool CrateReader::RelationshipFields(const Fields& fields, Relationship* relationship) {
  for (const auto& [key, rep] : fields) {
    if (Refused(key, rep)) return false;
    if (key == "targetPaths") {
      if (crate::TypeOf(rep) != Type::kPathListOp)
        return Fail(Error::kInvalidUsdc, "targetPaths that are not a path list op", where_,
                    crate::Payload(rep));
      if (!ListOpValue(rep, ValueType::kPath, &relationship->targets)) return false;
    } else if (key == "variability") {
      uint32_t v = 0;
      if (!EnumValue(rep, Type::kVariability, 3, &v)) return false;
      relationship->variability = Variability(v);
    } else if (key == "custom" || key == "documentation") {
      Value v;
      if (!Unpack(rep, &v, 1)) return false;
      double d = 0;
      if (key == "custom" && Number(v, &d)) {
        relationship->custom = d != 0;
      } else if (key == "documentation" && v.strings().size() == 1) {
        relationship->doc = v.strings()[0];
      } else {
        return Fail(Error::kWrongType, "'" + std::string(key) + "' of the wrong type", where_,
                    crate::Payload(rep));
      }
    } else if (key == "targetChildren") {
      continue;
    } else if (!Generic(key, rep, &relationship->metadata)) {
      return false;
    }
  }
  return true;
}

// `names` first, in that order, then the rest in the order they come.
template <typename Item, typename NameOf>
void OrderBy(std::vector<Item>* items, const std::vector<std::string>& names, NameOf name_of) {
  std::unordered_map<std::string_view, size_t> rank;
  for (size_t i = 0; i < names.size(); ++i) rank.emplace(names[i], i);
  std::stable_sort(items->begin(), items->end(), [&](const Item& a, const Item& b) {
    const auto ra = rank.find(name_of(a)), rb = rank.find(name_of(b));
    const size_t ka = ra == rank.end() ? names.size() : ra->second;
    const size_t kb = rb == rank.end() ? names.size() : rb->second;
    return ka < kb;
  });
}

bool CrateReader::BuildLayer(Layer* layer) {
  // Specs by path; each prim's (and the pseudo-root's) child prims and properties.
  std::vector<int64_t> spec_of(paths_.size(), -1);
  int64_t root = -1;
  for (size_t i = 0; i < specs_.size(); ++i) {
    const Spec& s = specs_[i];
    where_ = paths_[s.path].path;
    if (spec_of[s.path] >= 0) return Fail(Error::kInvalidUsdc, "two specs for one path", where_, 0);
    spec_of[s.path] = int64_t(i);
    if (s.type == SpecType::kPseudoRoot) {
      if (paths_[s.path].parent >= 0)
        return Fail(Error::kInvalidUsdc, "a pseudo-root spec below the root", where_, 0);
      root = int64_t(i);
    }
  }
  if (root < 0) return Fail(Error::kInvalidUsdc, "no pseudo-root spec", "SPECS", 0);
  std::vector<std::vector<uint32_t>> child_prims(specs_.size()), props(specs_.size()),
      variants(specs_.size());
  for (size_t i = 0; i < specs_.size(); ++i) {
    const Spec& s = specs_[i];
    const PathEntry& p = paths_[s.path];
    const bool prim = s.type == SpecType::kPrim, variant = s.type == SpecType::kVariant,
               property = s.type == SpecType::kAttribute || s.type == SpecType::kRelationship;
    // Target and connection specs hold nothing the model keeps; a variant set's lists its
    // variants, which are specs of their own.
    if (!prim && !property && !variant) continue;
    where_ = p.path;
    const int64_t parent = p.parent >= 0 ? spec_of[size_t(p.parent)] : -1;
    const SpecType above = parent >= 0 ? specs_[size_t(parent)].type : SpecType::kUnknown;
    const bool in_prim = above == SpecType::kPrim || above == SpecType::kVariant;
    const bool selection = p.name.starts_with('{');
    std::string_view set, name;
    const bool parent_ok =
        variant ? in_prim && selection && VariantElement(p.name, &set, &name) && !name.empty()
                : !selection && (in_prim || above == SpecType::kPseudoRoot) &&
                      (!prim || IsIdentifier(p.name));
    if (!parent_ok || p.property != property || (property && parent == root)) {
      return Fail(Error::kInvalidUsdc,
                  std::string(prim      ? "a prim"
                              : variant ? "a variant"
                                        : "a property") +
                      " spec whose path has no prim or root above it",
                  where_, 0);
    }
    (prim ? child_prims : variant ? variants : props)[size_t(parent)].push_back(uint32_t(i));
  }
  where_ = "/";
  std::vector<std::string> names;
  if (!LayerFields(FieldsOf(specs_[size_t(root)]), layer, &names)) return false;
  const auto name_of = [&](uint32_t spec) -> std::string_view {
    return paths_[specs_[spec].path].name;
  };
  OrderBy(&child_prims[size_t(root)], names, name_of);
  // Depth first, children in order, then the variants: a stack of (spec, parent prim index,
  // depth).
  struct Pending {
    uint32_t spec;
    int32_t parent;
    uint32_t depth;
  };
  std::vector<Pending> stack;
  for (auto it = child_prims[size_t(root)].rbegin(); it != child_prims[size_t(root)].rend(); ++it)
    stack.push_back({*it, -1, 1});
  while (!stack.empty()) {
    const Pending next = stack.back();
    stack.pop_back();
    const PathEntry& p = paths_[specs_[next.spec].path];
    where_ = p.path;
    if (next.depth > options_.max_depth) {
      return Fail(Error::kUnsupportedFeature,
                  "prims nest deeper than " + std::to_string(options_.max_depth), where_, 0);
    }
    const uint32_t index = uint32_t(layer->prims.size());
    layer->prims.emplace_back();
    Prim& prim = layer->prims.back();
    prim.name = std::string(p.name);
    prim.path = p.path;
    prim.parent = next.parent;
    if (specs_[next.spec].type == SpecType::kVariant) {
      // A variant's contents: an `over` (unless it says otherwise), listed in its prim's variants.
      std::string_view set, name;
      VariantElement(p.name, &set, &name);
      prim.name = std::string(name);
      prim.specifier = Specifier::kOver;
      layer->prims[size_t(next.parent)].MakeVariants().contents.push_back(index);
    } else {
      (next.parent < 0 ? layer->roots : layer->prims[size_t(next.parent)].children)
          .push_back(index);
    }
    if (!layer->prim_index.emplace(prim.path, index).second) {
      return Fail(Error::kInvalidUsdc, "two prims at one path", where_, 0);
    }
    std::vector<std::string> children, properties;
    if (!PrimFields(FieldsOf(specs_[next.spec]), &layer->prims[index], &children, &properties))
      return false;
    std::vector<uint32_t>& own = props[next.spec];
    OrderBy(&own, properties, name_of);
    std::unordered_map<std::string_view, uint32_t> seen;
    for (uint32_t spec : own) {
      if (!seen.emplace(name_of(spec), spec).second) {
        return Fail(Error::kInvalidUsdc, "two properties of one name",
                    paths_[specs_[spec].path].path, 0);
      }
    }
    for (uint32_t spec : own) {
      where_ = paths_[specs_[spec].path].path;
      const Fields fields = FieldsOf(specs_[spec]);
      Prim& at = layer->prims[index];
      if (specs_[spec].type == SpecType::kAttribute) {
        Attribute a;
        a.name = std::string(name_of(spec));
        if (!AttributeFields(fields, &a)) return false;
        at.attributes.push_back(std::move(a));
      } else {
        Relationship r;
        r.name = std::string(name_of(spec));
        if (!RelationshipFields(fields, &r)) return false;
        at.relationships.push_back(std::move(r));
      }
    }
    for (auto it = variants[next.spec].rbegin(); it != variants[next.spec].rend(); ++it)
      stack.push_back({*it, int32_t(index), next.depth + 1});
    std::vector<uint32_t>& kids = child_prims[next.spec];
    OrderBy(&kids, children, name_of);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      stack.push_back({*it, int32_t(index), next.depth + 1});
  }
  return true;
}

bool CrateReader::Read(Layer* layer) {
  return Bootstrap() && Toc() && Tokens() && Strings() && FieldsSection() && FieldSets() &&
         Paths() && Specs() && BuildLayer(layer);
}

}  // namespace

Result<Layer> ReadUsdc(std::span<const uint8_t> bytes, const UsdcOptions& options) {
  CrateReader reader(bytes, options);
  Layer layer;
  if (!reader.Read(&layer)) return Status(std::move(reader.error()));
  layer.IndexProperties();
  return layer;
}

}  // namespace sinew::loader::usd
