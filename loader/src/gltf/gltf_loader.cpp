// glTF 2.0 -> sinew::Asset. One pass per top-level array, in dependency order: buffers, views,
// accessors, then the objects that use them. Every index is range-checked here, every byte range
// before it is read, so nothing downstream (least of all the GPU) sees an invalid reference.
//
// Speed matters (parse + validate + pack within 2.5x of a bare DOM parse: README.md, Status;
// `sinew bench --loader`, BENCHMARKS.md): every pass reads the parsed document's tape directly
// (common/tape.h, common/json.h), each object's fields gathered in one pass (Fields) instead of
// one key lookup per property; a success returns a null LoadStatus, and JSON pointers are Path
// chains on the stack, formatted only for an error or a warning; each accessor is validated once,
// then decoded without validating again (packed floats copied straight into the output); scratch
// vectors live in the reusable LoadState. The checks run in the same order as they always have,
// so every error (code, pointer) is the one a property-by-property lookup would report.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "accessor.h"
#include "common/buffers.h"
#include "common/components.h"
#include "common/influence_layout_option.h"
#include "common/json.h"
#include "common/json_syntax.h"
#include "extensions.h"
#include "glb.h"
#include "sinew/loader/file.h"
#include "sinew/loader/gltf.h"

namespace sinew::loader {
namespace {

using gltf::AccessorDesc;
using gltf::AccessorType;
using gltf::ComponentType;

// Extensions whose semantics sinew implements (an unknown one in extensionsRequired is an error).
constexpr std::string_view kSupportedExtensions[] = {
    "KHR_mesh_quantization",  // Quantized attributes decode through the accessor layer.
    "KHR_character",          // Recognised: marks the asset as a character, no data to read.
    gltf::kVariantsExtension, gltf::kBindPoseExtension, gltf::kInbetweensExtension,
};

// A validated accessor as the passes after LoadAccessors look it up, in 32 bytes: a load writes and
// reads tens of thousands of them, and the whole AccessorDesc (144 bytes: resolved spans, sparse
// part) is needed only to decode data that is not plain packed floats.
struct Accessor {
  const uint8_t* packed_floats = nullptr;  // The data when gltf::IsPackedFloat; else null.
  uint64_t count = 0;
  uint32_t desc = 0;  // Index into LoadState::descs (only when packed_floats is null).
  ComponentType component_type = ComponentType::kFloat;
  AccessorType type = AccessorType::kScalar;
  bool normalized = false;
  // On a view, with a byteOffset or a byteStride that is not a multiple of 4 (which vertex
  // attributes must be, glTF 2.0 Specification, Data Alignment).
  bool unaligned = false;
  // On a view whose byteStride is not the element size (data only vertex attributes may have).
  bool strided = false;
  // On a view whose byteStride is the element size: packed as without it, which exporters write
  // for inverse binds and animation data too (a warning there, once per accessor).
  bool packed_stride = false;
  mutable bool packed_stride_warned = false;
  bool has_bounds = false;  // Has both "min" and "max" (which POSITION must have).
  // A warning about this accessor's data was given (POSITION bounds, NORMAL or TANGENT units):
  // one per accessor.
  mutable bool data_warned = false;
};
static_assert(sizeof(Accessor) <= 32, "an Accessor stays within 32 bytes");

// Everything the object passes share. Kept in the GltfLoader between loads (Reset keeps the
// vectors' capacity), so a reused loader does not fault in fresh scratch memory every time.
struct LoadState {
  const GltfOptions* options = nullptr;
  std::filesystem::path base_dir;
  std::span<const uint8_t> glb_bin;
  bool has_glb_bin = false;
  std::vector<std::vector<uint8_t>> owned_buffers;  // decoded data: URIs and external files
  std::vector<std::span<const uint8_t>> buffers;
  std::vector<BufferView> views;
  std::vector<Accessor> accessors;
  std::vector<AccessorDesc> descs;  // Of the accessors whose data is not packed floats.
  // What cannot be read but is refused only when something reads it (what nothing reads is not
  // refused): a buffer without data (no uri, and not a GLB's BIN chunk), each view on one, and
  // an accessor of an unknown type or on such a view. Each with the error a read gives. Usually
  // empty, so the checks cost one test.
  struct Unreadable {
    uint32_t index = 0;
    ErrorInfo error;
  };
  std::vector<Unreadable> unreadable_buffers, unreadable_views, unreadable_accessors;
  size_t material_count = 0;
  bool quantized = false;  // KHR_mesh_quantization is in extensionsUsed or extensionsRequired.
  // Bytes of input: the file, plus every external or data: buffer decoded (the cap on what
  // accessors without a bufferView decode to is a multiple of it).
  uint64_t input_bytes = 0;
  // Bytes the decode helpers have produced so far (every use of an accessor counts: one accessor
  // named by a thousand samplers is decoded a thousand times). Charged by helpers that otherwise
  // only read the state, hence mutable.
  mutable uint64_t decoded_bytes = 0;
  std::vector<Warning>* warnings = nullptr;
  Asset* asset = nullptr;
  std::vector<std::filesystem::path>* files_read = nullptr;  // LoadedAsset::external_files
  // Scratch, reused from object to object and from load to load.
  std::vector<double> numbers;
  std::vector<float> floats;
  std::vector<uint32_t> uints;
  std::vector<uint32_t> output_accessors;  // Per sampler of the current animation.
  std::vector<float> keys;  // The current animation's keys, copied into it once complete.
  // Per accessor: which animation's keys hold it as key times, and where. The stamp is
  // load << 32 | (1 + animation), so that entries of earlier loads never match and the vector is
  // not cleared for every load (it is as long as the largest file's accessors array).
  struct KeyTimes {
    uint64_t stamp = 0;
    size_t offset = 0;
  };
  std::vector<KeyTimes> key_times;
  uint32_t load = 0;                               // Counts loads from 1; see KeyTimes.
  std::vector<Field> joint_fields, weight_fields;  // JOINTS_n / WEIGHTS_n of one primitive.
  std::vector<uint64_t> channel_targets;           // CheckDistinctTargets' memory
  std::vector<int32_t> parents;                    // Per node, while the hierarchy is checked.
  std::vector<uint32_t> weighted_or_skinned;       // Nodes with weights or a skin, in order.
  std::vector<uint8_t> node_state;
  std::vector<size_t> walk;

  void Reset(const GltfOptions& o, const std::filesystem::path& dir, LoadedAsset* out) {
    if (++load == 0) {  // Wrapped: forget every stamp.
      key_times.clear();
      load = 1;
    }
    options = &o;
    base_dir = dir;
    glb_bin = {};
    has_glb_bin = false;
    owned_buffers.clear();
    buffers.clear();
    views.clear();
    accessors.clear();
    descs.clear();
    unreadable_buffers.clear();
    unreadable_views.clear();
    unreadable_accessors.clear();
    weighted_or_skinned.clear();
    material_count = 0;
    quantized = false;
    input_bytes = 0;
    decoded_bytes = 0;
    warnings = &out->warnings;
    asset = &out->asset;
    files_read = &out->external_files;
  }
};

// The pointers of the top-level arrays that later checks point into.
constexpr Path kAccessorsPath("/accessors");
constexpr Path kNodesPath("/nodes");
constexpr Path kMeshesPath("/meshes");

// ---------------------------------------------------------------------------------------------
// Buffers, views, accessors

// The entry for `index` of an Unreadable list, or null.
const ErrorInfo* FindUnreadable(const std::vector<LoadState::Unreadable>& list, uint32_t index) {
  for (const LoadState::Unreadable& u : list) {
    if (u.index == index) return &u.error;
  }
  return nullptr;
}

// Accessor `index` is about to be read: the error of an unreadable one (at the accessor's own
// pointer, or its buffer's), else success.
LoadStatus CheckReadable(const LoadState& c, size_t index) {
  if (c.unreadable_accessors.empty()) return {};
  if (const ErrorInfo* e = FindUnreadable(c.unreadable_accessors, uint32_t(index))) return *e;
  return {};
}

// What could not be read and nothing read (LoadState::Unreadable): a warning each, for the
// buffers and the accessors of an unknown type (an accessor on a buffer without data is that
// buffer's).
void WarnUnread(LoadState& c) {
  for (const LoadState::Unreadable& u : c.unreadable_buffers) {
    c.warnings->push_back({Path(Path("/buffers"), u.index).ToString(),
                           "no data (no uri, and not a GLB's BIN chunk); nothing reads it"});
  }
  for (const LoadState::Unreadable& u : c.unreadable_accessors) {
    if (u.error.code != Error::kInvalidValue) continue;  // on a buffer without data
    c.warnings->push_back({u.error.where, u.error.message + "; nothing reads it"});
  }
}

LoadStatus LoadBuffers(LoadState& c, TapeObject root) {
  ObjectArray buffers;
  SINEW_TRY(RootObjects(root, "buffers", &buffers));
  c.buffers.resize(buffers.size());
  c.owned_buffers.resize(buffers.size());
  static constexpr std::string_view kKeys[] = {"byteLength", "uri"};
  enum { kByteLength, kUri };
  return buffers.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    const Fields f(o, kKeys);
    uint64_t byte_length = 0;
    SINEW_TRY(RequireUint(f[kByteLength], where, &byte_length));
    std::string_view uri;
    bool has_uri = false;
    SINEW_TRY(OptionalString(f[kUri], where, &uri, &has_uri));
    std::span<const uint8_t> bytes;
    if (!has_uri) {
      if (i != 0 || !c.has_glb_bin) {
        c.unreadable_buffers.push_back(
            {uint32_t(i),
             {Error::kMissingProperty,
              "a buffer without uri must be buffer 0 of a GLB with a BIN chunk",
              Path(where, "uri").ToString(), 0}});
        c.buffers[i] = {};
        return {};
      }
      bytes = c.glb_bin;
      // The BIN chunk "MAY be up to 3 bytes bigger" than the buffer (its padding to 4): more is a
      // writer's slip that changes nothing read.
      if (bytes.size() > byte_length + 3) {
        c.warnings->push_back({Path(where, "byteLength").ToString(),
                               "the GLB's BIN chunk holds " + std::to_string(bytes.size()) +
                                   " bytes, more than the buffer's " + std::to_string(byte_length) +
                                   " and 3 bytes of padding"});
      }
    } else {
      std::vector<uint8_t>& owned = c.owned_buffers[i];
      SINEW_TRY(ReadBufferUri(c.base_dir, uri, Path(where, "uri"), c.options->read_file, &owned,
                              c.files_read));
      bytes = owned;
      c.input_bytes += owned.size();
    }
    SINEW_TRY(CheckByteLength(byte_length, bytes.size(), where));
    c.buffers[i] = bytes.first(static_cast<size_t>(byte_length));
    return {};
  });
}

LoadStatus LoadViews(LoadState& c, TapeObject root) {
  ObjectArray views;
  SINEW_TRY(RootObjects(root, "bufferViews", &views));
  c.views.resize(views.size());
  static constexpr std::string_view kKeys[] = {"buffer", "byteOffset", "byteLength", "byteStride"};
  enum { kBuffer, kByteOffset, kByteLength, kByteStride };
  return views.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    const Fields f(o, kKeys);
    uint32_t buffer = 0;
    uint64_t offset = 0, length = 0, stride = 0;
    bool has_stride = false;
    SINEW_TRY(RequireIndex(f[kBuffer], where, c.buffers.size(), &buffer));
    SINEW_TRY(OptionalUint(f[kByteOffset], where, &offset));
    SINEW_TRY(RequireUint(f[kByteLength], where, &length));
    SINEW_TRY(OptionalUint(f[kByteStride], where, &stride, &has_stride));
    if (length == 0) {
      return {Error::kInvalidValue, "byteLength must be >= 1",
              Path(where, "byteLength").ToString()};
    }
    if (const ErrorInfo* e = FindUnreadable(c.unreadable_buffers, buffer)) {
      c.unreadable_views.push_back({uint32_t(i), *e});
      c.views[i] = {};
    } else {
      SINEW_TRY(ResolveView(c.buffers[buffer], buffer, offset, length, where, &c.views[i]));
    }
    if (has_stride && (stride < 4 || stride > 252 || stride % 4 != 0)) {
      return {Error::kInvalidValue,
              "byteStride " + std::to_string(stride) + " must be a multiple of 4 in [4, 252]",
              Path(where, "byteStride").ToString()};
    }
    c.views[i].byte_stride = static_cast<uint32_t>(stride);
    return {};
  });
}

