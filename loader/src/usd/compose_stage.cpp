#include "usd/compose_stage.h"

#include "common/load_status.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace sinew::loader::usd {
namespace {

constexpr int kMaxReferenceDepth = 32;  // also the deepest nesting of sublayers
constexpr size_t kMaxNamespaceDepth = 256;

// Maps a path from a referenced prim's namespace to where the prim lands: `from` → `to`. A path
// outside `from` keeps its place when the reference is within one layer (`keep_outside`), and
// has none when it points into another layer's prims that were not brought in.
struct PathStep {
  std::string from, to;
  bool keep_outside = false;
};

// A layer of a layer stack (a layer and its sublayers, strongest first, each layer once), and how
// its time codes land on those of the stack's first layer.
struct StackLayer {
  const Layer* layer = nullptr;
  const std::string* name = nullptr;
  LayerOffset time;
};
using LayerStack = std::vector<StackLayer>;

// One opinion of a composed prim: a prim of a layer of some layer stack, the steps that take its
// paths to the composed layer (innermost first), and how its time codes land on the composed
// layer's.
struct Spec {
  const StackLayer* member = nullptr;
  const Prim* prim = nullptr;
  std::shared_ptr<const std::vector<PathStep>> map;
  LayerOffset time;
  bool inherited = false;  // a class's own spec, inherited by the composed prim itself
};

// The opinions at one prim path of one layer stack — each of its layers' prim there (a node, in
// Pcp's words) — in the stack's own namespace and time, and below them, strongest first, the
// trees that arcs bring for that path: the prim's own arcs and those of its ancestors, descended
// to it. Worked out once per stack and path (Composer::TreeAt).
struct Tree;
// Strongest first; specializes are weaker than every other arc of the whole prim (Flatten defers
// them).
enum class ArcKind : uint8_t { kInherit, kReference, kPayload, kSpecialize };
struct Branch {
  std::shared_ptr<const Tree> tree;
  ArcKind kind = ArcKind::kReference;
  uint32_t depth = 0;  // the namespace depth of the prim whose arc brought it
  // The tree's paths into this one's namespace (innermost first), and its times onto this one's.
  std::shared_ptr<const std::vector<PathStep>> steps;
  LayerOffset time;
  // A class of this stack that USD implies (Composer::AddImpliedClasses): Flatten composes it
  // once everything else of the prim is in, and lets it add only what nothing else brought.
  bool implied = false;
  // For a specialized class: the classes of this stack that its hierarchy in the stack that
  // implies them puts under it (what it inherits there, and so on; their steps map onto this
  // tree's path). They rank under it, right after its own opinions and above what its own arcs
  // bring, as Pcp adds an implied class's hierarchy under it, where the rest of the prim would
  // otherwise rank them after those arcs: the specialized classes are flattened last, when what
  // their arcs bring is not in the prim's stack yet. (An inherited class's hierarchy keeps its
  // place beside it: Flatten leaves implied inherits until what the arcs bring is in.)
  const std::vector<Branch>* within = nullptr;  // (kept by Composer, as long as the trees)
  // For an implied class, the class it is implied from as its own stack writes it (a tree
  // Flatten meets through an arc of that stack's prim): a specialized one takes its place among
  // the specialized classes (Composer::Emit).
  const Tree* origin = nullptr;
};
// A class a tree's prim inherits (or specializes), directly, through a class, or through what
// an arc brings: its path in the tree's namespace (it lands on the tree's own path), and how
// many levels below the prim whose arc it is the tree's prim is (0 for the prim's own arc).
// `kind` ranks it among the prim's classes (whatever a specialized class inherits ranks as
// specialized); `arc` is its own arc from `parent`, the site of the class whose hierarchy it is
// in (that inherits or specializes it), kNone for a class on the tree's prim itself.
struct ClassSite {
  static constexpr uint32_t kNone = ~uint32_t(0);
  std::string path;
  uint16_t below = 0;  // (a namespace depth: at most kMaxNamespaceDepth)
  ArcKind kind = ArcKind::kInherit;
  ArcKind arc = ArcKind::kInherit;
  uint32_t parent = kNone;
  const Tree* origin = nullptr;  // (Branch::origin)
};
struct Tree {
  const LayerStack* stack = nullptr;
  std::string path;
  size_t depth = 0;  // the path's namespace depth (its '/'s, a variant's braces not counted)
  std::vector<std::pair<const StackLayer*, const Prim*>> specs;  // strongest first
  std::vector<Branch> branches;                                  // strongest first
  // The variant sets its specs declare (their `variantSets` composed), and the trees of this
  // stack at this path and its ancestors (up to a variant's own path) that declare any, this
  // one first: where the variants that hold opinions of this path are chosen. Which variant is
  // chosen depends on the composed prim (Composer::Emit), so those branches are not in
  // `branches`: Composer::Flatten adds them.
  std::vector<std::string> variant_sets;
  std::vector<const Tree*> variant_owners;
  // The classes its prim inherits or specializes, each path once (Composer::AddImpliedClasses).
  std::vector<ClassSite> class_sites;
  int height = 0;     // the most arcs followed down from here
  bool empty = true;  // no opinion here nor in any branch, and no variant that could hold one
};

// A variant set of a tree, where the tree stands in the composed prim's ancestry: the same tree
// (an asset referenced at two levels) may choose differently at each.
struct VariantKey {
  const Tree* tree;
  std::string at;  // the composed prim path the tree's prim lands on
  std::string set;
  auto operator<=>(const VariantKey&) const = default;
};
// The variant chosen in each set met so far, for one composed prim and its ancestors ("" for
// none); the sets of this prim met with none chosen yet, strongest first; those for which no
// opinion selected one, which a variant chosen later may yet select (as Pcp retries them), and
// among them those that wait for a fallback (and which); and every set of this prim met in the
// last pass, strongest first.
struct Variants {
  std::map<VariantKey, std::string> chosen;
  std::vector<VariantKey> open;
  std::vector<VariantKey> none_found;
  std::vector<std::pair<VariantKey, std::string>> fallbacks;
  std::vector<VariantKey> met;

