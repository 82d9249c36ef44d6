#include "usd/crate_writer.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "usd/crate_format.h"
#include "usd/integer_coding.h"
#include "usd/lz4_blocks.h"
#include "usd/value.h"

namespace sinew::loader::usd {
namespace {

using crate::SpecType;
using crate::Type;

// The crate type of a model type (roles collapse onto their vectors; a timecode is a TimeCode,
// which makes the file 0.9.0) and whether its elements are GfVec/GfMatrix numbers.
Type CrateType(ValueType type) {
  switch (type) {
    case ValueType::kBool:
      return Type::kBool;
    case ValueType::kUChar:
      return Type::kUChar;
    case ValueType::kInt:
      return Type::kInt;
    case ValueType::kUInt:
      return Type::kUInt;
    case ValueType::kInt64:
      return Type::kInt64;
    case ValueType::kUInt64:
      return Type::kUInt64;
    case ValueType::kHalf:
      return Type::kHalf;
    case ValueType::kFloat:
      return Type::kFloat;
    case ValueType::kDouble:
      return Type::kDouble;
    case ValueType::kTimeCode:
      return Type::kTimeCode;
    case ValueType::kString:
      return Type::kString;
    case ValueType::kToken:
      return Type::kToken;
    case ValueType::kAsset:
      return Type::kAssetPath;
    case ValueType::kQuath:
      return Type::kQuath;
    case ValueType::kQuatf:
      return Type::kQuatf;
    case ValueType::kQuatd:
      return Type::kQuatd;
    case ValueType::kMatrix2d:
      return Type::kMatrix2d;
    case ValueType::kMatrix3d:
      return Type::kMatrix3d;
    case ValueType::kMatrix4d:
    case ValueType::kFrame4d:
      return Type::kMatrix4d;
    case ValueType::kDictionary:
      return Type::kDictionary;
    case ValueType::kPath:
      return Type::kPathVector;
    default:
      break;
  }
  const ValueTypeInfo& info = Info(type);
  static constexpr Type kVec[4][3] = {{Type::kVec2i, Type::kVec3i, Type::kVec4i},
                                      {Type::kVec2h, Type::kVec3h, Type::kVec4h},
                                      {Type::kVec2f, Type::kVec3f, Type::kVec4f},
                                      {Type::kVec2d, Type::kVec3d, Type::kVec4d}};
  const int row = info.scalar == Scalar::kInt     ? 0
                  : info.scalar == Scalar::kHalf  ? 1
                  : info.scalar == Scalar::kFloat ? 2
                                                  : 3;
  return kVec[row][info.components - 2];
}

bool IsQuaternion(ValueType type) {
  return type == ValueType::kQuath || type == ValueType::kQuatf || type == ValueType::kQuatd;
}

// USD inlines a vector whose components are all small integers (int8s, one a byte) and a matrix
// that is diagonal with small integers there (its diagonal as int8s): the payload, or false.
bool SmallIntegers(const Value& value, uint64_t* payload) {
  const ValueTypeInfo& info = Info(value.type);
  if (IsQuaternion(value.type) || value.array || info.scalar == Scalar::kString ||
      (info.components < 2 && info.rows == 0)) {
    return false;
  }
  std::vector<double> numbers;
  for (int32_t v : value.ints()) numbers.push_back(v);
  for (float v : value.floats()) numbers.push_back(v);
  for (double v : value.doubles()) numbers.push_back(v);
  const auto small = [](double v) { return v == std::trunc(v) && v >= -128 && v <= 127; };
  uint8_t bytes[8] = {};
  if (info.rows) {
    const size_t n = info.rows;
    if (numbers.size() != n * n || n > 4) return false;
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c) {
        const double v = numbers[r * n + c];
        if ((r != c && v != 0) || !small(v)) return false;
      }
      bytes[r] = uint8_t(int8_t(numbers[r * n + r]));
    }
  } else {
    if (numbers.size() != info.components || numbers.size() > 4) return false;
    for (size_t k = 0; k < numbers.size(); ++k) {
      if (!small(numbers[k])) return false;
      bytes[k] = uint8_t(int8_t(numbers[k]));
    }
  }
  std::memcpy(payload, bytes, 8);
  return true;
}

class CrateWriter {
 public:
  bool Write(const Layer& layer);
  std::vector<uint8_t>& bytes() { return out_; }
  ErrorInfo& error() { return error_; }

