// One deformation on the GPU, read back: for tools and tests (the GPU-vs-CPU checks of one
// mesh), through a SkinCache sized for the one instance. An engine keeps its
// SkinCache and records every frame instead.
#pragma once

#include <span>

#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/vk/context.h"

namespace sinew::vk {

// Uploads `mesh`, deforms one instance on the GPU (morph targets with `morph_weights`, one per
// target or empty for none, then skinning with `palette`, mesh.palette_size(palette.size())
// entries), waits and
// reads the outputs back. Errors: those of SkinCache (the mesh's validation among them) and the
// submission.
Result<cpu::DeformedPrimitive> DeformOnce(const Context& context, const Primitive& mesh,
                                          std::span<const Float3x4> palette,
                                          std::span<const float> morph_weights = {});

}  // namespace sinew::vk