  // The sets waiting for a selection or a fallback are open again (Pcp retries them once a
  // variant is added: it may select for them).
  void Reopen() {
    for (const VariantKey& k : none_found) chosen.erase(k);
    for (const auto& [k, v] : fallbacks) chosen.erase(k);
    none_found.clear();
    fallbacks.clear();
  }
};

// The variant `prim` selects in `set` (its `variants`), if it selects one.
const std::string* Selection(const Prim& prim, std::string_view set) {
  if (!prim.variants) return nullptr;
  for (const VariantSelection& s : prim.variants->selections) {
    if (s.set == set) return &s.variant;
  }
  return nullptr;
}

// The variant the strongest opinion of `tree` and what its arcs bring selects in `set`, if any
// does (each tree once: `seen`).
const std::string* SelectionIn(const Tree& tree, std::string_view set,
                               std::unordered_set<const Tree*>* seen) {
  if (!seen->insert(&tree).second) return nullptr;
  for (const auto& spec : tree.specs) {
    if (const std::string* s = Selection(*spec.second, set)) return s;
  }
  for (const Branch& b : tree.branches) {
    if (const std::string* s = SelectionIn(*b.tree, set, seen)) return s;
  }
  return nullptr;
}

// The variants the specs of `tree` hold in `set`, by name, each once (as Pcp gathers a set's
// variants over the layers of a stack). A variant's contents are named after the variant.
std::vector<std::string> VariantNames(const Tree& tree, std::string_view set) {
  std::vector<std::string> names;
  for (const auto& [member, prim] : tree.specs) {
    if (!prim->variants) continue;
    for (const uint32_t c : prim->variants->contents) {
      const Prim& variant = member->layer->prims[c];
      if (variant.path == VariantPath(prim->path, set, variant.name)) {
        names.push_back(variant.name);
      }
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// `path` without its variant selections: "/A{lod=high}/B" is "/A/B", where a variant's prim
// lands.
std::string WithoutVariants(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '{') {
      out += path[i];
      continue;
    }
    const size_t close = path.find('}', i);
    if (close == std::string_view::npos) break;
    i = close;
  }
  return out;
}

// The path whose tree holds what `path`'s ancestors bring it ("/A" for "/A/B", "/A{v=x}" for
// "/A{v=x}/B"); "" for a root prim and for a variant's contents ("/A{v=x}"), whose prim's own
// tree holds that.
std::string ParentTreePath(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == 0 || slash == std::string_view::npos || path.back() == '}') return {};
  return std::string(path.substr(0, slash));
}

// Whether `path` (of a prim or a property) is `prim` or lies below it.
bool Within(std::string_view path, std::string_view prim) {
  return path.starts_with(prim) &&
         (path.size() == prim.size() || path[prim.size()] == '/' || path[prim.size()] == '.');
}

// `path` mapped by `steps`; nullopt where it has no place in the composed layer. A path outside
// a step's `from` that keeps its place must not land inside its `to`, where the step's own
// mapping has the better claim (Pcp's map functions drop such a path: a class's relationship to
// </A/y> means nothing once the class lands on /A); a variant's step, whose paths are the prim's
// own, keeps them all.
std::optional<std::string> MapPath(const std::vector<PathStep>& steps, std::string path) {
  for (const PathStep& step : steps) {
    if (Within(path, step.from)) {
      path = step.to + path.substr(step.from.size());
    } else if (!step.keep_outside ||
               (Within(path, step.to) && step.from.find('{') == std::string::npos)) {
      return std::nullopt;
    }
  }
  return path;
}

// A class's `path` mapped by `steps` (innermost first) as Pcp carries a class across arcs: a path
// inside a step's `from` takes its `to`, one outside keeps its place, whatever the step (Pcp
// adds the root to every class's map: a global class stays global across a reference).
std::string ClassPathAcross(std::span<const PathStep> steps, std::string path) {
  for (const PathStep& step : steps) {
    if (Within(path, step.from)) path = step.to + path.substr(step.from.size());
  }
  return path;
}

// Applies one spec's list edit to the list its weaker opinions made, as USD composes list ops:
// an explicit list replaces it; else deletes, adds, prepends (moved to the front, in order),
// appends (moved to the back) and a reorder (ApplyReorder, layer.h). Items go through `map` first;
// those without a place are dropped.
template <typename Map>
void ApplyListOp(const ListOp& op, Map&& map, std::vector<std::string>* list) {
  const auto mapped = [&](const std::vector<std::string>& items) {
    std::vector<std::string> out;
    for (const std::string& item : items) {
      if (std::optional<std::string> m = map(item)) out.push_back(std::move(*m));
    }
    return out;
  };
  if (op.Has(ListOpKind::kExplicit)) {
    *list = mapped(op.explicit_items);
    return;
  }
  // Each pass over the list is one, with the items it concerns in a hash set.
  const auto remove = [&](const std::vector<std::string>& items) {
    if (items.empty()) return;
    const std::unordered_set<std::string_view> gone(items.begin(), items.end());
    std::erase_if(*list, [&](const std::string& item) { return gone.contains(item); });
  };
  remove(mapped(op.deleted));
  const std::vector<std::string> added = mapped(op.added);
  {
    std::unordered_set<std::string_view> present(list->begin(), list->end());
    std::vector<std::string> fresh;
    for (const std::string& item : added) {
      if (present.insert(item).second) fresh.push_back(item);
    }
    list->insert(list->end(), std::make_move_iterator(fresh.begin()),
                 std::make_move_iterator(fresh.end()));
  }
  const std::vector<std::string> front = mapped(op.prepended);
  const std::vector<std::string> back = mapped(op.appended);
  remove(front);
  list->insert(list->begin(), front.begin(), front.end());
  remove(back);  // an item both prepended and appended ends last
  list->insert(list->end(), back.begin(), back.end());
  ApplyReorder(mapped(op.ordered), list);
}

ListOp ExplicitList(std::vector<std::string> items) {
  ListOp op;
  op.explicit_items = std::move(items);
  op.written = uint8_t(1u << unsigned(ListOpKind::kExplicit));
  return op;
}

// What a list edit of references compares, as Pcp compares them: a reference's asset path
// resolved against the layer that writes it (the same file named from two folders is one item,
// and one name meaning two files is two), its prim path and its layer offset.
std::string Key(const Reference& r, const std::string& anchor) {
  std::string key = r.asset.empty() ? std::string() : ResolveAssetPath(anchor, r.asset);
  key += '\n';
  key += r.prim;
  key += '\n';
  for (const double d : {r.time.offset, r.time.scale}) {
    char bytes[sizeof d];
    std::memcpy(bytes, &d, sizeof d);
    key.append(bytes, sizeof d);
  }
  return key;
}

// A reference or payload, which of a node's specs wrote it, and its Key.
struct Arc {
  size_t spec;
  const Reference* ref;
  std::string key;
  bool payload = false;
};

// Applies one opinion's list edit of references (or payloads), written by the node's spec `spec`
// in the layer named `anchor`, to the list that weaker opinions of the same node made, as
// ApplyListOp does for tokens: an explicit list replaces it; else deletes, adds, prepends (moved
// to the front, in order) and appends (moved to the back).
void ApplyReferenceEdits(const ReferenceList& op, size_t spec, const std::string& anchor,
                         std::vector<Arc>* list) {
  const auto arcs = [&](const std::vector<Reference>& items) {
    std::vector<Arc> out;
    for (const Reference& r : items) out.push_back({spec, &r, Key(r, anchor)});
    return out;
  };
  if (op.is_explicit) {
    *list = arcs(op.explicit_items);
    return;
  }
  const auto remove = [&](const std::vector<Arc>& items) {
    if (items.empty()) return;
    std::unordered_set<std::string_view> gone;
    for (const Arc& a : items) gone.insert(a.key);
    std::erase_if(*list, [&](const Arc& a) { return gone.contains(a.key); });
  };
  remove(arcs(op.deleted));
  {
    std::unordered_set<std::string> present;
    for (const Arc& a : *list) present.insert(a.key);
    for (Arc& a : arcs(op.added)) {
      if (present.insert(a.key).second) list->push_back(std::move(a));
    }
  }
  const std::vector<Arc> front = arcs(op.prepended);
  remove(front);
  list->insert(list->begin(), front.begin(), front.end());
  const std::vector<Arc> back = arcs(op.appended);
  remove(back);  // an item both prepended and appended ends last
  list->insert(list->end(), back.begin(), back.end());
}

// Whether a prim of a layer brings references, payloads, variants or classes in (or holds a
// variant's contents, which must not stay in the layer as a prim).
bool BringsArcs(const Prim& prim) {
  return prim.references.BringsAny() || prim.payloads.BringsAny() || prim.variants != nullptr ||
         prim.inherits != nullptr || prim.specializes != nullptr;
}

// The composer's budget is in bytes of the composed layer, counted roughly as the model holds
// them: each prim, property, string, number and list item. It is `expansion` times what the
// layers read hold, the root layer counted as at least kLeastRoot, so that a small file may
// still instance a character many times over.
constexpr uint64_t kLeastRoot = uint64_t(1) << 25;  // 32 MiB

uint64_t Bytes(std::string_view s) { return sizeof(std::string) + s.size(); }

uint64_t Bytes(const std::vector<std::string>& items) {
  uint64_t bytes = sizeof(items);
  for (const std::string& s : items) bytes += Bytes(s);
  return bytes;
}

uint64_t Bytes(const Value& v) {
  uint64_t bytes = sizeof(Value) + 4 * (v.ints().size() + v.floats().size()) +
                   8 * (v.int64s().size() + v.doubles().size());
  for (const std::string& s : v.strings()) bytes += Bytes(s);
  if (const Dictionary* d = v.dictionary()) {
    for (const DictionaryEntry& e : *d) bytes += Bytes(e.key) + Bytes(e.value);
  }
  return bytes;
}

uint64_t Bytes(const std::optional<Value>& v) { return v ? Bytes(*v) : 0; }

uint64_t Bytes(const Metadata& m) {
  uint64_t bytes = 0;
  for (const MetadataEntry& e : m.entries) bytes += sizeof(e) + Bytes(e.key) + Bytes(e.value);
  return bytes;
}

uint64_t Bytes(const ListOp& op) {
  return Bytes(op.explicit_items) + Bytes(op.added) + Bytes(op.prepended) + Bytes(op.appended) +
         Bytes(op.deleted) + Bytes(op.ordered);
}

uint64_t Bytes(const Attribute& a) {
  uint64_t bytes = sizeof(a) + 64 + Bytes(a.name) + Bytes(a.default_value) + Bytes(a.connections) +
                   Bytes(a.interpolation) + Bytes(a.doc) + Bytes(a.metadata);
  for (const TimeSample& t : a.time_samples) bytes += sizeof(t) + Bytes(t.value);
  return bytes;
}

uint64_t Bytes(const Relationship& r) {
  return sizeof(r) + 64 + Bytes(r.name) + Bytes(r.targets) + Bytes(r.doc) + Bytes(r.metadata);
}

// A prim without its properties, and its place in the layer's index (with what the allocator
// and the index's nodes add: measured, the composed layer took about that much more).
uint64_t OwnBytes(const Prim& p) {
  return sizeof(p) + 256 + Bytes(p.name) + 2 * Bytes(p.path) + Bytes(p.type_name) + Bytes(p.kind) +
         Bytes(p.doc) + Bytes(p.api_schemas) + Bytes(p.metadata) + Bytes(p.child_order) +
         Bytes(p.property_order);
}

// What a layer holds, in the budget's bytes.
uint64_t Bytes(const Layer& layer) {
  uint64_t bytes = 0;
  for (const Prim& p : layer.prims) {
    bytes += OwnBytes(p);
    for (const Attribute& a : p.attributes) bytes += Bytes(a);
    for (const Relationship& r : p.relationships) bytes += Bytes(r);
  }
  return bytes;
}

// A composed prim's children (or the stage's root prims) by name, in the order USD composes
// them: the opinions from the weakest up, each adding the children it names that are not there
// yet, after those that are, and then applying its `reorder nameChildren` (`reorder rootPrims`)
// to all of them (ApplyReorder, layer.h).
struct ChildNames {
  std::vector<std::string> names;
  std::unordered_set<std::string_view> named;  // the layers' names, which outlive this

  // One opinion: `children`, prims of `layer`, and its reorder. Returns the bytes a reorder went
  // over (all the names: none without one), for the composer's budget, so that many reorders
  // cannot take quadratic time unbounded.
  uint64_t Add(const Layer& layer, const std::vector<uint32_t>& children,
               const std::vector<std::string>& order) {
    for (const uint32_t c : children) {
      const std::string& name = layer.prims[c].name;
      if (named.insert(name).second) names.push_back(name);
    }
    if (order.empty()) return 0;
    ApplyReorder(order, &names);
    return Bytes(names);
  }
};

// Adds `from`'s entries whose keys `into` lacks (`keys`: those it has).
void MergeMetadata(const Metadata& from, Metadata* into,
                   std::unordered_set<std::string_view>* keys) {
  for (const MetadataEntry& e : from.entries) {
    if (keys->insert(e.key).second) into->entries.push_back(e);
  }
}

class Composer {
 private:
  // While Flatten follows references, payloads and classes: each referencing (or inheriting)
  // tree, and how many of the steps that Flatten holds map that tree's paths onto the composed
  // layer's.
  struct Referrer {
    const Tree* tree;
    size_t steps;
    LayerOffset time;  // how the tree's times land on the composed layer's
  };
  // A class Flatten met and left for later: its tree, its paths' and times' mapping, its arc
  // count and the referrers_ where it was met (and its own). For a specialized class, the
  // namespace depth of the prim whose arc it is (a `class` it brings makes the prim a class, as
  // USD resolves a specifier: only an inherited one does not); for an implied class, where its
  // opinions go in the prim's stack and whether the prim inherits it itself.
  struct Deferred {
    const Tree* tree;
    std::shared_ptr<const std::vector<PathStep>> map;
    LayerOffset time;
    int arcs;
    std::vector<Referrer> referrers;
    size_t depth = 0;
    size_t at = 0;
    bool direct = false;
    const std::vector<Branch>* within = nullptr;  // (Branch::within)
    const Tree* origin = nullptr;  // a specialized class's, as written (Branch::origin)
    // Where it was met in the strength order, for one whose origin has no place (a class the
    // prim's ancestor specializes whose origin says nothing of the prim).
    std::vector<uint32_t> met;
  };

 public:
  // `root`: the root layer's prims, time codes and sublayers; `out`: its metadata, which the
  // composed prims join.
  Composer(Layer root, Layer out, std::string_view root_name, const LayerOpener& open,
           const UsdOptions& options)
      : root_{std::move(root), std::string(root_name)},
        open_(open),
        options_(options),
        expansion_(options.reference_expansion),
        budget_(expansion_ * std::max(Bytes(root_.layer), kLeastRoot)),
        out_(std::move(out)) {}

  Result<Layer> Run() {
    const std::string where = root_.name.empty() ? "subLayers" : root_.name + ": subLayers";
    SINEW_TRY_ASSIGN(const LayerStack* stack, StackOf(root_, where));
    root_stack_ = stack;
    // The root prims of every layer of the stack, in USD's order (ChildNames).
    ChildNames names;
    for (auto m = stack->rbegin(); m != stack->rend(); ++m) {
      SINEW_TRY(Spend(names.Add(*m->layer, m->layer->roots, m->layer->root_order), where));
    }
    for (const std::string& name : names.names) {
      std::string path(1, '/');  // (not "/" + name: GCC 12 warns of overlap that is not there)
      path += name;
      SINEW_TRY(Emit(path, -1, {}));
    }
    out_.IndexProperties();
    return std::move(out_);
  }

 private:
  // Counts `n` composed elements against the budget.
  Status Spend(uint64_t n, const std::string& where) {
    if (n <= budget_) {
      budget_ -= n;
      return {};
    }
    return Status(
        Error::kUnsupportedFeature,
        "references compose more than " + std::to_string(expansion_) +
            " times what the layers read hold (counting the root layer as 32 MiB at least) "
            "(UsdOptions::reference_expansion)",
        where.size() <= 300 ? where : where.substr(0, 300) + "...");  // a path that long repeats
  }

  // The layer file `asset` names, resolved against the layer named `anchor`, opened once. The
  // opener's errors are prefixed with `what` ("/A references @b.usda@").
  Result<const OpenedLayer*> Open(const std::string& anchor, const std::string& asset,
                                  const std::string& what) {
    const std::string name = ResolveAssetPath(anchor, asset);
    if (auto it = opened_.find(name); it != opened_.end()) return it->second.get();
    auto opened = open_(name);
    if (!opened.ok()) {
      ErrorInfo error = opened.error();
      error.message = what + ": " + error.message;
      // An asset path that resolves to no name (`@.@`) leaves the opener nothing to name.
      if (error.where.empty()) error.where = name.empty() ? asset : name;
      return Status(std::move(error));
    }
    auto layer = std::make_unique<OpenedLayer>(std::move(opened).value());
    budget_ += expansion_ * Bytes(layer->layer);
    return opened_.emplace(name, std::move(layer)).first->second.get();
  }