// accessor.sparse (rare: a path of its own, out of the accessors loop).
// *unreadable: the error of a part's view when it is on a buffer without data (the accessor is
// then unreadable, LoadState::Unreadable), else untouched.
LoadStatus LoadSparse(const LoadState& c, TapeObject sparse, const Path& sw, gltf::SparseDesc* out,
                      const ErrorInfo** unreadable) {
  static constexpr std::string_view kKeys[] = {"count", "indices", "values"};
  enum { kCount, kIndices, kValues };
  const Fields f(sparse, kKeys);
  gltf::SparseDesc d;
  uint64_t count = 0;
  SINEW_TRY(RequireUint(f[kCount], sw, &count));
  d.count = static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX));
  if (count != d.count) {
    return {Error::kInvalidValue, "count too large", Path(sw, "count").ToString()};
  }
  static constexpr std::string_view kPartKeys[] = {"bufferView", "byteOffset", "componentType"};
  enum { kBufferView, kByteOffset, kComponentType };
  for (const int part : {kIndices, kValues}) {
    TapeObject po;
    bool has_part = false;
    SINEW_TRY(OptionalObject(f[part], sw, &po, &has_part));
    if (!has_part) return {Error::kMissingProperty, "required", Path(sw, f[part].key).ToString()};
    const Path pw(sw, f[part].key);
    const Fields pf(po, kPartKeys);
    uint32_t pv = 0;
    uint64_t po_offset = 0;
    SINEW_TRY(RequireIndex(pf[kBufferView], pw, c.views.size(), &pv));
    SINEW_TRY(OptionalUint(pf[kByteOffset], pw, &po_offset));
    if (const ErrorInfo* e = FindUnreadable(c.unreadable_views, pv)) {
      *unreadable = e;
      return {};
    }
    if (c.views[pv].byte_stride != 0) {
      return {Error::kInvalidValue, "a sparse bufferView must not have byteStride",
              Path(pw, "bufferView").ToString()};
    }
    const gltf::ViewBytes vb{c.views[pv].bytes, 0};
    if (part == kIndices) {
      uint64_t ic = 0;
      SINEW_TRY(RequireUint(pf[kComponentType], pw, &ic));
      if (!gltf::ParseComponentType(ic, &d.index_type)) {
        return {Error::kInvalidValue, "unknown componentType",
                Path(pw, "componentType").ToString()};
      }
      d.indices = vb;
      d.indices_byte_offset = po_offset;
    } else {
      d.values = vb;
      d.values_byte_offset = po_offset;
    }
  }
  *out = d;
  return {};
}

// An accessor without a bufferView is zeros (plus its sparse values): no bytes of the file bound
// its count, so without a cap a 200-byte file could make the loader allocate gigabytes (or overflow
// a size). What a load allocates is bounded by a small multiple of its input (docs/gltf.md,
// Limits); such an accessor in a real file mirrors a vertex stream that has bytes in the file (a
// sparse morph target: count * 12 bytes next to positions of at least count * 4 bytes), so this cap
// never rejects one.
constexpr uint64_t kZeroAccessorBytesPerInputByte = 16;
constexpr uint64_t kZeroAccessorMinBytes = uint64_t{1} << 20;

LoadStatus CheckZeroAccessorSize(const LoadState& c, const AccessorDesc& a, const Path& where) {
  const uint64_t limit = kZeroAccessorBytesPerInputByte * c.input_bytes + kZeroAccessorMinBytes;
  const uint64_t element_bytes = uint64_t{gltf::ComponentCount(a.type)} * sizeof(float);
  if (a.count <= limit / element_bytes) return {};
  return {Error::kUnsupportedFeature,
          "count " + std::to_string(a.count) +
              " without a bufferView would decode to more than sinew's limit of " +
              std::to_string(limit) + " bytes for this file (" +
              std::to_string(kZeroAccessorBytesPerInputByte) + " x its " +
              std::to_string(c.input_bytes) + " bytes of input + 1 MiB)",
          Path(where, "count").ToString()};
}

// One accessor object, read into *a (every field set anew) and validated (ValidateAccessor);
// *has_bounds: it has both "min" and "max". An accessor that cannot be read, but that nothing may
// read (an unknown type, data on a buffer without data), is not an error here: it goes into
// c.unreadable_accessors with what reading it gives, *unreadable is set and *a is not validated.
// Inline: it runs for every accessor of a file.
[[gnu::always_inline]] inline LoadStatus ReadAccessor(LoadState& c, TapeObject o, const Path& where,
                                                      AccessorDesc* a, bool* has_bounds,
                                                      bool* unreadable) {
  // Out of line: rare.
  const auto defer = [&](ErrorInfo error) SINEW_NEVER_INLINE -> LoadStatus {
    c.unreadable_accessors.push_back({a->index, std::move(error)});
    *unreadable = true;
    return {};
  };
  static constexpr std::string_view kKeys[] = {"componentType", "type",       "normalized",
                                               "count",         "byteOffset", "bufferView",
                                               "sparse",        "min",        "max"};
  enum {
    kComponentType,
    kType,
    kNormalized,
    kCount,
    kByteOffset,
    kBufferView,
    kSparse,
    kMin,
    kMax
  };
  a->normalized = false;
  a->byte_offset = 0;
  a->view.reset();
  a->sparse.reset();
  const Fields f(o, kKeys);
  uint64_t component = 0;
  SINEW_TRY(RequireUint(f[kComponentType], where, &component));
  if (!gltf::ParseComponentType(component, &a->component_type)) {
    return {Error::kInvalidValue, "unknown componentType " + std::to_string(component),
            Path(where, "componentType").ToString()};
  }
  std::string_view type;
  SINEW_TRY(RequireString(f[kType], where, &type));
  if (!gltf::ParseAccessorType(type, &a->type)) {
    return defer({Error::kInvalidValue, "unknown type '" + std::string(type) + "'",
                  Path(where, "type").ToString(), 0});
  }
  SINEW_TRY(OptionalBool(f[kNormalized], where, &a->normalized));
  SINEW_TRY(RequireUint(f[kCount], where, &a->count));
  if (a->count == 0) {
    return {Error::kInvalidValue, "count must be >= 1", Path(where, "count").ToString()};
  }
  SINEW_TRY(OptionalUint(f[kByteOffset], where, &a->byte_offset));
  int32_t view = -1;
  SINEW_TRY(OptionalIndex(f[kBufferView], where, c.views.size(), &view));
  if (view >= 0) {
    if (!c.unreadable_views.empty()) {
      if (const ErrorInfo* e = FindUnreadable(c.unreadable_views, uint32_t(view))) return defer(*e);
    }
    const BufferView& v = c.views[size_t(view)];
    a->view = gltf::ViewBytes{v.bytes, v.byte_stride};
    // The offset into the buffer is a multiple of the component size too (glTF 2.0
    // Specification, Data Alignment).
    // The size is 1, 2 or 4: a mask, not a division (this runs for every accessor).
    if (((v.byte_offset + a->byte_offset) & (gltf::ComponentSize(a->component_type) - 1)) != 0) {
      return {Error::kInvalidValue,
              "bufferView.byteOffset + byteOffset is not a multiple of the component size",
              Path(where, "byteOffset").ToString()};
    }
  } else if (a->byte_offset != 0) {
    return {Error::kInvalidValue, "byteOffset without bufferView",
            Path(where, "byteOffset").ToString()};
  }
  TapeObject sparse;
  bool has_sparse = false;
  SINEW_TRY(OptionalObject(f[kSparse], where, &sparse, &has_sparse));
  if (has_sparse) {
    gltf::SparseDesc d;
    const ErrorInfo* sparse_unreadable = nullptr;
    SINEW_TRY(LoadSparse(c, sparse, Path(where, "sparse"), &d, &sparse_unreadable));
    if (sparse_unreadable) return defer(*sparse_unreadable);
    a->sparse = d;
  }
  SINEW_TRY(gltf::ValidateAccessor(*a));
  if (!a->view) SINEW_TRY(CheckZeroAccessorSize(c, *a, where));
  *has_bounds = f[kMin].present && f[kMax].present;
  return {};
}

// Appends the Accessor the later passes look up for a validated accessor (and its AccessorDesc,
// unless its data is packed floats).
[[gnu::always_inline]] inline void AppendAccessor(LoadState& c, const AccessorDesc& a,
                                                  bool has_bounds) {
  Accessor& info = c.accessors.emplace_back();
  info.count = a.count;
  info.component_type = a.component_type;
  info.type = a.type;
  info.normalized = a.normalized;
  info.has_bounds = has_bounds;
  info.unaligned = a.view && (a.byte_offset % 4 != 0 || a.view->byte_stride % 4 != 0);
  const bool has_stride = a.view && a.view->byte_stride != 0;
  info.packed_stride =
      has_stride && a.view->byte_stride == gltf::ElementSize(a.component_type, a.type);
  info.strided = has_stride && !info.packed_stride;
  if (gltf::IsPackedFloat(a)) {
    info.packed_floats = a.view->bytes.data() + a.byte_offset;
  } else {
    info.desc = static_cast<uint32_t>(c.descs.size());
    c.descs.push_back(a);
  }
}

LoadStatus LoadAccessors(LoadState& c, TapeObject root) {
  ObjectArray accessors;
  SINEW_TRY(RootObjects(root, "accessors", &accessors));
  // Built as they are read (not resized first): each entry is written once, while it is hot.
  c.accessors.reserve(accessors.size());
  // Filled here, appended once validated. One for the whole loop, every field set anew for each
  // accessor (constructing one per accessor zeroes its 144 bytes first).
  AccessorDesc a;
  const auto read = [&](TapeObject o, const Path& where, size_t i)
                        SINEW_ALWAYS_INLINE -> LoadStatus {
    a.index = static_cast<uint32_t>(i);
    bool has_bounds = false;
    bool unreadable = false;
    SINEW_TRY(ReadAccessor(c, o, where, &a, &has_bounds, &unreadable));
    if (unreadable) {
      c.accessors.emplace_back();  // never read: every read checks CheckReadable first
      return {};
    }
    AppendAccessor(c, a, has_bounds);
    return {};
  };
  return accessors.ForEach(read);
}

// Component types an accessor may have in a given role (glTF 2.0 Specification, Meshes and
// Animations, widened by KHR_mesh_quantization): one bit per (componentType, normalized) pair.
enum Components : uint32_t {
  kF32 = 1u << 0,
  kI8 = 1u << 1,
  kI8N = 1u << 2,
  kU8 = 1u << 3,
  kU8N = 1u << 4,
  kI16 = 1u << 5,
  kI16N = 1u << 6,
  kU16 = 1u << 7,
  kU16N = 1u << 8,
  kU32 = 1u << 9,
};

uint32_t ComponentBit(const Accessor& a) {
  switch (a.component_type) {
    case ComponentType::kFloat:
      return kF32;
    case ComponentType::kByte:
      return a.normalized ? kI8N : kI8;
    case ComponentType::kUnsignedByte:
      return a.normalized ? kU8N : kU8;
    case ComponentType::kShort:
      return a.normalized ? kI16N : kI16;
    case ComponentType::kUnsignedShort:
      return a.normalized ? kU16N : kU16;
    case ComponentType::kUnsignedInt:
      return a.normalized ? 0u : uint32_t{kU32};
  }
  return 0;
}

LoadStatus ComponentsError(const LoadState& c, const Accessor& a, uint32_t quantized_allowed,
                           std::string_view role, const Path& where) {
  return {Error::kInvalidValue,
          std::string("componentType ") + gltf::ComponentTypeName(a.component_type) +
              (a.normalized ? " (normalized)" : "") + " is not allowed for " + std::string(role) +
              (c.quantized || !quantized_allowed ? "" : " without KHR_mesh_quantization"),
          where.ToString()};
}

