#include "sinew/procedural/crowd.h"

#include <string>
#include <vector>

#include "sinew/cpu/local_to_model_job.h"
#include "sinew/cpu/skinning_palette_job.h"
#include "sinew/procedural/character.h"

namespace sinew::procedural {
namespace {

Status PaletteFromLocals(const Skeleton& skeleton, std::span<const Float4x4> locals,
                         std::span<Float3x4> out) {
  std::vector<Float4x4> models(skeleton.joint_count());
  cpu::LocalToModelJob to_model;
  to_model.parents = skeleton.parents;
  to_model.locals = locals;
  to_model.output = models;
  if (Status s = to_model.Run(); !s) return s;
  cpu::SkinningPaletteJob palette;
  palette.models = models;
  palette.inverse_binds = skeleton.inverse_binds;
  palette.output = out;
  return palette.Run();
}

}  // namespace

Status CrowdPalette(const Skeleton& skeleton, float time_seconds, uint32_t instance,
                    std::span<Float3x4> out) {
  std::vector<Float4x4> locals(skeleton.joint_count());
  if (Status s = PoseCharacter(skeleton, time_seconds, instance, locals); !s) return s;
  return PaletteFromLocals(skeleton, locals, out);
}

Status RestPalette(const Skeleton& skeleton, std::span<Float3x4> out) {
  return PaletteFromLocals(skeleton, skeleton.rest_local, out);
}

}  // namespace sinew::procedural