  // How many of `from`'s time codes one of `to`'s is (the layers' timeCodesPerSecond, or
  // framesPerSecond where only that is authored), as USD scales a sublayer's or a referenced
  // layer's times. `what` ("references @b.usda@") and `where` name it for the errors.
  static Result<double> TimeCodeRatio(const Layer& from, const Layer& to, const std::string& what,
                                      const std::string& where) {
    const double rate = to.TimeCodesPerSecondOrFallback();
    if (!(rate > 0) || !std::isfinite(rate)) {
      return Status(Error::kInvalidValue,
                    what + ", whose timeCodesPerSecond (or framesPerSecond) is not positive",
                    where);
    }
    return from.TimeCodesPerSecondOrFallback() / rate;
  }

  // `time` when its times stay finite numbers in order.
  static Result<LayerOffset> Checked(LayerOffset time, const std::string& what,
                                     const std::string& where) {
    if (!(time.scale > 0) || !std::isfinite(time.scale) || !std::isfinite(time.offset)) {
      return Status(Error::kInvalidValue,
                    what + ", whose time codes do not map onto the root layer's (scale " +
                        std::to_string(time.scale) + ", offset " + std::to_string(time.offset) +
                        ")",
                    where);
    }
    return time;
  }

  // The layer stack of `top`: it, then each of its sublayers' stacks in order, strongest first;
  // a layer met again (two sublayers that share one) adds nothing the first time did not. Worked
  // out once per layer. Errors at `where`: a sublayer that cannot be opened, a cycle, nesting
  // deeper than kMaxReferenceDepth, times that cannot be mapped.
  Result<const LayerStack*> StackOf(const OpenedLayer& top, const std::string& where) {
    if (auto it = stacks_.find(&top.layer); it != stacks_.end()) return it->second.get();
    auto stack = std::make_unique<LayerStack>();
    std::vector<const Layer*> chain;
    SINEW_TRY(AddToStack(top.layer, top.name, {}, where, &chain, stack.get()));
    return stacks_.emplace(&top.layer, std::move(stack)).first->second.get();
  }

  Status AddToStack(const Layer& layer, const std::string& name, LayerOffset time,
                    const std::string& where, std::vector<const Layer*>* chain, LayerStack* stack) {
    if (std::any_of(stack->begin(), stack->end(),
                    [&](const StackLayer& s) { return s.layer == &layer; })) {
      return {};
    }
    SINEW_TRY(Spend(sizeof(StackLayer), where));
    stack->push_back({&layer, &name, time});
    chain->push_back(&layer);
    for (const SubLayer& sub : layer.sub_layers) {
      const std::string what = (name.empty() ? "" : name + ": ") + "subLayers @" + sub.asset + "@";
      if (chain->size() > size_t(kMaxReferenceDepth)) {
        return Status(Error::kUnsupportedFeature,
                      what + ": sublayers nested deeper than " + std::to_string(kMaxReferenceDepth),
                      where);
      }
      SINEW_TRY_ASSIGN(const OpenedLayer* opened, Open(name, sub.asset, what));
      if (std::find(chain->begin(), chain->end(), &opened->layer) != chain->end()) {
        return Status(Error::kInvalidReference,
                      what + ": sublayers form a cycle through " + opened->name, where);
      }
      SINEW_TRY_ASSIGN(const double ratio, TimeCodeRatio(layer, opened->layer, what, where));
      SINEW_TRY_ASSIGN(const LayerOffset sub_time,
                       Checked(time.After(sub.time).After({0, ratio}), what, where));
      SINEW_TRY(AddToStack(opened->layer, opened->name, sub_time, where, chain, stack));
    }
    chain->pop_back();
    return {};
  }

  // A tree's references, then its payloads (weaker, as USD ranks them), each list composed from
  // its specs' edits, the weakest first; each arc once, where it is strongest.
  static std::vector<Arc> ArcsOf(const Tree& tree) {
    std::vector<Arc> arcs;
    for (const bool payload : {false, true}) {
      std::vector<Arc> list;
      for (size_t i = tree.specs.size(); i-- > 0;) {
        const auto& [member, prim] = tree.specs[i];
        ApplyReferenceEdits(payload ? prim->payloads : prim->references, i, *member->name, &list);
      }
      for (Arc& a : list) a.payload = payload;
      arcs.insert(arcs.end(), list.begin(), list.end());
    }
    std::unordered_set<std::string> once;
    std::erase_if(arcs, [&](const Arc& a) { return !once.insert(a.key).second; });
    return arcs;
  }

  // The tree at `path` of `stack`: the prim's opinions in each of the stack's layers; the
  // branches of its parent's tree, descended to it (what its ancestors' arcs bring for it); the
  // trees its own references and payloads bring. Branches strongest first, as Pcp ranks sibling
  // arcs: every reference before every payload, then the arc of the deeper prim (the prim's own
  // before its ancestors'), then as written. A tree asked for again while it is being worked out
  // is a cycle. `where` (the composed prim) names the errors.
  Result<std::shared_ptr<const Tree>> TreeAt(const LayerStack* stack, const std::string& path,
                                             const std::string& where) {
    const std::pair<const LayerStack*, std::string> key{stack, path};
    if (auto it = trees_.find(key); it != trees_.end()) {
      if (!it->second) {
        return Status(Error::kInvalidReference,
                      "references or inherits form a cycle through <" + path + ">", where);
      }
      return it->second;
    }
    // Each level of a path is a tree worked out first (its ancestors'): a path deeper than any
    // prim may be (a reference's target, a defaultPrim) is refused before it recurses.
    const size_t depth = size_t(std::count(path.begin(), path.end(), '/'));
    if (depth > kMaxNamespaceDepth) {
      return Status(Error::kUnsupportedFeature,
                    "a prim path deeper than " + std::to_string(kMaxNamespaceDepth) + " levels",
                    where);
    }
    // The ancestors not worked out yet are, from the top down, so that each finds its parent
    // ready: the recursion below then goes one level up at most (a path 256 levels deep, met
    // under references 32 deep, would otherwise nest thousands of calls and overflow the
    // stack). Below an ancestor no layer holds, nothing is held: the empty tree.
    std::vector<std::string> ancestors;  // nearest first
    for (std::string at = ParentTreePath(path); !at.empty(); at = ParentTreePath(at)) {
      if (trees_.contains({stack, at})) break;
      ancestors.push_back(at);
    }
    for (auto at = ancestors.rbegin(); at != ancestors.rend(); ++at) {
      SINEW_TRY_ASSIGN(const std::shared_ptr<const Tree> above, TreeAt(stack, *at, where));
      if (above == empty_) return empty_;
    }
    trees_.emplace(key, nullptr);  // being worked out
    auto tree = std::make_shared<Tree>();
    tree->stack = stack;
    tree->path = path;
    tree->depth = depth;
    for (const StackLayer& member : *stack) {
      if (const Prim* prim = member.layer->FindPrim(path)) tree->specs.push_back({&member, prim});
    }
    SINEW_TRY(Spend(sizeof(Tree) + tree->specs.size() * sizeof(Spec), where));
    // A variant's contents ("/A{lod=high}") have no parent here: what the prim's ancestors bring
    // is in the prim's own tree, beside the variant.
    if (const std::string above = ParentTreePath(path); !above.empty()) {
      const size_t slash = above.size();
      SINEW_TRY_ASSIGN(const std::shared_ptr<const Tree> parent, TreeAt(stack, above, where));
      if (tree->specs.empty() && parent->branches.empty() && parent->variant_owners.empty()) {
        // Nothing can speak of it (no layer holds a prim whose parent it lacks): one empty tree
        // stands for all such paths, not recorded (a variant's contents are asked for at every
        // path below the prim that holds it).
        trees_.erase(key);
        return empty_;
      }
      tree->variant_owners = parent->variant_owners;
      const std::string_view name = std::string_view(path).substr(slash);  // "/name"
      // (The classes under a branch, Branch::within, are not descended: the child's own
      // AddImpliedClasses puts them under the branch's child again.)
      for (const Branch& b : parent->branches) {
        SINEW_TRY_ASSIGN(std::shared_ptr<const Tree> below,
                         TreeAt(b.tree->stack, b.tree->path + std::string(name), where));
        if (below->empty) continue;
        Branch d{std::move(below), b.kind, b.depth, b.steps, b.time, b.implied};
        // (The origin's child is worked out already where it is met: by the arc that implies
        // the class, stronger than a specialize.)
        if (b.origin && b.kind == ArcKind::kSpecialize) {
          const auto it = trees_.find({b.origin->stack, b.origin->path + std::string(name)});
          if (it != trees_.end() && it->second && !it->second->empty) d.origin = it->second.get();
        }
        tree->branches.push_back(std::move(d));
      }
    }
    if (!tree->specs.empty()) {
      SINEW_TRY(AddArcs(tree.get(), depth, where));
      SINEW_TRY(AddClasses(tree.get(), ArcKind::kInherit, depth, where));
      SINEW_TRY(AddClasses(tree.get(), ArcKind::kSpecialize, depth, where));
    }
    // Strongest first, and so the classes the arcs imply (an implied class of the same kind and
    // depth as another ranks by the strength of the arc it came through, as Pcp ranks it by its
    // origin's).
    std::stable_sort(tree->branches.begin(), tree->branches.end(), Stronger);
    const auto arcs = ptrdiff_t(tree->branches.size());
    SINEW_TRY(AddImpliedClasses(tree.get(), where));  // (appends the implied classes)
    std::stable_sort(tree->branches.begin() + arcs, tree->branches.end(), Stronger);
    std::inplace_merge(tree->branches.begin(), tree->branches.begin() + arcs, tree->branches.end(),
                       Stronger);
    for (size_t i = tree->specs.size(); i-- > 0;) {
      if (const PrimVariants* v = tree->specs[i].second->variants.get()) {
        ApplyListOp(
            v->sets, [](const std::string& t) { return t; }, &tree->variant_sets);
      }
    }
    if (!tree->variant_sets.empty()) {
      SINEW_TRY(Spend(Bytes(tree->variant_sets), where));
      tree->variant_owners.insert(tree->variant_owners.begin(), tree.get());
    }
    tree->height = Height(tree->branches);
    if (tree->height > kMaxReferenceDepth) {
      return Status(Error::kUnsupportedFeature,
                    "references nested deeper than " + std::to_string(kMaxReferenceDepth), where);
    }
    tree->empty = tree->specs.empty() && tree->branches.empty() && tree->variant_owners.empty();
    auto& slot = trees_[key];
    slot = std::move(tree);
    return slot;
  }

  // Whether branch `a` ranks above `b`: by kind, then the deeper prim's arc first.
  static bool Stronger(const Branch& a, const Branch& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.depth > b.depth;
  }

  // The most arcs followed down from a tree with these branches (and the classes under them,
  // `level` lists deep; past kMaxReferenceDepth it stops looking, as the tree is refused).
  static int Height(const std::vector<Branch>& branches, int level = 0) {
    int height = 0;
    for (const Branch& b : branches) {
      height = std::max(height, b.tree->height + 1);
      if (b.within && level <= kMaxReferenceDepth) {
        height = std::max(height, Height(*b.within, level + 1) + 1);
      }
    }
    return height;
  }

