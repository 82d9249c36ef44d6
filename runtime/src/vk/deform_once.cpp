#include "sinew/vk/deform_once.h"

#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"

namespace sinew::vk {

Result<cpu::DeformedPrimitive> DeformOnce(const Context& context, const Primitive& mesh,
                                          std::span<const Float3x4> palette,
                                          std::span<const float> morph_weights) {
  SkinCacheOptions base;
  base.frames_in_flight = 1;
  base.previous_positions = PreviousPositions::kNone;
  const auto joints = uint32_t(palette.size());
  auto options = SkinCacheOptionsFor(mesh, joints, 1, base);
  if (!options) return options.status();
  auto cache = SkinCache::Create(context, *options);
  if (!cache) return cache.status();
  auto mesh_id = (*cache)->AddMesh(mesh, joints);
  if (!mesh_id) return mesh_id.status();
  auto palette_id = (*cache)->AddPalette(uint32_t(mesh.palette_size(joints)));
  if (!palette_id) return palette_id.status();
  auto instance = (*cache)->AddInstance(*mesh_id, *palette_id);
  if (!instance) return instance.status();
  if (Status s = (*cache)->SetPalette(*palette_id, palette); !s) return s;
  if (!morph_weights.empty()) {
    if (Status s = (*cache)->SetMorphWeights(*instance, morph_weights); !s) return s;
  }
  Status recorded;
  Status submitted = context.SubmitAndWait([&](VkCommandBuffer cmd) {
    recorded = (*cache)->Record(cmd);
    (*cache)->RecordOutputBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  });
  if (!recorded) return recorded;
  if (!submitted) return submitted;
  return ReadInstanceOutputs(context, **cache, *instance);
}

}  // namespace sinew::vk