 private:
  template <typename T>
  void Put(T v) {
    const size_t at = out_.size();
    out_.resize(at + sizeof(T));
    std::memcpy(out_.data() + at, &v, sizeof(T));
  }
  void PutBytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void Align(size_t n) {
    while (out_.size() % n) out_.push_back(0);
  }
  // A count of integers: uint64 compressed size, then the LZ4-compressed integer coding.
  template <typename T>
  void CompressedInts(std::span<const T> values) {
    const std::vector<uint8_t> compressed = Lz4Compress(EncodeIntegers(values));
    Put<uint64_t>(compressed.size());
    PutBytes(compressed);
  }

  uint32_t Token(std::string_view text);
  uint32_t String(std::string_view text);
  uint32_t Path(const std::string& path);
  // The index of the empty path (a reference to a layer's defaultPrim): an entry of the paths
  // table that the PATHS tree does not reach, as USD writes it.
  uint32_t EmptyPath();
  void Field(std::string_view name, uint64_t rep) { fields_.emplace_back(Token(name), rep); }

  // Values: each returns its ValueRep, its data (if any) appended to the file.
  uint64_t TokenRep(std::string_view text) {
    return crate::MakeRep(Type::kToken, Token(text), crate::kInlinedBit);
  }
  uint64_t StringRep(std::string_view text) {
    return crate::MakeRep(Type::kString, String(text), crate::kInlinedBit);
  }
  uint64_t BoolRep(bool v) { return crate::MakeRep(Type::kBool, v ? 1 : 0, crate::kInlinedBit); }
  uint64_t IntRep(int32_t v) { return crate::MakeRep(Type::kInt, uint32_t(v), crate::kInlinedBit); }
  uint64_t FloatRep(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return crate::MakeRep(Type::kFloat, bits, crate::kInlinedBit);
  }
  uint64_t DoubleRep(double v);
  uint64_t NamesRep(const std::vector<std::string>& names);  // a TokenVector
  uint64_t ListOpRep(const ListOp& op, Type type);
  // A prim's references (ReferenceListOp) or payloads (PayloadListOp).
  uint64_t ReferenceListRep(const ReferenceList& list, bool payload);
  // The layer's sublayers: a StringVector of their paths and a LayerOffsetVector.
  uint64_t SubLayerPathsRep(const std::vector<SubLayer>& sub_layers);
  uint64_t SubLayerOffsetsRep(const std::vector<SubLayer>& sub_layers);
  uint64_t ValueRep(const Value& value);
  uint64_t ScalarRep(const Value& value, Type type);
  uint64_t ArrayRep(const Value& value, Type type);
  void Element(const Value& value, Type type, size_t element);
  uint64_t DictionaryRep(const Dictionary& dictionary);
  uint64_t VariantSelectionRep(const std::vector<VariantSelection>& selections);
  uint64_t TimeSamplesRep(const std::vector<TimeSample>& samples);
  void Generic(const Metadata& metadata);

  void AddSpec(const std::string& path, SpecType type) {
    specs_.push_back({Path(path), uint32_t(fieldsets_.size()), uint32_t(type)});
    for (size_t i = pending_; i < fields_.size(); ++i) fieldsets_.push_back(uint32_t(i));
    fieldsets_.push_back(~0u);
    pending_ = fields_.size();
  }
  void PrimSpec(const Layer& layer, const Prim& prim);
  void Sections();

  std::vector<uint8_t> out_;
  ErrorInfo error_;
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, uint32_t> token_index_;
  std::vector<uint32_t> strings_;
  std::unordered_map<std::string, uint32_t> string_index_;
  struct PathNode {
    int32_t parent = -1;
    uint32_t token = 0;
    bool property = false;
    std::vector<uint32_t> children;
  };
  std::vector<PathNode> paths_;
  std::unordered_map<std::string, uint32_t> path_index_;
  std::optional<uint32_t> empty_path_;
  std::vector<std::pair<uint32_t, uint64_t>> fields_;
  size_t pending_ = 0;  // the first field of the spec being built
  std::vector<uint32_t> fieldsets_;
  struct SpecEntry {
    uint32_t path, fieldset, type;
  };
  std::vector<SpecEntry> specs_;
  bool timecodes_ = false;  // a TimeCode value was written: the file is 0.9.0
};

uint32_t CrateWriter::Token(std::string_view text) {
  if (tokens_.empty()) {
    // Token 0 is never a property name: a property's path element is stored as a negative index.
    tokens_.emplace_back(";-)");
    token_index_.emplace(";-)", 0);
  }
  auto [it, added] = token_index_.emplace(std::string(text), uint32_t(tokens_.size()));
  if (added) tokens_.emplace_back(text);
  return it->second;
}