  // The branches the tree's own arcs bring, written at namespace depth `depth`.
  Status AddArcs(Tree* tree, size_t depth, const std::string& where) {
    const std::vector<Arc> arcs = ArcsOf(*tree);
    SINEW_TRY(Spend(arcs.size() * sizeof(Branch), where));
    for (const Arc& arc : arcs) {
      const auto& [member, prim] = tree->specs[arc.spec];
      const Reference& ref = *arc.ref;
      const bool internal = ref.asset.empty();
      const std::string named = internal ? "<" + ref.prim + ">" : "@" + ref.asset + "@";
      const std::string what = "references " + named;
      if (arc_depth_ >= kMaxReferenceDepth) {
        return Status(Error::kUnsupportedFeature,
                      "references nested deeper than " + std::to_string(kMaxReferenceDepth), where);
      }
      // The layer stack the reference reaches into (this one for `</Prim>`), and how its times
      // land on this stack's: the writing layer's mapping, after the reference's layer offset,
      // after (for another file only, as Pcp scales) the ratio of the two layers' rates. A
      // reference within the stage so keeps the writing layer's mapping, and the referenced
      // prim's layer maps its times again as that layer of the stack always does (a prim written
      // in a sublayer with an offset, referenced from that same sublayer, is mapped by it twice).
      const LayerStack* stack = tree->stack;
      LayerOffset time = member->time.After(ref.time);
      if (!internal) {
        SINEW_TRY_ASSIGN(const OpenedLayer* opened,
                         Open(*member->name, ref.asset, where + " " + what));
        SINEW_TRY_ASSIGN(stack, StackOf(*opened, where));
        SINEW_TRY_ASSIGN(const double ratio,
                         TimeCodeRatio(*member->layer, opened->layer, what, where));
        time = time.After({0, ratio});
      }
      SINEW_TRY_ASSIGN(time, Checked(time, what, where));
      std::string path = ref.prim;
      const Layer& top = *stack->front().layer;
      if (path.empty()) {
        if (top.default_prim.empty()) {
          return Status(Error::kInvalidReference,
                        "references @" + ref.asset + "@, which has no defaultPrim to name", where);
        }
        // A name, or (as SdfLayer also reads it) a path, absolute or not.
        path = top.default_prim.starts_with('/') ? top.default_prim : "/" + top.default_prim;
      }
      const std::string at = WithoutVariants(tree->path);  // where it lands, for a variant's
      if (internal && (at == path || at.starts_with(path + "/"))) {
        return Status(Error::kInvalidReference,
                      "references <" + path + ">, the prim itself or one of its ancestors", where);
      }
      ++arc_depth_;
      auto target = TreeAt(stack, path, where);
      --arc_depth_;
      if (!target.ok()) return target.status();
      if ((*target)->empty) {
        return Status(Error::kInvalidReference,
                      "references <" + path + ">, which " +
                          (internal ? "this layer" : "@" + ref.asset + "@") + " does not hold",
                      where);
      }
      auto steps = std::make_shared<std::vector<PathStep>>();
      steps->push_back({path, tree->path, internal});
      tree->branches.push_back({std::move(target).value(),
                                arc.payload ? ArcKind::kPayload : ArcKind::kReference,
                                uint32_t(depth), std::move(steps), time});
    }
    return {};
  }

  // The branches the classes the tree's specs inherit (`kind` kInherit) or specialize
  // (kSpecialize) bring (their list edits composed, the weakest first), written at namespace
  // depth `depth`. A class is a prim of the same layer stack; one that none of its layers holds
  // brings nothing, as in USD (it may be written later, or in a stronger stack that references
  // this one). Its times are the stack's own: these arcs have no layer offset.
  Status AddClasses(Tree* tree, ArcKind kind, size_t depth, const std::string& where) {
    const bool inherits = kind == ArcKind::kInherit;
    std::vector<std::string> classes;
    for (size_t i = tree->specs.size(); i-- > 0;) {
      const Prim& prim = *tree->specs[i].second;
      if (const ListOp* op = (inherits ? prim.inherits : prim.specializes).get()) {
        ApplyListOp(
            *op, [](const std::string& p) { return p; }, &classes);
      }
    }
    SINEW_TRY(Spend(Bytes(classes) + classes.size() * sizeof(Branch), where));
    const std::string at = WithoutVariants(tree->path);  // where it lands, for a variant's
    for (const std::string& path : classes) {
      if (Within(at, path) || Within(path, at)) {
        return Status(Error::kInvalidReference,
                      (inherits ? "inherits <" : "specializes <") + path +
                          ">, the prim itself, one of its ancestors or one of its descendants",
                      where);
      }
      if (arc_depth_ >= kMaxReferenceDepth) {
        return Status(Error::kUnsupportedFeature,
                      "references nested deeper than " + std::to_string(kMaxReferenceDepth), where);
      }
      ++arc_depth_;
      auto target = TreeAt(tree->stack, path, where);
      --arc_depth_;
      if (!target.ok()) return target.status();
      if ((*target)->empty) continue;
      auto steps = std::make_shared<std::vector<PathStep>>();
      steps->push_back({path, tree->path, true});
      tree->branches.push_back(
          {std::move(target).value(), kind, uint32_t(depth), std::move(steps), {}});
    }
    return {};
  }

  // USD's implied classes. A class that a prim brought by one of the tree's arcs inherits or
  // specializes — itself, through a class, or through its own arcs — is a class of this tree's
  // layer stack too, at its path mapped across the arc (a path outside the arc's prim keeps its
  // place, as Pcp's map functions keep the root: a shot's `over "_class_Model"` changes every
  // model it references; a model's local class lands under the referencing prim), landing on
  // this tree's prim: what this stack holds there composes as the tree's own class (`implied`).
  // The classes are gathered in `class_sites` whether or not this stack holds anything there,
  // for a stack above. A class met again at its own place (an arc within one stack that keeps
  // its path) implies nothing; one that lands on the prim itself, an ancestor or a descendant
  // is refused as an inherit of one is. The classes of a variant's contents are chosen later
  // (Flatten): ImplyFromVariant implies those.
  Status AddImpliedClasses(Tree* tree, const std::string& where) {
    constexpr uint32_t kNone = ClassSite::kNone;
    // Each class's site, by its kind and path ("i/_class", "s/_class").
    std::unordered_map<std::string, uint32_t> seen;
    const auto next = [&] { return uint32_t(tree->class_sites.size()); };  // the next site
    const auto key = [](ArcKind kind, const std::string& path) {
      return (kind == ArcKind::kSpecialize ? "s" : "i") + path;
    };
    // Which branch brings a tree here, and by what arc: one of the tree's branches (`made`
    // false, `index` in tree->branches) or one implied below (`made`, `index` of its site).
    struct Holder {
      bool made;
      size_t index;
      ArcKind kind;
    };
    std::unordered_map<const Tree*, Holder> held;
    for (size_t i = 0; i < tree->branches.size(); ++i) {
      const Branch& b = tree->branches[i];
      const auto [it, added] = held.try_emplace(b.tree.get(), Holder{false, i, b.kind});
      if (!added && b.kind < it->second.kind) it->second = {false, i, b.kind};
    }
    std::vector<std::optional<Branch>> made;    // the branch each site brings here, if any
    std::vector<std::optional<Holder>> brings;  // what brings each site's class here, if any
    const auto add = [&](ClassSite site) -> Status {
      SINEW_TRY(Spend(Bytes(site.path) + sizeof(Branch), where));
      tree->class_sites.push_back(std::move(site));
      made.emplace_back();
      brings.emplace_back();
      return {};
    };
    // The classes of `from` (a tree that an arc `via` brings here, its paths mapped here by
    // `across`, innermost first, a path outside each step's keeping its place), each under `own`
    // (the site of the class `from` is) where its hierarchy puts none. With `record`, only
    // gathered, for a stack above. `arc_depth`: the depth of the prim whose arc brings `from`.
    const auto carry = [&](const Tree& from, std::span<const PathStep> across, ArcKind via,
                           size_t arc_depth, uint32_t own, bool record) -> Status {
      std::vector<uint32_t> index_of;  // the sites of `from`, here
      index_of.reserve(from.class_sites.size());
      SINEW_TRY(Spend(from.class_sites.size() * sizeof(uint32_t), where));  // (index_of)
      for (const ClassSite& met : from.class_sites) {
        // What a specialized class inherits in turn ranks as specialized (Pcp moves the whole
        // hierarchy to the bottom).
        const ArcKind kind = via == ArcKind::kSpecialize ? via : met.kind;
        std::string path = ClassPathAcross(across, met.path);
        // A class met again at its own place is in the hierarchy of the class `from` is (if
        // any); one that moved is implied on this tree, below the class its hierarchy puts it
        // under.
        const bool own_place = from.stack == tree->stack && path == met.path;
        const uint32_t parent =
            met.parent < index_of.size() ? index_of[met.parent] : (own_place ? own : kNone);
        const auto [it, added] = seen.try_emplace(key(kind, path), next());
        index_of.push_back(it->second);
        if (!added) continue;
        SINEW_TRY(add({path, met.below, kind, met.arc, parent, met.origin}));
        if (own_place || record) continue;
        SINEW_TRY(ImpliedApart(path, tree->path, where));
        if (arc_depth_ >= kMaxReferenceDepth) {
          return Status(Error::kUnsupportedFeature,
                        "references nested deeper than " + std::to_string(kMaxReferenceDepth),
                        where);
        }
        ++arc_depth_;
        auto there = TreeAt(tree->stack, path, where);
        --arc_depth_;
        if (!there.ok()) return there.status();
        if ((*there)->empty) continue;
        // (An implied inherit of a class the prim specializes is added: it is the stronger, and
        // the specialize adds nothing after it, as Pcp adds inherits first.)
        if (const auto h = held.find(there->get()); h != held.end() && h->second.kind <= kind) {
          const bool is_class =
              h->second.kind == ArcKind::kInherit || h->second.kind == ArcKind::kSpecialize;
          if (is_class) brings.back() = h->second;
          continue;
        }
        const size_t site = made.size() - 1;
        held[there->get()] = Holder{true, site, kind};
        brings.back() = Holder{true, site, kind};
        auto steps = std::make_shared<std::vector<PathStep>>();
        steps->push_back({std::move(path), tree->path, true});
        // Ranked by the depth where Pcp meets it: that of the prim whose arc it is, or, for a
        // class that arc reaches above the prim it brings (a reference to a prim below a
        // class's instance), that of the prim whose arc brings it.
        const size_t depth =
            std::max(arc_depth, tree->depth > met.below ? tree->depth - met.below : 0);
        made.back() =
            Branch{std::move(there).value(), kind, uint32_t(depth), std::move(steps), {}, true};
        made.back()->origin = met.origin;
      }
      return Status{};
    };
    std::set<std::tuple<const Tree*, std::string_view, std::string_view, size_t>> scanned;
    for (size_t i = 0, arcs = tree->branches.size(); i < arcs; ++i) {
      const Branch& b = tree->branches[i];
      uint32_t own = kNone;  // the site of the class b is, for a class arc
      if (b.kind == ArcKind::kInherit || b.kind == ArcKind::kSpecialize) {
        const auto [it, added] = seen.try_emplace(key(b.kind, b.tree->path), next());
        own = it->second;
        if (added) {
          SINEW_TRY(add({b.tree->path, uint16_t(tree->depth - b.depth), b.kind, b.kind, kNone,
                         b.implied ? b.origin : b.tree.get()}));
          brings.back() = Holder{false, i, b.kind};
        }
      }
      // (Two references to one prim mapped alike, at two offsets say, bring the same classes:
      // the second is not scanned again.)
      const PathStep& step = b.steps->front();
      if (own == kNone && !scanned.emplace(b.tree.get(), step.from, step.to, b.depth).second) {
        continue;
      }
      SINEW_TRY(carry(*b.tree, std::span(b.steps->data(), 1), b.kind, b.depth, own, false));
    }
    // The classes an implied class's own prim inherits or specializes in this stack are in this
    // tree's hierarchy too, under it, for a stack above (a group's `_class_Model` that inherits
    // `_class_Base`: the shot's `_class_Base` is implied on the shot's instance). Here they are
    // the implied class's own arcs.
    for (uint32_t site = 0, implied = next(); site < implied; ++site) {
      if (!made[site]) continue;
      const std::shared_ptr<const Tree> there = made[site]->tree;
      const PathStep onto = made[site]->steps->front();
      const ArcKind via = made[site]->kind;
      const size_t below = tree->class_sites[site].below;
      for (const Branch& c : there->branches) {
        const bool own_class = c.kind == ArcKind::kInherit || c.kind == ArcKind::kSpecialize;
        if (!own_class || c.implied || c.depth != there->depth) continue;
        const PathStep across[] = {c.steps->front(), onto};
        std::string path = ClassPathAcross(std::span(&onto, 1), c.tree->path);
        const ArcKind kind = via == ArcKind::kSpecialize ? via : c.kind;
        const auto [it, added] = seen.try_emplace(key(kind, path), next());
        if (!added) continue;
        SINEW_TRY(add({std::move(path), uint16_t(below), kind, c.kind, site, c.tree.get()}));
        SINEW_TRY(carry(*c.tree, across, via, 0, it->second, true));
      }
    }
    // Each implied class goes under the nearest specialized class of its hierarchy that is here
    // (implied, or brought by an ancestor's arc), its steps mapping onto that class's path, the
    // deepest first so that each takes its own along; the rest are the tree's branches, in the
    // order met.
    std::vector<std::vector<Branch>> under(made.size());
    std::map<size_t, std::vector<Branch>> under_branch;  // by index in tree->branches
    const auto ranked = [&](std::vector<Branch> list) {
      std::stable_sort(list.begin(), list.end(), Stronger);
      within_lists_.push_back(std::make_unique<const std::vector<Branch>>(std::move(list)));
      return within_lists_.back().get();
    };
    for (size_t j = made.size(); j-- > 0;) {
      if (!made[j]) continue;
      Branch& m = *made[j];
      if (!under[j].empty()) {
        std::reverse(under[j].begin(), under[j].end());  // (met deepest first)
        m.within = ranked(std::move(under[j]));
      }
      ArcKind arc = tree->class_sites[j].arc;
      uint32_t carrier = tree->class_sites[j].parent;
      // A class its hierarchy's class inherits stands in that class's place where this stack
      // does not hold it (one it specializes is a specialized class of its own).
      const Tree* origin = m.origin;
      bool moves = arc != ArcKind::kSpecialize;
      while (carrier != kNone &&
             (!brings[carrier] || brings[carrier]->kind != ArcKind::kSpecialize)) {
        const ClassSite& passed = tree->class_sites[carrier];
        if (moves && !brings[carrier]) origin = passed.origin;
        moves = moves && passed.arc != ArcKind::kSpecialize;
        if (passed.arc == ArcKind::kSpecialize) arc = ArcKind::kSpecialize;
        carrier = passed.parent;
      }
      if (carrier == kNone) {
        m.origin = origin;
        continue;
      }
      const Holder& c = *brings[carrier];
      const Tree& above = c.made ? *made[c.index]->tree : *tree->branches[c.index].tree;
      m.kind = arc;
      m.depth = above.depth;
      m.steps = std::make_shared<const std::vector<PathStep>>(
          std::vector<PathStep>{{m.steps->front().from, above.path, true}});
      auto& list = c.made ? under[c.index] : under_branch[c.index];
      list.push_back(std::move(m));
      made[j].reset();
    }
    for (auto& [index, list] : under_branch) {
      std::reverse(list.begin(), list.end());  // (met deepest first)
      tree->branches[index].within = ranked(std::move(list));
    }
    for (std::optional<Branch>& m : made) {
      if (m) tree->branches.push_back(std::move(*m));
    }
    tree->class_sites.shrink_to_fit();  // (kept as long as the tree: every tree has a list)
    return {};
  }

