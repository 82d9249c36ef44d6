#include "sinew/vk/deform_once.h"

#include "sinew/vk/deformer.h"
#include "sinew/vk/device_mesh.h"
#include "sinew/vk/readback.h"

namespace sinew::vk {

Result<cpu::DeformedPrimitive> DeformOnce(const Context& context, const SkinnedMesh& mesh,
                                          std::span<const Float3x4> palette,
                                          std::span<const float> morph_weights) {
  auto device_mesh = DeviceMesh::Create(context, mesh);
  if (!device_mesh) return device_mesh.status();
  DeformerOptions options;
  options.instance_count = 1;
  auto deformer = Deformer::Create(context, **device_mesh, options);
  if (!deformer) return deformer.status();
  if (Status s = (*deformer)->SetPalette(0, palette); !s) return s;
  if (!morph_weights.empty()) {
    if (Status s = (*deformer)->SetMorphWeights(0, morph_weights); !s) return s;
  }
  if (Status s = context.SubmitAndWait([&](VkCommandBuffer cmd) { (*deformer)->Record(cmd); });
      !s) {
    return s;
  }
  const VkDeviceSize v = mesh.vertex_count();
  cpu::DeformedPrimitive out;
  auto positions = ReadFloats(context, (*deformer)->out_positions(), 0, v * 12);
  if (!positions) return positions.status();
  out.positions = std::move(positions.value());
  if (!mesh.normals.empty()) {
    auto normals = ReadFloats(context, (*deformer)->out_normals(), 0, v * 12);
    if (!normals) return normals.status();
    out.normals = std::move(normals.value());
  }
  if (!mesh.tangents.empty()) {
    auto tangents = ReadFloats(context, (*deformer)->out_tangents(), 0, v * 16);
    if (!tangents) return tangents.status();
    out.tangents = std::move(tangents.value());
  }
  return out;
}

}  // namespace sinew::vk