// kInvalidValue at `where` unless accessor `index` has one of `allowed` (`quantized_allowed` too
// when the asset uses KHR_mesh_quantization).
inline LoadStatus CheckComponents(const LoadState& c, uint32_t index, uint32_t allowed,
                                  uint32_t quantized_allowed, std::string_view role,
                                  const Path& where) {
  const Accessor& a = c.accessors[index];
  if (ComponentBit(a) & (allowed | (c.quantized ? quantized_allowed : 0))) return {};
  return ComponentsError(c, a, quantized_allowed, role, where);
}

// CheckComponents for an accessor that is not vertex data (indices, inverse binds, key times and
// values): its view must not define byteStride either ("buffer views with other types of data
// MUST NOT define byteStride"). A byteStride equal to the element size changes nothing a reader
// computes, and popular exporters write it: a warning then, an error for any other stride.
// (This, ChargeDecode and AppendAccessorFloats run for every animation sampler and channel; GCC
// kept them out of line, and forcing them inline made a crowd load ~2% faster, A/B.)
[[gnu::always_inline]] inline LoadStatus CheckNonVertexComponents(const LoadState& c,
                                                                  uint32_t index, uint32_t allowed,
                                                                  uint32_t quantized_allowed,
                                                                  std::string_view role,
                                                                  const Path& where) {
  SINEW_TRY(CheckComponents(c, index, allowed, quantized_allowed, role, where));
  const Accessor& a = c.accessors[index];
  if (a.packed_stride && !a.packed_stride_warned) {
    a.packed_stride_warned = true;
    c.warnings->push_back(
        {where.ToString(), "accessor " + std::to_string(index) +
                               " is on a bufferView whose byteStride, which only vertex "
                               "attributes may have, is its element size: read as packed"});
  }
  if (!a.strided) return {};
  return {Error::kInvalidValue,
          "accessor " + std::to_string(index) + " is on a bufferView with byteStride, which only " +
              "vertex attributes may have, not " + std::string(role),
          where.ToString()};
}

constexpr uint32_t kAnyQuantizedPosition = kI8 | kI8N | kU8 | kU8N | kI16 | kI16N | kU16 | kU16N;
constexpr uint32_t kSignedNormalized = kI8N | kI16N;
constexpr uint32_t kNormalizedRotation = kI8N | kU8N | kI16N | kU16N;

// Little-endian floats at any alignment, as a forward range for vector::assign.
class UnalignedFloats {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = float;
  using difference_type = std::ptrdiff_t;
  using pointer = const float*;
  using reference = float;

  explicit UnalignedFloats(const uint8_t* at) : at_(at) {}
  float operator*() const {
    float value;
    std::memcpy(&value, at_, sizeof(float));
    return value;
  }
  UnalignedFloats& operator++() {
    at_ += sizeof(float);
    return *this;
  }
  UnalignedFloats operator++(int) {
    UnalignedFloats before = *this;
    at_ += sizeof(float);
    return before;
  }
  bool operator==(const UnalignedFloats& other) const { return at_ == other.at_; }

 private:
  const uint8_t* at_;
};

// What a whole load may decode, across every use of every accessor (docs/gltf.md, Limits): a file
// can name one accessor from any number of places. Real files decode about 1-4x their bytes
// (quantized data widens to 32 bits).
constexpr uint64_t kDecodedBytesPerInputByte = 32;
constexpr uint64_t kDecodedMinBytes = uint64_t{32} << 20;

// Counts one decode of accessor `index` against the load's budget, before its output is allocated
// (no caller sizes an output from an accessor's count before charging it; outputs sized from
// other counts, such as influences per vertex, follow the vertex count POSITION was charged for).
[[gnu::always_inline]] inline LoadStatus ChargeDecode(const LoadState& c, uint32_t index) {
  const Accessor& a = c.accessors[index];
  const uint64_t element_bytes = uint64_t{gltf::ComponentCount(a.type)} * sizeof(float);
  const uint64_t limit = kDecodedBytesPerInputByte * c.input_bytes + kDecodedMinBytes;
  // decoded_bytes <= limit before the charge, so limit - decoded_bytes does not wrap; a product
  // that overflows does not fit. (No division: this runs for every use of every accessor.)
  uint64_t bytes = 0;
  const bool fits =
      !__builtin_mul_overflow(a.count, element_bytes, &bytes) && bytes <= limit - c.decoded_bytes;
  c.decoded_bytes = fits ? c.decoded_bytes + bytes : limit + 1;
  if (fits) return {};
  return {Error::kUnsupportedFeature,
          "decoding accessor " + std::to_string(index) +
              " once more brings this load's decoded bytes past sinew's limit of " +
              std::to_string(limit) + " (" + std::to_string(kDecodedBytesPerInputByte) + " x its " +
              std::to_string(c.input_bytes) + " bytes of input + 32 MiB)",
          Path(kAccessorsPath, index).ToString()};
}

// NaN or an infinity in FLOAT data that is read refuses the file: whatever reads it (positions,
// normals, tangents, weights, morph deltas, inverse binds, key times and values) would spread it.
// Normalized integers decode to finite values. One branch-free pass (FindNonFinite) over the
// values just decoded.
LoadStatus CheckFinite(const LoadState& c, uint32_t index, std::span<const float> values) {
  const Accessor& a = c.accessors[index];
  if (a.component_type != ComponentType::kFloat) return {};
  const size_t at = FindNonFinite(values);
  if (at == values.size()) return {};
  const uint32_t components = gltf::ComponentCount(a.type);
  return {Error::kNonFiniteValue,
          "element " + std::to_string(at / components) + ", component " +
              std::to_string(at % components) + " is not finite",
          Path(kAccessorsPath, index).ToString()};
}

// Decodes accessor `index` (validated) into *out (count * components floats). Packed FLOAT data is
// copied in as the vector is allocated (resize() would zero it first).
LoadStatus DecodeInto(const LoadState& c, uint32_t index, std::vector<float>* out) {
  SINEW_TRY(ChargeDecode(c, index));
  const Accessor& a = c.accessors[index];
  const size_t n = static_cast<size_t>(a.count) * gltf::ComponentCount(a.type);
  if (a.packed_floats) {
    out->assign(UnalignedFloats(a.packed_floats),
                UnalignedFloats(a.packed_floats + n * sizeof(float)));
    return CheckFinite(c, index, *out);
  }
  out->resize(n);
  SINEW_TRY(gltf::DecodeFloats(c.descs[a.desc], *out));
  return CheckFinite(c, index, *out);
}

// Decodes accessor `index` into `out`, which holds count * components floats, without charging it
// (the caller has).
LoadStatus DecodeCharged(const LoadState& c, uint32_t index, std::span<float> out) {
  const Accessor& a = c.accessors[index];
  if (a.packed_floats) {
    std::memcpy(out.data(), a.packed_floats, out.size() * sizeof(float));
    return CheckFinite(c, index, out);
  }
  SINEW_TRY(gltf::DecodeFloats(c.descs[a.desc], out));
  return CheckFinite(c, index, out);
}

// The same, charged.
LoadStatus DecodeInto(const LoadState& c, uint32_t index, std::span<float> out) {
  SINEW_TRY(ChargeDecode(c, index));
  return DecodeCharged(c, index, out);
}

// Accessor `index` (validated; UNSIGNED_BYTE/SHORT/INT, not normalized) into `out`, which holds
// count * components values.
LoadStatus DecodeUintsInto(const LoadState& c, uint32_t index, std::span<uint32_t> out) {
  SINEW_TRY(ChargeDecode(c, index));
  return gltf::DecodeUints(c.descs[c.accessors[index].desc], out);
}

// The same into *out, charged before it is sized.
LoadStatus DecodeUintsInto(const LoadState& c, uint32_t index, std::vector<uint32_t>* out) {
  SINEW_TRY(ChargeDecode(c, index));
  const Accessor& a = c.accessors[index];
  out->resize(static_cast<size_t>(a.count) * gltf::ComponentCount(a.type));
  return gltf::DecodeUints(c.descs[a.desc], *out);
}

// Decodes accessor `index` (already validated) as floats, checking its type first.
LoadStatus ReadAccessorFloats(const LoadState& c, uint32_t index,
                              std::initializer_list<AccessorType> types, const Path& where,
                              std::vector<float>* out) {
  const Accessor& a = c.accessors[index];
  if (std::find(types.begin(), types.end(), a.type) == types.end()) {
    return {Error::kInvalidValue, "accessor " + std::to_string(index) + " has the wrong type",
            where.ToString()};
  }
  return DecodeInto(c, index, out);
}

// Appends accessor `index` (validated), decoded as floats, to `keys`, checking its type first;
// *range = where it landed.
[[gnu::always_inline]] inline LoadStatus AppendAccessorFloats(const LoadState& c, uint32_t index,
                                                              AccessorType type, const Path& where,
                                                              std::vector<float>* keys,
                                                              KeyRange* range) {
  const Accessor& a = c.accessors[index];
  if (a.type != type) {
    return {Error::kInvalidValue, "accessor " + std::to_string(index) + " has the wrong type",
            where.ToString()};
  }
  SINEW_TRY(ChargeDecode(c, index));  // before `keys` grows
  range->offset = keys->size();
  range->count = static_cast<size_t>(a.count) * gltf::ComponentCount(a.type);
  if (a.packed_floats) {  // Copied in as `keys` grows (resize() would zero them first).
    keys->insert(keys->end(), UnalignedFloats(a.packed_floats),
                 UnalignedFloats(a.packed_floats + range->count * sizeof(float)));
    return CheckFinite(c, index, std::span<const float>(*keys).subspan(range->offset));
  }
  keys->resize(range->offset + range->count);
  return DecodeCharged(c, index, std::span<float>(*keys).subspan(range->offset, range->count));
}

// ---------------------------------------------------------------------------------------------
// Nodes and scenes

// A node's rotation (the quaternion in numbers[0..3]), normalized: kInvalidValue at
// where/rotation for one of (nearly) zero length, a warning for one off unit length by > 1e-3.
LoadStatus ReadRotation(LoadState& c, const double* numbers, const Path& where, Quat* out) {
  const double squared = numbers[0] * numbers[0] + numbers[1] * numbers[1] +
                         numbers[2] * numbers[2] + numbers[3] * numbers[3];
  // Exact shortcuts for the common unit quaternion (sqrt(1) and x / 1 are exact).
  const double len = squared == 1.0 ? 1.0 : std::sqrt(squared);
  if (len < 1e-6) {
    return {Error::kInvalidValue, "rotation is not a unit quaternion",
            Path(where, "rotation").ToString()};
  }
  if (std::fabs(len - 1.0) > 1e-3) {
    c.warnings->push_back({Path(where, "rotation").ToString(), "rotation quaternion normalized"});
  }
  if (len == 1.0) {
    *out = {float(numbers[0]), float(numbers[1]), float(numbers[2]), float(numbers[3])};
  } else {
    *out = {float(numbers[0] / len), float(numbers[1] / len), float(numbers[2] / len),
            float(numbers[3] / len)};
  }
  return {};
}

// Empty when `m`'s fourth row is (0, 0, 0, 1), within 1e-6 for exporters' rounding; else " has
// the fourth row (...), not (0, 0, 0, 1): it is not affine". Transforms keep the top three rows
// (the palette's Float3x4, a node's world matrix), so a projective matrix would place and skin
// vertices as something else.
std::string NotAffine(const Float4x4& m) {
  if (std::fabs(m.m[0][3]) <= 1e-6f && std::fabs(m.m[1][3]) <= 1e-6f &&
      std::fabs(m.m[2][3]) <= 1e-6f && std::fabs(m.m[3][3] - 1.0f) <= 1e-6f) {
    return {};
  }
  return " has the fourth row (" + std::to_string(m.m[0][3]) + ", " + std::to_string(m.m[1][3]) +
         ", " + std::to_string(m.m[2][3]) + ", " + std::to_string(m.m[3][3]) +
         "), not (0, 0, 0, 1): it is not affine";
}