  // `tree`'s opinions, then its branches' (strongest first, depth first), its paths mapped by
  // `steps` and its times by `time` onto the composed layer's. A tree met again on another way
  // (a diamond) adds nothing: its opinions are in the stack already, stronger. The classes it
  // inherits come first (ImplyFromVariant looks at each), then the chosen variants of `variants`,
  // then the references, as USD ranks them (the variants of the deeper prim first); the classes
  // it specializes go to deferred_, for Emit to flatten after everything else. A set of this
  // tree's own with no variant chosen yet is added to variants->open, one of an ancestor's takes
  // the variant the ancestor's own opinions select.
  // `arcs`: how many arcs lead here from the composed prim's tree; variants and references that
  // lead to each other more than 2 × kMaxReferenceDepth deep are refused, as TreeAt refuses
  // references alone nested deeper than kMaxReferenceDepth.
  Status Flatten(const Tree& tree, const std::shared_ptr<const std::vector<PathStep>>& steps,
                 LayerOffset time, int arcs, const std::string& where,
                 std::unordered_set<const Tree*>* visited, Variants* variants,
                 std::vector<Spec>* out, const std::vector<Branch>* within = nullptr) {
    if (arcs > 2 * kMaxReferenceDepth) {
      return Status(
          Error::kUnsupportedFeature,
          "references and variants nested deeper than " + std::to_string(2 * kMaxReferenceDepth),
          where);
    }
    const bool inherited = std::exchange(direct_class_, false);
    if (in_class_ > 0 && referenced_.contains(&tree)) return {};
    if (!visited->insert(&tree).second) return {};
    SINEW_TRY(Spend(tree.specs.size() * sizeof(Spec), where));
    for (const auto& [member, prim] : tree.specs) {
      out->push_back(Spec{member, prim, steps, time.After(member->time), inherited});
    }
    const auto follow = [&](const Branch& b) -> Status {
      auto map = std::make_shared<std::vector<PathStep>>(*b.steps);
      map->insert(map->end(), steps->begin(), steps->end());
      SINEW_TRY_ASSIGN(const LayerOffset t, Checked(time.After(b.time), "references", where));
      return Flatten(*b.tree, map, t, arcs + 1, where, visited, variants, out, b.within);
    };
    // The tree's branches and the classes under it (Branch::within), strongest first (one under
    // it before one of its own as strong): each in turn, then null.
    const size_t under = within ? within->size() : 0;
    const auto next = [&](size_t* u, size_t* k) -> const Branch* {
      if (*u < under &&
          (*k == tree.branches.size() || !Stronger(tree.branches[*k], (*within)[*u]))) {
        return &(*within)[(*u)++];
      }
      return *k < tree.branches.size() ? &tree.branches[(*k)++] : nullptr;
    };
    // Specialized classes: flattened after everything else the composed prim holds (Pcp moves
    // them to the bottom of the prim's index), in the order Emit gives them; checked now, where
    // they are met.
    std::vector<const Tree*> placing;  // the classes this tree places (below)
    for (size_t u = 0, k = 0; const Branch *const next_branch = next(&u, &k);) {
      const Branch& b = *next_branch;
      if (b.kind != ArcKind::kSpecialize) continue;
      SINEW_TRY(ImplyFromVariant(b, tree, *steps, arcs, *visited, where));
      auto map = std::make_shared<std::vector<PathStep>>(*b.steps);
      map->insert(map->end(), steps->begin(), steps->end());
      // Ranked by the depth, on the composed stage, of the prim whose arc it is (the prim's own
      // arcs and those of the arcs it brings are as deep as the prim, an ancestor's as deep as
      // the ancestor), as Pcp ranks specializes it moves to the bottom.
      std::string owner = WithoutVariants(tree.path);  // its first b.depth names
      for (size_t i = 1, names = 0; i < owner.size(); ++i) {
        if (owner[i] == '/' && ++names == b.depth) {
          owner.resize(i);
          break;
        }
      }
      const std::string landed = MapPath(*steps, owner).value_or(owner);
      const size_t depth = size_t(std::count(landed.begin(), landed.end(), '/'));
      Deferred d{b.tree.get(), std::move(map), time, arcs + 1, referrers_, depth};
      d.referrers.push_back({&tree, steps->size(), time});
      d.within = b.within;
      d.origin = b.implied ? b.origin : b.tree.get();
      // The first tree met that specializes a class places it (Pcp adds the arcs of stronger
      // nodes first, then no class twice), below.
      if (!b.implied && origin_keys_.try_emplace(b.tree.get()).second) {
        placing.push_back(b.tree.get());
      }
      Defer(std::move(d));
    }
    // This tree's own sets with no variant chosen yet are open before any its classes bring, as
    // Pcp settles the sets of stronger nodes first (each tree is met once a pass: no key twice).
    if (!tree.variant_owners.empty() && tree.variant_owners.front() == &tree) {
      const std::string at = MapPath(*steps, tree.path).value_or(std::string());
      for (const std::string& set : tree.variant_sets) {
        VariantKey key{&tree, at, set};
        variants->met.push_back(key);
        if (!variants->chosen.contains(key)) variants->open.push_back(std::move(key));
      }
    }
    // Classes: one that a reference brings too is left to the reference, and so is anything the
    // class brings that a reference does (Pcp adds the arcs of references first, and then no
    // class arc to a prim already there). A class met inside a variant's contents implies its
    // classes where it is met (ImplyFromVariant).
    // An implied class waits (implied_) until the rest of the prim is in, keeping its place: Pcp
    // adds it once the arcs that imply it are, and no prim a second time, so a class it brings
    // again (a model's local class, which the reference brings too) keeps its place below the
    // model's own opinions.
    for (size_t u = 0, k = 0; const Branch *const next_branch = next(&u, &k);) {
      const Branch& b = *next_branch;
      if (b.kind != ArcKind::kInherit || referenced_.contains(b.tree.get())) continue;
      // A class an implied class reaches already keeps the implied one's place (a variant that
      // inherits what the prim's reference implies: Pcp adds the implied arc first).
      if (!b.implied && implied_trees_.contains(b.tree.get())) {
        continue;
      }
      SINEW_TRY(ImplyFromVariant(b, tree, *steps, arcs, *visited, where));
      // An arc of this tree's prim, not one descended from an ancestor's.
      const bool direct = b.depth == tree.depth;
      if (b.implied && in_implied_ == 0) {
        auto map = std::make_shared<std::vector<PathStep>>(*b.steps);
        map->insert(map->end(), steps->begin(), steps->end());
        Deferred d{b.tree.get(), std::move(map), time, arcs + 1, referrers_};
        d.referrers.push_back({&tree, steps->size(), time});
        d.at = out->size();
        d.direct = direct;
        d.within = b.within;
        Imply(std::move(d));
        continue;
      }
      referrers_.push_back({&tree, steps->size(), time});
      ++in_class_;
      in_implied_ += b.implied;
      direct_class_ = direct;
      const Status followed = follow(b);
      in_implied_ -= b.implied;
      --in_class_;
      referrers_.pop_back();
      SINEW_TRY(followed);
    }
    // Where a class implied on this tree from inside a variant goes (ImplyFromVariant).
    if (in_implied_ == 0) class_slots_[&tree] = out->size();
    for (const Tree* owner : tree.variant_owners) {
      // Where the owner's prim lands in the composed stage ("" where it has no place there: a
      // prim above the target of a reference to a prim below it).
      const std::string at = MapPath(*steps, owner->path).value_or(std::string());
      for (const std::string& set : owner->variant_sets) {
        VariantKey key{owner, at, set};
        auto it = variants->chosen.find(key);
        if (it == variants->chosen.end()) {
          if (owner == &tree) continue;  // open already (above)
          // An ancestor outside the composed prim's ancestry (the target of a reference to a
          // prim below it): the variant its own composed opinions select, or the fallback, as
          // Pcp chooses it within the referenced prim's index.
          // (A caller's selection counts where the ancestor has a place on the stage: a prim of
          // the same layer stack, whose paths outside the arc's keep theirs.)
          std::unordered_set<const Tree*> seen;
          const std::string* selected = at.empty() ? nullptr : GivenSelection(at, set);
          if (!selected) selected = SelectionIn(*owner, set, &seen);
          std::string variant = selected ? *selected : std::string();
          if (variant.empty()) variant = FallbackFor(*owner, set);
          it = variants->chosen.emplace(std::move(key), std::move(variant)).first;
        }
        if (it->second.empty()) continue;
        std::string from = VariantPath(owner->path, set, it->second);
        std::string site = from;
        site.append(tree.path, owner->path.size());
        SINEW_TRY_ASSIGN(const std::shared_ptr<const Tree> contents,
                         TreeAt(tree.stack, site, where));
        if (contents->empty) continue;
        auto map = std::make_shared<std::vector<PathStep>>();
        map->push_back({std::move(from), owner->path, true});
        map->insert(map->end(), steps->begin(), steps->end());
        SINEW_TRY(Flatten(*contents, map, time, arcs + 1, where, visited, variants, out));
        SINEW_TRY(
            ImplyAcrossVariant(tree, *contents, map->front(), *steps, time, arcs, *visited, where));
      }
    }
    for (const Branch& b : tree.branches) {
      if (b.kind == ArcKind::kInherit || b.kind == ArcKind::kSpecialize) continue;
      referrers_.push_back({&tree, steps->size(), time});
      const Status followed = follow(b);
      referrers_.pop_back();
      SINEW_TRY(followed);
    }
    // Where the classes this tree specializes stand in Pcp's strength order (the order that
    // ranks the specialized classes): after everything else it brings, so after the classes its
    // references specialize.
    for (const Tree* placed : placing) {
      std::vector<uint32_t>& key = origin_keys_[placed];
      key = key_prefix_;
      key.push_back(++origins_);
      SINEW_TRY(Spend(key.size() * sizeof(uint32_t) + sizeof(key), where));
    }
    return {};
  }

