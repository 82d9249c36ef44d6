// The in-memory model of one .usda layer (docs/usda.md, "The model"), its prims' references and
// payloads kept for compose_stage.h to compose: its metadata and its prims by path, each with
// its metadata, attributes (typed defaults and time samples) and relationships. Format-level only:
// what UsdSkel means by these is the business of the layer built on top of it. Paths in the model
// (prim paths, relationship targets, connections) are absolute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sinew/core/error.h"
#include "sinew/loader/loaded_asset.h"
#include "usd/value.h"

namespace sinew::loader::usd {

// The keyword in front of a list edit; kExplicit when there is none.
enum class ListOpKind : uint8_t { kExplicit, kAdd, kPrepend, kAppend, kDelete, kReorder };

// "prepend", "append", ... ("" for kExplicit).
std::string_view Keyword(ListOpKind kind) noexcept;

// A list edit of tokens or paths (apiSchemas, relationship targets, connections): each keyword's
// items as written. `None` as the value is an explicit empty list.
struct ListOp {
  std::vector<std::string> explicit_items, added, prepended, appended, deleted, ordered;
  uint8_t written = 0;  // Bit 1 << ListOpKind per statement written (its list may be empty).

  std::vector<std::string>& Items(ListOpKind kind) noexcept;
  const std::vector<std::string>& Items(ListOpKind kind) const noexcept;
  // Whether a statement with `kind` was written.
  bool Has(ListOpKind kind) const noexcept { return written & (1u << unsigned(kind)); }
  // The list this layer alone makes, applied to an empty list as USD applies list edits: the
  // explicit items when written; else the prepended items, then the added ones, then the appended
  // ones (an item both prepended and appended ends last), then the reorder (ApplyReorder).
  // Deletes edit weaker layers' lists only, so they change nothing here. Each item once.
  std::vector<std::string> Resolved() const;
};

// Applies a `reorder` to a list of distinct items, as Sdf reorders one: each item `order` names
// moves, with the items after it that `order` does not name, to where `order` puts it; the
// items before the first named one stay in front, and names the list lacks are passed over.
// ([a, b, c, d, e] reordered [c, a] is [c, d, e, a, b].)
void ApplyReorder(const std::vector<std::string>& order, std::vector<std::string>* list);

// A metadata entry the reader keeps as written, beyond the fields it names.
struct MetadataEntry {
  std::string key;
  ListOpKind op = ListOpKind::kExplicit;  // The list-op keyword in front of the key, if any.
  Value value;
  size_t offset = 0;  // Byte offset of the key in the text.
};

// Metadata in file order.
struct Metadata {
  std::vector<MetadataEntry> entries;

  // The first entry for `key` (with any list-op keyword); null when there is none.
  const MetadataEntry* Find(std::string_view key) const noexcept;
};

// A value at one time code.
struct TimeSample {
  double time = 0;
  Value value;  // blocked for `None`
};

enum class Variability : uint8_t { kVarying, kUniform, kConfig };

// An attribute spec. A prim's declarations of one name (a default on one line, `.timeSamples` or
// `.connect` on others) are merged into one Attribute; what a later declaration writes again (a
// default, time samples, a metadata key) replaces what an earlier one wrote, as USD reads it.
struct Attribute {
  std::string name;  // with its namespaces: "primvars:skel:jointIndices"
  ValueType type = ValueType::kFloat;
  bool array = false;  // declared with "[]"
  bool custom = false;
  Variability variability = Variability::kVarying;
  std::optional<Value> default_value;    // `= value` (blocked for `= None`)
  bool has_time_samples = false;         // `.timeSamples = { ... }` written (may be empty)
  std::vector<TimeSample> time_samples;  // sorted by time; one per time (the last written)
  // Whether the time samples all hold one value, unblocked (compared bit for bit): set by
  // Layer::IndexProperties, read by UnvaryingValue (time_sampling.h).
  bool samples_agree = false;
  ListOp connections;  // `.connect`: absolute property paths
  // Metadata the reader names (absent: empty / nullopt), then the rest as written.
  std::string interpolation;            // "vertex", "constant", ...
  std::optional<int32_t> element_size;  // elementSize
  std::optional<float> weight;          // an in-between's weight (UsdSkel)
  std::string doc;
  Metadata metadata;
  size_t offset = 0;  // Byte offset of the first declaration in the text.