// Whether the 3x3 part of `m` shears: two of its columns (the scaled axes of a TRS) are not
// perpendicular, within a cosine of 1e-3 (exporters' rounding). Zero columns (a scale of 0)
// do not count.
bool Shears(const Float4x4& m) {
  for (int a = 0; a < 3; ++a) {
    for (int b = a + 1; b < 3; ++b) {
      double dot = 0, aa = 0, bb = 0;
      for (int r = 0; r < 3; ++r) {
        dot += double(m.m[a][r]) * m.m[b][r];
        aa += double(m.m[a][r]) * m.m[a][r];
        bb += double(m.m[b][r]) * m.m[b][r];
      }
      if (aa > 0 && bb > 0 && std::fabs(dot) > 1e-3 * std::sqrt(aa * bb)) return true;
    }
  }
  return false;
}

// One node object (node i of node_count) into *n; its children are appended to the asset's.
LoadStatus ReadNode(LoadState& c, TapeObject o, const Path& where, size_t i, size_t node_count,
                    size_t mesh_count, size_t skin_count, Node* n) {
  static constexpr std::string_view kKeys[] = {
      "name", "children", "mesh", "skin", "translation", "rotation", "scale", "matrix", "weights"};
  enum { kName, kChildren, kMesh, kSkin, kTranslation, kRotation, kScale, kMatrix, kWeights };
  const Fields f(o, kKeys);
  SINEW_TRY(OptionalString(f[kName], where, &n->name));
  bool has_children = false;
  SINEW_TRY(OptionalIndices(f[kChildren], where, node_count, &c.uints, &has_children));
  if (has_children) {
    std::vector<uint32_t>& children = c.asset->node_children;
    n->children = {static_cast<uint32_t>(children.size()), static_cast<uint32_t>(c.uints.size())};
    children.insert(children.end(), c.uints.begin(), c.uints.end());
  }
  SINEW_TRY(OptionalIndex(f[kMesh], where, mesh_count, &n->mesh));
  SINEW_TRY(OptionalIndex(f[kSkin], where, skin_count, &n->skin));
  if (n->skin >= 0 && n->mesh < 0) {
    return {Error::kInvalidValue, "a node with a skin must have a mesh",
            Path(where, "skin").ToString()};
  }
  double numbers[16];
  bool has_t = false, has_r = false, has_s = false;
  SINEW_TRY(OptionalNumbers(f[kTranslation], where, {numbers, 3}, &has_t));
  if (has_t) n->translation = {float(numbers[0]), float(numbers[1]), float(numbers[2])};
  SINEW_TRY(OptionalNumbers(f[kRotation], where, {numbers, 4}, &has_r));
  if (has_r) SINEW_TRY(ReadRotation(c, numbers, where, &n->rotation));
  SINEW_TRY(OptionalNumbers(f[kScale], where, {numbers, 3}, &has_s));
  if (has_s) n->scale = {float(numbers[0]), float(numbers[1]), float(numbers[2])};
  SINEW_TRY(OptionalNumbers(f[kMatrix], where, {numbers, 16}, &n->has_matrix));
  if (n->has_matrix) {
    if (has_t || has_r || has_s) {
      return {Error::kInvalidValue, "a node has both matrix and translation/rotation/scale",
              Path(where, "matrix").ToString()};
    }
    for (int col = 0; col < 4; ++col)
      for (int row = 0; row < 4; ++row) n->matrix.m[col][row] = float(numbers[col * 4 + row]);
    // "When matrix is defined, it MUST be decomposable to TRS properties" (glTF 2.0
    // Specification, Transformations). Not affine: refused. A shear: sinew applies the matrix as
    // written, but engines that decompose it into TRS lose the shear, so it is said.
    if (std::string row = NotAffine(n->matrix); !row.empty()) {
      return {Error::kInvalidValue, "the matrix" + row, Path(where, "matrix").ToString()};
    }
    if (Shears(n->matrix)) {
      c.warnings->push_back({Path(where, "matrix").ToString(),
                             "the matrix shears, so it does not decompose into translation, "
                             "rotation and scale as glTF requires; it is applied as written"});
    }
  }
  bool has_weights = false;
  SINEW_TRY(OptionalNumbers(f[kWeights], where, 0, &c.numbers, &has_weights));
  if (has_weights) n->weights.assign(c.numbers.begin(), c.numbers.end());
  if (!n->weights.empty() || n->skin >= 0) c.weighted_or_skinned.push_back(uint32_t(i));
  return {};
}

// Parents: each node at most one, none its own child. (In a compact array: nodes[] is large, and
// these passes jump around in it.)
LoadStatus LinkParents(LoadState& c) {
  std::vector<Node>& nodes = c.asset->nodes;
  std::vector<int32_t>& parents = c.parents;
  parents.assign(nodes.size(), -1);
  for (size_t p = 0; p < nodes.size(); ++p) {
    const std::span<const uint32_t> node_children = c.asset->Children(nodes[p]);
    for (size_t k = 0; k < node_children.size(); ++k) {
      const uint32_t child = node_children[k];
      if (parents[child] >= 0 || child == p) {
        const Path node(kNodesPath, p), children_path(node, "children");
        return {Error::kInvalidValue,
                child == p ? "a node is its own child"
                           : "node " + std::to_string(child) + " has more than one parent",
                Path(children_path, k).ToString()};
      }
      parents[child] = static_cast<int32_t>(p);
    }
  }
  for (size_t n = 0; n < nodes.size(); ++n) nodes[n].parent = parents[n];
  return {};
}

// Cycles: walk up from each node; state 1 = on the current walk, 2 = known to reach a root.
LoadStatus CheckAcyclic(LoadState& c) {
  const std::vector<int32_t>& parents = c.parents;
  std::vector<uint8_t>& state = c.node_state;
  state.assign(parents.size(), 0);
  std::vector<size_t>& walk = c.walk;
  for (size_t start = 0; start < parents.size(); ++start) {
    walk.clear();
    int64_t at = static_cast<int64_t>(start);
    while (at >= 0 && state[size_t(at)] == 0) {
      state[size_t(at)] = 1;
      walk.push_back(size_t(at));
      at = parents[size_t(at)];
    }
    if (at >= 0 && state[size_t(at)] == 1) {
      return {Error::kInvalidValue,
              "the node hierarchy has a cycle through node " + std::to_string(at),
              Path(kNodesPath, size_t(at)).ToString()};
    }
    for (size_t w : walk) state[w] = 2;
  }
  return {};
}

LoadStatus LoadNodes(LoadState& c, TapeObject root, size_t mesh_count, size_t skin_count) {
  ObjectArray array;
  SINEW_TRY(RootObjects(root, "nodes", &array));
  if (array.size() == 0) return {};
  std::vector<Node>& nodes = c.asset->nodes;
  const size_t node_count = array.size();
  nodes.reserve(node_count);
  c.asset->node_children.reserve(node_count);  // Each node is at most one node's child (checked).
  SINEW_TRY(array.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    return ReadNode(c, o, where, i, node_count, mesh_count, skin_count, &nodes.emplace_back());
  }));
  SINEW_TRY(LinkParents(c));
  return CheckAcyclic(c);
}

LoadStatus LoadScenes(LoadState& c, TapeObject root) {
  ObjectArray scenes;
  SINEW_TRY(RootObjects(root, "scenes", &scenes));
  static constexpr std::string_view kKeys[] = {"name", "nodes"};
  enum { kName, kNodes };
  std::vector<uint8_t>& seen = c.node_state;  // scratch since CheckAcyclic
  seen.assign(c.asset->nodes.size(), 0);
  SINEW_TRY(scenes.ReadInto(
      &c.asset->scenes, [&](TapeObject o, const Path& where, Scene* scene) -> LoadStatus {
        const Fields f(o, kKeys);
        SINEW_TRY(OptionalString(f[kName], where, &scene->name));
        SINEW_TRY(OptionalIndices(f[kNodes], where, c.asset->nodes.size(), &scene->nodes));
        // Root nodes, each listed once ("uniqueItems"): a node listed twice would be drawn,
        // and baked, twice. `seen` marks this scene's roots, cleared again after it.
        for (size_t k = 0; k < scene->nodes.size(); ++k) {
          const uint32_t node = scene->nodes[k];
          if (c.asset->nodes[node].parent >= 0 || seen[node] != 0) {
            const Path nodes(where, "nodes");
            return {Error::kInvalidValue,
                    seen[node] != 0 ? "node " + std::to_string(node) + " is listed twice"
                                    : std::string("a scene's nodes must be root nodes"),
                    Path(nodes, k).ToString()};
          }
          seen[node] = 1;
        }
        for (const uint32_t node : scene->nodes) seen[node] = 0;
        return {};
      }));
  return OptionalIndex(FindField(root, "scene"), Path(), c.asset->scenes.size(), &c.asset->scene);
}

// ---------------------------------------------------------------------------------------------
// Meshes

// Vertex attribute elements start on 4-byte boundaries in their view (glTF 2.0 Specification,
// Data Alignment).
inline LoadStatus CheckVertexAlignment(const LoadState& c, uint32_t accessor, const Path& where) {
  if (c.accessors[accessor].unaligned) {
    return {Error::kInvalidValue, "vertex attribute data must be 4-byte aligned", where.ToString()};
  }
  return {};
}

// Checks an attribute accessor's count against the primitive's vertex count, and its alignment.
LoadStatus CheckCount(const LoadState& c, uint32_t accessor, size_t vertex_count,
                      const Path& where) {
  SINEW_TRY(CheckVertexAlignment(c, accessor, where));
  if (c.accessors[accessor].count != vertex_count) {
    return {Error::kInvalidValue,
            "count " + std::to_string(c.accessors[accessor].count) + " differs from POSITION's " +
                std::to_string(vertex_count),
            where.ToString()};
  }
  return {};
}

// n when `name` is prefix + n written as std::to_string writes it (no sign, no leading zero) and
// n <= limit; -1 otherwise.
int64_t SetNumber(std::string_view name, std::string_view prefix, size_t limit) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return -1;
  const std::string_view digits = name.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return -1;
  uint64_t n = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return -1;
    if (n <= limit) n = n * 10 + uint64_t(ch - '0');
  }
  // A set numbered past the attribute count leaves a gap whatever it is: it stands at `limit`.
  return static_cast<int64_t>(std::min<uint64_t>(n, limit));
}

// The attributes a primitive reads, found in one pass over its attributes object (the first of
// duplicate keys, as at_key). JOINTS_n / WEIGHTS_n go to c.joint_fields / c.weight_fields, indexed
// by n (a set numbered past the attribute count at the last index: it leaves a gap either way).
struct Attributes {
  Field position{"POSITION", TapeValue(), false}, normal{"NORMAL", TapeValue(), false},
      tangent{"TANGENT", TapeValue(), false};
};

void GatherAttributes(LoadState& c, TapeObject attributes, Attributes* out) {
  const size_t limit = attributes.size();
  c.joint_fields.assign(limit + 1, Field());
  c.weight_fields.assign(limit + 1, Field());
  for (auto field : attributes) {
    const std::string_view key = field.key;
    Field* target = nullptr;
    if (Equals(key, "POSITION")) {
      target = &out->position;
    } else if (Equals(key, "NORMAL")) {
      target = &out->normal;
    } else if (Equals(key, "TANGENT")) {
      target = &out->tangent;
    } else if (const int64_t n = SetNumber(key, "JOINTS_", limit); n >= 0) {
      target = &c.joint_fields[size_t(n)];
    } else if (const int64_t w = SetNumber(key, "WEIGHTS_", limit); w >= 0) {
      target = &c.weight_fields[size_t(w)];
    }
    if (target && !target->present) {
      target->key = key;
      target->value = field.value;
      target->present = true;
    }
  }
}

