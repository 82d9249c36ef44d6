#include "usd/layer.h"

#include <iterator>
#include <unordered_set>

namespace sinew::loader::usd {

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
  return out;
}

const MetadataEntry* Metadata::Find(std::string_view key) const noexcept {
  for (const MetadataEntry& entry : entries) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

const Attribute* Prim::FindAttribute(std::string_view attribute) const noexcept {
  for (const Attribute& a : attributes) {
    if (a.name == attribute) return &a;
  }
  return nullptr;
}

const Relationship* Prim::FindRelationship(std::string_view relationship) const noexcept {
  for (const Relationship& r : relationships) {
    if (r.name == relationship) return &r;
  }
  return nullptr;
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
