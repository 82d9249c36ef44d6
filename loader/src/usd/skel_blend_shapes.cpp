#include "usd/skel_blend_shapes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string>

#include "common/load_status.h"

namespace sinew::loader::usd {
namespace {

// `a`'s default when it has one that is not blocked: a BlendShape reads its arrays at the default
// time, and one written `= None` is as good as unauthored (UsdSkel's query finds no value).
const Value* DefaultOf(const Attribute* a) { return a ? a->UnblockedDefault() : nullptr; }

std::span<const float> FloatsOf(const Attribute* a) {
  const Value* v = DefaultOf(a);
  return v ? v->floats() : std::span<const float>();
}

// `offsets` (xyz per index, or per point without indices) into a dense xyz stream. No offsets at
// all (empty, or no value) move nothing, as UsdSkel skips such a sub-shape.
Status Scatter(std::span<const float> offsets, std::span<const int32_t> indices, bool indexed,
               size_t vertex_count, const std::string& where, std::vector<float>* out) {
  const size_t count = indexed ? indices.size() : vertex_count;
  if (offsets.empty()) {
    out->assign(vertex_count * 3, 0.0f);
    return {};
  }
  if (offsets.size() != count * 3) {
    return {Error::kSizeMismatch,
            std::to_string(offsets.size() / 3) + " offsets for " + std::to_string(count) +
                (indexed ? " point indices" : " points"),
            where};
  }
  out->assign(vertex_count * 3, 0.0f);
  for (size_t i = 0; i < count; ++i) {
    const size_t v = indexed ? size_t(indices[i]) : i;
    for (size_t c = 0; c < 3; ++c) (*out)[v * 3 + c] += offsets[i * 3 + c];
  }
  return {};
}

// kWrongType unless `v` holds three floats an element (vector3f[], or another type of three
// floats): double or half offsets would read as none, and be reported as a count that does not
// match.
Status CheckOffsetType(const Value& v, const std::string& name, const std::string& where) {
  if (v.components == 3 && (!v.floats().empty() || v.size() == 0)) return {};
  return {
      Error::kWrongType,
      name + " must be vector3f[], not " + std::string(Info(v.type).name) + (v.array ? "[]" : ""),
      where};
}

// The offsets `name` of `shape` (point or normal offsets, by the shape's pointIndices) into `out`;
// left as it is when the shape does not author them (or blocks them).
Status ScatterOptional(const Prim& shape, const std::string& name, std::span<const int32_t> indices,
                       bool indexed, size_t vertex_count, std::vector<float>* out) {
  const Attribute* a = shape.FindAttribute(name);
  if (!DefaultOf(a)) return {};
  SINEW_TRY(CheckOffsetType(*a->default_value, name, shape.path + "." + name));
  return Scatter(FloatsOf(a), indices, indexed, vertex_count, shape.path + "." + name, out);
}

// A BlendShape's pointIndices, each below `vertex_count`: int[] as the schema types them, or
// uint[], the legacy type UsdSkel converts to int. kWrongType for another type (it would read as
// no indices), kInvalidReference at "<shape>.pointIndices" for an index past the points.
Status PointIndices(const Value& v, size_t vertex_count, const std::string& shape,
                    std::vector<int32_t>* out) {
  const std::string where = shape + ".pointIndices";
  const bool legacy = v.type == ValueType::kUInt;
  if ((v.type != ValueType::kInt && !legacy) || !v.array) {
    return {Error::kWrongType,
            "pointIndices must be int[] (or the legacy uint[]), not " +
                std::string(Info(v.type).name) + (v.array ? "[]" : ""),
            where};
  }
  const size_t count = legacy ? v.int64s().size() : v.ints().size();
  out->resize(count);
  for (size_t i = 0; i < count; ++i) {
    const int64_t index = legacy ? v.int64s()[i] : v.ints()[i];
    if (index < 0 || uint64_t(index) >= vertex_count) {
      return {Error::kInvalidReference,
              "point index " + std::to_string(index) + " (entry " + std::to_string(i) +
                  ") past the mesh's " + std::to_string(vertex_count) + " points",
              where};
    }
    (*out)[i] = int32_t(index);
  }
  return {};
}

bool IsInbetween(const Attribute& a) {
  const std::string_view name = a.name;
  return name.starts_with("inbetweens:") && !name.ends_with(":normalOffsets");
}

// Whether name `a` comes before `b` in the order USD lists a prim's properties
// (TfDictionaryLessThan): letters without regard to case, runs of digits by their numbers ("w9"
// before "w10"), and where that ties, byte by byte.
bool DictionaryLess(std::string_view a, std::string_view b) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string_view x = a.substr(i, ie - i), y = b.substr(j, je - j);
      while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
      while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie, j = je;
      continue;
    }
    if (lower(a[i]) != lower(b[j])) return lower(a[i]) < lower(b[j]);
    ++i, ++j;
  }
  if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
  return a < b;
}