// The primitive's JOINTS_n / WEIGHTS_n sets (found by GatherAttributes): JOINTS_0/WEIGHTS_0,
// JOINTS_1/WEIGHTS_1, ... contiguous from 0, each set with both: a set past a gap is not skipped,
// and a lone JOINTS_1/WEIGHTS_1 does not load as unskinned.
LoadStatus CountInfluenceSets(const LoadState& c, const Path& aw, size_t* sets) {
  *sets = 0;
  for (size_t n = 0; n < c.joint_fields.size(); ++n) {
    if (c.joint_fields[n].present || c.weight_fields[n].present) *sets = n + 1;
  }
  for (size_t n = 0; n < *sets; ++n) {
    const bool joints = c.joint_fields[n].present;
    if (joints && c.weight_fields[n].present) continue;
    const std::string name = (joints ? "WEIGHTS_" : "JOINTS_") + std::to_string(n);
    return {Error::kMissingProperty,
            "required: JOINTS_n / WEIGHTS_n sets come in pairs, contiguous from 0",
            Path(aw, name).ToString()};
  }
  return {};
}

// Influence set `set` (JOINTS_set / WEIGHTS_set: VEC4, one per vertex, weights >= 0, joints below
// 65536) into slots set * 4 .. set * 4 + 3 of each vertex's K = influences_per_vertex. Decodes
// through c.uints and c.floats, which hold vertex_count * 4 values.
LoadStatus ReadInfluenceSet(LoadState& c, const Path& aw, size_t set, size_t vertex_count,
                            Primitive* p) {
  const Field& jf = c.joint_fields[set];
  const Field& wf = c.weight_fields[set];
  uint32_t ja = 0, wa = 0;
  SINEW_TRY(RequireIndex(jf, aw, c.accessors.size(), &ja));
  SINEW_TRY(RequireIndex(wf, aw, c.accessors.size(), &wa));
  SINEW_TRY(CheckReadable(c, ja));
  SINEW_TRY(CheckReadable(c, wa));
  const Path jw(aw, jf.key), ww(aw, wf.key);
  SINEW_TRY(CheckCount(c, ja, vertex_count, jw));
  SINEW_TRY(CheckCount(c, wa, vertex_count, ww));
  SINEW_TRY(CheckComponents(c, ja, kU8 | kU16, 0, jf.key, jw));
  SINEW_TRY(CheckComponents(c, wa, kF32 | kU8N | kU16N, 0, wf.key, ww));
  if (c.accessors[ja].type != AccessorType::kVec4 || c.accessors[wa].type != AccessorType::kVec4) {
    return {Error::kInvalidValue, "JOINTS_n and WEIGHTS_n must be VEC4",
            (c.accessors[ja].type != AccessorType::kVec4 ? jw : ww).ToString()};
  }
  std::vector<uint32_t>& joints = c.uints;
  std::vector<float>& weights = c.floats;
  if (LoadStatus s = DecodeUintsInto(c, ja, joints); !s) {
    ErrorInfo err = s.error();
    err.where = jw.ToString() + " (" + err.where + ")";
    return err;
  }
  SINEW_TRY(DecodeInto(c, wa, std::span<float>(weights)));
  // One branch-free scan for the two rules (the common case: nothing to report), then plain
  // copies; the exact first offender is searched for only when there is one.
  const size_t n = vertex_count * 4;
  bool clean = true;
  for (size_t i = 0; i < n; ++i) {
    clean &= weights[i] >= 0.0f;
    clean &= joints[i] <= 0xFFFF;
  }
  if (!clean) {
    for (size_t v = 0; v < vertex_count; ++v) {
      for (size_t s = 0; s < 4; ++s) {
        const float weight = weights[v * 4 + s];
        if (!(weight >= 0.0f)) {
          return {Error::kInvalidValue,
                  "vertex " + std::to_string(v) + " has weight " + std::to_string(weight) +
                      " (weights must be >= 0)",
                  ww.ToString()};
        }
        if (joints[v * 4 + s] > 0xFFFF) {
          return {Error::kUnsupportedFeature, "joint indices above 65535", jw.ToString()};
        }
      }
    }
  }
  const size_t k = p->influences.influences_per_vertex;
  uint16_t* out_joints = p->influences.joints.data();
  float* out_weights = p->influences.weights.data();
  for (size_t v = 0; v < vertex_count; ++v) {
    for (size_t s = 0; s < 4; ++s) {
      out_joints[v * k + set * 4 + s] = static_cast<uint16_t>(joints[v * 4 + s]);
      out_weights[v * k + set * 4 + s] = weights[v * 4 + s];
    }
  }
  return {};
}

// Weight sums: glTF says they SHOULD be 1; real files differ. Normalize by default (warned).
void NormalizeWeights(LoadState& c, const Path& aw, size_t vertex_count, Primitive* p) {
  const uint32_t k = p->influences.influences_per_vertex;
  size_t off = 0, zero = 0;
  for (size_t v = 0; v < vertex_count; ++v) {
    float* w = &p->influences.weights[v * k];
    double sum = 0;
    for (uint32_t s = 0; s < k; ++s) sum += w[s];
    if (sum == 0.0) {
      ++zero;
      continue;
    }
    if (std::fabs(sum - 1.0) > 2e-3) ++off;
    // (w / 1 is w: an exact shortcut for weights that already sum to 1.)
    if (c.options->weights == WeightMode::kNormalize && sum != 1.0) {
      for (uint32_t s = 0; s < k; ++s) w[s] = static_cast<float>(w[s] / sum);
    }
  }
  if (off) {
    c.warnings->push_back(
        {Path(aw, "WEIGHTS_0").ToString(),
         std::to_string(off) + " of " + std::to_string(vertex_count) +
             " vertices have weights that do not sum to 1" +
             (c.options->weights == WeightMode::kNormalize ? "; normalized"
                                                           : "; kept as authored")});
  }
  if (zero) {
    c.warnings->push_back({Path(aw, "WEIGHTS_0").ToString(),
                           std::to_string(zero) + " vertices have no weight; they keep their rest "
                                                  "position"});
  }
}

LoadStatus LoadInfluences(LoadState& c, const Path& aw, size_t vertex_count, Primitive* p) {
  size_t sets = 0;
  SINEW_TRY(CountInfluenceSets(c, aw, &sets));
  if (sets == 0) return {};
  const uint32_t k = static_cast<uint32_t>(4 * sets);
  p->influences.influences_per_vertex = k;
  p->influences.joints.resize(vertex_count * k);
  p->influences.weights.resize(vertex_count * k);
  c.uints.resize(vertex_count * 4);
  c.floats.resize(vertex_count * 4);
  for (size_t set = 0; set < sets; ++set) SINEW_TRY(ReadInfluenceSet(c, aw, set, vertex_count, p));
  NormalizeWeights(c, aw, vertex_count, p);
  return {};
}

// One vertex stream of a primitive (POSITION excepted): its count, alignment, components, type.
LoadStatus LoadStream(const LoadState& c, uint32_t accessor, size_t vertex_count, uint32_t allowed,
                      uint32_t quantized_allowed, std::string_view role, AccessorType type,
                      const Path& where, std::vector<float>* out) {
  SINEW_TRY(CheckCount(c, accessor, vertex_count, where));
  SINEW_TRY(CheckComponents(c, accessor, allowed, quantized_allowed, role, where));
  return ReadAccessorFloats(c, accessor, {type}, where, out);
}

// `tangents_ignored`: the primitive's TANGENT was ignored (no NORMAL), and so are its targets'.
LoadStatus LoadTargets(const LoadState& c, const ObjectArray& targets, size_t vertex_count,
                       bool tangents_ignored, Primitive* p) {
  p->targets.resize(targets.size());
  static constexpr std::string_view kKeys[] = {"POSITION", "NORMAL", "TANGENT"};
  return targets.ForEach([&](TapeObject to, const Path& tw, size_t t) -> LoadStatus {
    const Fields f(to, kKeys);
    MorphTarget& target = p->targets[t];
    std::vector<float>* const streams[] = {&target.positions, &target.normals, &target.tangents};
    for (size_t k = 0; k < std::size(kKeys); ++k) {
      int32_t accessor = -1;
      SINEW_TRY(OptionalIndex(f[k], tw, c.accessors.size(), &accessor));
      if (accessor < 0 || (k == 2 && tangents_ignored)) continue;
      SINEW_TRY(CheckReadable(c, size_t(accessor)));
      // "For each morph target attribute, an original attribute MUST be present in the mesh
      // primitive": an offset to nothing.
      if ((k == 1 && p->normals.empty()) || (k == 2 && p->tangents.empty())) {
        return {Error::kInvalidValue,
                "the primitive has no " + std::string(kKeys[k]) + " for this target to offset",
                Path(tw, kKeys[k]).ToString()};
      }
      const bool is_position = k == 0;
      SINEW_TRY(LoadStream(c, uint32_t(accessor), vertex_count, kF32,
                           is_position ? (kI8 | kI8N | kI16 | kI16N) : kSignedNormalized,
                           "a morph target", AccessorType::kVec3, Path(tw, kKeys[k]), streams[k]));
    }
    return {};
  });
}

// NORMAL and TANGENT xyz are unit length and TANGENT w is ±1 in the specification; sinew
// renormalizes where it transforms them, so a file that breaks it still deforms: a warning, once
// per accessor, naming the first element off (by more than 1 % in squared length, or w not ±1).
// FLOAT data only: quantized normals are as unit as their precision allows.
void WarnIfNotUnit(const LoadState& c, uint32_t index, std::span<const float> values,
                   size_t stride) {
  const Accessor& a = c.accessors[index];
  if (a.component_type != ComponentType::kFloat || a.data_warned) return;
  uint32_t off = 0;
  for (size_t i = 0; i + stride <= values.size(); i += stride) {
    const float x = values[i], y = values[i + 1], z = values[i + 2];
    const float len2 = x * x + y * y + z * z;
    off |= uint32_t(len2 < 0.99f || len2 > 1.01f);
    if (stride == 4) off |= uint32_t(values[i + 3] != 1.0f && values[i + 3] != -1.0f);
  }
  if (!off) return;
  a.data_warned = true;
  c.warnings->push_back(
      {Path(kAccessorsPath, index).ToString(),
       stride == 4 ? "TANGENT xyz not unit length or w not +1 or -1" : "NORMAL not unit length"});
}