uint32_t CrateWriter::String(std::string_view text) {
  auto [it, added] = string_index_.emplace(std::string(text), uint32_t(strings_.size()));
  if (added) strings_.push_back(Token(text));
  return it->second;
}

uint32_t CrateWriter::Path(const std::string& path) {
  if (auto it = path_index_.find(path); it != path_index_.end()) return it->second;
  PathNode node;
  if (path.size() > 1 && path.back() == '}') {
    // A variant selection ("/A{lod=high}"): its element is the selection, braces and all, below
    // the prim (or variant) that holds it.
    const size_t brace = path.rfind('{');
    node.parent = int32_t(Path(path.substr(0, brace)));
    node.token = Token(std::string_view(path).substr(brace));
  } else if (path != "/") {
    // The model writes a variant's prims as "/A{lod=high}/Body"; the crate's element is "Body".
    const size_t slash = path.rfind('/'), dot = path.rfind('.'), brace = path.rfind('}');
    const size_t boundary = brace == std::string::npos ? slash : std::max(slash, brace);
    const bool property = dot != std::string::npos && dot > boundary;
    const size_t cut = property ? dot : slash;
    const std::string parent =
        property ? path.substr(0, cut) : (cut == 0 ? "/" : path.substr(0, cut));
    node.parent = int32_t(Path(parent));
    node.property = property;
    node.token = Token(std::string_view(path).substr(cut + 1));
  }
  const uint32_t index = uint32_t(paths_.size());
  if (node.parent >= 0) paths_[size_t(node.parent)].children.push_back(index);
  paths_.push_back(std::move(node));
  path_index_.emplace(path, index);
  return index;
}

uint32_t CrateWriter::EmptyPath() {
  if (!empty_path_) {
    Path("/");  // the root first: the tree starts at entry 0
    empty_path_ = uint32_t(paths_.size());
    paths_.emplace_back();  // no parent, no one's child: outside the tree
  }
  return *empty_path_;
}

uint64_t CrateWriter::ReferenceListRep(const ReferenceList& list, bool payload) {
  // As OpenUSD writes them, an explicit list of payloads that is empty (`payload = None`) or one
  // payload with an asset path is a single Payload value, the empty one for None.
  const std::vector<Reference>& only = list.explicit_items;
  if (payload && list.is_explicit &&
      (only.empty() || (only.size() == 1 && !only[0].asset.empty()))) {
    const Reference none;
    const Reference& r = only.empty() ? none : only[0];
    const uint32_t asset = String(r.asset), path = r.prim.empty() ? EmptyPath() : Path(r.prim);
    const uint64_t at = out_.size();
    Put(asset);
    Put(path);
    Put(r.time.offset);
    Put(r.time.scale);
    return crate::MakeRep(Type::kPayload, at);
  }
  uint8_t header = list.is_explicit ? crate::kListOpIsExplicit : 0;
  const std::pair<const std::vector<Reference>*, uint8_t> order[] = {
      {&list.explicit_items, crate::kListOpHasExplicit},
      {&list.added, crate::kListOpHasAdded},
      {&list.prepended, crate::kListOpHasPrepended},
      {&list.appended, crate::kListOpHasAppended},
      {&list.deleted, crate::kListOpHasDeleted}};
  // Indices first: strings and paths may not be added while the value is being written.
  struct Item {
    uint32_t asset, path;
    LayerOffset time;
  };
  std::vector<std::vector<Item>> lists;
  for (const auto& [items, bit] : order) {
    if (items->empty()) continue;
    header |= bit;
    lists.emplace_back();
    for (const Reference& r : *items) {
      lists.back().push_back(
          {String(r.asset), r.prim.empty() ? EmptyPath() : Path(r.prim), r.time});
    }
  }
  const uint64_t at = out_.size();
  Put(header);
  for (const std::vector<Item>& items : lists) {
    Put<uint64_t>(items.size());
    for (const Item& item : items) {
      Put(item.asset);
      Put(item.path);
      Put(item.time.offset);  // payloads too: the file is 0.8.0
      Put(item.time.scale);
      if (!payload) Put<uint64_t>(0);  // no custom data
    }
  }
  return crate::MakeRep(payload ? Type::kPayloadListOp : Type::kReferenceListOp, at);
}

uint64_t CrateWriter::SubLayerPathsRep(const std::vector<SubLayer>& sub_layers) {
  std::vector<uint32_t> strings;
  for (const SubLayer& s : sub_layers) strings.push_back(String(s.asset));
  const uint64_t at = out_.size();
  Put<uint64_t>(strings.size());
  for (const uint32_t i : strings) Put(i);
  return crate::MakeRep(Type::kStringVector, at);
}