  // Whether `there` is in the prim's stack already (`visited`) or waits to be.
  bool Composing(const Tree* there, const std::unordered_set<const Tree*>& visited) const {
    return visited.contains(there) || implied_trees_.contains(there) ||
           deferred_trees_.contains(there);
  }

  // Leaves a specialized class for Emit to flatten after the rest of the prim.
  void Defer(Deferred d) {
    d.met = key_prefix_;
    d.met.push_back(origins_);
    deferred_trees_.insert(d.tree);
    deferred_.push_back(std::move(d));
  }

  // Leaves an implied class for FlattenImplied to flatten at its place.
  void Imply(Deferred d) {
    implied_trees_.insert(d.tree);
    implied_.push_back(std::move(d));
  }

  // Refuses a class implied at `path` on the prim at `on` where it lands on the prim itself, one
  // of its ancestors or one of its descendants (as an inherit of one is refused).
  static Status ImpliedApart(const std::string& path, const std::string& on,
                             const std::string& where) {
    const std::string landed = WithoutVariants(path);
    const std::string here = WithoutVariants(on);
    if (Within(here, landed) || Within(landed, here)) {
      return Status(Error::kInvalidReference,
                    "a prim its arcs bring inherits a class that lands at <" + path +
                        "> here (an implied inherit), the prim itself, one of its ancestors or "
                        "one of its descendants",
                    where);
    }
    return {};
  }

  // Leaves `d`, a class at `path` implied on `tree` met while flattening, for later: an inherit
  // (`kind`) at the place `at` after `tree`'s classes (`direct`: on `tree`'s prim itself, not an
  // ancestor), a specialize with the rest. A class that lands on the prim itself, one of its
  // ancestors or one of its descendants is refused.
  Status LeaveImplied(Deferred d, const std::string& path, const Tree& tree, ArcKind kind,
                      size_t at, bool direct, const std::string& where) {
    SINEW_TRY(ImpliedApart(path, tree.path, where));
    if (kind == ArcKind::kSpecialize) {
      const std::string onto = MapPath(*d.map, path).value_or(path);
      d.depth = size_t(std::count(onto.begin(), onto.end(), '/'));
      Defer(std::move(d));
    } else {
      d.at = at;
      d.direct = direct;
      Imply(std::move(d));
    }
    return {};
  }

  // The classes that the arcs of a variant's contents (`contents`, met at `tree`'s path through
  // the variant's step `variant`) imply inside the variant ("/A{v=x}/_class", a referenced
  // model's local class) land in the prim's own namespace too ("/A/_class"), where this stack's
  // opinions outside the variant compose as a class of `tree`, as Pcp carries an implied class
  // up past the variant. Each waits for the place after `tree`'s classes, as ImplyFromVariant's
  // do; inside an implied class, where that place is not known, they are not composed.
  Status ImplyAcrossVariant(const Tree& tree, const Tree& contents, const PathStep& variant,
                            const std::vector<PathStep>& steps, LayerOffset time, int arcs,
                            const std::unordered_set<const Tree*>& visited,
                            const std::string& where) {
    const auto slot = class_slots_.find(&tree);
    if (slot == class_slots_.end()) return {};
    for (const ClassSite& site : contents.class_sites) {
      if (!Within(site.path, variant.from)) continue;  // outside the variant: met already
      const std::string path = variant.to + site.path.substr(variant.from.size());
      SINEW_TRY_ASSIGN(const std::shared_ptr<const Tree> there, TreeAt(tree.stack, path, where));
      if (there->empty || Composing(there.get(), visited)) continue;
      auto map = std::make_shared<std::vector<PathStep>>();
      map->push_back({path, tree.path, true});
      map->insert(map->end(), steps.begin(), steps.end());
      Deferred d{there.get(), std::move(map), time, arcs + 1, referrers_};
      d.referrers.push_back({&tree, steps.size(), time});
      d.origin = site.origin;
      SINEW_TRY(
          LeaveImplied(std::move(d), path, tree, site.kind, slot->second, site.below == 0, where));
    }
    return {};
  }

  // The implied classes that AddImpliedClasses cannot see: a class that `holder`, met inside a
  // variant's contents, inherits or specializes (the branch `b`; `steps` map holder's paths onto
  // the composed layer's) is a class of each referencing (or inheriting) prim's layer stack
  // above that variant (referrers_), at its path mapped there (a root prim's path staying as it
  // is). Flatten meets these only once the variant is chosen, so each is implied here: an
  // inherit waits in implied_ for the place after the referrer's classes (class_slots_), a
  // specialize in deferred_. Where that place is not known (a referrer met inside an implied
  // class), a stage whose referrer's stack writes a spec at the mapped path (in a layer or in a
  // variant of a prim above it) is refused. A class met again at its own place implies nothing,
  // nor does one the composed prim holds already or that waits already.
  Status ImplyFromVariant(const Branch& b, const Tree& holder, const std::vector<PathStep>& steps,
                          int arcs, const std::unordered_set<const Tree*>& visited,
                          const std::string& where) {
    const Tree& class_tree = *b.tree;
    for (size_t k = 0; k < referrers_.size(); ++k) {
      const Referrer& r = referrers_[k];
      if (r.steps > steps.size()) continue;  // (not below the referrer: nothing met inside)
      const auto below = std::span(steps).first(steps.size() - r.steps);  // below the referrer
      const std::string path = ClassPathAcross(below, class_tree.path);
      // (Met through a variant's contents below the referrer.)
      const bool in_variant = std::any_of(below.begin(), below.end(), [](const PathStep& step) {
        return step.from.find('{') != std::string::npos;
      });
      const LayerStack* stack = r.tree->stack;
      if (!in_variant || (stack == class_tree.stack && path == class_tree.path)) continue;
      SINEW_TRY_ASSIGN(const std::shared_ptr<const Tree> there, TreeAt(stack, path, where));
      if (there->empty || Composing(there.get(), visited)) continue;
      const auto slot = class_slots_.find(r.tree);
      if (slot == class_slots_.end()) {
        if (!WritesAt(*there)) continue;
        return Status(Error::kUnsupportedFeature,
                      "a prim brought by a variant inherits <" + class_tree.path +
                          ">, and the layer stack that the variant's prim lands in writes <" +
                          path +
                          ">, which USD composes as that class too (an implied inherit): sinew "
                          "does not compose implied inherits met inside a variant inside an "
                          "implied class",
                      where);
      }
      auto map = std::make_shared<std::vector<PathStep>>();
      map->push_back({path, r.tree->path, true});
      map->insert(map->end(), steps.end() - ptrdiff_t(r.steps), steps.end());
      Deferred d{there.get(), std::move(map), r.time, arcs + 1,
                 std::vector<Referrer>(referrers_.begin(), referrers_.begin() + ptrdiff_t(k) + 1)};
      d.origin = b.implied ? b.origin : b.tree.get();
      SINEW_TRY(LeaveImplied(std::move(d), path, *r.tree, b.kind, slot->second,
                             b.depth == holder.depth, where));
    }
    return {};
  }

  // Whether a layer of the tree's stack writes a spec that says anything at its path: in the
  // layer's prims, or in any variant of a prim above it (whichever is selected). An `over`
  // without fields or children says nothing.
  bool WritesAt(const Tree& tree) {
    for (const auto& spec : tree.specs) {
      if (!SaysNothing(*spec.second)) return true;
    }
    if (tree.variant_owners.empty()) return false;
    for (const StackLayer& member : *tree.stack) {
      if (VariantSites(*member.layer).contains(tree.path)) return true;
    }
    return false;
  }

  // Where the prims inside the layer's variants that say anything land ("/A{v=x}/B" at "/A/B"),
  // worked out once per layer (a lookup per variant of each prim above, for each class met, was
  // quadratic on a hostile stage).
  const std::unordered_set<std::string>& VariantSites(const Layer& layer) {
    auto [it, added] = variant_sites_.try_emplace(&layer);
    if (added) {
      for (const Prim& p : layer.prims) {
        if (p.path.find('{') != std::string::npos && !SaysNothing(p)) {
          it->second.insert(WithoutVariants(p.path));
        }
      }
    }
    return it->second;
  }

  // An `over` with no field, property or child.
  static bool SaysNothing(const Prim& p) {
    return p.specifier == Specifier::kOver && p.type_name.empty() && p.kind.empty() &&
           p.doc.empty() && !p.api_schemas.written && !p.active && !p.instanceable &&
           p.metadata.entries.empty() && p.attributes.empty() && p.relationships.empty() &&
           p.children.empty() && !p.references.Written() && !p.payloads.Written() && !p.variants &&
           !p.inherits && !p.specializes && p.child_order.empty() && p.property_order.empty();
  }