LoadStatus LoadPrimitive(LoadState& c, TapeObject o, const Path& where, Primitive* p) {
  static constexpr std::string_view kKeys[] = {"attributes", "mode",    "material",
                                               "indices",    "targets", "extensions"};
  enum { kAttributes, kMode, kMaterial, kIndices, kTargets, kExtensions };
  const Fields f(o, kKeys);
  TapeObject attributes;
  bool has_attributes = false;
  SINEW_TRY(OptionalObject(f[kAttributes], where, &attributes, &has_attributes));
  if (!has_attributes) {
    return {Error::kMissingProperty, "required", Path(where, "attributes").ToString()};
  }
  const Path aw(where, "attributes");
  Attributes attribute;
  GatherAttributes(c, attributes, &attribute);
  int32_t position = -1, normal = -1, tangent = -1;
  SINEW_TRY(OptionalIndex(attribute.position, aw, c.accessors.size(), &position));
  SINEW_TRY(OptionalIndex(attribute.normal, aw, c.accessors.size(), &normal));
  SINEW_TRY(OptionalIndex(attribute.tangent, aw, c.accessors.size(), &tangent));
  if (position < 0) {
    c.warnings->push_back({aw.ToString(), "no POSITION: the primitive has no vertices to deform"});
    // Its targets count all the same (every primitive of a mesh lists as many, and the mesh's
    // weights are judged by them), but are not read: they move no vertex.
    ObjectArray targets;
    SINEW_TRY(OptionalObjects(f[kTargets], where, &targets));
    p->targets.resize(targets.size());
    return {};
  }
  for (const int32_t read : {position, normal, tangent}) {
    if (read >= 0) SINEW_TRY(CheckReadable(c, size_t(read)));
  }
  const Path position_path(aw, "POSITION");
  SINEW_TRY(CheckVertexAlignment(c, uint32_t(position), position_path));
  SINEW_TRY(CheckComponents(c, uint32_t(position), kF32, kAnyQuantizedPosition, "POSITION",
                            position_path));
  SINEW_TRY(ReadAccessorFloats(c, uint32_t(position), {AccessorType::kVec3}, position_path,
                               &p->positions));
  // POSITION MUST have min and max (bounds for culling); sinew computes nothing from them: a
  // warning, once per accessor.
  if (const Accessor& pa = c.accessors[size_t(position)]; !pa.has_bounds && !pa.data_warned) {
    pa.data_warned = true;
    c.warnings->push_back({Path(kAccessorsPath, size_t(position)).ToString(),
                           "a POSITION accessor without min and max, which glTF requires"});
  }
  const size_t vertex_count = p->vertex_count();
  if (normal >= 0) {
    SINEW_TRY(LoadStream(c, uint32_t(normal), vertex_count, kF32, kSignedNormalized, "NORMAL",
                         AccessorType::kVec3, Path(aw, "NORMAL"), &p->normals));
  }
  // "When normals are not specified, ... the provided tangents (if present) MUST be ignored"
  // (glTF 2.0 Specification, Meshes): a tangent frame needs its normal.
  const bool tangents_ignored = tangent >= 0 && normal < 0;
  if (tangents_ignored) {
    c.warnings->push_back({Path(aw, "TANGENT").ToString(),
                           "TANGENT without NORMAL is ignored (the morph targets' TANGENT with "
                           "it), as glTF requires"});
    tangent = -1;
  }
  if (tangent >= 0) {
    SINEW_TRY(LoadStream(c, uint32_t(tangent), vertex_count, kF32, kSignedNormalized, "TANGENT",
                         AccessorType::kVec4, Path(aw, "TANGENT"), &p->tangents));
  }
  if (normal >= 0) WarnIfNotUnit(c, uint32_t(normal), p->normals, 3);
  if (tangent >= 0) WarnIfNotUnit(c, uint32_t(tangent), p->tangents, 4);
  SINEW_TRY(LoadInfluences(c, aw, vertex_count, p));

  uint64_t mode = 4;
  SINEW_TRY(OptionalUint(f[kMode], where, &mode));
  if (mode > 6)
    return {Error::kInvalidValue, "mode must be 0 to 6", Path(where, "mode").ToString()};
  p->mode = static_cast<uint32_t>(mode);
  SINEW_TRY(OptionalIndex(f[kMaterial], where, c.material_count, &p->material));
  SINEW_TRY(gltf::LoadVariantMappings(f[kExtensions], where, c.asset->variants.size(),
                                      c.material_count, p));
  int32_t indices = -1;
  SINEW_TRY(OptionalIndex(f[kIndices], where, c.accessors.size(), &indices));
  if (indices >= 0) {
    SINEW_TRY(CheckReadable(c, size_t(indices)));
    const Accessor& a = c.accessors[size_t(indices)];
    const Path iw(where, "indices");
    if (a.type != AccessorType::kScalar) {
      return {Error::kInvalidValue, "indices must be SCALAR", iw.ToString()};
    }
    SINEW_TRY(CheckNonVertexComponents(c, uint32_t(indices), kU8 | kU16 | kU32, 0, "indices", iw));
    SINEW_TRY(DecodeUintsInto(c, uint32_t(indices), &p->indices));
    for (size_t i = 0; i < p->indices.size(); ++i) {
      if (p->indices[i] >= vertex_count) {
        return {Error::kInvalidValue,
                "index " + std::to_string(i) + " is " + std::to_string(p->indices[i]) +
                    " but there are " + std::to_string(vertex_count) + " vertices",
                iw.ToString()};
      }
    }
  }
  // "For triangles, it MUST be divisible by 3", and for lines by 2 (glTF 2.0 Specification,
  // Meshes): the indices, or the vertices without them, make whole triangles or lines.
  if (const uint32_t corners = p->mode == 4 ? 3 : p->mode == 1 ? 2 : 1; corners > 1) {
    const size_t count = indices >= 0 ? p->indices.size() : vertex_count;
    if (count % corners != 0) {
      const char* noun = indices >= 0 ? " indices" : " vertices";
      return {Error::kInvalidValue,
              std::to_string(count) + noun + " do not make whole " +
                  (corners == 3 ? "triangles (a multiple of 3)" : "lines (a multiple of 2)"),
              indices >= 0 ? Path(where, "indices").ToString() : position_path.ToString()};
    }
  }

  ObjectArray targets;
  SINEW_TRY(OptionalObjects(f[kTargets], where, &targets));
  return LoadTargets(c, targets, vertex_count, tangents_ignored, p);
}

// Morph target names. glTF names no targets; the de-facto convention (Blender's exporter, three.js,
// Babylon.js) is mesh.extras.targetNames, one string per target. `extras` is application data
// that glTF does not define, so nothing in it can make a file invalid: an extras that is not an
// object, or has no targetNames, is not read; a targetNames that is not an array of exactly one
// string per target is ignored with a warning (at /meshes/i/extras/targetNames), and the mesh
// keeps no names. Read only when the mesh has extras (one key lookup; meshes are few).
void LoadTargetNames(LoadState& c, const Field& extras, const Path& where, size_t targets,
                     Mesh* mesh) {
  TapeObject o;
  if (!extras.present || !GetObject(extras.value, &o)) return;
  const Field names = FindField(o, "targetNames");
  if (!names.present) return;
  const Path extras_path(where, "extras"), names_path(extras_path, "targetNames");
  TapeArray array;
  if (!GetArray(names.value, &array)) {
    c.warnings->push_back({names_path.ToString(), "targetNames is not an array: ignored"});
    return;
  }
  if (array.size() != targets) {
    c.warnings->push_back(
        {names_path.ToString(), std::to_string(array.size()) + " target names for " +
                                    std::to_string(targets) + " morph targets: ignored"});
    return;
  }
  mesh->target_names.reserve(targets);
  size_t k = 0;
  for (TapeValue e : array) {
    std::string_view name;
    if (!e.GetString(&name)) {
      c.warnings->push_back(
          {Path(names_path, k).ToString(), "a target name is not a string: targetNames ignored"});
      mesh->target_names.clear();
      return;
    }
    mesh->target_names.emplace_back(name);
    ++k;
  }
}

// One mesh object into *mesh: its primitives (at least one, each with the first one's target
// count), default weights and extensions.
LoadStatus ReadMesh(LoadState& c, TapeObject o, const Path& where, Mesh* mesh) {
  static constexpr std::string_view kKeys[] = {"name", "primitives", "weights", "extensions",
                                               "extras"};
  enum { kName, kPrimitives, kWeights, kExtensions, kExtras };
  const Fields f(o, kKeys);
  SINEW_TRY(OptionalString(f[kName], where, &mesh->name));
  ObjectArray primitives;
  SINEW_TRY(RequireObjects(f[kPrimitives], where, &primitives));
  if (primitives.size() == 0) {
    return {Error::kInvalidValue, "a mesh needs at least one primitive",
            Path(where, "primitives").ToString()};
  }
  mesh->primitives.resize(primitives.size());
  SINEW_TRY(primitives.ForEach([&](TapeObject po, const Path& pw, size_t p) -> LoadStatus {
    SINEW_TRY(LoadPrimitive(c, po, pw, &mesh->primitives[p]));
    if (mesh->primitives[p].targets.size() != mesh->primitives[0].targets.size()) {
      return {Error::kInvalidValue, "every primitive of a mesh must have the same target count",
              Path(pw, "targets").ToString()};
    }
    return {};
  }));
  const size_t targets = mesh->primitives[0].targets.size();
  bool has_weights = false;
  SINEW_TRY(OptionalNumbers(f[kWeights], where, 0, &c.numbers, &has_weights));
  if (has_weights) {
    if (c.numbers.size() != targets) {
      return {Error::kInvalidValue,
              std::to_string(c.numbers.size()) + " weights for " + std::to_string(targets) +
                  " morph targets",
              Path(where, "weights").ToString()};
    }
    mesh->weights.assign(c.numbers.begin(), c.numbers.end());
  }
  SINEW_TRY(gltf::LoadInbetweens(f[kExtensions], where, targets, mesh, c.warnings));
  LoadTargetNames(c, f[kExtras], where, targets, mesh);
  return {};
}

LoadStatus LoadMeshes(LoadState& c, TapeObject root) {
  ObjectArray meshes;
  SINEW_TRY(RootObjects(root, "meshes", &meshes));
  return meshes.ReadInto(&c.asset->meshes, [&](TapeObject o, const Path& where, Mesh* mesh) {
    return ReadMesh(c, o, where, mesh);
  });
}

// ---------------------------------------------------------------------------------------------
// Skins

// A skin's inverse bind matrices from accessor `ibm` (MAT4 FLOAT, at least one per joint), or the
// identity for each joint when it has none (ibm < 0).
LoadStatus ReadInverseBinds(LoadState& c, int32_t ibm, const Path& where, Skin* skin) {
  if (ibm < 0) {
    skin->inverse_binds.assign(skin->joints.size(), Float4x4::Identity());
    return {};
  }
  std::vector<float>& matrices = c.floats;
  const Path iw(where, "inverseBindMatrices");
  SINEW_TRY(CheckNonVertexComponents(c, uint32_t(ibm), kF32, 0, "inverseBindMatrices", iw));
  SINEW_TRY(ReadAccessorFloats(c, uint32_t(ibm), {AccessorType::kMat4}, iw, &matrices));
  if (matrices.size() / 16 < skin->joints.size()) {
    return {Error::kInvalidValue,
            std::to_string(matrices.size() / 16) + " inverse bind matrices for " +
                std::to_string(skin->joints.size()) + " joints",
            iw.ToString()};
  }
  skin->inverse_binds.resize(skin->joints.size());
  for (size_t j = 0; j < skin->joints.size(); ++j) {
    for (int col = 0; col < 4; ++col)
      for (int row = 0; row < 4; ++row)
        skin->inverse_binds[j].m[col][row] = matrices[j * 16 + size_t(col) * 4 + size_t(row)];
    // "The fourth row of each matrix MUST be set to [0.0, 0.0, 0.0, 1.0]" (glTF 2.0
    // Specification, Skins).
    if (std::string row = NotAffine(skin->inverse_binds[j]); !row.empty()) {
      return {Error::kInvalidValue, "inverse bind matrix " + std::to_string(j) + row,
              iw.ToString()};
    }
  }
  return {};
}

// One skin object into *skin.
LoadStatus ReadSkin(LoadState& c, TapeObject o, const Path& where, Skin* skin) {
  static constexpr std::string_view kKeys[] = {"name", "joints", "skeleton", "inverseBindMatrices",
                                               "extensions"};
  enum { kName, kJoints, kSkeleton, kInverseBindMatrices, kExtensions };
  const Fields f(o, kKeys);
  SINEW_TRY(OptionalString(f[kName], where, &skin->name));
  bool has_joints = false;
  SINEW_TRY(OptionalIndices(f[kJoints], where, c.asset->nodes.size(), &skin->joints, &has_joints));
  if (!has_joints) return {Error::kMissingProperty, "required", Path(where, "joints").ToString()};
  if (skin->joints.empty()) {
    return {Error::kInvalidValue, "a skin needs at least one joint",
            Path(where, "joints").ToString()};
  }
  // Joints are unique (the schema's "uniqueItems"); a repeat changes no palette entry's value.
  // (Sorted copy: a skin may list tens of thousands of joints.)
  c.uints.assign(skin->joints.begin(), skin->joints.end());
  std::sort(c.uints.begin(), c.uints.end());
  if (const auto repeat = std::adjacent_find(c.uints.begin(), c.uints.end());
      repeat != c.uints.end()) {
    c.warnings->push_back({Path(where, "joints").ToString(),
                           "node " + std::to_string(*repeat) +
                               " is listed more than once among the skin's joints, which glTF "
                               "requires to be unique"});
  }
  SINEW_TRY(OptionalIndex(f[kSkeleton], where, c.asset->nodes.size(), &skin->skeleton));
  int32_t ibm = -1;
  SINEW_TRY(OptionalIndex(f[kInverseBindMatrices], where, c.accessors.size(), &ibm));
  if (ibm >= 0) SINEW_TRY(CheckReadable(c, size_t(ibm)));
  SINEW_TRY(ReadInverseBinds(c, ibm, where, skin));
  return gltf::LoadBindPoses(f[kExtensions], where, skin);
}

LoadStatus LoadSkins(LoadState& c, TapeObject root) {
  ObjectArray skins;
  SINEW_TRY(RootObjects(root, "skins", &skins));
  return skins.ReadInto(&c.asset->skins, [&](TapeObject o, const Path& where, Skin* skin) {
    return ReadSkin(c, o, where, skin);
  });
}

