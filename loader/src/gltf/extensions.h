// The glTF extensions sinew reads: KHR_materials_variants, KHR_character_skeleton_bindpose and
// the project's own SINEW_morph_inbetweens (docs/SINEW_morph_inbetweens.md).
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "sinew/asset/asset.h"
#include "sinew/loader/gltf.h"

namespace sinew::loader::gltf {

inline constexpr std::string_view kVariantsExtension = "KHR_materials_variants";
inline constexpr std::string_view kBindPoseExtension = "KHR_character_skeleton_bindpose";
inline constexpr std::string_view kInbetweensExtension = "SINEW_morph_inbetweens";

// /extensions/KHR_materials_variants/variants -> asset->variants (names; may be empty strings).
LoadStatus LoadVariantNames(TapeObject root, Asset* asset);

// The object-level readers below take the object's "extensions" field (absent when the object
// has none), read off the tape as the object itself, and the object's pointer.

// A primitive's KHR_materials_variants mappings -> p->variant_materials (one entry per variant,
// -1 where unmapped). Each variant at most once per primitive; indices checked.
LoadStatus LoadVariantMappings(const Field& extensions, const Path& where, size_t variant_count,
                               size_t material_count, Primitive* p);

// A skin's KHR_character_skeleton_bindpose poses: unique poseType, one affine matrix per joint.
LoadStatus LoadBindPoses(const Field& extensions, const Path& where, Skin* skin);

// A mesh's SINEW_morph_inbetweens shapes (docs/SINEW_morph_inbetweens.md): indices checked;
// in-betweens at weights within 1e-6 of 0 or 1, or within 1e-6 of an earlier one of the same shape,
// dropped with a warning.
LoadStatus LoadInbetweens(const Field& extensions, const Path& where, size_t target_count,
                          Mesh* mesh, std::vector<Warning>* warnings);

}  // namespace sinew::loader::gltf