  // Adds to referenced_ the trees that `tree`'s references and payloads bring, and theirs.
  void Referenced(const Tree& tree) {
    for (const Branch& b : tree.branches) {
      if (b.kind == ArcKind::kInherit || b.kind == ArcKind::kSpecialize) continue;
      if (referenced_.insert(b.tree.get()).second) Referenced(*b.tree);
    }
  }

  // The prim at `path` of the composed layer (the root layer stack's namespace) and, after it,
  // its children. `chosen`: the variants chosen for its ancestors.
  Status Emit(const std::string& path, int32_t parent,
              const std::map<VariantKey, std::string>& chosen) {
    if (size_t(std::count(path.begin(), path.end(), '/')) > kMaxNamespaceDepth) {
      return Status(Error::kUnsupportedFeature,
                    "prims nested deeper than " + std::to_string(kMaxNamespaceDepth) +
                        " levels (references that compose a prim inside itself?)",
                    path.substr(0, path.find('/', 1)));
    }
    SINEW_TRY_ASSIGN(const std::shared_ptr<const Tree> tree, TreeAt(root_stack_, path, path));
    // Each variant set met is given, strongest first, the variant a stronger set of that name
    // chose for this prim (Pcp's prior selection), else the one the caller selects for the prim
    // (UsdOptions::variant_selections, as a session layer would), else the one the strongest
    // opinion of the prim, as far as it is composed, selects (as USD chooses, once every stronger
    // arc is in); and the prim is composed again with it, until no set is left open. A set no
    // opinion selected for (or selected "" for) waits: once every other set is settled, the
    // strongest such set that holds a fallback takes it (Pcp's fallback tasks rank below the
    // authored ones). A set left waiting is open again once a fallback is in, and once another
    // set's selected variant is in up to kMaxRetries times (Pcp retries without end; sets that
    // select one another that often are hostile).
    constexpr int kMaxRetries = 8;
    int retries = 0;
    std::vector<Spec> stack;
    Variants variants{chosen, {}, {}};
    referenced_.clear();  // what the prim's references bring: the same on every pass
    Referenced(*tree);
    while (true) {
      stack.clear();
      variants.open.clear();
      variants.met.clear();
      std::unordered_set<const Tree*> visited;
      referrers_.clear();
      in_class_ = 0;
      deferred_.clear();
      deferred_trees_.clear();
      origin_keys_.clear();
      key_prefix_.clear();
      origins_ = 0;
      implied_.clear();
      implied_trees_.clear();
      class_slots_.clear();
      SINEW_TRY(Flatten(*tree, identity_, {}, 0, path, &visited, &variants, &stack));
      // The implied classes, each where it ranks, adding what nothing else brought; then the
      // specialized classes, each batch (those met flattening the one before) ranked as Pcp
      // ranks them at the bottom of the index: the deeper prim's arc first, then as met; and so
      // on while either brings more.
      for (size_t begin = 0; !implied_.empty() || begin < deferred_.size();) {
        if (!implied_.empty()) {
          SINEW_TRY(FlattenImplied(path, &visited, &variants, &stack));
          continue;
        }
        const size_t end = deferred_.size();
        // As Pcp ranks the specialized classes it moves to the bottom: the deeper prim's first;
        // then by where the class as written (each implied one's origin) stands in the strength
        // order (Flatten), an implied one right above the class it is implied from (the more
        // local first, as met), one whose origin has no place where it was met; then as met.
        const auto key = [&](const Deferred& d) -> const std::vector<uint32_t>& {
          const auto it = origin_keys_.find(d.origin);
          return it == origin_keys_.end() || it->second.empty() ? d.met : it->second;
        };
        std::stable_sort(deferred_.begin() + ptrdiff_t(begin), deferred_.end(),
                         [&](const Deferred& a, const Deferred& b) {
                           if (a.depth != b.depth) return a.depth > b.depth;
                           return key(a) < key(b);
                         });
        for (size_t i = begin; i < end; ++i) {
          const Deferred d = deferred_[i];
          referrers_ = d.referrers;
          in_class_ = 1;
          // (What it specializes in turn stands inside its place in the strength order.)
          key_prefix_ = key(d);
          SINEW_TRY(
              Flatten(*d.tree, d.map, d.time, d.arcs, path, &visited, &variants, &stack, d.within));
          key_prefix_.clear();
        }
        begin = end;
      }
      if (variants.open.empty()) {
        if (variants.fallbacks.empty()) break;
        auto [key, fallback] = std::move(variants.fallbacks.front());
        variants.fallbacks.erase(variants.fallbacks.begin());
        variants.chosen.insert_or_assign(std::move(key), std::move(fallback));
        // Whatever else waits is looked at again, whatever the retries so far: a prim takes at
        // most one fallback per set name the caller gives (the rest take it as a prior
        // selection), so these passes are bounded by the options, not by the stage.
        variants.Reopen();
        continue;
      }
      VariantKey key = std::move(variants.open.front());
      const std::string* selected = nullptr;
      for (const auto& [k, v] : variants.chosen) {
        if (k.at == path && k.set == key.set && !v.empty()) selected = &v;
      }
      if (!selected) selected = GivenSelection(key.at, key.set);
      for (auto s = stack.begin(); s != stack.end() && !selected; ++s) {
        selected = Selection(*s->prim, key.set);
      }
      const std::string variant = selected ? *selected : std::string();
      if (variant.empty()) {
        std::string fallback = FallbackFor(*key.tree, key.set);
        if (fallback.empty()) {
          variants.none_found.push_back(key);
        } else {
          variants.fallbacks.emplace_back(key, std::move(fallback));
        }
      } else if ((!variants.none_found.empty() || !variants.fallbacks.empty()) &&
                 retries < kMaxRetries) {
        ++retries;
        variants.Reopen();
      }
      variants.chosen.emplace(std::move(key), variant);
    }
    if (stack.empty()) return {};  // a variant that holds nothing for it
    SINEW_TRY(ReportVariantSets(path, variants));
    const uint32_t index = uint32_t(out_.prims.size());
    {
      Prim prim;
      SINEW_TRY(Merge(stack, path, &prim));
      prim.parent = parent;
      out_.prims.push_back(std::move(prim));
    }
    out_.prim_index.emplace(path, index);
    if (parent < 0) {
      out_.roots.push_back(index);
    } else {
      out_.prims[size_t(parent)].children.push_back(index);
    }
    // Children by name, in the order USD composes them (ChildNames).
    ChildNames names;
    for (auto s = stack.rbegin(); s != stack.rend(); ++s) {
      SINEW_TRY(Spend(names.Add(*s->member->layer, s->prim->children, s->prim->child_order), path));
    }
    for (const std::string& name : names.names) {
      SINEW_TRY(Emit(path + "/" + name, int32_t(index), variants.chosen));
    }
    return {};
  }

  // Flattens the implied classes waiting in implied_, each into the place Flatten left it in
  // *stack: a tree something else brought adds nothing again. The last met go first, as Pcp
  // implies the classes of deeper nodes first (a class both bring keeps the deeper one's place).
  // An implied class met inside one is flattened where it is met.
  Status FlattenImplied(const std::string& path, std::unordered_set<const Tree*>* visited,
                        Variants* variants, std::vector<Spec>* stack) {
    const std::vector<Deferred> pending = std::exchange(implied_, {});
    implied_trees_.clear();
    class_slots_.clear();  // (the places below move)
    std::vector<std::vector<Spec>> flattened(pending.size());
    in_implied_ = 1;
    for (size_t i = pending.size(); i-- > 0;) {
      const Deferred& p = pending[i];
      referrers_ = p.referrers;
      in_class_ = 1;
      direct_class_ = p.direct;
      // (An error ends the composition: nothing is left to put back.)
      SINEW_TRY(Flatten(*p.tree, p.map, p.time, p.arcs, path, visited, variants, &flattened[i],
                        p.within));
    }
    in_implied_ = 0;
    // Spliced in one pass, by place; of two at one place, the one met first goes in front.
    std::vector<size_t> order(pending.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return pending[a].at < pending[b].at; });
    size_t added = 0;
    for (const std::vector<Spec>& f : flattened) added += f.size();
    std::vector<Spec> spliced;
    spliced.reserve(stack->size() + added);
    size_t from = 0;  // the first spec of *stack not copied yet
    for (const size_t i : order) {
      const size_t at = std::min(pending[i].at, stack->size());
      spliced.insert(spliced.end(), stack->begin() + ptrdiff_t(from),
                     stack->begin() + ptrdiff_t(at));
      spliced.insert(spliced.end(), flattened[i].begin(), flattened[i].end());
      from = at;
    }
    spliced.insert(spliced.end(), stack->begin() + ptrdiff_t(from), stack->end());
    *stack = std::move(spliced);
    return {};
  }

  // The variant UsdOptions::variant_selections selects in `set` for the prim at `at` (the last
  // given for them), if any does.
  const std::string* GivenSelection(const std::string& at, const std::string& set) const {
    const auto& given = options_.variant_selections;
    for (auto s = given.rbegin(); s != given.rend(); ++s) {
      if (s->prim == at && s->set == set) return &s->variant;
    }
    return nullptr;
  }

  // The first variant of UsdOptions::variant_fallbacks for `set` that the set holds in `tree`,
  // or "" where none is.
  std::string FallbackFor(const Tree& tree, const std::string& set) const {
    std::vector<std::string> held;
    for (const UsdVariantFallback& f : options_.variant_fallbacks) {
      if (f.set != set) continue;
      if (held.empty()) held = VariantNames(tree, set);
      for (const std::string& v : f.variants) {
        if (std::binary_search(held.begin(), held.end(), v)) return v;
      }
    }
    return {};
  }

  // Adds to out_.variant_sets the sets of the prim at `path` that the last pass met, strongest
  // first, each name once: the variants they hold (every tree's that declares it) and the one
  // chosen.
  Status ReportVariantSets(const std::string& path, const Variants& variants) {
    const size_t first = out_.variant_sets.size();
    std::unordered_map<std::string_view, size_t> by_name;  // index in out_.variant_sets
    for (const VariantKey& key : variants.met) {
      if (key.at != path) continue;
      auto [it, added] = by_name.try_emplace(key.set, out_.variant_sets.size());
      if (added) {
        SINEW_TRY(Spend(sizeof(UsdVariantSet) + Bytes(path) + Bytes(key.set), path));
        out_.variant_sets.push_back({path, key.set, {}, {}});
      }
      UsdVariantSet& set = out_.variant_sets[it->second];
      std::vector<std::string> names = VariantNames(*key.tree, key.set);
      SINEW_TRY(Spend(Bytes(names), path));
      set.variants.insert(set.variants.end(), std::make_move_iterator(names.begin()),
                          std::make_move_iterator(names.end()));
      const auto chosen = variants.chosen.find(key);
      if (set.selected.empty() && chosen != variants.chosen.end()) set.selected = chosen->second;
    }
    for (size_t i = first; i < out_.variant_sets.size(); ++i) {
      std::vector<std::string>& names = out_.variant_sets[i].variants;
      std::sort(names.begin(), names.end());
      names.erase(std::unique(names.begin(), names.end()), names.end());
    }
    return {};
  }