  // The default when one is written and not blocked; null otherwise.
  const Value* UnblockedDefault() const noexcept;
  // Whether the default is written `= None` (a block: "no value", not a fallback).
  bool BlockedDefault() const noexcept;
  // USD's HasAuthoredValue: time samples, or a default that is not blocked.
  bool HasAuthoredValue() const noexcept;
};

// A relationship spec; its statements (explicit, prepend, append, ...) merged into one, a later
// statement with the same keyword replacing an earlier one's targets.
struct Relationship {
  std::string name;
  bool custom = false;
  Variability variability = Variability::kVarying;
  ListOp targets;  // absolute paths
  std::string doc;
  Metadata metadata;
  size_t offset = 0;  // Byte offset of the first declaration in the text.
};

enum class Specifier : uint8_t { kDef, kOver, kClass };

// How the time codes of a layer brought in (a sublayer, or a referenced layer) land where it is
// brought: a time code t there is `offset + scale · t` here (SdfLayerOffset's meaning). `scale`
// is positive: the readers refuse any other.
struct LayerOffset {
  double offset = 0, scale = 1;

  double Apply(double t) const noexcept { return offset + scale * t; }
  // What is wrong with it, or null, with the error's code in *code: numbers that are not finite or
  // a scale without a finite inverse (0, or so small that its inverse overflows: USD refuses such
  // an offset), kInvalidValue; a negative scale (time running backwards, where held samples would
  // have to hold the other way, which sinew does not compose), kUnsupportedFeature.
  const char* Fault(Error* code) const noexcept;
  // `this` after `inner`: t ↦ this->Apply(inner.Apply(t)).
  LayerOffset After(const LayerOffset& inner) const noexcept {
    return {offset + scale * inner.offset, scale * inner.scale};
  }
};

// One item of a prim's `references` or `payload` (`@file.usda@</Prim>`, `@file.usda@`, `</Prim>`,
// each with an optional `(offset = 10; scale = 2)`): `asset` as written ("" for a prim of this
// layer), `prim` absolute ("" for the referenced layer's defaultPrim).
struct Reference {
  std::string asset, prim;
  LayerOffset time;
  size_t offset = 0;  // Byte offset of the item in the text.
};

// One item of a layer's `subLayers`: the asset path as written and its layer offset.
struct SubLayer {
  std::string asset;
  LayerOffset time;
  size_t offset = 0;  // Byte offset of the item in the text.
};

// A prim's references, or its payloads: one list edit, as Sdf holds it — an explicit list, or
// edits of the list weaker opinions make. Both readers fill it; the .usda reader from the
// statements in order (Set), as Sdf builds one.
struct ReferenceList {
  bool is_explicit = false;  // an explicit list was written (its items may be none)
  std::vector<Reference> explicit_items, added, prepended, appended, deleted;

  // One statement: its items replace those an earlier statement of the same kind wrote, and a
  // statement that switches between an explicit list and edits clears everything before it. A
  // reorder (which Sdf no longer applies to references) sets only the mode.
  void Set(ListOpKind kind, std::vector<Reference> items);
  // Whether it names a reference to bring in (an explicit list with items, or items added,
  // prepended or appended).
  bool BringsAny() const noexcept {
    return !explicit_items.empty() || !added.empty() || !prepended.empty() || !appended.empty();
  }
  // Whether any statement was written (an explicit list, even empty, or any edit).
  bool Written() const noexcept { return is_explicit || BringsAny() || !deleted.empty(); }
};

// One entry of a prim's `variants` metadata: the variant selected in one of its variant sets.
struct VariantSelection {
  std::string set, variant;
};

// The path of a variant's contents in the model: `prim` with the selection appended,
// "/Root{lod=high}" (a variant set's own path, with `variant` empty, "/Root{lod=}").
inline std::string VariantPath(std::string_view prim, std::string_view set,
                               std::string_view variant) {
  std::string path(prim);
  path += '{';
  path.append(set);
  path += '=';
  path.append(variant);
  path += '}';
  return path;
}

// A prim's variant sets: the sets its `variantSets` declares, the variants its `variants`
// selects, and its variants' contents (its `variantSet` blocks). Few prims have any, so a Prim
// holds them apart.
struct PrimVariants {
  ListOp sets;
  std::vector<VariantSelection> selections;  // by set name, each set once (as Sdf keeps them)
  std::vector<uint32_t> contents;            // Indices in Layer::prims.
};

// A prim spec, or a variant's contents (a `variantSet` block's "name" { ... }): the latter has
// the path of the prim that holds it with the selection appended ("/Root{lod=high}", its own
// prims below it as "/Root{lod=high}/Body"), is an `over`, and is listed in that prim's
// `variants`, not among its children.
struct Prim {
  Specifier specifier = Specifier::kDef;
  std::string type_name;  // "" when none is written
  std::string name;
  std::string path;                // "/Root/Skeleton"
  int32_t parent = -1;             // Index in Layer::prims; -1 for a root prim.
  std::vector<uint32_t> children;  // Indices in Layer::prims: in file order as read, in
                                   // composed order after ComposeStage.
  // Metadata the reader names (absent: empty / nullopt), then the rest as written.
  std::string kind;
  ListOp api_schemas;
  std::optional<bool> active, instanceable;
  std::string doc;
  Metadata metadata;
  std::vector<Attribute> attributes;        // in file order (of first declarations)
  std::vector<Relationship> relationships;  // in file order
  ReferenceList references, payloads;       // composed by compose_stage.h
  // Null when it has none; shared by copies of the prim (the readers fill it, nothing else
  // changes it).
  std::shared_ptr<PrimVariants> variants;
  // `inherits` and `specializes`: the classes' absolute prim paths, composed by compose_stage.h.
  // Null when none is written (most prims: kept out of line, as the variants are); shared as they
  // are.
  std::shared_ptr<ListOp> inherits, specializes;
  std::vector<std::string> child_order;     // `reorder nameChildren = [...]`
  std::vector<std::string> property_order;  // `reorder properties = [...]`
  size_t offset = 0;                        // Byte offset of the specifier in the text.
  // Indices of `attributes` and `relationships` in the order of their names, for the Find
  // functions' binary search (Layer::IndexProperties; both readers fill them). Binding resolution
  // looks up a handful of names at every ancestor of every mesh: the index keeps a file with very
  // many properties on an ancestor of very many meshes from loading in quadratic time.
  std::vector<uint32_t> attributes_by_name, relationships_by_name;