uint64_t CrateWriter::SubLayerOffsetsRep(const std::vector<SubLayer>& sub_layers) {
  const uint64_t at = out_.size();
  Put<uint64_t>(sub_layers.size());
  for (const SubLayer& s : sub_layers) {
    Put(s.time.offset);
    Put(s.time.scale);
  }
  return crate::MakeRep(Type::kLayerOffsetVector, at);
}

uint64_t CrateWriter::DoubleRep(double v) {
  const bool in_range = std::isfinite(v) && std::fabs(v) <= double(FLT_MAX);
  const float f = in_range ? float(v) : 0.0f;
  if (in_range && double(f) == v) {  // a float holds it: inlined as that float
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return crate::MakeRep(Type::kDouble, bits, crate::kInlinedBit);
  }
  Align(8);
  const uint64_t at = out_.size();
  Put(v);
  return crate::MakeRep(Type::kDouble, at);
}

uint64_t CrateWriter::NamesRep(const std::vector<std::string>& names) {
  std::vector<uint32_t> indices;
  for (const std::string& n : names) indices.push_back(Token(n));
  Align(8);
  const uint64_t at = out_.size();
  Put<uint64_t>(indices.size());
  for (uint32_t i : indices) Put(i);
  return crate::MakeRep(Type::kTokenVector, at);
}

uint64_t CrateWriter::ListOpRep(const ListOp& op, Type type) {
  const auto index = [&](const std::string& item) {
    return type == Type::kPathListOp    ? Path(item)
           : type == Type::kTokenListOp ? Token(item)
                                        : String(item);
  };
  std::vector<std::vector<uint32_t>> lists;
  uint8_t header = op.Has(ListOpKind::kExplicit) ? crate::kListOpIsExplicit : 0;
  for (const auto& [bit, kind] : crate::kListOpLists) {
    const std::vector<std::string>& items = op.Items(kind);
    // An explicit empty list is the explicit bit alone; other empty lists are not written.
    if (items.empty()) continue;
    header |= bit;
    lists.emplace_back();
    for (const std::string& item : items) lists.back().push_back(index(item));
  }
  const uint64_t at = out_.size();
  Put(header);
  for (const std::vector<uint32_t>& list : lists) {
    Put<uint64_t>(list.size());
    for (uint32_t i : list) Put(i);
  }
  return crate::MakeRep(type, at);
}

// One element's numbers as the crate stores them (quaternions imaginary part first).
void CrateWriter::Element(const Value& value, Type type, size_t element) {
  const size_t n = value.components;
  const size_t first = element * n;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = first + (IsQuaternion(value.type) ? (k + 1) % 4 : k);
    const double real = !value.doubles().empty()  ? value.doubles()[i]
                        : !value.floats().empty() ? double(value.floats()[i])
                                                  : 0.0;
    const int64_t integer = !value.ints().empty()     ? value.ints()[i]
                            : !value.int64s().empty() ? value.int64s()[i]
                                                      : 0;
    switch (type) {
      case Type::kBool:
      case Type::kUChar:
        Put(uint8_t(integer));
        break;
      case Type::kInt:
      case Type::kVec2i:
      case Type::kVec3i:
      case Type::kVec4i:
        Put(int32_t(integer));
        break;
      case Type::kUInt:
        Put(uint32_t(integer));
        break;
      case Type::kInt64:
      case Type::kUInt64:
        Put(integer);
        break;
      case Type::kHalf:
      case Type::kVec2h:
      case Type::kVec3h:
      case Type::kVec4h:
      case Type::kQuath:
        Put(FloatToHalf(float(real)));
        break;
      case Type::kFloat:
      case Type::kVec2f:
      case Type::kVec3f:
      case Type::kVec4f:
      case Type::kQuatf:
        Put(float(real));
        break;
      default:
        Put(real);
        break;
    }
  }
}

uint64_t CrateWriter::ScalarRep(const Value& value, Type type) {
  switch (type) {
    case Type::kToken:
      return TokenRep(value.AsString());
    case Type::kString:
      return StringRep(value.AsString());
    case Type::kAssetPath:
      return crate::MakeRep(Type::kAssetPath, Token(value.AsString()), crate::kInlinedBit);
    case Type::kDouble:
      return DoubleRep(value.AsDouble().value_or(0));
    case Type::kBool:
    case Type::kUChar:
    case Type::kInt:
    case Type::kUInt:
    case Type::kHalf:
    case Type::kFloat:
    case Type::kVec2h: {
      // Four bytes or fewer: the value's own bytes, inlined.
      const size_t at = out_.size();
      Element(value, type, 0);
      uint64_t payload = 0;
      std::memcpy(&payload, out_.data() + at, out_.size() - at);
      out_.resize(at);
      return crate::MakeRep(type, payload, crate::kInlinedBit);
    }
    default:
      break;
  }
  if (uint64_t payload = 0; SmallIntegers(value, &payload)) {
    return crate::MakeRep(type, payload, crate::kInlinedBit);
  }
  Align(8);
  const uint64_t at = out_.size();
  Element(value, type, 0);
  return crate::MakeRep(type, at);
}

