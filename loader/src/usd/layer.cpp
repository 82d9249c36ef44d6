#include "usd/layer.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace sinew::loader::usd {

std::string_view UpAxisOrFallback(std::string_view authored) {
  return authored == "Y" || authored == "Z" ? authored : "Y";
}

double MetersPerUnitOrFallback(std::optional<double> authored) {
  return authored && *authored > 0 && std::isfinite(*authored) ? *authored : 0.01;
}

namespace {

// Indexed by ListOpKind.
constexpr std::string_view kKeywords[] = {"", "add", "prepend", "append", "delete", "reorder"};
constexpr std::vector<std::string> ListOp::*kLists[] = {&ListOp::explicit_items, &ListOp::added,
                                                        &ListOp::prepended,      &ListOp::appended,
                                                        &ListOp::deleted,        &ListOp::ordered};

}  // namespace

std::string_view Keyword(ListOpKind kind) noexcept {
  return size_t(kind) < std::size(kKeywords) ? kKeywords[size_t(kind)] : "";
}

std::vector<std::string>& ListOp::Items(ListOpKind kind) noexcept {
  return this->*kLists[size_t(kind) < std::size(kLists) ? size_t(kind) : 0];
}

const std::vector<std::string>& ListOp::Items(ListOpKind kind) const noexcept {
  return this->*kLists[size_t(kind) < std::size(kLists) ? size_t(kind) : 0];
}

std::vector<std::string> ListOp::Resolved() const {
  std::vector<std::string> out;
  std::unordered_set<std::string_view> seen;
  auto add = [&](const std::vector<std::string>& items) {
    for (const std::string& item : items) {
      if (seen.insert(item).second) out.push_back(item);
    }
  };
  if (Has(ListOpKind::kExplicit)) {
    add(explicit_items);
    return out;
  }
  // Appending moves an item to the end: mark the appended ones seen first, add them last.
  std::unordered_set<std::string_view> last(appended.begin(), appended.end());
  seen = last;
  add(prepended);
  add(added);
  seen.clear();
  add(appended);
  ApplyReorder(ordered, &out);
  return out;
}

void ApplyReorder(const std::vector<std::string>& order, std::vector<std::string>* list) {
  if (order.empty() || list->empty()) return;
  std::unordered_map<std::string_view, size_t> rank;  // each named item's place in `order`
  for (const std::string& item : order) rank.try_emplace(item, rank.size());
  // The runs: the unnamed items in front, then each named item with the unnamed ones after it.
  std::vector<std::vector<std::string>> runs(rank.size() + 1);
  size_t run = rank.size();  // the front
  for (std::string& item : *list) {
    if (auto it = rank.find(item); it != rank.end()) run = it->second;
    runs[run].push_back(std::move(item));
  }
  list->clear();
  for (std::string& item : runs.back()) list->push_back(std::move(item));
  for (size_t r = 0; r + 1 < runs.size(); ++r) {
    for (std::string& item : runs[r]) list->push_back(std::move(item));
  }
}

const char* LayerOffset::Fault(Error* code) const noexcept {
  if (!std::isfinite(offset) || !std::isfinite(scale) || !std::isfinite(1 / scale)) {
    *code = Error::kInvalidValue;
    return "a layer offset that is not finite, or whose scale has no finite inverse";
  }
  if (scale < 0) {
    *code = Error::kUnsupportedFeature;
    return "a layer offset with a negative scale (time running backwards)";
  }
  return nullptr;
}

void ReferenceList::Set(ListOpKind kind, std::vector<Reference> items) {
  const bool explicit_list = kind == ListOpKind::kExplicit;
  if (explicit_list != is_explicit) {
    *this = ReferenceList();
    is_explicit = explicit_list;
  }
  std::vector<Reference>* list = kind == ListOpKind::kExplicit  ? &explicit_items
                                 : kind == ListOpKind::kAdd     ? &added
                                 : kind == ListOpKind::kPrepend ? &prepended
                                 : kind == ListOpKind::kAppend  ? &appended
                                 : kind == ListOpKind::kDelete  ? &deleted
                                                                : nullptr;  // a reorder
  if (list) *list = std::move(items);
}

const MetadataEntry* Metadata::Find(std::string_view key) const noexcept {
  for (const MetadataEntry& entry : entries) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

const Value* Attribute::UnblockedDefault() const noexcept {
  return default_value && !default_value->blocked ? &*default_value : nullptr;
}

bool Attribute::BlockedDefault() const noexcept { return default_value && default_value->blocked; }

bool Attribute::HasAuthoredValue() const noexcept {
  return UnblockedDefault() != nullptr || !time_samples.empty();
}

namespace {

// The element of `items` named `name`: a binary search through `by_name` (indices of `items` in
// name order) when it covers them all, else a scan.
template <typename T>
const T* FindByName(const std::vector<T>& items, const std::vector<uint32_t>& by_name,
                    std::string_view name) noexcept {
  if (by_name.size() != items.size()) {
    for (const T& item : items) {
      if (item.name == name) return &item;
    }
    return nullptr;
  }
  const auto it =
      std::lower_bound(by_name.begin(), by_name.end(), name,
                       [&](uint32_t i, std::string_view n) { return items[i].name < n; });
  return it != by_name.end() && items[*it].name == name ? &items[*it] : nullptr;
}

template <typename T>
std::vector<uint32_t> NameOrder(const std::vector<T>& items) {
  std::vector<uint32_t> order(items.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return items[a].name < items[b].name; });
  return order;
}

}  // namespace

const Attribute* Prim::FindAttribute(std::string_view attribute) const noexcept {
  return FindByName(attributes, attributes_by_name, attribute);
}

const Relationship* Prim::FindRelationship(std::string_view relationship) const noexcept {
  return FindByName(relationships, relationships_by_name, relationship);
}

void Layer::IndexProperties() {
  for (Prim& p : prims) {
    p.attributes_by_name = NameOrder(p.attributes);
    p.relationships_by_name = NameOrder(p.relationships);
    for (Attribute& a : p.attributes) {
      const std::vector<TimeSample>& samples = a.time_samples;
      a.samples_agree = !samples.empty() && !samples.front().value.blocked &&
                        std::all_of(samples.begin() + 1, samples.end(), [&](const TimeSample& t) {
                          return SameValue(samples.front().value, t.value);
                        });
    }
  }
}

const Prim* Layer::FindPrim(std::string_view path) const {
  const auto it = prim_index.find(std::string(path));
  return it == prim_index.end() ? nullptr : &prims[it->second];
}

namespace {

// The prim of "/prim/path.name" and the name; null when there is no '.' or no such prim.
const Prim* PrimOfProperty(const Layer& layer, std::string_view property_path,
                           std::string_view* name) {
  const size_t dot = property_path.rfind('.');
  if (dot == std::string_view::npos) return nullptr;
  *name = property_path.substr(dot + 1);
  return layer.FindPrim(property_path.substr(0, dot));
}

}  // namespace

const Attribute* Layer::FindAttribute(std::string_view property_path) const {
  std::string_view name;
  const Prim* prim = PrimOfProperty(*this, property_path, &name);
  return prim ? prim->FindAttribute(name) : nullptr;
}

const Relationship* Layer::FindRelationship(std::string_view property_path) const {
  std::string_view name;
  const Prim* prim = PrimOfProperty(*this, property_path, &name);
  return prim ? prim->FindRelationship(name) : nullptr;
}

}  // namespace sinew::loader::usd
