// A skinned node's palette without validation: the step SkinInstancePaletteJob::Run and
// CrowdPoseJob share. Callers validate first (SkinInstancePaletteJob::Validate).
#pragma once

#include <cstdint>
#include <span>

#include "sinew/asset/asset.h"
#include "sinew/core/math.h"

namespace sinew::cpu::detail {

// output[i] = world(joint) · inverse bind of each entry's joint (SkinInstancePaletteJob's rule).
void WriteSkinPalette(const Skin& skin, std::span<const Float4x4> world, uint32_t node,
                      std::span<Float3x4> output);

}  // namespace sinew::cpu::detail