// A shape's in-betweens at the weight (within 1e-6) of one before them by name, each with that
// one's name. Such weights are malformed (UsdSkel's schema docs): the first is kept, in the order
// UsdSkel lists a prim's properties, by name. Weights at 0 or 1, or none, are skipped anyway.
std::map<std::string_view, std::string_view> RepeatedWeights(const Prim& shape) {
  std::vector<const Attribute*> weighted;
  for (const Attribute& a : shape.attributes) {
    if (IsInbetween(a) && a.weight) weighted.push_back(&a);
  }
  std::sort(weighted.begin(), weighted.end(), [](const Attribute* x, const Attribute* y) {
    return DictionaryLess(x->name, y->name);
  });
  std::map<double, std::string_view> kept;  // weight -> name
  std::map<std::string_view, std::string_view> out;
  for (const Attribute* a : weighted) {
    const double w = *a->weight;
    const auto near = kept.lower_bound(w - 1e-6);
    if (near != kept.end() && std::fabs(near->first - w) < 1e-6) {
      out.emplace(a->name, near->second);
    } else {
      kept.emplace(w, a->name);
    }
  }
  return out;
}

}  // namespace

Result<BlendShapeSet> ReadBlendShapes(const Layer& layer, const Prim& mesh,
                                      const SkelBinding& binding, size_t vertex_count) {
  BlendShapeSet out;
  // Blocked, the prim has no blend shapes (UsdSkel's cache reads only an authored value).
  if (binding.blend_shapes && binding.blend_shapes->BlockedDefault()) {
    return out;
  }
  if (DefaultOf(binding.blend_shapes)) {
    const std::span<const std::string> names = binding.blend_shapes->default_value->strings();
    out.names.assign(names.begin(), names.end());
  }
  const std::vector<std::string> targets = binding.blend_shape_targets
                                               ? binding.blend_shape_targets->targets.Resolved()
                                               : std::vector<std::string>();
  if (targets.size() != out.names.size()) {
    // Names and targets pair up by position, so these pair up nothing: UsdSkel computes no
    // sub-shape weights for them and bakes the mesh without its blend shapes.
    Warning dropped{mesh.path + ".skel:blendShapes",
                    std::to_string(out.names.size()) + " blend shapes for " +
                        std::to_string(targets.size()) +
                        " skel:blendShapeTargets: none is applied, as in UsdSkel"};
    out = {};
    out.skipped.push_back(std::move(dropped));
    return out;
  }
  out.targets.resize(out.names.size());
  out.target_names = out.names;
  for (size_t s = 0; s < targets.size(); ++s) {
    out.targets[s].positions.assign(vertex_count * 3, 0.0f);
    const Prim* shape = layer.FindPrim(targets[s]);
    if (!shape || shape->type_name != "BlendShape") {  // contributes nothing
      out.skipped.push_back({mesh.path + ".skel:blendShapeTargets",
                             "target " + targets[s] + " (shape '" + out.names[s] + "') is " +
                                 (shape ? "not a BlendShape" : "not a prim of the layer") +
                                 ": the shape moves nothing"});
      continue;
    }
    const Value* point_indices = DefaultOf(shape->FindAttribute("pointIndices"));
    const bool indexed = point_indices != nullptr;  // else one offset per point
    std::vector<int32_t> indices;
    if (indexed) SINEW_TRY(PointIndices(*point_indices, vertex_count, shape->path, &indices));
    SINEW_TRY(ScatterOptional(*shape, "offsets", indices, indexed, vertex_count,
                              &out.targets[s].positions));
    SINEW_TRY(ScatterOptional(*shape, "normalOffsets", indices, indexed, vertex_count,
                              &out.targets[s].normals));
    InbetweenShape inbetweens;
    inbetweens.primary = uint32_t(s);
    const std::map<std::string_view, std::string_view> repeats = RepeatedWeights(*shape);
    for (const Attribute& a : shape->attributes) {
      const std::string_view name = a.name;
      if (!IsInbetween(a)) continue;
      if (!a.weight || std::fabs(*a.weight) < 1e-6f || std::fabs(*a.weight - 1.0f) < 1e-6f) {
        out.skipped.push_back({shape->path + "." + a.name,
                               a.weight ? "an in-between at weight 0 or 1 is skipped (the rest "
                                          "shape and the primary are there)"
                                        : "an in-between without a weight is skipped"});
        continue;
      }
      if (const auto repeat = repeats.find(name); repeat != repeats.end()) {
        out.skipped.push_back({shape->path + "." + a.name,
                               "an in-between at the weight of " + std::string(repeat->second) +
                                   " (within 1e-6) is skipped: the first by name is kept"});
        continue;
      }
      const float w = *a.weight;
      MorphTarget t;
      if (a.BlockedDefault()) {
        // Blocked: a shape of no offsets at its weight, as UsdSkel still weighs it in.
        t.positions.assign(vertex_count * 3, 0.0f);
      } else {
        if (a.default_value) {
          SINEW_TRY(CheckOffsetType(*a.default_value, a.name, shape->path + "." + a.name));
        }
        SINEW_TRY(Scatter(FloatsOf(&a), indices, indexed, vertex_count, shape->path + "." + a.name,
                          &t.positions));
      }
      SINEW_TRY(ScatterOptional(*shape, a.name + ":normalOffsets", indices, indexed, vertex_count,
                                &t.normals));
      inbetweens.inbetweens.push_back({uint32_t(out.targets.size()), w});
      out.target_names.push_back(out.names[s] + ":" +
                                 std::string(name.substr(sizeof("inbetweens:") - 1)));
      out.targets.push_back(std::move(t));
    }
    if (!inbetweens.inbetweens.empty()) out.inbetweens.push_back(std::move(inbetweens));
  }
  return out;
}

}  // namespace sinew::loader::usd