uint64_t CrateWriter::ArrayRep(const Value& value, Type type) {
  const size_t count = value.size();
  if (count == 0) return crate::MakeRep(type, 0, crate::kArrayBit);
  Align(8);
  const uint64_t at = out_.size();
  Put<uint64_t>(count);
  const bool integers =
      type == Type::kInt || type == Type::kUInt || type == Type::kInt64 || type == Type::kUInt64;
  if (integers && count >= crate::kMinCompressedArraySize) {
    if (type == Type::kInt) {
      CompressedInts(value.ints());
    } else if (type == Type::kUInt) {
      std::vector<uint32_t> v(value.int64s().begin(), value.int64s().end());
      CompressedInts(std::span<const uint32_t>(v));
    } else {
      CompressedInts(value.int64s());
    }
    return crate::MakeRep(type, at, crate::kArrayBit | crate::kCompressedBit);
  }
  if (type == Type::kToken || type == Type::kString || type == Type::kAssetPath) {
    // Tokens by token index; strings and asset paths in arrays by string index.
    for (const std::string& s : value.strings()) Put(type == Type::kToken ? Token(s) : String(s));
  } else {
    for (size_t e = 0; e < count; ++e) Element(value, type, e);
  }
  return crate::MakeRep(type, at, crate::kArrayBit);
}

uint64_t CrateWriter::DictionaryRep(const Dictionary& dictionary) {
  // The entries' values first, then the dictionary: each entry's offset (8) reaches its ValueRep.
  std::vector<uint64_t> reps;
  for (const DictionaryEntry& e : dictionary) reps.push_back(ValueRep(e.value));
  Align(8);
  const uint64_t at = out_.size();
  Put<uint64_t>(dictionary.size());
  for (size_t i = 0; i < dictionary.size(); ++i) {
    Put(String(dictionary[i].key));
    Put<int64_t>(8);
    Put(reps[i]);
  }
  return crate::MakeRep(Type::kDictionary, at);
}

uint64_t CrateWriter::ValueRep(const Value& value) {
  if (value.blocked) return crate::MakeRep(Type::kValueBlock, 0, crate::kInlinedBit);
  if (const Dictionary* d = value.dictionary()) return DictionaryRep(*d);
  if (value.type == ValueType::kPath) {  // metadata paths: a PathVector
    std::vector<uint32_t> indices;
    for (const std::string& p : value.strings()) indices.push_back(Path(p));
    Align(8);
    const uint64_t at = out_.size();
    Put<uint64_t>(indices.size());
    for (uint32_t i : indices) Put(i);
    return crate::MakeRep(Type::kPathVector, at);
  }
  const Type type = CrateType(value.type);
  timecodes_ |= type == Type::kTimeCode;
  return value.array ? ArrayRep(value, type) : ScalarRep(value, type);
}

uint64_t CrateWriter::TimeSamplesRep(const std::vector<TimeSample>& samples) {
  std::vector<uint64_t> reps;
  for (const TimeSample& s : samples) reps.push_back(ValueRep(s.value));
  Align(8);
  const uint64_t times = out_.size();
  Put<uint64_t>(samples.size());
  for (const TimeSample& s : samples) Put(s.time);
  // The record: an offset (8) to the times' ValueRep; after it an offset (8) to the values.
  const uint64_t at = out_.size();
  Put<int64_t>(8);
  Put(crate::MakeRep(Type::kDoubleVector, times));
  Put<int64_t>(8);
  Put<uint64_t>(reps.size());
  for (uint64_t r : reps) Put(r);
  return crate::MakeRep(Type::kTimeSamples, at);
}