  // Merges the opinions of `stack` (strongest first) into *out, as USD resolves each field: the
  // strongest that has one; list edits applied from the weakest up; paths mapped.
  Status Merge(const std::vector<Spec>& stack, const std::string& path, Prim* out) {
    const Prim& strongest = *stack.front().prim;
    out->name = path.substr(path.rfind('/') + 1);
    out->path = path;
    out->offset = strongest.offset;
    // The strongest `def` or `class`, as USD resolves a prim's specifier, but for the `class` of
    // a class the prim inherits itself, which is weaker than any other (inheriting a class does
    // not make the prim one).
    out->specifier = Specifier::kOver;
    for (const Spec& s : stack) {
      const Specifier specifier = s.prim->specifier;
      if (specifier == Specifier::kOver) continue;
      if (specifier == Specifier::kClass && s.inherited) {
        if (out->specifier == Specifier::kOver) out->specifier = specifier;
        continue;
      }
      out->specifier = specifier;
      break;
    }
    std::unordered_set<std::string_view> keys;
    for (const Spec& s : stack) {
      const Prim& p = *s.prim;
      SINEW_TRY(Spend(Bytes(p.metadata) + Bytes(p.api_schemas), path));
      if (out->type_name.empty()) out->type_name = p.type_name;
      if (out->kind.empty()) out->kind = p.kind;
      if (out->doc.empty()) out->doc = p.doc;
      if (!out->active) out->active = p.active;
      if (!out->instanceable) out->instanceable = p.instanceable;
      MergeMetadata(p.metadata, &out->metadata, &keys);
    }
    // (No child_order: Emit puts the children in their composed order.)
    out->property_order = strongest.property_order;
    std::vector<std::string> schemas;
    for (auto s = stack.rbegin(); s != stack.rend(); ++s) {
      ApplyListOp(
          s->prim->api_schemas, [](const std::string& t) { return t; }, &schemas);
    }
    out->api_schemas = ExplicitList(std::move(schemas));
    SINEW_TRY(Spend(OwnBytes(*out), path));

    // Properties by name, in the order the strongest opinions declare them.
    std::vector<std::string_view> names;
    std::unordered_map<std::string_view, std::vector<std::pair<const Spec*, const Attribute*>>>
        attributes;
    std::unordered_map<std::string_view, std::vector<std::pair<const Spec*, const Relationship*>>>
        relationships;
    for (const Spec& s : stack) {
      for (const Attribute& a : s.prim->attributes) {
        auto& specs = attributes[a.name];
        if (specs.empty() && !relationships.contains(a.name)) names.push_back(a.name);
        specs.emplace_back(&s, &a);
      }
      for (const Relationship& r : s.prim->relationships) {
        auto& specs = relationships[r.name];
        if (specs.empty() && !attributes.contains(r.name)) names.push_back(r.name);
        specs.emplace_back(&s, &r);
      }
    }
    for (const std::string_view name : names) {
      if (auto it = attributes.find(name); it != attributes.end()) {
        if (relationships.contains(name)) {
          return Status(Error::kInvalidValue,
                        "an attribute in one layer and a relationship in another",
                        path + "." + std::string(name));
        }
        Attribute& a = out->attributes.emplace_back();
        SINEW_TRY(MergeAttribute(it->second, path, &a));
        SINEW_TRY(Spend(Bytes(a), path + "." + a.name));
      } else {
        Relationship& r = out->relationships.emplace_back();
        SINEW_TRY(MergeRelationship(relationships.at(name), path, &r));
        SINEW_TRY(Spend(Bytes(r), path + "." + r.name));
      }
    }
    return {};
  }

  // What declares a property (attribute or relationship), from its strongest opinion.
  template <typename Property>
  static void Declare(const Property& strongest, Property* out) {
    out->name = strongest.name;
    out->custom = strongest.custom;
    out->variability = strongest.variability;
    out->offset = strongest.offset;
  }

  // An attribute from its opinions (strongest first). What each opinion's lists and metadata
  // hold is spent as it is read, as well as what the result holds (by the caller).
  Status MergeAttribute(const std::vector<std::pair<const Spec*, const Attribute*>>& specs,
                        const std::string& path, Attribute* out) {
    const Attribute& strongest = *specs.front().second;
    Declare(strongest, out);
    out->type = strongest.type;
    out->array = strongest.array;
    bool valued = false;
    std::unordered_set<std::string_view> keys;
    const std::string where = path + "." + strongest.name;
    for (const auto& [spec, a] : specs) {
      SINEW_TRY(Spend(Bytes(a->connections) + Bytes(a->metadata), where));
      if (!valued && (a->default_value || !a->time_samples.empty())) {
        valued = true;
        out->default_value = a->default_value;
        out->has_time_samples = a->has_time_samples;
        out->time_samples = a->time_samples;
        for (size_t i = 0; i < out->time_samples.size(); ++i) {
          TimeSample& t = out->time_samples[i];
          t.time = spec->time.Apply(t.time);
          if (!std::isfinite(t.time) || (i > 0 && t.time <= out->time_samples[i - 1].time)) {
            return Status(Error::kInvalidValue,
                          "time samples that run together, or past a double's range, once "
                          "scaled to the root layer's time codes",
                          where);
          }
        }
      }
      if (out->interpolation.empty()) out->interpolation = a->interpolation;
      if (out->doc.empty()) out->doc = a->doc;
      if (!out->element_size) out->element_size = a->element_size;
      if (!out->weight) out->weight = a->weight;
      MergeMetadata(a->metadata, &out->metadata, &keys);
    }
    std::vector<std::string> connections;
    for (auto it = specs.rbegin(); it != specs.rend(); ++it) {
      const std::vector<PathStep>& steps = *it->first->map;
      ApplyListOp(
          it->second->connections, [&](const std::string& p) { return MapPath(steps, p); },
          &connections);
    }
    if (!connections.empty()) out->connections = ExplicitList(std::move(connections));
    return {};
  }

  // A relationship from its opinions, spent as MergeAttribute spends.
  Status MergeRelationship(const std::vector<std::pair<const Spec*, const Relationship*>>& specs,
                           const std::string& path, Relationship* out) {
    Declare(*specs.front().second, out);
    bool written = false;
    std::vector<std::string> targets;
    for (auto it = specs.rbegin(); it != specs.rend(); ++it) {
      const Relationship& r = *it->second;
      SINEW_TRY(Spend(Bytes(r.targets) + Bytes(r.metadata), path + "." + r.name));
      const std::vector<PathStep>& steps = *it->first->map;
      ApplyListOp(
          r.targets, [&](const std::string& p) { return MapPath(steps, p); }, &targets);
      written |= r.targets.written != 0;
    }
    std::unordered_set<std::string_view> keys;
    for (const auto& [spec, r] : specs) {
      if (out->doc.empty()) out->doc = r->doc;
      MergeMetadata(r->metadata, &out->metadata, &keys);
    }
    if (written) out->targets = ExplicitList(std::move(targets));
    return {};
  }

  const OpenedLayer root_;
  const LayerOpener& open_;
  const UsdOptions& options_;  // the variant selections and fallbacks given
  const uint64_t expansion_;
  uint64_t budget_;
  std::map<std::string, std::unique_ptr<OpenedLayer>> opened_;
  const LayerStack* root_stack_ = nullptr;
  const std::shared_ptr<const std::vector<PathStep>> identity_ =
      std::make_shared<const std::vector<PathStep>>();
  const std::shared_ptr<const Tree> empty_ = std::make_shared<const Tree>();
  // Trees by stack and path; null while one is being worked out.
  std::map<std::pair<const LayerStack*, std::string>, std::shared_ptr<const Tree>> trees_;
  std::vector<std::unique_ptr<const std::vector<Branch>>> within_lists_;  // (Branch::within)
  int arc_depth_ = 0;  // references being followed, one inside another
  // While Flatten composes a prim: the trees its references and payloads bring, through their own
  // references and payloads (the arcs Pcp adds before any class), and how many classes Flatten is
  // inside of.
  std::unordered_set<const Tree*> referenced_;
  int in_class_ = 0;
  bool direct_class_ = false;  // the next tree Flatten meets is a class the prim inherits itself
  std::vector<Referrer> referrers_;  // (Referrer, above)
  std::unordered_map<const Layer*, std::unordered_set<std::string>> variant_sites_;
  // The specialized classes, flattened after the rest, and the implied classes (Emit flattens
  // them once the rest is in, each at its place).
  std::vector<Deferred> deferred_;
  std::vector<Deferred> implied_;
  std::unordered_set<const Tree*> deferred_trees_, implied_trees_;  // the trees of each
  // Where each specialized class as written stands in the strength order Pcp ranks specialized
  // classes by: a path of positions, one level for each specialized class it is met inside
  // (key_prefix_: the one being flattened); origins_ counts them.
  std::unordered_map<const Tree*, std::vector<uint32_t>> origin_keys_;
  std::vector<uint32_t> key_prefix_;
  uint32_t origins_ = 0;
  int in_implied_ = 0;  // how many implied classes Flatten is inside of
  // Where each tree Flatten met (outside an implied class) left the place after its classes, in
  // the prim's stack: where a class implied on it from inside a variant goes.
  std::unordered_map<const Tree*, size_t> class_slots_;
  std::unordered_map<const Layer*, std::unique_ptr<LayerStack>> stacks_;
  Layer out_;
};

bool HasArcs(const Layer& layer) {
  return std::any_of(layer.prims.begin(), layer.prims.end(),
                     [](const Prim& p) { return BringsArcs(p); });
}

// Whether a layer reorders children or root prims anywhere (which only the composer applies).
bool HasReorders(const Layer& layer) {
  return !layer.root_order.empty() ||
         std::any_of(layer.prims.begin(), layer.prims.end(),
                     [](const Prim& p) { return !p.child_order.empty(); });
}

}  // namespace

std::string ResolveAssetPath(std::string_view anchor, std::string_view asset) {
  std::string joined;
  if (!asset.starts_with('/')) {
    const size_t slash = anchor.rfind('/');
    if (slash != std::string_view::npos) joined = std::string(anchor.substr(0, slash + 1));
  }
  joined += asset;
  // Fold "." and ".." away, name by name.
  std::vector<std::string_view> names;
  const std::string_view all = joined;
  size_t at = 0;
  while (at <= all.size()) {
    const size_t end = std::min(all.find('/', at), all.size());
    const std::string_view name = all.substr(at, end - at);
    if (name == "..") {
      if (!names.empty() && names.back() != "..") {
        names.pop_back();
      } else if (!all.starts_with('/')) {
        names.push_back(name);
      }
    } else if (!name.empty() && name != ".") {
      names.push_back(name);
    }
    at = end + 1;
  }
  std::string out = all.starts_with('/') ? "/" : "";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '/';
    out += names[i];
  }
  return out;
}

Result<Layer> ComposeStage(Layer root, std::string_view root_name, const LayerOpener& open,
                           const UsdOptions& options) {
  // (A layer that reorders its prims is composed too: Emit writes them in their composed order.)
  if (!HasArcs(root) && root.sub_layers.empty() && !HasReorders(root)) return root;
  // The root layer's prims, and what composing them reads of its metadata, read from while
  // `root`, with its metadata, takes the composed prims.
  Layer prims;
  prims.prims = std::exchange(root.prims, {});
  prims.roots = std::exchange(root.roots, {});
  prims.root_order = std::exchange(root.root_order, {});
  prims.prim_index = std::exchange(root.prim_index, {});
  prims.sub_layers = std::exchange(root.sub_layers, {});
  prims.time_codes_per_second = root.time_codes_per_second;
  prims.frames_per_second = root.frames_per_second;
  prims.default_prim = root.default_prim;
  return Composer(std::move(prims), std::move(root), root_name, open, options).Run();
}

}  // namespace sinew::loader::usd
