#include "sinew/vk/deformer.h"

#include <algorithm>
#include <cstring>

#include "kernels.h"
#include "sinew/vk/gpu_layout.h"
#include "skin_records.h"

namespace sinew::vk {
namespace {

constexpr VkDeviceSize kPositionBytes = 12;
constexpr VkDeviceSize kNormalBytes = 12;
constexpr VkDeviceSize kTangentBytes = 16;

}  // namespace

Deformer::~Deformer() {
  if (!context_) return;
  detail::SkinDescriptorPool pool{pool_, {}};
  detail::DestroySkinDescriptorPool(*context_, pool);
}

Result<std::unique_ptr<Deformer>> Deformer::Create(const Context& context, const DeviceMesh& mesh,
                                                   const DeformerOptions& options) {
  if (options.instance_count == 0) {
    return ErrorInfo{Error::kInvalidArgument, "instance_count must be >= 1",
                     "DeformerOptions::instance_count", 0};
  }
  // The records address outputs in 32-bit words (gpu_layout.h).
  if (uint64_t{options.instance_count} * mesh.vertex_count() * 4 > UINT32_MAX) {
    return ErrorInfo{Error::kInvalidArgument,
                     std::to_string(options.instance_count) + " instances of " +
                         std::to_string(mesh.vertex_count()) +
                         " vertices exceed the 2^32 words the kernels address",
                     "DeformerOptions::instance_count", 0};
  }
  std::unique_ptr<Deformer> d(new Deformer());
  d->context_ = &context;
  d->mesh_ = &mesh;
  d->instance_count_ = options.instance_count;
  const VkDeviceSize n = options.instance_count;
  const VkDeviceSize v = mesh.vertex_count();

  // Buffers.
  auto palette = context.CreateBuffer(n * mesh.palette_size() * kPaletteEntryBytes,
                                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::kUpload,
                                      "sinew palettes");
  if (!palette) return palette.status();
  d->palette_ = std::move(palette.value());
  for (uint32_t i = 0; i < options.instance_count; ++i) {
    auto slot = d->palette(i);
    std::fill(slot.begin(), slot.end(), Float3x4{});  // Identity until the caller sets a pose.
  }
  if (mesh.morph_target_count()) {
    d->morph_weights_.assign(n * mesh.morph_target_count(), 0.0f);
    const VkDeviceSize active_bytes =
        n * MorphSlotWords(mesh.morph_target_count()) * sizeof(uint32_t);
    auto active = context.CreateBuffer(active_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       MemoryUsage::kUpload, "sinew morph weights");
    if (!active) return active.status();
    d->morph_active_ = std::move(active.value());
    std::memset(d->morph_active_.mapped(), 0, active_bytes);  // every weight 0, none active
  }
  const VkBufferUsageFlags out_usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | options.extra_output_usage;
  auto positions = context.CreateBuffer(n * v * kPositionBytes, out_usage,
                                        MemoryUsage::kDeviceLocal, "sinew out positions");
  if (!positions) return positions.status();
  d->out_positions_ = std::move(positions.value());
  if (mesh.has_normals()) {
    auto normals = context.CreateBuffer(n * v * kNormalBytes, out_usage, MemoryUsage::kDeviceLocal,
                                        "sinew out normals");
    if (!normals) return normals.status();
    d->out_normals_ = std::move(normals.value());
  }
  if (mesh.has_tangents()) {
    auto tangents = context.CreateBuffer(n * v * kTangentBytes, out_usage,
                                         MemoryUsage::kDeviceLocal, "sinew out tangents");
    if (!tangents) return tangents.status();
    d->out_tangents_ = std::move(tangents.value());
  }

  // One instance record per instance, and its work items, written once.
  auto records = context.CreateBuffer(n * sizeof(SkinInstance), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                      MemoryUsage::kUpload, "sinew instance records");
  if (!records) return records.status();
  d->records_ = std::move(records.value());
  const uint32_t groups = detail::GroupCount(mesh.vertex_count());
  d->item_count_ = options.instance_count * groups;
  auto items = context.CreateBuffer(VkDeviceSize{d->item_count_} * sizeof(SkinWorkItem),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUsage::kUpload,
                                    "sinew work items");
  if (!items) return items.status();
  d->work_items_ = std::move(items.value());
  const SkinInstance mesh_record = detail::MeshRecord(mesh.layout(), 0);
  auto* record = static_cast<SkinInstance*>(d->records_.mapped());
  auto* item = static_cast<SkinWorkItem*>(d->work_items_.mapped());
  for (uint32_t i = 0; i < options.instance_count; ++i) {
    SkinInstance r = mesh_record;
    r.palette = static_cast<uint32_t>(i * mesh.palette_size() * 3);
    r.morph_slot = static_cast<uint32_t>(i * MorphSlotWords(mesh.morph_target_count()));
    r.out_positions = i * mesh.vertex_count() * 3;
    r.out_normals = mesh.has_normals() ? i * mesh.vertex_count() * 3 : 0;
    r.out_tangents = mesh.has_tangents() ? i * mesh.vertex_count() : 0;
    record[i] = r;
    item += detail::WriteWorkItems(i, mesh.vertex_count(), item);
  }

  // The Context's pipeline for this mesh's influence layout (created once per Context).
  auto kernel = detail::KernelsOf(context).Get(mesh.sparse() ? detail::KernelKind::kSkinSparse
                                                             : detail::KernelKind::kSkinDense);
  if (!kernel) return kernel.status();
  d->pipeline_ = kernel->pipeline;
  d->pipeline_layout_ = kernel->layout;
  auto descriptors = detail::CreateSkinDescriptorPool(context, 1, "sinew deformer descriptors");
  if (!descriptors) return descriptors.status();
  d->pool_ = descriptors->pool;
  d->set_ = descriptors->sets[0];
  // A stream the mesh lacks is never read or written (the records' flags say so), but its
  // descriptor must be valid: the morph slots stand in with the palettes (a read-only binding on
  // an output buffer would be a read-after-write hazard to synchronization validation), missing
  // outputs with the output positions.
  const auto whole = [&](const Buffer& b, const Buffer& stand_in) {
    return VkDescriptorBufferInfo{b.handle() ? b.handle() : stand_in.handle(), 0, VK_WHOLE_SIZE};
  };
  detail::SkinDescriptors bind;
  bind.mesh = {mesh.buffer(), 0, VK_WHOLE_SIZE};
  bind.instances = whole(d->records_, d->records_);
  bind.work_items = whole(d->work_items_, d->work_items_);
  bind.palette = whole(d->palette_, d->palette_);
  bind.morph_slots = whole(d->morph_active_, d->palette_);
  bind.out_positions = whole(d->out_positions_, d->out_positions_);
  bind.out_normals = whole(d->out_normals_, d->out_positions_);
  bind.out_tangents = whole(d->out_tangents_, d->out_positions_);
  detail::WriteSkinDescriptors(context, d->set_, bind);
  return d;
}

std::span<Float3x4> Deformer::palette(uint32_t instance) {
  if (instance >= instance_count_) return {};
  auto* base = static_cast<Float3x4*>(palette_.mapped());
  return {base + size_t{instance} * mesh_->palette_size(), mesh_->palette_size()};
}

Status Deformer::SetPalette(uint32_t instance, std::span<const Float3x4> matrices) {
  if (instance >= instance_count_) {
    return {Error::kInstanceIndexOutOfRange,
            "instance " + std::to_string(instance) + " of " + std::to_string(instance_count_)};
  }
  if (matrices.size() != mesh_->palette_size()) {
    return {Error::kSizeMismatch,
            "palette has " + std::to_string(matrices.size()) + " matrices, the mesh needs " +
                std::to_string(mesh_->palette_size()),
            "palette"};
  }
  std::memcpy(palette(instance).data(), matrices.data(), matrices.size_bytes());
  return {};
}

std::span<const float> Deformer::morph_weights(uint32_t instance) const {
  const uint32_t targets = mesh_->morph_target_count();
  if (instance >= instance_count_ || targets == 0) return {};
  return std::span(morph_weights_).subspan(size_t{instance} * targets, targets);
}

Status Deformer::SetMorphWeights(uint32_t instance, std::span<const float> weights) {
  if (instance >= instance_count_) {
    return {Error::kInstanceIndexOutOfRange,
            "instance " + std::to_string(instance) + " of " + std::to_string(instance_count_)};
  }
  const uint32_t targets = mesh_->morph_target_count();
  if (weights.size() != targets) {
    return {Error::kSizeMismatch,
            std::to_string(weights.size()) + " weights, the mesh has " + std::to_string(targets) +
                " morph targets",
            "weights"};
  }
  if (weights.empty()) return {};
  if (Status s = detail::CheckMorphWeights(weights); !s) return s;
  std::copy(weights.begin(), weights.end(),
            morph_weights_.begin() + ptrdiff_t(size_t{instance} * targets));
  detail::WriteMorphSlot(weights, static_cast<uint32_t*>(morph_active_.mapped()) +
                                      size_t{instance} * MorphSlotWords(targets));
  return {};
}

void Deformer::Record(VkCommandBuffer cmd) const {
  detail::RecordSkinDispatches(*context_, cmd, {pipeline_, pipeline_layout_, VK_NULL_HANDLE}, set_,
                               0, item_count_);
}

void Deformer::RecordOutputBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                                   VkAccessFlags dst_access) const {
  detail::RecordComputeWriteBarrier(*context_, cmd, dst_stage, dst_access);
}

VkDeviceSize Deformer::positions_offset(uint32_t instance) const {
  return VkDeviceSize{instance} * mesh_->vertex_count() * kPositionBytes;
}
VkDeviceSize Deformer::normals_offset(uint32_t instance) const {
  return VkDeviceSize{instance} * mesh_->vertex_count() * kNormalBytes;
}
VkDeviceSize Deformer::tangents_offset(uint32_t instance) const {
  return VkDeviceSize{instance} * mesh_->vertex_count() * kTangentBytes;
}

}  // namespace sinew::vk