// Metadata kept as written: one field per key (list-op statements of one key in one list op).
void CrateWriter::Generic(const Metadata& metadata) {
  std::map<std::string, ListOp> ops;
  std::map<std::string, ValueType> op_types;
  for (const MetadataEntry& e : metadata.entries) {
    if (e.op == ListOpKind::kExplicit) {
      Field(e.key, ValueRep(e.value));
      continue;
    }
    ListOp& op = ops[e.key];
    op_types[e.key] = e.value.type;
    op.Items(e.op) = std::vector<std::string>(e.value.strings().begin(), e.value.strings().end());
    op.written |= uint8_t(1u << unsigned(e.op));
  }
  for (const auto& [key, op] : ops) {
    const ValueType t = op_types[key];
    Field(key, ListOpRep(op, t == ValueType::kPath     ? Type::kPathListOp
                             : t == ValueType::kString ? Type::kStringListOp
                                                       : Type::kTokenListOp));
  }
}

void CrateWriter::PrimSpec(const Layer& layer, const Prim& prim) {
  Field("specifier",
        crate::MakeRep(Type::kSpecifier, uint32_t(prim.specifier), crate::kInlinedBit));
  if (!prim.type_name.empty()) Field("typeName", TokenRep(prim.type_name));
  if (!prim.kind.empty()) Field("kind", TokenRep(prim.kind));
  if (prim.api_schemas.written)
    Field("apiSchemas", ListOpRep(prim.api_schemas, Type::kTokenListOp));
  if (prim.active) Field("active", BoolRep(*prim.active));
  if (prim.instanceable) Field("instanceable", BoolRep(*prim.instanceable));
  if (!prim.doc.empty()) Field("documentation", StringRep(prim.doc));
  if (prim.references.Written()) Field("references", ReferenceListRep(prim.references, false));
  if (prim.payloads.Written()) Field("payload", ReferenceListRep(prim.payloads, true));
  if (prim.inherits && prim.inherits->written)
    Field("inheritPaths", ListOpRep(*prim.inherits, Type::kPathListOp));
  if (prim.specializes && prim.specializes->written)
    Field("specializes", ListOpRep(*prim.specializes, Type::kPathListOp));
  Generic(prim.metadata);
  std::vector<std::string> properties, children;
  for (const Attribute& a : prim.attributes) properties.push_back(a.name);
  for (const Relationship& r : prim.relationships) properties.push_back(r.name);
  for (uint32_t c : prim.children) children.push_back(layer.prims[c].name);
  if (!properties.empty()) Field("properties", NamesRep(properties));
  if (!children.empty()) Field("primChildren", NamesRep(children));
  if (!prim.child_order.empty()) Field("primOrder", NamesRep(prim.child_order));
  if (!prim.property_order.empty()) Field("propertyOrder", NamesRep(prim.property_order));
  // Its variant sets: the names it declares, the variants it selects, and the sets it holds
  // (each set's variants, "{set=variant}", below it).
  std::vector<std::string> sets;
  std::map<std::string, std::vector<const Prim*>> variants;
  if (const PrimVariants* v = prim.variants.get()) {
    if (v->sets.written) Field("variantSetNames", ListOpRep(v->sets, Type::kStringListOp));
    if (!v->selections.empty()) Field("variantSelection", VariantSelectionRep(v->selections));
    for (const uint32_t c : v->contents) {
      const Prim& variant = layer.prims[c];
      const size_t open = variant.path.rfind('{'), equals = variant.path.rfind('=');
      if (open == std::string::npos || equals == std::string::npos || equals < open) continue;
      std::string set = variant.path.substr(open + 1, equals - open - 1);
      auto [it, added] = variants.try_emplace(set);
      if (added) sets.push_back(std::move(set));
      it->second.push_back(&variant);
    }
    if (!sets.empty()) Field("variantSetChildren", NamesRep(sets));
  }
  const bool variant = prim.path.back() == '}';
  AddSpec(prim.path, variant ? SpecType::kVariant : SpecType::kPrim);
  for (const Attribute& a : prim.attributes) {
    Field("typeName", TokenRep(std::string(Info(a.type).name) + (a.array ? "[]" : "")));
    if (a.custom) Field("custom", BoolRep(true));
    if (a.variability != Variability::kVarying) {
      Field("variability",
            crate::MakeRep(Type::kVariability, uint32_t(a.variability), crate::kInlinedBit));
    }
    if (a.default_value) Field("default", ValueRep(*a.default_value));
    if (a.has_time_samples) Field("timeSamples", TimeSamplesRep(a.time_samples));
    if (a.connections.written)
      Field("connectionPaths", ListOpRep(a.connections, Type::kPathListOp));
    if (!a.interpolation.empty()) Field("interpolation", TokenRep(a.interpolation));
    if (a.element_size) Field("elementSize", IntRep(*a.element_size));
    if (a.weight) Field("weight", FloatRep(*a.weight));
    if (!a.doc.empty()) Field("documentation", StringRep(a.doc));
    Generic(a.metadata);
    AddSpec(prim.path + "." + a.name, SpecType::kAttribute);
  }
  for (const Relationship& r : prim.relationships) {
    if (r.custom) Field("custom", BoolRep(true));
    if (r.variability != Variability::kVarying) {
      Field("variability",
            crate::MakeRep(Type::kVariability, uint32_t(r.variability), crate::kInlinedBit));
    }
    if (r.targets.written) Field("targetPaths", ListOpRep(r.targets, Type::kPathListOp));
    if (!r.doc.empty()) Field("documentation", StringRep(r.doc));
    Generic(r.metadata);
    AddSpec(prim.path + "." + r.name, SpecType::kRelationship);
  }
  for (uint32_t c : prim.children) PrimSpec(layer, layer.prims[c]);
  for (const std::string& set : sets) {
    std::vector<std::string> names;
    for (const Prim* v : variants[set]) names.push_back(v->name);
    Field("variantChildren", NamesRep(names));
    AddSpec(VariantPath(prim.path, set, ""), SpecType::kVariantSet);
    for (const Prim* v : variants[set]) PrimSpec(layer, *v);
  }
}