// Node-level rules that need the meshes: node.weights has one weight per morph target; skinned
// meshes' joint indices are < the instantiating skin's joint count.
LoadStatus CheckSkinnedNodes(const LoadState& c) {
  const Asset& a = *c.asset;
  // Only the nodes these rules concern (LoadNodes listed them, in order), not every node.
  for (const uint32_t n : c.weighted_or_skinned) {
    const Node& node = a.nodes[n];
    if (!node.weights.empty()) {
      const size_t targets =
          node.mesh < 0 ? 0 : a.meshes[size_t(node.mesh)].primitives[0].targets.size();
      if (node.weights.size() != targets) {
        const Path where(kNodesPath, n);
        return {Error::kInvalidValue,
                std::to_string(node.weights.size()) + " weights for " + std::to_string(targets) +
                    " morph targets",
                Path(where, "weights").ToString()};
      }
    }
    if (node.skin < 0) continue;
    const size_t joint_count = a.skins[size_t(node.skin)].joints.size();
    const Mesh& mesh = a.meshes[size_t(node.mesh)];
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      // "The skinned mesh's primitives MUST have JOINTS_0 and WEIGHTS_0": one without them has
      // nothing to skin with (it would follow whichever joint a rigid fallback picked).
      // One without POSITION was skipped with a warning (LoadPrimitive): nothing to skin.
      if (mesh.primitives[p].vertex_count() == 0) continue;
      if (!mesh.primitives[p].skinned()) {
        const Path mesh_path(kMeshesPath, size_t(node.mesh)), primitives(mesh_path, "primitives"),
            primitive(primitives, p), attributes(primitive, "attributes");
        return {Error::kMissingProperty,
                "node " + std::to_string(n) +
                    " has a skin: its mesh's primitives need JOINTS_0 "
                    "and WEIGHTS_0",
                Path(attributes, "JOINTS_0").ToString()};
      }
      const std::vector<uint16_t>& joints = mesh.primitives[p].influences.joints;
      // The largest index first (a vectorized loop); the offender is searched for only if any.
      uint16_t largest = 0;
      for (const uint16_t j : joints) largest = std::max(largest, j);
      if (largest < joint_count) continue;
      for (size_t i = 0; i < joints.size(); ++i) {
        if (joints[i] >= joint_count) {
          const Path mesh_path(kMeshesPath, size_t(node.mesh)), primitives(mesh_path, "primitives"),
              primitive(primitives, p), attributes(primitive, "attributes");
          return {Error::kInvalidReference,
                  "joint index " + std::to_string(joints[i]) + " but skin " +
                      std::to_string(node.skin) + " (used by node " + std::to_string(n) + ") has " +
                      std::to_string(joint_count) + " joints",
                  attributes.ToString() + "/JOINTS_" +
                      std::to_string(i % mesh.primitives[p].influences.influences_per_vertex / 4)};
        }
      }
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Animations

LoadStatus LoadSampler(LoadState& c, TapeObject so, const Path& sw, uint32_t animation,
                       AnimationSampler* sampler, uint32_t* output_accessor) {
  static constexpr std::string_view kKeys[] = {"input", "output", "interpolation"};
  enum { kInput, kOutput, kInterpolation };
  const Fields f(so, kKeys);
  uint32_t input = 0;
  SINEW_TRY(RequireIndex(f[kInput], sw, c.accessors.size(), &input));
  SINEW_TRY(RequireIndex(f[kOutput], sw, c.accessors.size(), output_accessor));
  SINEW_TRY(CheckReadable(c, input));
  SINEW_TRY(CheckReadable(c, *output_accessor));
  std::string_view interpolation = "LINEAR";
  SINEW_TRY(OptionalString(f[kInterpolation], sw, &interpolation));
  if (Equals(interpolation, "LINEAR")) {
    sampler->interpolation = Interpolation::kLinear;
  } else if (Equals(interpolation, "STEP")) {
    sampler->interpolation = Interpolation::kStep;
  } else if (Equals(interpolation, "CUBICSPLINE")) {
    sampler->interpolation = Interpolation::kCubicSpline;
  } else {
    return {Error::kInvalidValue, "unknown interpolation '" + std::string(interpolation) + "'",
            Path(sw, "interpolation").ToString()};
  }
  const Path iw(sw, "input");
  SINEW_TRY(CheckNonVertexComponents(c, input, kF32, 0, "animation input", iw));
  // Samplers that share key times in the file share their range of the clip's keys.
  LoadState::KeyTimes& shared = c.key_times[input];
  const uint64_t stamp = uint64_t{c.load} << 32 | (uint64_t{animation} + 1);
  if (shared.stamp == stamp) {
    sampler->input = {shared.offset, static_cast<size_t>(c.accessors[input].count)};
  } else {
    SINEW_TRY(AppendAccessorFloats(c, input, AccessorType::kScalar, iw, &c.keys, &sampler->input));
    const float* times = c.keys.data() + sampler->input.offset;
    // "time[0] >= 0.0" (the animation sampler's input, glTF 2.0 schema). Blender's exporter
    // wrote negative times for years, and the keys still say what the clip does: a warning, the
    // keys kept as they are (the clip's range starts at its first key).
    if (sampler->input.count > 0 && times[0] < 0.0f) {
      c.warnings->push_back({iw.ToString(), "key times start before 0 (key 0 is " +
                                                std::to_string(times[0]) +
                                                "), which glTF forbids; kept as they are"});
    }
    for (size_t k = 1; k < sampler->input.count; ++k) {
      if (!(times[k] > times[k - 1])) {
        return {Error::kInvalidValue,
                "key times must increase strictly (key " + std::to_string(k) + ")", iw.ToString()};
      }
    }
    shared = {stamp, sampler->input.offset};
  }
  if (sampler->interpolation == Interpolation::kCubicSpline && sampler->input.count < 2) {
    return {Error::kInvalidValue, "CUBICSPLINE needs at least 2 keys", iw.ToString()};
  }
  // The output's type is checked per channel (it depends on the path).
  const Accessor& out = c.accessors[*output_accessor];
  return AppendAccessorFloats(c, *output_accessor, out.type, Path(sw, "output"), &c.keys,
                              &sampler->output);
}

LoadStatus LoadChannel(LoadState& c, TapeObject co, const Path& where, const Path& cw,
                       Animation* anim, AnimationChannel* channel) {
  static constexpr std::string_view kKeys[] = {"sampler", "target"};
  enum { kSampler, kTarget };
  const Fields f(co, kKeys);
  SINEW_TRY(RequireIndex(f[kSampler], cw, anim->samplers.size(), &channel->sampler));
  TapeObject target;
  bool has_target = false;
  SINEW_TRY(OptionalObject(f[kTarget], cw, &target, &has_target));
  if (!has_target) return {Error::kMissingProperty, "required", Path(cw, "target").ToString()};
  const Path tw(cw, "target");
  static constexpr std::string_view kTargetKeys[] = {"node", "path"};
  enum { kNode, kPath };
  const Fields tf(target, kTargetKeys);
  SINEW_TRY(OptionalIndex(tf[kNode], tw, c.asset->nodes.size(), &channel->node));
  std::string_view path;
  SINEW_TRY(RequireString(tf[kPath], tw, &path));
  AnimationSampler& sampler = anim->samplers[channel->sampler];
  const uint32_t output_accessor = c.output_accessors[channel->sampler];
  const Accessor& out = c.accessors[output_accessor];
  AccessorType expected = AccessorType::kVec3;
  uint32_t components = 3;
  if (Equals(path, "translation") || Equals(path, "scale")) {
    channel->path = Equals(path, "scale") ? AnimationPath::kScale : AnimationPath::kTranslation;
  } else if (Equals(path, "rotation")) {
    channel->path = AnimationPath::kRotation;
    expected = AccessorType::kVec4;
    components = 4;
  } else if (Equals(path, "weights")) {
    channel->path = AnimationPath::kWeights;
    expected = AccessorType::kScalar;
    components = 0;
    if (channel->node >= 0) {
      const Node& node = c.asset->nodes[size_t(channel->node)];
      components = node.mesh < 0
                       ? 0
                       : static_cast<uint32_t>(
                             c.asset->meshes[size_t(node.mesh)].primitives[0].targets.size());
      // "Nodes that do not contain a mesh with morph targets MUST NOT be targeted with weights":
      // such a channel moves nothing. Ignored, with a warning.
      if (components == 0) {
        c.warnings->push_back({Path(tw, "node").ToString(),
                               "a weights channel on a node without a mesh with morph targets "
                               "moves nothing: ignored"});
        channel->node = -1;
        return {};
      }
    }
  } else {
    // Paths defined by extensions (e.g. KHR_animation_pointer) are not animated by sinew.
    c.warnings->push_back(
        {Path(tw, "path").ToString(), "path '" + std::string(path) + "' ignored"});
    channel->node = -1;
    return {};
  }
  // "A node with a matrix MUST NOT be the target of an animation": its matrix would win and the
  // clip would move nothing (weights, which are not part of the matrix, may be animated).
  if (channel->path != AnimationPath::kWeights && channel->node >= 0 &&
      c.asset->nodes[size_t(channel->node)].has_matrix) {
    return {Error::kInvalidValue,
            "node " + std::to_string(channel->node) + " has a matrix and cannot be animated",
            Path(tw, "node").ToString()};
  }
  const Path samplers_path(where, "samplers"), sampler_path(samplers_path, channel->sampler),
      ow(sampler_path, "output");
  const bool moves =
      channel->path == AnimationPath::kTranslation || channel->path == AnimationPath::kScale;
  SINEW_TRY(CheckNonVertexComponents(c, output_accessor,
                                     moves ? kF32 : (kF32 | kNormalizedRotation),
                                     moves ? kAnyQuantizedPosition : 0, "this animation path", ow));
  if (out.type != expected) {
    return {Error::kInvalidValue,
            "output accessor has the wrong type for '" + std::string(path) + "'", ow.ToString()};
  }
  const size_t keys = sampler.input.count;
  const size_t per_key = sampler.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (components != 0 && sampler.output.count != keys * per_key * components) {
    return {Error::kInvalidValue,
            std::to_string(sampler.output.count) + " output values for " + std::to_string(keys) +
                " keys of " + std::to_string(components) + " components",
            ow.ToString()};
  }
  if (sampler.components != 0 && components != 0 && sampler.components != components) {
    return {Error::kInvalidValue, "one sampler drives channels of different sizes", cw.ToString()};
  }
  if (components != 0) sampler.components = components;
  return {};
}

// "Within one animation, each target (a combination of node and path) MUST NOT be used more than
// once": which of the two would win is undefined. kInvalidValue at the later channel's target.
// `seen` holds, per node and path, (animation << 32 | channel) of the last channel that animated
// it: one pass over the channels, nothing cleared between animations.
LoadStatus CheckDistinctTargets(const Animation& anim, uint32_t animation,
                                const Path& channels_path, std::vector<uint64_t>* seen) {
  for (uint32_t c = 0; c < anim.channels.size(); ++c) {
    const AnimationChannel& ch = anim.channels[c];
    if (ch.node < 0) continue;
    uint64_t& last = (*seen)[size_t(ch.node) * 4 + size_t(ch.path)];
    if (last != UINT64_MAX && (last >> 32) == animation) {
      return {Error::kInvalidValue,
              "channel " + std::to_string(uint32_t(last)) + " already animates this node and path",
              Path(Path(channels_path, c), "target").ToString()};
    }
    last = (uint64_t{animation} << 32) | c;
  }
  return {};
}

// One animation object (animation i) into *anim: its samplers' keys, then its channels.
LoadStatus ReadAnimation(LoadState& c, TapeObject o, const Path& where, size_t i, Animation* anim) {
  static constexpr std::string_view kKeys[] = {"name", "samplers", "channels"};
  enum { kName, kSamplers, kChannels };
  const Fields f(o, kKeys);
  SINEW_TRY(OptionalString(f[kName], where, &anim->name));
  ObjectArray samplers, channels;
  SINEW_TRY(RequireObjects(f[kSamplers], where, &samplers));
  SINEW_TRY(RequireObjects(f[kChannels], where, &channels));
  anim->samplers.resize(samplers.size());
  c.output_accessors.resize(samplers.size());
  SINEW_TRY(samplers.ForEach([&](TapeObject so, const Path& sw, size_t si) -> LoadStatus {
    return LoadSampler(c, so, sw, static_cast<uint32_t>(i), &anim->samplers[si],
                       &c.output_accessors[si]);
  }));
  anim->keys.assign(c.keys.begin(), c.keys.end());  // one allocation per clip
  c.keys.clear();
  anim->channels.resize(channels.size());
  SINEW_TRY(channels.ForEach([&](TapeObject co, const Path& cw, size_t ci) -> LoadStatus {
    return LoadChannel(c, co, where, cw, anim, &anim->channels[ci]);
  }));
  return CheckDistinctTargets(*anim, uint32_t(i), Path(where, "channels"), &c.channel_targets);
}

LoadStatus LoadAnimations(LoadState& c, TapeObject root) {
  ObjectArray animations;
  SINEW_TRY(RootObjects(root, "animations", &animations));
  if (animations.size() == 0) return {};
  c.asset->animations.resize(animations.size());
  if (c.key_times.size() < c.accessors.size()) c.key_times.resize(c.accessors.size());
  c.keys.clear();
  c.channel_targets.assign(c.asset->nodes.size() * 4, UINT64_MAX);
  return animations.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    return ReadAnimation(c, o, where, i, &c.asset->animations[i]);
  });
}

