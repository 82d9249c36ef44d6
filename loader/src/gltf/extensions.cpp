#include "extensions.h"

#include <cmath>

namespace sinew::loader::gltf {
namespace {

// Finds extensions/<name> of the object at `where`, given its "extensions" field; *present false
// when absent. *ext_where: the extension object's pointer (set when present).
Status FindExtension(const Field& extensions, std::string_view name, const Path& where, Object* out,
                     bool* present, std::string* ext_where) {
  Object extensions_object;
  bool has_extensions = false;
  *present = false;
  SINEW_TRY(OptionalObject(extensions, where, &extensions_object, &has_extensions));
  if (!has_extensions) return {};
  const Path extensions_path(where, "extensions");
  if (Status s = OptionalObject(FindField(extensions_object, name), extensions_path, out, present);
      !s || !*present) {
    return s;
  }
  *ext_where = Path(extensions_path, name).ToString();
  return {};
}

bool ParsePoseType(std::string_view name, PoseType* out) {
  if (name == "TPose") {
    *out = PoseType::kTPose;
  } else if (name == "APose") {
    *out = PoseType::kAPose;
  } else if (name == "IPose") {
    *out = PoseType::kIPose;
  } else if (name == "Custom") {
    *out = PoseType::kCustom;
  } else {
    return false;
  }
  return true;
}

}  // namespace

Status LoadVariantNames(Object root, Asset* asset) {
  Object ext;
  bool present = false;
  std::string where;
  SINEW_TRY(FindExtension(FindField(root, "extensions"), kVariantsExtension, Path(), &ext, &present,
                          &where));
  if (!present) return {};
  Array variants;
  SINEW_TRY(RequireArray(ext, "variants", where, &variants));
  size_t i = 0;
  for (Element e : variants) {
    const std::string vw = Pointer(Pointer(where, "variants"), i);
    Object v;
    SINEW_TRY(AsObject(e, vw, &v));
    std::string_view name;
    SINEW_TRY(RequireString(v, "name", vw, &name));
    asset->variants.emplace_back(name);
    ++i;
  }
  return {};
}

Status LoadVariantMappings(const Field& extensions, const Path& where_path, size_t variant_count,
                           size_t material_count, Primitive* p) {
  p->variant_materials.assign(variant_count, -1);
  Object ext;
  bool present = false;
  std::string ew;
  SINEW_TRY(FindExtension(extensions, kVariantsExtension, where_path, &ext, &present, &ew));
  if (!present) return {};
  const std::string where = where_path.ToString();
  Array mappings;
  SINEW_TRY(RequireArray(ext, "mappings", ew, &mappings));
  size_t m = 0;
  for (Element e : mappings) {
    const std::string mw = Pointer(Pointer(ew, "mappings"), m);
    Object mapping;
    SINEW_TRY(AsObject(e, mw, &mapping));
    uint32_t material = 0;
    SINEW_TRY(RequireIndex(mapping, "material", mw, material_count, &material));
    std::vector<uint32_t> variants;
    bool has_variants = false;
    SINEW_TRY(OptionalIndices(mapping, "variants", mw, variant_count, &variants, &has_variants));
    if (!has_variants) return {Error::kMissingProperty, "required", Pointer(mw, "variants")};
    for (size_t k = 0; k < variants.size(); ++k) {
      int32_t& slot = p->variant_materials[variants[k]];
      if (slot >= 0) {
        return {Error::kInvalidValue,
                "variant " + std::to_string(variants[k]) + " is mapped more than once in " + where,
                Pointer(Pointer(mw, "variants"), k)};
      }
      slot = static_cast<int32_t>(material);
    }
    ++m;
  }
  return {};
}

Status LoadBindPoses(const Field& extensions, const Path& where, Skin* skin) {
  Object ext;
  bool present = false;
  std::string ew;
  SINEW_TRY(FindExtension(extensions, kBindPoseExtension, where, &ext, &present, &ew));
  if (!present) return {};
  Array poses;
  SINEW_TRY(RequireArray(ext, "poses", ew, &poses));
  std::vector<double> numbers;
  size_t p = 0;
  for (Element e : poses) {
    const std::string pw = Pointer(Pointer(ew, "poses"), p);
    Object pose_object;
    SINEW_TRY(AsObject(e, pw, &pose_object));
    BindPose pose;
    std::string_view type;
    SINEW_TRY(RequireString(pose_object, "poseType", pw, &type));
    if (!ParsePoseType(type, &pose.type)) {
      return {Error::kInvalidValue,
              "poseType '" + std::string(type) + "' is not TPose, APose, IPose or Custom",
              Pointer(pw, "poseType")};
    }
    for (const BindPose& earlier : skin->bind_poses) {
      if (earlier.type == pose.type) {
        return {Error::kInvalidValue, "a second pose of type " + std::string(type),
                Pointer(pw, "poseType")};
      }
    }
    Array bind_poses;
    SINEW_TRY(RequireArray(pose_object, "bindPoses", pw, &bind_poses));
    if (bind_poses.size() != skin->joints.size()) {
      return {Error::kInvalidValue,
              std::to_string(bind_poses.size()) + " bind poses for " +
                  std::to_string(skin->joints.size()) + " joints",
              Pointer(pw, "bindPoses")};
    }
    pose.matrices.resize(skin->joints.size());
    size_t j = 0;
    for (Element be : bind_poses) {
      const std::string bw = Pointer(Pointer(pw, "bindPoses"), j);
      Object bind;
      SINEW_TRY(AsObject(be, bw, &bind));
      bool has_matrix = false;
      SINEW_TRY(OptionalNumbers(bind, "matrix", bw, 16, &numbers, &has_matrix));
      if (!has_matrix) return {Error::kMissingProperty, "required", Pointer(bw, "matrix")};
      // Column-major: entries 3, 7, 11 and 15 are the bottom row.
      if (std::fabs(numbers[3]) > 1e-6 || std::fabs(numbers[7]) > 1e-6 ||
          std::fabs(numbers[11]) > 1e-6 || std::fabs(numbers[15] - 1.0) > 1e-6) {
        return {Error::kInvalidValue, "not affine (bottom row must be 0 0 0 1)",
                Pointer(bw, "matrix")};
      }
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) pose.matrices[j].m[c][r] = float(numbers[size_t(c * 4 + r)]);
      ++j;
    }
    skin->bind_poses.push_back(std::move(pose));
    ++p;
  }
  return {};
}