  // The attribute or relationship of that name; null when there is none. A binary search while
  // the index covers every property, a scan otherwise (properties added after IndexProperties).
  const Attribute* FindAttribute(std::string_view name) const noexcept;
  const Relationship* FindRelationship(std::string_view name) const noexcept;
  // Its variants, made when there are none yet (for the readers).
  PrimVariants& MakeVariants() {
    if (!variants) variants = std::make_shared<PrimVariants>();
    return *variants;
  }
};

// A stage's upAxis and metersPerUnit as UsdGeom reads what is authored (empty / nullopt when
// unauthored): "Y" or "Z" as written, else its fallback "Y"; a positive finite metersPerUnit as
// written, else its fallback 0.01.
std::string_view UpAxisOrFallback(std::string_view authored);
double MetersPerUnitOrFallback(std::optional<double> authored);

// One layer, as ReadUsda (usda_parser.h) builds it.
struct Layer {
  // Layer metadata the reader names (absent: nullopt / empty), then the rest as written.
  std::optional<double> time_codes_per_second, frames_per_second, start_time_code, end_time_code,
      meters_per_unit;
  std::string up_axis, default_prim, doc;
  Metadata metadata;
  // The layers under this one, strongest first (compose_stage.h composes them).
  std::vector<SubLayer> sub_layers;

  // timeCodesPerSecond as USD reads a layer's: authored, else framesPerSecond where that is
  // authored (SdfLayer's dynamic fallback); nullopt when neither is (USD's fallback is 24).
  std::optional<double> TimeCodesPerSecond() const noexcept {
    return time_codes_per_second ? time_codes_per_second : frames_per_second;
  }
  // TimeCodesPerSecond, or USD's fallback where neither is authored.
  double TimeCodesPerSecondOrFallback() const noexcept { return TimeCodesPerSecond().value_or(24); }

  std::vector<Prim> prims;              // every prim, depth first (composed order after
                                        // ComposeStage, reorders applied)
  std::vector<uint32_t> roots;          // the root prims' indices
  std::vector<std::string> root_order;  // `reorder rootPrims = [...]`

  // Sorts each prim's property names into Prim::attributes_by_name and relationships_by_name, and
  // sets each attribute's samples_agree; the readers call it once their prims are complete. Names
  // are unique per prim and kind (both readers refuse or merge a second declaration).
  void IndexProperties();

  // The prim at an absolute path ("/Root/Skeleton"); null when there is none.
  const Prim* FindPrim(std::string_view path) const;
  // The attribute or relationship at "/prim/path.name"; null when there is none.
  const Attribute* FindAttribute(std::string_view property_path) const;
  const Relationship* FindRelationship(std::string_view property_path) const;

  // Prim path -> index in prims (filled by the reader, with the prims).
  std::unordered_map<std::string, uint32_t> prim_index;

  // In a layer ComposeStage composed: each composed prim's variant sets, the variants they hold and
  // the one each took (LoadedAsset::variant_sets). Empty in a layer as read.
  std::vector<UsdVariantSet> variant_sets;
};

}  // namespace sinew::loader::usd