uint64_t CrateWriter::VariantSelectionRep(const std::vector<VariantSelection>& selections) {
  // A count, then each set's name and its variant as string indices, in the sets' order (as the
  // std::map OpenUSD writes from).
  std::map<std::string_view, std::string_view> sorted;
  for (const VariantSelection& s : selections) sorted[s.set] = s.variant;
  std::vector<uint32_t> indices;
  for (const auto& [set, v] : sorted) {
    indices.push_back(String(set));
    indices.push_back(String(v));
  }
  const uint64_t at = out_.size();
  Put<uint64_t>(sorted.size());
  for (const uint32_t i : indices) Put(i);
  return crate::MakeRep(Type::kVariantSelectionMap, at);
}

void CrateWriter::Sections() {
  std::vector<std::pair<const char*, std::pair<uint64_t, uint64_t>>> toc;
  const auto section = [&](const char* name, auto&& write) {
    Align(8);
    const uint64_t start = out_.size();
    write();
    toc.push_back({name, {start, out_.size() - start}});
  };
  section("TOKENS", [&] {
    std::vector<uint8_t> text;
    for (const std::string& t : tokens_) {
      text.insert(text.end(), t.begin(), t.end());
      text.push_back(0);
    }
    const std::vector<uint8_t> compressed = Lz4Compress(text);
    Put<uint64_t>(tokens_.size());
    Put<uint64_t>(text.size());
    Put<uint64_t>(compressed.size());
    PutBytes(compressed);
  });
  section("STRINGS", [&] {
    Put<uint64_t>(strings_.size());
    for (uint32_t s : strings_) Put(s);
  });
  section("FIELDS", [&] {
    std::vector<uint32_t> names;
    std::vector<uint64_t> reps;
    for (const auto& [name, rep] : fields_) names.push_back(name), reps.push_back(rep);
    Put<uint64_t>(fields_.size());
    CompressedInts(std::span<const uint32_t>(names));
    const std::vector<uint8_t> compressed =
        Lz4Compress(std::span(reinterpret_cast<const uint8_t*>(reps.data()), reps.size() * 8));
    Put<uint64_t>(compressed.size());
    PutBytes(compressed);
  });
  section("FIELDSETS", [&] {
    Put<uint64_t>(fieldsets_.size());
    CompressedInts(std::span<const uint32_t>(fieldsets_));
  });
  section("PATHS", [&] {
    // Depth first from the root: each entry's path index, its element's token (negative for a
    // property) and its jump: -1 child only, 0 sibling only, -2 neither, else the sibling's
    // distance with the child next.
    std::vector<uint32_t> index;
    std::vector<int32_t> element, jump;
    std::vector<std::pair<uint32_t, bool>> stack{{0, false}};  // (path, has a next sibling)
    while (!stack.empty()) {
      const auto [p, sibling] = stack.back();
      stack.pop_back();
      const PathNode& node = paths_[p];
      index.push_back(p);
      element.push_back(node.property ? -int32_t(node.token) : int32_t(node.token));
      const bool child = !node.children.empty();
      jump.push_back(child && sibling ? 0 : child ? -1 : sibling ? 0 : -2);  // fixed below
      for (size_t c = node.children.size(); c-- > 0;)
        stack.push_back({node.children[c], c + 1 < node.children.size()});
    }
    // A node with a child and a sibling jumps past its subtree: the sibling follows it.
    std::vector<size_t> subtree(paths_.size(), 1), at(paths_.size());
    for (size_t i = 0; i < index.size(); ++i) at[index[i]] = i;
    for (size_t i = index.size(); i-- > 0;) {
      for (uint32_t c : paths_[index[i]].children) subtree[index[i]] += subtree[c];
    }
    for (size_t i = 0; i < index.size(); ++i) {
      const PathNode& node = paths_[index[i]];
      const bool child = !node.children.empty();
      const bool sibling = jump[i] == 0;
      if (child && sibling) jump[i] = int32_t(subtree[index[i]]);
    }
    Put<uint64_t>(paths_.size());
    Put<uint64_t>(index.size());
    CompressedInts(std::span<const uint32_t>(index));
    CompressedInts(std::span<const int32_t>(element));
    CompressedInts(std::span<const int32_t>(jump));
  });
  section("SPECS", [&] {
    std::vector<uint32_t> path, fieldset, type;
    for (const SpecEntry& s : specs_)
      path.push_back(s.path), fieldset.push_back(s.fieldset), type.push_back(s.type);
    Put<uint64_t>(specs_.size());
    CompressedInts(std::span<const uint32_t>(path));
    CompressedInts(std::span<const uint32_t>(fieldset));
    CompressedInts(std::span<const uint32_t>(type));
  });
  Align(8);
  const uint64_t toc_at = out_.size();
  Put<uint64_t>(toc.size());
  for (const auto& [name, range] : toc) {
    char padded[16] = {};
    std::strncpy(padded, name, 15);
    PutBytes(std::span(reinterpret_cast<const uint8_t*>(padded), 16));
    Put(range.first);
    Put(range.second);
  }
  std::memcpy(out_.data() + 16, &toc_at, 8);
}