Status LoadInbetweens(const Field& extensions, const Path& where, size_t target_count, Mesh* mesh,
                      std::vector<Warning>* warnings) {
  Object ext;
  bool present = false;
  std::string ew;
  SINEW_TRY(FindExtension(extensions, kInbetweensExtension, where, &ext, &present, &ew));
  if (!present) return {};
  Array shapes;
  SINEW_TRY(RequireArray(ext, "shapes", ew, &shapes));
  // role: 0 unused, 1 primary, 2 in-between.
  std::vector<uint8_t> role(target_count, 0);
  size_t si = 0;
  for (Element e : shapes) {
    const std::string sw = Pointer(Pointer(ew, "shapes"), si);
    Object shape_object;
    SINEW_TRY(AsObject(e, sw, &shape_object));
    InbetweenShape shape;
    SINEW_TRY(RequireIndex(shape_object, "target", sw, target_count, &shape.primary));
    if (role[shape.primary] != 0) {
      return {Error::kInvalidValue,
              "target " + std::to_string(shape.primary) + " is already a primary or an in-between",
              Pointer(sw, "target")};
    }
    role[shape.primary] = 1;
    Array inbetweens;
    SINEW_TRY(RequireArray(shape_object, "inbetweens", sw, &inbetweens));
    size_t ii = 0;
    for (Element ie : inbetweens) {
      const std::string iw = Pointer(Pointer(sw, "inbetweens"), ii++);
      Object ib;
      SINEW_TRY(AsObject(ie, iw, &ib));
      uint32_t target = 0;
      SINEW_TRY(RequireIndex(ib, "target", iw, target_count, &target));
      Element weight_value;
      double weight = 0;
      if (ib.at_key("weight").get(weight_value) != simdjson::SUCCESS) {
        return {Error::kMissingProperty, "required", Pointer(iw, "weight")};
      }
      if (weight_value.get_double().get(weight) != simdjson::SUCCESS || !std::isfinite(weight)) {
        return {Error::kWrongType, "expected a finite number", Pointer(iw, "weight")};
      }
      if (role[target] != 0) {
        return {Error::kInvalidValue,
                "target " + std::to_string(target) + " is already a primary or an in-between",
                Pointer(iw, "target")};
      }
      role[target] = 2;
      if (std::fabs(weight) < 1e-6 || std::fabs(weight - 1.0) < 1e-6) {
        warnings->push_back({Pointer(iw, "weight"),
                             "in-between at weight " + std::to_string(weight) +
                                 " (0 and 1 belong to the null and primary shapes) ignored"});
        continue;
      }
      bool duplicate = false;
      for (const InbetweenShape::Inbetween& earlier : shape.inbetweens) {
        duplicate |= std::fabs(double(earlier.weight) - weight) < 1e-6;
      }
      if (duplicate) {
        warnings->push_back({Pointer(iw, "weight"),
                             "in-between weight " + std::to_string(weight) +
                                 " duplicates an earlier one of this shape; the first is kept"});
        continue;
      }
      shape.inbetweens.push_back({target, static_cast<float>(weight)});
    }
    mesh->inbetween_shapes.push_back(std::move(shape));
    ++si;
  }
  return {};
}

}  // namespace sinew::loader::gltf