// ---------------------------------------------------------------------------------------------

// A material's name and pbrMetallicRoughness.baseColorFactor (4 finite numbers; each outside
// [0, 1], which the spec forbids but changes no geometry, is clamped with a warning).
LoadStatus ReadMaterial(LoadState& c, TapeObject o, const Path& where, Material* out) {
  static constexpr std::string_view kKeys[] = {"name", "pbrMetallicRoughness"};
  enum { kName, kPbr };
  const Fields f(o, kKeys);
  SINEW_TRY(OptionalString(f[kName], where, &out->name));
  TapeObject pbr;
  bool has_pbr = false;
  SINEW_TRY(OptionalObject(f[kPbr], where, &pbr, &has_pbr));
  if (!has_pbr) return {};
  // baseColorTexture: named so that the lookup has two keys (textures are not loaded).
  static constexpr std::string_view kPbrKeys[] = {"baseColorFactor", "baseColorTexture"};
  const Path pbr_path(where, "pbrMetallicRoughness");
  const Fields pf(pbr, kPbrKeys);
  double rgba[4] = {1, 1, 1, 1};
  bool present = false;
  SINEW_TRY(OptionalNumbers(pf[0], pbr_path, std::span<double>(rgba), &present));
  float* dst = &out->base_color.x;
  for (size_t i = 0; i < 4; ++i) {
    if (rgba[i] < 0 || rgba[i] > 1) {
      c.warnings->push_back({Path(Path(pbr_path, "baseColorFactor"), i).ToString(),
                             "outside [0, 1]: clamped (the spec's range)"});
    }
    dst[i] = float(std::clamp(rgba[i], 0.0, 1.0));
  }
  return {};
}

LoadStatus CheckAssetAndExtensions(LoadState& c, TapeObject root) {
  static constexpr std::string_view kKeys[] = {"asset", "extensionsUsed", "extensionsRequired",
                                               "materials"};
  enum { kAsset, kExtensionsUsed, kExtensionsRequired, kMaterials };
  const Fields f(root, kKeys);
  TapeObject asset;
  bool has_asset = false;
  SINEW_TRY(OptionalObject(f[kAsset], kDocumentRoot, &asset, &has_asset));
  if (!has_asset) return {Error::kMissingProperty, "required", "/asset"};
  static constexpr std::string_view kAssetKeys[] = {"version", "minVersion"};
  enum { kVersion, kMinVersion };
  const Fields af(asset, kAssetKeys);
  const Path asset_path(kDocumentRoot, "asset");
  std::string_view version;
  SINEW_TRY(RequireString(af[kVersion], asset_path, &version));
  if (version.size() < 2 || version.substr(0, 2) != "2.") {
    return {Error::kUnsupportedFeature,
            "glTF version " + std::string(version) + " (sinew reads 2.x)", "/asset/version"};
  }
  std::string_view min_version;
  bool has_min = false;
  SINEW_TRY(OptionalString(af[kMinVersion], asset_path, &min_version, &has_min));
  if (has_min && min_version != "2.0") {
    return {Error::kUnsupportedFeature, "minVersion " + std::string(min_version),
            "/asset/minVersion"};
  }
  // Which of the extensions sinew reads are used and required, one bit each (kSupportedExtensions'
  // order): the lists may be long, so each name is looked up once, among those few.
  const auto bit_of = [](std::string_view name) -> uint32_t {
    const auto found =
        std::find(std::begin(kSupportedExtensions), std::end(kSupportedExtensions), name);
    return found == std::end(kSupportedExtensions)
               ? 0u
               : 1u << uint32_t(found - std::begin(kSupportedExtensions));
  };
  const uint32_t quantization = bit_of("KHR_mesh_quantization");
  uint32_t used_bits = 0, required_bits = 0, warned_bits = 0;
  std::vector<std::string_view> names;
  SINEW_TRY(OptionalStrings(f[kExtensionsUsed], kDocumentRoot, &names));
  for (const std::string_view name : names) {
    c.asset->extensions_used.emplace_back(name);
    used_bits |= bit_of(name);
  }
  SINEW_TRY(OptionalStrings(f[kExtensionsRequired], kDocumentRoot, &names));
  const Path required(kDocumentRoot, "extensionsRequired");
  for (size_t i = 0; i < names.size(); ++i) {
    const uint32_t bit = bit_of(names[i]);
    if (bit == 0) {
      return {Error::kUnsupportedExtension,
              "required extension " + std::string(names[i]) + " is not supported by sinew",
              Path(required, i).ToString()};
    }
    required_bits |= bit;
    // "All values in extensionsRequired MUST also exist in extensionsUsed": a slip that changes
    // nothing sinew reads. Once per extension.
    if ((used_bits & bit) == 0 && (warned_bits & bit) == 0) {
      warned_bits |= bit;
      c.warnings->push_back(
          {Path(required, i).ToString(),
           std::string(names[i]) + " is required but not listed in extensionsUsed, as glTF asks"});
    }
  }
  // Quantized attributes are read when the extension is named in either list.
  c.quantized = ((used_bits | required_bits) & quantization) != 0;
  // KHR_mesh_quantization "must" be required where used: a reader without it would misread the
  // quantized attributes. sinew reads them either way.
  if ((used_bits & quantization) != 0 && (required_bits & quantization) == 0) {
    c.warnings->push_back({"/extensionsUsed",
                           "KHR_mesh_quantization is used but not in extensionsRequired, as the "
                           "extension asks: readers without it would misread the file"});
  }
  ObjectArray materials;
  SINEW_TRY(OptionalObjects(f[kMaterials], kDocumentRoot, &materials));
  c.material_count = materials.size();
  return materials.ReadInto(&c.asset->materials,
                            [&](TapeObject o, const Path& where, Material* m) -> LoadStatus {
                              return ReadMaterial(c, o, where, m);
                            });
}

}  // namespace

struct GltfLoader::Parser {
  simdjson::dom::parser dom;
  LoadState scratch;
};

GltfLoader::GltfLoader() : parser_(std::make_unique<Parser>()) {}
GltfLoader::~GltfLoader() = default;
GltfLoader::GltfLoader(GltfLoader&&) noexcept = default;
GltfLoader& GltfLoader::operator=(GltfLoader&&) noexcept = default;

Result<LoadedAsset> GltfLoader::LoadFromMemory(std::span<const uint8_t> bytes,
                                               const std::filesystem::path& base_dir,
                                               const GltfOptions& options) {
  LoadedAsset out;
  LoadState& c = parser_->scratch;
  c.Reset(options, base_dir, &out);
  c.input_bytes = bytes.size();
  std::span<const uint8_t> json = bytes;
  if (gltf::IsGlb(bytes)) {
    SINEW_TRY_ASSIGN(const auto chunks, gltf::ParseGlb(bytes));
    json = chunks.json;
    c.glb_bin = chunks.bin;
    c.has_glb_bin = chunks.has_bin;
    if (chunks.trailing) {
      c.warnings->push_back(
          {"byte " + std::to_string(bytes.size() - chunks.trailing),
           std::to_string(chunks.trailing) + " bytes after the GLB's declared length are ignored"});
    }
  }
  const bool glb = json.data() != bytes.data();
  SkipByteOrderMark(&json, std::string(JsonContext(glb)) + "byte 0", c.warnings);
  // The caller guarantees ReadPadding() readable bytes after `bytes`, hence after `json` too.
  if (const auto error = parser_->dom.parse(json.data(), json.size(), false).error(); error) {
    return JsonSyntaxError(json, error, JsonContext(glb));
  }
  TapeObject root;
  SINEW_TRY(AsObject(TapeValue::Root(parser_->dom), kDocumentRoot, &root));
  SINEW_TRY(CheckAssetAndExtensions(c, root));
  SINEW_TRY(gltf::LoadVariantNames(root, c.asset));
  SINEW_TRY(LoadBuffers(c, root));
  SINEW_TRY(LoadViews(c, root));
  SINEW_TRY(LoadAccessors(c, root));
  SINEW_TRY(LoadNodes(c, root, ArraySize(root, "meshes"), ArraySize(root, "skins")));
  SINEW_TRY(LoadScenes(c, root));
  SINEW_TRY(LoadMeshes(c, root));
  SINEW_TRY(LoadSkins(c, root));
  SINEW_TRY(CheckSkinnedNodes(c));
  SINEW_TRY(LoadAnimations(c, root));
  WarnUnread(c);
  SINEW_TRY(UseLayout(out.asset, options.influences, options.dense_k, "primitives"));
  return out;
}

namespace {

size_t CountValues(TapeValue v) {
  size_t n = 1;
  if (TapeArray a; GetArray(v, &a)) {
    for (const TapeValue child : a) n += CountValues(child);
  } else if (TapeObject o; GetObject(v, &o)) {
    for (const TapeKeyValue field : o) n += CountValues(field.value);
  }
  return n;
}

}  // namespace

Result<GltfLoader::JsonParseStats> GltfLoader::ParseJsonOnly(std::span<const uint8_t> bytes,
                                                             bool count_values) {
  std::span<const uint8_t> json = bytes;
  if (gltf::IsGlb(bytes)) {
    SINEW_TRY_ASSIGN(const auto chunks, gltf::ParseGlb(bytes));
    json = chunks.json;
  }
  const bool glb = json.data() != bytes.data();
  std::vector<Warning> not_reported;  // a byte-order mark is skipped as Load skips it
  SkipByteOrderMark(&json, std::string(JsonContext(glb)) + "byte 0", &not_reported);
  // The baseline: simdjson's DOM parse, the document's root element taken as a user would.
  simdjson::dom::element doc;
  if (auto error = parser_->dom.parse(json.data(), json.size(), false).get(doc); error) {
    return JsonSyntaxError(json, error, JsonContext(glb));
  }
  JsonParseStats stats;
  stats.json_bytes = json.size();
  if (count_values) stats.values = CountValues(TapeValue::Root(parser_->dom));
  return stats;
}

Result<LoadedAsset> GltfLoader::Load(const std::filesystem::path& path,
                                     const GltfOptions& options) {
  SINEW_TRY_ASSIGN(const FileBytes file, ReadFileWith(options.read_file, path));
  return LoadFromMemory({file.data(), file.size}, path.parent_path(), options);
}

Result<LoadedAsset> LoadGltf(const std::filesystem::path& path, const GltfOptions& options) {
  return GltfLoader().Load(path, options);
}

Result<LoadedAsset> LoadGltfFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& base_dir,
                                       const GltfOptions& options) {
  return GltfLoader().LoadFromMemory(bytes, base_dir, options);
}

}  // namespace sinew::loader
