#include "extensions.h"

#include <cmath>

namespace sinew::loader::gltf {
namespace {

// Finds extensions/<name> of the object at `where`, given its "extensions" field; *present false
// when absent. The extension object's pointer is where/extensions/<name>.
LoadStatus FindExtension(const Field& extensions, std::string_view name, const Path& where,
                         TapeObject* out, bool* present) {
  TapeObject extensions_object;
  bool has_extensions = false;
  *present = false;
  SINEW_TRY(OptionalObject(extensions, where, &extensions_object, &has_extensions));
  if (!has_extensions) return {};
  const Path extensions_path(where, "extensions");
  return OptionalObject(FindField(extensions_object, name), extensions_path, out, present);
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

// One pose of KHR_character_skeleton_bindpose: a poseType not given before, one affine matrix per
// joint.
LoadStatus LoadBindPose(TapeObject pose_object, const Path& pw, Skin* skin) {
  static constexpr std::string_view kKeys[] = {"poseType", "bindPoses"};
  enum { kPoseType, kBindPoses };
  const Fields f(pose_object, kKeys);
  BindPose pose;
  std::string_view type;
  SINEW_TRY(RequireString(f[kPoseType], pw, &type));
  if (!ParsePoseType(type, &pose.type)) {
    return {Error::kInvalidValue,
            "poseType '" + std::string(type) + "' is not TPose, APose, IPose or Custom",
            Path(pw, "poseType").ToString()};
  }
  for (const BindPose& earlier : skin->bind_poses) {
    if (earlier.type == pose.type) {
      return {Error::kInvalidValue, "a second pose of type " + std::string(type),
              Path(pw, "poseType").ToString()};
    }
  }
  ObjectArray bind_poses;
  SINEW_TRY(RequireObjects(f[kBindPoses], pw, &bind_poses));
  if (bind_poses.size() != skin->joints.size()) {
    return {Error::kInvalidValue,
            std::to_string(bind_poses.size()) + " bind poses for " +
                std::to_string(skin->joints.size()) + " joints",
            Path(pw, "bindPoses").ToString()};
  }
  pose.matrices.resize(skin->joints.size());
  SINEW_TRY(bind_poses.ForEach([&](TapeObject bind, const Path& bw, size_t j) -> LoadStatus {
    double numbers[16];
    bool has_matrix = false;
    SINEW_TRY(OptionalNumbers(FindField(bind, "matrix"), bw, {numbers, 16}, &has_matrix));
    if (!has_matrix) return {Error::kMissingProperty, "required", Path(bw, "matrix").ToString()};
    // Column-major: entries 3, 7, 11 and 15 are the bottom row.
    if (std::fabs(numbers[3]) > 1e-6 || std::fabs(numbers[7]) > 1e-6 ||
        std::fabs(numbers[11]) > 1e-6 || std::fabs(numbers[15] - 1.0) > 1e-6) {
      return {Error::kInvalidValue, "not affine (bottom row must be 0 0 0 1)",
              Path(bw, "matrix").ToString()};
    }
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) pose.matrices[j].m[c][r] = float(numbers[size_t(c * 4 + r)]);
    return {};
  }));
  skin->bind_poses.push_back(std::move(pose));
  return {};
}

// One in-between of a SINEW_morph_inbetweens shape (role: per target, 0 unused, 1 primary, 2
// in-between).
LoadStatus LoadInbetween(TapeObject ib, const Path& iw, size_t target_count,
                         std::vector<uint8_t>* role, InbetweenShape* shape,
                         std::vector<Warning>* warnings) {
  static constexpr std::string_view kKeys[] = {"target", "weight"};
  enum { kTarget, kWeight };
  const Fields f(ib, kKeys);
  uint32_t target = 0;
  SINEW_TRY(RequireIndex(f[kTarget], iw, target_count, &target));
  double weight = 0;
  if (!f[kWeight].present) {
    return {Error::kMissingProperty, "required", Path(iw, "weight").ToString()};
  }
  if (!f[kWeight].value.GetDouble(&weight) || !std::isfinite(weight)) {
    return {Error::kWrongType, "expected a finite number", Path(iw, "weight").ToString()};
  }
  if ((*role)[target] != 0) {
    return {Error::kInvalidValue,
            "target " + std::to_string(target) + " is already a primary or an in-between",
            Path(iw, "target").ToString()};
  }
  (*role)[target] = 2;
  if (std::fabs(weight) < 1e-6 || std::fabs(weight - 1.0) < 1e-6) {
    warnings->push_back({Path(iw, "weight").ToString(),
                         "in-between at weight " + std::to_string(weight) +
                             " (0 and 1 belong to the null and primary shapes) ignored"});
    return {};
  }
  bool duplicate = false;
  for (const InbetweenShape::Inbetween& earlier : shape->inbetweens) {
    duplicate |= std::fabs(double(earlier.weight) - weight) < 1e-6;
  }
  if (duplicate) {
    warnings->push_back({Path(iw, "weight").ToString(),
                         "in-between weight " + std::to_string(weight) +
                             " duplicates an earlier one of this shape; the first is kept"});
    return {};
  }
  shape->inbetweens.push_back({target, static_cast<float>(weight)});
  return {};
}

}  // namespace

LoadStatus LoadVariantNames(TapeObject root, Asset* asset) {
  TapeObject ext;
  bool present = false;
  SINEW_TRY(FindExtension(FindField(root, "extensions"), kVariantsExtension, kDocumentRoot, &ext,
                          &present));
  if (!present) return {};
  const Path extensions_path(kDocumentRoot, "extensions"), ew(extensions_path, kVariantsExtension);
  ObjectArray variants;
  SINEW_TRY(RequireObjects(FindField(ext, "variants"), ew, &variants));
  return variants.ForEach([&](TapeObject v, const Path& vw, size_t) -> LoadStatus {
    std::string_view name;
    SINEW_TRY(RequireString(FindField(v, "name"), vw, &name));
    asset->variants.emplace_back(name);
    return {};
  });
}

LoadStatus LoadVariantMappings(const Field& extensions, const Path& where, size_t variant_count,
                               size_t material_count, Primitive* p) {
  p->variant_materials.assign(variant_count, -1);
  TapeObject ext;
  bool present = false;
  SINEW_TRY(FindExtension(extensions, kVariantsExtension, where, &ext, &present));
  if (!present) return {};
  const Path extensions_path(where, "extensions"), ew(extensions_path, kVariantsExtension);
  ObjectArray mappings;
  SINEW_TRY(RequireObjects(FindField(ext, "mappings"), ew, &mappings));
  static constexpr std::string_view kKeys[] = {"material", "variants"};
  enum { kMaterial, kVariants };
  std::vector<uint32_t> variants;
  return mappings.ForEach([&](TapeObject mapping, const Path& mw, size_t) -> LoadStatus {
    const Fields f(mapping, kKeys);
    uint32_t material = 0;
    SINEW_TRY(RequireIndex(f[kMaterial], mw, material_count, &material));
    bool has_variants = false;
    SINEW_TRY(OptionalIndices(f[kVariants], mw, variant_count, &variants, &has_variants));
    if (!has_variants) {
      return {Error::kMissingProperty, "required", Path(mw, "variants").ToString()};
    }
    for (size_t k = 0; k < variants.size(); ++k) {
      int32_t& slot = p->variant_materials[variants[k]];
      if (slot >= 0) {
        const Path variants_path(mw, "variants");
        return {Error::kInvalidValue,
                "variant " + std::to_string(variants[k]) + " is mapped more than once in " +
                    where.ToString(),
                Path(variants_path, k).ToString()};
      }
      slot = static_cast<int32_t>(material);
    }
    return {};
  });
}

LoadStatus LoadBindPoses(const Field& extensions, const Path& where, Skin* skin) {
  TapeObject ext;
  bool present = false;
  SINEW_TRY(FindExtension(extensions, kBindPoseExtension, where, &ext, &present));
  if (!present) return {};
  const Path extensions_path(where, "extensions"), ew(extensions_path, kBindPoseExtension);
  ObjectArray poses;
  SINEW_TRY(RequireObjects(FindField(ext, "poses"), ew, &poses));
  return poses.ForEach([&](TapeObject pose, const Path& pw, size_t) -> LoadStatus {
    return LoadBindPose(pose, pw, skin);
  });
}

LoadStatus LoadInbetweens(const Field& extensions, const Path& where, size_t target_count,
                          Mesh* mesh, std::vector<Warning>* warnings) {
  TapeObject ext;
  bool present = false;
  SINEW_TRY(FindExtension(extensions, kInbetweensExtension, where, &ext, &present));
  if (!present) return {};
  const Path extensions_path(where, "extensions"), ew(extensions_path, kInbetweensExtension);
  ObjectArray shapes;
  SINEW_TRY(RequireObjects(FindField(ext, "shapes"), ew, &shapes));
  std::vector<uint8_t> role(target_count, 0);  // Per target: 0 unused, 1 primary, 2 in-between.
  static constexpr std::string_view kKeys[] = {"target", "inbetweens"};
  enum { kTarget, kInbetweens };
  return shapes.ForEach([&](TapeObject shape_object, const Path& sw, size_t) -> LoadStatus {
    const Fields f(shape_object, kKeys);
    InbetweenShape shape;
    SINEW_TRY(RequireIndex(f[kTarget], sw, target_count, &shape.primary));
    if (role[shape.primary] != 0) {
      return {Error::kInvalidValue,
              "target " + std::to_string(shape.primary) + " is already a primary or an in-between",
              Path(sw, "target").ToString()};
    }
    role[shape.primary] = 1;
    ObjectArray inbetweens;
    SINEW_TRY(RequireObjects(f[kInbetweens], sw, &inbetweens));
    SINEW_TRY(inbetweens.ForEach([&](TapeObject ib, const Path& iw, size_t) -> LoadStatus {
      return LoadInbetween(ib, iw, target_count, &role, &shape, warnings);
    }));
    mesh->inbetween_shapes.push_back(std::move(shape));
    return {};
  });
}

}  // namespace sinew::loader::gltf
