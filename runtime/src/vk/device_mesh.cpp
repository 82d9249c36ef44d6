#include "sinew/vk/device_mesh.h"

#include "functions.h"
#include "mesh_upload.h"
#include "sinew/vk/queue_ownership.h"

namespace sinew::vk {

Result<std::unique_ptr<DeviceMesh>> DeviceMesh::Create(const Context& context,
                                                       const SkinnedMesh& mesh) {
  if (context.adopted()) {
    return ErrorInfo{Error::kNotAllowedInAdoptMode,
                     "pass a command buffer to DeviceMesh::Create on an adopted context",
                     {},
                     0};
  }
  std::unique_ptr<DeviceMesh> out;
  Status recorded;
  Status submitted = context.SubmitAndWait([&](VkCommandBuffer cmd) {
    auto created = Create(context, mesh, cmd);
    if (created) {
      out = std::move(created.value());
    } else {
      recorded = created.status();
    }
  });
  if (!recorded) return recorded;
  if (!submitted) return submitted;
  out->ReleaseStaging();
  return out;
}

Result<std::unique_ptr<DeviceMesh>> DeviceMesh::Create(const Context& context,
                                                       const SkinnedMesh& mesh,
                                                       VkCommandBuffer upload_cmd,
                                                       uint32_t upload_family) {
  auto upload = detail::PlanMeshUpload(mesh, detail::StreamAlignment(context));
  if (!upload) return upload.status();
  std::unique_ptr<DeviceMesh> out(new DeviceMesh());
  out->context_ = &context;
  out->upload_family_ = upload_family == kContextFamily ? context.queue_family() : upload_family;
  out->layout_ = upload->layout;
  const VkDeviceSize total = out->layout_.bytes;
  auto buffer = context.CreateBuffer(
      total, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      MemoryUsage::kDeviceLocal, "sinew mesh");
  if (!buffer) return buffer.status();
  out->buffer_ = std::move(buffer.value());
  auto staging = context.CreateBuffer(total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::kUpload,
                                      "sinew mesh staging");
  if (!staging) return staging.status();
  out->staging_ = std::move(staging.value());
  detail::WriteMeshUpload(mesh, *upload, out->staging_.mapped());

  detail::RecordUpload(context, upload_cmd, out->upload_family_, out->staging_.handle(),
                       out->buffer_.handle(), {0, 0, total});
  return out;
}

void DeviceMesh::RecordAcquire(VkCommandBuffer cmd) const {
  const VkBuffer uploaded = buffer_.handle();
  vk::RecordAcquire(*context_, cmd, {upload_family_, context_->queue_family(), {&uploaded, 1}},
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
}

}  // namespace sinew::vk