bool CrateWriter::Write(const Layer& layer) {
  out_.assign(crate::kBootstrapSize, 0);
  std::memcpy(out_.data(), crate::kMagic, 8);
  out_[8] = uint8_t(crate::kWrittenVersion >> 16);  // 0.8.0, or 0.9.0 with timecodes (below)
  out_[9] = uint8_t(crate::kWrittenVersion >> 8);
  out_[10] = uint8_t(crate::kWrittenVersion);
  Token(";-)");
  for (const Prim& p : layer.prims) {
    if (p.path.empty() || p.path[0] != '/') {
      error_ = {Error::kInvalidArgument, "a prim path that is not absolute", p.path, 0};
      return false;
    }
  }
  // The pseudo-root: the layer's metadata and its root prims.
  if (!layer.up_axis.empty()) Field("upAxis", TokenRep(layer.up_axis));
  if (!layer.default_prim.empty()) Field("defaultPrim", TokenRep(layer.default_prim));
  if (!layer.doc.empty()) Field("documentation", StringRep(layer.doc));
  const std::pair<const char*, const std::optional<double>*> numbers[] = {
      {"metersPerUnit", &layer.meters_per_unit},
      {"timeCodesPerSecond", &layer.time_codes_per_second},
      {"framesPerSecond", &layer.frames_per_second},
      {"startTimeCode", &layer.start_time_code},
      {"endTimeCode", &layer.end_time_code}};
  for (const auto& [name, value] : numbers) {
    if (*value) Field(name, DoubleRep(**value));
  }
  Generic(layer.metadata);
  if (!layer.sub_layers.empty()) {
    Field("subLayers", SubLayerPathsRep(layer.sub_layers));
    Field("subLayerOffsets", SubLayerOffsetsRep(layer.sub_layers));
  }
  std::vector<std::string> roots;
  for (uint32_t r : layer.roots) roots.push_back(layer.prims[r].name);
  if (!roots.empty()) Field("primChildren", NamesRep(roots));
  if (!layer.root_order.empty()) Field("primOrder", NamesRep(layer.root_order));
  AddSpec("/", SpecType::kPseudoRoot);
  for (uint32_t r : layer.roots) PrimSpec(layer, layer.prims[r]);
  const size_t limit = std::numeric_limits<uint32_t>::max();
  if (tokens_.size() >= limit || strings_.size() >= limit || paths_.size() >= limit ||
      fields_.size() >= limit) {
    error_ = {Error::kInvalidArgument, "more than 2^32 tokens, strings, paths or fields", "", 0};
    return false;
  }
  Sections();
  if (timecodes_) out_[9] = 9;
  return true;
}

}  // namespace

Result<std::vector<uint8_t>> WriteCrate(const Layer& layer) {
  CrateWriter writer;
  if (!writer.Write(layer)) return Status(std::move(writer.error()));
  return std::move(writer.bytes());
}

}  // namespace sinew::loader::usd
