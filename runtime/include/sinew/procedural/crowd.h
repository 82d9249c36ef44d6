// Skinning palettes for a procedural crowd: PoseCharacter -> LocalToModelJob -> SkinningPaletteJob.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/skeleton.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"

namespace sinew::procedural {

// Writes the palette of crowd member `instance` at `time_seconds` (one 3x4 per joint).
// kSizeMismatch when `out` does not have skeleton.joint_count() entries.
Status CrowdPalette(const Skeleton& skeleton, float time_seconds, uint32_t instance,
                    std::span<Float3x4> out);

// The palette of the bind pose: every joint at its rest transform (skinning leaves the mesh as is).
Status RestPalette(const Skeleton& skeleton, std::span<Float3x4> out);

}  // namespace sinew::procedural
