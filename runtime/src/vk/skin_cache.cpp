#include "sinew/vk/skin_cache.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <string>

#include "functions.h"
#include "kernels.h"
#include "mesh_upload.h"
#include "range_allocator.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/vk/gpu_layout.h"
#include "skin_records.h"

namespace sinew::vk {
namespace {

constexpr uint64_t kNever = UINT64_MAX;
constexpr uint32_t kMaxFramesInFlight = 8;
constexpr VkDeviceSize kOutputAlignment = 16;  // tangents are read as vec4

VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// `what` ("the mesh pool is", "the palette entries are") full, sized by `option`.
ErrorInfo Full(const char* what, const char* option) {
  return ErrorInfo{Error::kCapacityExceeded, std::string(what) + " full", option, 0};
}

// A number for a new SkinCache's ids (SkinCacheId::cache), unique within the process so that an
// id of a cache on another Context is refused too: 1, 2, ..., skipping 0 (a default id's) should
// the count ever wrap.
uint32_t NewCacheNumber() {
  static std::atomic<uint32_t> last{0};
  uint32_t number = last.fetch_add(1, std::memory_order_relaxed) + 1;
  while (number == 0) number = last.fetch_add(1, std::memory_order_relaxed) + 1;
  return number;
}

// A slot of one of the cache's tables; `generation` makes a removed id invalid for good.
struct Slot {
  uint32_t generation = 0;
  bool live = false;
};

// Slots of one kind, with the indices of removed ones for reuse.
template <typename T>
struct Table {
  std::vector<T> slots;
  std::vector<uint32_t> free;
  uint32_t cache = 0;  // SkinCacheId::cache of the ids it gives

  template <typename Id>
  T* Find(Id id) {
    if (id.cache != cache || id.index >= slots.size()) return nullptr;
    T& s = slots[id.index];
    return s.live && s.generation == id.generation ? &s : nullptr;
  }
  // Why Find(id) found nothing: `id` is of another cache, or not (or no longer) one of this
  // table's `kind`s.
  template <typename Id>
  std::string Missing(Id id, const char* kind) const {
    if (id.cache != 0 && id.cache != cache)
      return std::string(kind[0] == 'i' ? "an " : "a ") + kind + " of another SkinCache";
    return std::string("no such ") + kind;
  }
  // The id of slot `index` as it is now.
  template <typename Id>
  Id IdOf(uint32_t index) const {
    return Id{index, slots[index].generation, cache};
  }
  template <typename Id>
  Id Add(T value) {
    uint32_t index;
    if (!free.empty()) {
      index = free.back();
      free.pop_back();
      value.generation = slots[index].generation;
    } else {
      index = static_cast<uint32_t>(slots.size());
      slots.emplace_back();
    }
    value.live = true;
    slots[index] = std::move(value);
    return IdOf<Id>(index);
  }
  void Remove(uint32_t index) {
    slots[index].live = false;
    ++slots[index].generation;
    free.push_back(index);
  }
};

}  // namespace

struct SkinCache::State {
  struct Mesh : Slot {
    MeshLayout layout;
    VkDeviceSize base = 0;  // bytes into the mesh pool
    SkinInstance record{};  // the mesh half of its instances' records
    uint32_t kernel = 0;    // its kernel variant's index in `kernels`
    uint32_t users = 0;     // live instances
    uint64_t stamp = 0;     // last Record() that counted it
  };
  struct Palette : Slot {
    uint32_t entries = 0;
    uint32_t offset = 0;        // entries into each frame's palette range
    uint32_t users = 0;         // live instances
    uint64_t written = kNever;  // the last frame whose slot holds its newest matrices
    // Dual-quaternion palettes: the matrices live in `matrices` (host memory the host writes
    // through palette() / OverwritePalette() / SetPalette(), each a new `version`). Record()
    // converts a version once into `dual_quaternions`, when a dual-quaternion mesh reads the
    // palette, and copies into a frame slot what it does not hold yet: the matrices, and after
    // them (from offset + entries) the dual quaternions.
    bool dual = false;
    std::vector<Float3x4> matrices;
    std::vector<cpu::DualQuaternion> dual_quaternions;
    uint64_t version = 1;
    uint64_t converted = 0;                           // the version dual_quaternions hold
    uint64_t slot_matrices[kMaxFramesInFlight] = {};  // the version each slot's matrices are
    uint64_t slot_dual[kMaxFramesInFlight] = {};  // the version each slot's dual quaternions are
    uint64_t read_dual = 0;  // the last Record() stamp in which a dual-quaternion mesh read it
    uint32_t units = 0;      // of the palette range: PaletteUnits(entries, method)
  };
  struct Instance : Slot {
    uint32_t mesh = 0;
    uint32_t palette = 0;
    uint32_t page = 0;                        // the output page its outputs live in
    VkDeviceSize block = 0, block_bytes = 0;  // its range of that page
    VkDeviceSize positions[2] = {0, 0};       // [1]: ping-pong partner or copy target
    VkDeviceSize normals = 0, tangents = 0;
    uint32_t current = 0;         // which positions[] holds the newest outputs
    bool deformed = false;        // has outputs at all
    bool teleport = false;        // next deformation: previous = current
    bool previous_valid = false;  // the other range holds the frame before (ping-pong)
    uint64_t deformed_frame = kNever;
    uint64_t stamp = 0;                // last Record() that listed it
    uint32_t morph_offset = 0;         // words into each frame's morph range
    std::vector<float> weights;        // as set
    std::vector<uint32_t> morph_slot;  // the slot words for `weights`
    uint64_t weights_version = 1;
    uint64_t slot_version[kMaxFramesInFlight] = {};  // weights_version each frame slot holds
  };
  // Memory to give back once the frames that may use it have completed.
  struct Retired {
    uint64_t frame = 0;  // free when this frame opens
    detail::RangeAllocator* pool = nullptr;
    uint64_t offset = 0, size = 0;
    Buffer staging;
  };
  // One frame's host-visible data: instance records, work items, palettes, morph slots; and a
  // descriptor set per output page.
  struct Frame {
    Buffer buffer;
    std::vector<VkDescriptorSet> sets;
    // What the slot's work table was last written for: it stands while the same instances are
    // deformed in the same order and none was added or removed (the work items name records by
    // position, and each record's groups by its mesh's vertex count).
    std::vector<uint32_t> order;
    uint64_t topology = UINT64_MAX;
  };
  // A buffer of outputs, at most maxStorageBufferRange bytes (what one binding can see).
  struct Page {
    Buffer buffer;
    detail::RangeAllocator pool;
  };

  Table<Mesh> meshes;
  Table<Palette> palettes;
  Table<Instance> instances;
  detail::RangeAllocator mesh_pool, palette_pool, morph_pool;
  Buffer mesh_buffer;
  std::vector<Page> pages;
  std::vector<Frame> frames;
  detail::SkinDescriptorPool descriptors;
  // The kernel variants (KernelVariant: the kernel and the mesh's choices) this cache's meshes
  // have needed, in the order they first did (a handful, of kKernelVariants possible), and the
  // variant of each.
  std::vector<detail::Kernel> kernels;
  std::vector<uint32_t> kernel_variants;
  // Byte offsets of the ranges within each frame's buffer, and their sizes.
  VkDeviceSize records_at = 0, items_at = 0, palettes_at = 0, morph_at = 0, frame_bytes = 0;
  uint32_t max_work_items = 0;
  uint32_t workgroup_size = kMinSkinWorkgroupSize;  // vertices per work item
  std::vector<Retired> retired;

  // For a "full" error: how many bytes of the retired ranges of the pools `of` picks come back,
  // and within how many Record() calls from frame `now` — "; 4096 bytes of removed instances are
  // still used by frames in flight and come back within 2 Record() calls" — or "" when none are.
  template <typename Of>
  std::string StillInFlight(Of of, uint64_t now, const char* what) const {
    uint64_t bytes = 0, last = now;
    for (const Retired& r : retired) {
      if (r.pool == nullptr || !of(r.pool)) continue;
      bytes += r.size;
      last = std::max(last, r.frame);
    }
    if (bytes == 0) return {};
    return "; " + std::to_string(bytes) + " bytes of " + what +
           " are still used by frames in flight and come back within " +
           std::to_string(last - now) + " Record() calls";
  }

  uint64_t record_stamp = 0;
  uint64_t topology = 0;        // bumped by every AddInstance and RemoveInstance
  std::vector<uint32_t> order;  // this Record's instances, by page, then kernel variant
  // Per entry of the active list: kernels.size() × page + the mesh's index in `kernels`.
  std::vector<uint32_t> keys;
  std::vector<uint32_t> key_counts;
  std::vector<uint32_t> order_keys;  // the key of each entry of `order`
  std::vector<InstanceId> all;       // scratch for Record(cmd)
  std::vector<bool> kernels_used;    // scratch for Record's statistics
  // This Record's runs of work items, one per (page, variant): a key as in `keys`.
  struct ItemRun {
    uint32_t key, first, end;
  };
  std::vector<ItemRun> runs;

  // The index in `kernels` of `variant`, its pipeline got from the Context's cache on first use.
  Result<uint32_t> KernelIndex(const Context& context, uint32_t variant) {
    for (uint32_t k = 0; k < kernel_variants.size(); ++k) {
      if (kernel_variants[k] == variant) return k;
    }
    auto kernel = detail::KernelsOf(context).Get(variant, workgroup_size);
    if (!kernel) return kernel.status();
    kernels.push_back(*kernel);
    kernel_variants.push_back(variant);
    return static_cast<uint32_t>(kernels.size() - 1);
  }

  unsigned char* FrameBytes(uint32_t slot) const {
    return static_cast<unsigned char*>(frames[slot].buffer.mapped());
  }
  Float3x4* PaletteAt(uint32_t slot, const Palette& p) const {
    return reinterpret_cast<Float3x4*>(FrameBytes(slot) + palettes_at) + p.offset;
  }
  // Brings frame slot `slot` up to date with dual-quaternion palette p: its matrices, and with
  // `dual_quaternions` also their dual quaternions (converted once per version).
  // kNonFiniteValue (cpu::DualQuaternionPaletteJob, "palette/<entry>") for a matrix that cannot
  // be converted; the slot's dual quaternions are then left as they were.
  Status WriteDualPalette(uint32_t slot, Palette& p, bool dual_quaternions) {
    Float3x4* at = PaletteAt(slot, p);
    if (p.slot_matrices[slot] != p.version) {
      std::memcpy(at, p.matrices.data(), p.entries * sizeof(Float3x4));
      p.slot_matrices[slot] = p.version;
    }
    if (!dual_quaternions || p.slot_dual[slot] == p.version) return {};
    if (p.converted != p.version) {
      p.dual_quaternions.resize(p.entries);
      cpu::DualQuaternionPaletteJob job;
      job.palette = p.matrices;
      job.output = p.dual_quaternions;
      if (Status st = job.Run(); !st) return st;
      // Row 0 of K's w in entry 0: whether any entry scales (shaders/dual_quaternion.glsl).
      p.dual_quaternions[0].scale[0].w = cpu::HasScale(p.dual_quaternions) ? 1.0f : 0.0f;
      p.converted = p.version;
    }
    std::memcpy(static_cast<void*>(at + p.entries), p.dual_quaternions.data(),
                p.entries * sizeof(cpu::DualQuaternion));
    p.slot_dual[slot] = p.version;
    return {};
  }
};

uint32_t PaletteUnits(uint32_t entries, SkinningMethod method) {
  if (method == SkinningMethod::kLinear) return entries;
  const uint64_t units = uint64_t{entries} + (uint64_t{entries} * 8 + 2) / 3;
  return uint32_t(std::min<uint64_t>(units, UINT32_MAX));
}

VkDeviceSize SkinCacheOutputBytes(VkDeviceSize total, VkDeviceSize largest,
                                  VkDeviceSize output_page_bytes) {
  VkDeviceSize page = VkDeviceSize{1} << 27;  // the smallest maxStorageBufferRange allowed
  if (output_page_bytes) page = std::min(page, output_page_bytes);
  page = std::max<VkDeviceSize>(page / 256 * 256, 256);
  if (total <= page) return std::max<VkDeviceSize>(total, 1);  // one page holds every instance
  if (largest >= page) return total;  // cannot fit: AddInstance will say so
  const VkDeviceSize usable = page - largest;
  return (total + usable - 1) / usable * page;
}

Result<SkinCacheOptions> SkinCacheOptionsFor(const Primitive& mesh, uint32_t joints,
                                             uint32_t instances, const SkinCacheOptions& base) {
  // 256: the largest storage-buffer offset alignment Vulkan allows.
  auto upload = detail::PlanMeshUpload(mesh, joints, 256, base.formats);
  if (!upload) return upload.status();
  const MeshLayout& l = upload->layout;
  const uint64_t n = std::max<uint32_t>(instances, 1);
  const uint64_t previous = base.previous_positions == PreviousPositions::kNone ? 1 : 2;
  const uint64_t v = l.vertex_count;
  const uint64_t per_instance =
      detail::OutputBytesPerVertex(l.has_normals, l.has_tangents, base.formats, previous == 2) * v +
      4 * 16;
  SkinCacheOptions o = base;
  o.max_instances = o.max_palettes = uint32_t(n);
  o.mesh_bytes = l.bytes;
  o.output_bytes = SkinCacheOutputBytes(per_instance * n, per_instance, base.output_page_bytes);
  o.max_palette_entries = uint32_t(std::max<uint64_t>(
      uint64_t{PaletteUnits(l.palette_size, l.dual_quaternion ? SkinningMethod::kDualQuaternion
                                                              : SkinningMethod::kLinear)} *
          n,
      1));
  o.max_morph_weights = uint32_t(l.morph_target_count * n);
  return o;
}

Result<uint32_t> SkinWorkgroupSize(const Context& context, uint32_t requested) {
  const VkPhysicalDeviceLimits& limits = context.properties().limits;
  const uint32_t largest = std::min({limits.maxComputeWorkGroupSize[0],
                                     limits.maxComputeWorkGroupInvocations, kMaxSkinWorkgroupSize});
  if (requested == 0) {
    uint32_t size = kMinSkinWorkgroupSize;
    while (size < context.subgroup_size() && size * 2 <= largest) size *= 2;
    return size;
  }
  if (requested < kMinSkinWorkgroupSize || requested > largest ||
      (requested & (requested - 1)) != 0) {
    return ErrorInfo{Error::kInvalidArgument,
                     "workgroup size " + std::to_string(requested) +
                         " is not 0 or a power of two from 64 to " + std::to_string(largest),
                     "SkinCacheOptions::workgroup_size", 0};
  }
  return requested;
}

SkinCache::SkinCache(const Context& context) : context_(context) {
  detail::KernelsOf(context_).AddCache();
}

SkinCache::~SkinCache() {
  if (state_) detail::DestroySkinDescriptorPool(context_, state_->descriptors);
  detail::KernelsOf(context_).RemoveCache();
}

Result<std::unique_ptr<SkinCache>> SkinCache::Create(const Context& context,
                                                     const SkinCacheOptions& options) {
  if (options.frames_in_flight < 1 || options.frames_in_flight > kMaxFramesInFlight) {
    return ErrorInfo{Error::kInvalidArgument, "frames_in_flight must be 1 to 8",
                     "SkinCacheOptions::frames_in_flight", 0};
  }
  if (!options.max_instances || !options.max_palettes || !options.mesh_bytes ||
      !options.output_bytes || !options.max_palette_entries) {
    return ErrorInfo{Error::kInvalidArgument, "every capacity must be at least 1",
                     "SkinCacheOptions", 0};
  }
  if (options.upload_family != VK_QUEUE_FAMILY_IGNORED) {
    uint32_t families = 0;
    detail::Fn(context).vkGetPhysicalDeviceQueueFamilyProperties(context.physical_device(),
                                                                 &families, nullptr);
    if (options.upload_family >= families) {
      return ErrorInfo{Error::kInvalidArgument,
                       "no queue family " + std::to_string(options.upload_family) +
                           " on the device (it has " + std::to_string(families) + ")",
                       "SkinCacheOptions::upload_family", 0};
    }
  }
  auto workgroup_size = SkinWorkgroupSize(context, options.workgroup_size);
  if (!workgroup_size) return workgroup_size.status();
  std::unique_ptr<SkinCache> c(new SkinCache(context));
  c->options_ = options;
  c->options_.workgroup_size = *workgroup_size;
  c->frames_in_flight_ = options.frames_in_flight;
  c->state_ = std::make_unique<State>();
  State& s = *c->state_;
  s.workgroup_size = *workgroup_size;
  // Each cache's ids carry its own number, so that another cache's are refused.
  const uint32_t number = NewCacheNumber();
  s.meshes.cache = s.palettes.cache = s.instances.cache = number;

  if (options.upload_family == VK_QUEUE_FAMILY_IGNORED) {
    c->options_.upload_family = context.queue_family();
  }
  const uint32_t families[] = {context.queue_family(), c->options_.upload_family};
  auto mesh = context.CreateBuffer(
      options.mesh_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      MemoryUsage::kDeviceLocal, "sinew skin cache meshes", families);
  if (!mesh) return mesh.status();
  s.mesh_buffer = std::move(mesh.value());
  // Outputs in pages a storage binding can see whole (lavapipe: 128 MiB; desktop GPUs: 2-4 GiB).
  VkDeviceSize page_limit = context.properties().limits.maxStorageBufferRange;
  if (options.output_page_bytes) page_limit = std::min(page_limit, options.output_page_bytes);
  page_limit = std::max<VkDeviceSize>(page_limit / 256 * 256, 256);
  const VkDeviceSize page_count =
      options.output_bytes / page_limit + (options.output_bytes % page_limit != 0);
  // Each page is a buffer and a descriptor set: a page size far below the outputs' makes
  // thousands of them (a buffer every 256 bytes for output_page_bytes 1).
  constexpr VkDeviceSize kMaxOutputPages = 1024;
  if (page_count > kMaxOutputPages) {
    return ErrorInfo{Error::kInvalidArgument,
                     std::to_string(page_count) + " output pages of " + std::to_string(page_limit) +
                         " bytes for output_bytes " + std::to_string(options.output_bytes) +
                         "; at most " + std::to_string(kMaxOutputPages),
                     options.output_page_bytes ? "SkinCacheOptions::output_page_bytes"
                                               : "SkinCacheOptions::output_bytes",
                     0};
  }
  for (VkDeviceSize p = 0; p < page_count; ++p) {
    const VkDeviceSize bytes = std::min(page_limit, options.output_bytes - p * page_limit);
    auto output = context.CreateBuffer(
        bytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | options.extra_output_usage,
        MemoryUsage::kDeviceLocal, "sinew skin cache outputs");
    if (!output) return output.status();
    s.pages.push_back({std::move(output.value()), detail::RangeAllocator(bytes)});
  }
  s.mesh_pool = detail::RangeAllocator(options.mesh_bytes);
  s.palette_pool = detail::RangeAllocator(options.max_palette_entries);
  const uint64_t morph_words = 3 * uint64_t{options.max_morph_weights} + 2 * options.max_instances;
  s.morph_pool = detail::RangeAllocator(options.max_morph_weights ? morph_words : 0);

  // Work items: one per workgroup_size vertices of each instance; every vertex has at least 12
  // bytes of output, so the output buffer bounds them.
  s.max_work_items = static_cast<uint32_t>(std::min<uint64_t>(
      options.output_bytes / (12 * s.workgroup_size) + options.max_instances, UINT32_MAX / 2));
  const VkDeviceSize align = detail::StreamAlignment(context);
  VkDeviceSize cursor = 0;
  const auto place = [&](VkDeviceSize bytes) {
    const VkDeviceSize at = cursor;
    cursor = AlignUp(cursor + std::max<VkDeviceSize>(bytes, 16), align);
    return at;
  };
  s.records_at = place(VkDeviceSize{options.max_instances} * sizeof(SkinInstance));
  s.items_at = place(VkDeviceSize{s.max_work_items} * sizeof(SkinWorkItem));
  s.palettes_at = place(VkDeviceSize{options.max_palette_entries} * kPaletteEntryBytes);
  s.morph_at = place(morph_words * sizeof(uint32_t));
  s.frame_bytes = cursor;

  auto descriptors = detail::CreateSkinDescriptorPool(
      context, options.frames_in_flight * uint32_t(s.pages.size()), "sinew skin cache");
  if (!descriptors) return descriptors.status();
  s.descriptors = std::move(descriptors.value());
  // The common linear kernels now (CommonVariant); any other variant with the first mesh that
  // needs it.
  for (const bool sparse : {false, true}) {
    if (auto k = s.KernelIndex(context, detail::CommonVariant(sparse)); !k) return k.status();
  }

  s.frames.resize(options.frames_in_flight);
  for (uint32_t f = 0; f < options.frames_in_flight; ++f) {
    State::Frame& frame = s.frames[f];
    auto buffer = context.CreateBuffer(s.frame_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                       MemoryUsage::kUpload, "sinew skin cache frame");
    if (!buffer) return buffer.status();
    frame.buffer = std::move(buffer.value());
    std::memset(frame.buffer.mapped(), 0, s.frame_bytes);
    const VkBuffer host = frame.buffer.handle();
    for (size_t p = 0; p < s.pages.size(); ++p) {
      frame.sets.push_back(s.descriptors.sets[f * s.pages.size() + p]);
      detail::SkinDescriptors bind;
      bind.mesh = {s.mesh_buffer.handle(), 0, VK_WHOLE_SIZE};
      bind.instances = {host, s.records_at, s.items_at - s.records_at};
      bind.work_items = {host, s.items_at, s.palettes_at - s.items_at};
      bind.palette = {host, s.palettes_at, s.morph_at - s.palettes_at};
      bind.morph_slots = {host, s.morph_at, s.frame_bytes - s.morph_at};
      bind.out_positions = {s.pages[p].buffer.handle(), 0, VK_WHOLE_SIZE};
      bind.out_normals = bind.out_positions;
      bind.out_tangents = bind.out_positions;
      detail::WriteSkinDescriptors(context, frame.sets.back(), bind);
    }
  }
  return c;
}

// --- Meshes ---

Result<MeshId> SkinCache::RecordMesh(const Primitive& mesh, uint32_t joints,
                                     VkCommandBuffer upload_cmd, Buffer* staging_out) {
  State& s = *state_;
  auto upload =
      detail::PlanMeshUpload(mesh, joints, detail::StreamAlignment(context_), options_.formats);
  if (!upload) return upload.status();
  const MeshLayout& layout = upload->layout;
  if (uint64_t{layout.vertex_count} * 4 > UINT32_MAX) {
    return ErrorInfo{Error::kInvalidArgument, "a mesh of more than 2^30 vertices", "positions", 0};
  }
  const uint32_t variant =
      detail::KernelVariant(layout.sparse, layout.dual_quaternion, detail::KernelChoices(layout));
  auto kernel = s.KernelIndex(context_, variant);
  if (!kernel) return kernel.status();
  const auto base = s.mesh_pool.Allocate(layout.bytes, detail::StreamAlignment(context_));
  if (!base) {
    ErrorInfo full = Full("the mesh pool is", "SkinCacheOptions::mesh_bytes");
    full.message +=
        s.StillInFlight([&](const detail::RangeAllocator* pool) { return pool == &s.mesh_pool; },
                        frame_, "removed meshes");
    return full;
  }
  auto staging = context_.CreateBuffer(layout.bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                       MemoryUsage::kStaging, "sinew skin cache staging");
  if (!staging) {
    s.mesh_pool.Free(*base, layout.bytes);
    return staging.status();
  }
  detail::WriteMeshUpload(mesh, *upload, staging->mapped());
  detail::RecordUpload(context_, upload_cmd, options_.upload_family, staging->handle(),
                       s.mesh_buffer.handle(), VkBufferCopy{0, *base, layout.bytes});
  *staging_out = std::move(staging.value());
  State::Mesh m;
  m.layout = layout;
  m.base = *base;
  m.record = detail::MeshRecord(layout, *base);
  m.kernel = *kernel;
  return s.meshes.Add<MeshId>(std::move(m));
}

Result<MeshId> SkinCache::AddMesh(const Primitive& mesh, uint32_t joints,
                                  VkCommandBuffer upload_cmd) {
  if (upload_cmd == VK_NULL_HANDLE) {
    return ErrorInfo{Error::kInvalidArgument, "no command buffer to record the upload into",
                     "upload_cmd", 0};
  }
  Buffer staging;
  auto added = RecordMesh(mesh, joints, upload_cmd, &staging);
  // The upload runs with frame frame_ (or before); the host has waited for it once it writes
  // frame frame_ + N, which the end of Record(frame_ + N) comes after.
  if (added) {
    state_->retired.push_back({frame_ + frames_in_flight_ + 1, nullptr, 0, 0, std::move(staging)});
  }
  return added;
}

Result<MeshId> SkinCache::AddMesh(const Primitive& mesh, uint32_t joints) {
  if (context_.adopted()) {
    return ErrorInfo{Error::kNotAllowedInAdoptMode,
                     "pass a command buffer to SkinCache::AddMesh on an adopted context",
                     {},
                     0};
  }
  Buffer staging;  // freed on return: the submission has completed (or failed)
  Result<MeshId> added = ErrorInfo{Error::kInvalidArgument, "not recorded", {}, 0};
  Status submitted = context_.SubmitAndWait(
      [&](VkCommandBuffer cmd) { added = RecordMesh(mesh, joints, cmd, &staging); });
  if (!added) return added;
  if (!submitted) {
    (void)RemoveMesh(added.value());
    return submitted;
  }
  return added;
}

Status SkinCache::RemoveMesh(MeshId id) {
  State& s = *state_;
  State::Mesh* m = s.meshes.Find(id);
  if (!m) return {Error::kInvalidHandle, s.meshes.Missing(id, "mesh"), "mesh"};
  if (m->users) {
    return {Error::kInUse, std::to_string(m->users) + " instances deform the mesh", "mesh"};
  }
  s.retired.push_back({frame_ + frames_in_flight_, &s.mesh_pool, m->base, m->layout.bytes, {}});
  s.meshes.Remove(id.index);
  return {};
}

const MeshLayout* SkinCache::mesh_layout(MeshId id) const {
  const State::Mesh* m = state_->meshes.Find(id);
  return m ? &m->layout : nullptr;
}

// --- Palettes ---

Result<PaletteId> SkinCache::AddPalette(uint32_t entries, SkinningMethod method) {
  State& s = *state_;
  if (entries == 0) return Status{Error::kInvalidArgument, "a palette of 0 entries", "entries"};
  if (s.palettes.slots.size() - s.palettes.free.size() >= options_.max_palettes) {
    return Full("the palette table is", "SkinCacheOptions::max_palettes");
  }
  const uint32_t units = PaletteUnits(entries, method);
  if (units > options_.max_palette_entries) {
    return Full("the palette entries are", "SkinCacheOptions::max_palette_entries");
  }
  const auto offset = s.palette_pool.Allocate(units);
  if (!offset) return Full("the palette entries are", "SkinCacheOptions::max_palette_entries");
  State::Palette p;
  p.entries = entries;
  p.units = units;
  p.offset = static_cast<uint32_t>(*offset);
  if (method == SkinningMethod::kDualQuaternion) {
    p.dual = true;
    p.matrices.assign(entries, Float3x4{});
  }
  return s.palettes.Add<PaletteId>(p);
}

Status SkinCache::RemovePalette(PaletteId id) {
  State& s = *state_;
  State::Palette* p = s.palettes.Find(id);
  if (!p) return {Error::kInvalidHandle, s.palettes.Missing(id, "palette"), "palette"};
  if (p->users) {
    return {Error::kInUse, std::to_string(p->users) + " instances use the palette", "palette"};
  }
  // Host memory only: the open frame's slot is not in flight, the others are rewritten in full
  // by their frames. Reusable at once.
  s.palette_pool.Free(p->offset, p->units);
  s.palettes.Remove(id.index);
  return {};
}

std::span<Float3x4> SkinCache::palette(PaletteId id) {
  State& s = *state_;
  State::Palette* p = s.palettes.Find(id);
  if (!p) return {};
  if (p->dual) {  // the host copy always holds the newest matrices
    ++p->version;
    return p->matrices;
  }
  Float3x4* open = s.PaletteAt(frame_slot(), *p);
  // Bring the open frame's copy up to date, so that writing only some entries keeps the others.
  if (p->written == kNever) {
    std::fill(open, open + p->entries, Float3x4{});
  } else if (p->written != frame_) {
    const auto last = static_cast<uint32_t>(p->written % frames_in_flight_);
    if (last != frame_slot()) {
      std::memcpy(open, s.PaletteAt(last, *p), p->entries * sizeof(Float3x4));
    }
  }
  p->written = frame_;
  return {open, p->entries};
}

std::span<Float3x4> SkinCache::OverwritePalette(PaletteId id) {
  State& s = *state_;
  State::Palette* p = s.palettes.Find(id);
  if (!p) return {};
  if (p->dual) {
    ++p->version;
    return p->matrices;
  }
  p->written = frame_;
  return {s.PaletteAt(frame_slot(), *p), p->entries};
}

Status SkinCache::SetPalette(PaletteId id, std::span<const Float3x4> matrices) {
  State& s = *state_;
  State::Palette* p = s.palettes.Find(id);
  if (!p) return {Error::kInvalidHandle, s.palettes.Missing(id, "palette"), "palette"};
  if (matrices.size() != p->entries) {
    return {Error::kSizeMismatch,
            std::to_string(matrices.size()) + " matrices for a palette of " +
                std::to_string(p->entries),
            "matrices"};
  }
  if (p->dual) {
    std::copy(matrices.begin(), matrices.end(), p->matrices.begin());
    ++p->version;
    return {};
  }
  std::memcpy(s.PaletteAt(frame_slot(), *p), matrices.data(), matrices.size_bytes());
  p->written = frame_;
  return {};
}

// --- Instances ---

Result<InstanceId> SkinCache::AddInstance(MeshId mesh_id, PaletteId palette_id) {
  State& s = *state_;
  State::Mesh* m = s.meshes.Find(mesh_id);
  if (!m) return Status{Error::kInvalidHandle, s.meshes.Missing(mesh_id, "mesh"), "mesh"};
  State::Palette* p = s.palettes.Find(palette_id);
  if (!p)
    return Status{Error::kInvalidHandle, s.palettes.Missing(palette_id, "palette"), "palette"};
  if (p->entries < m->layout.palette_size) {
    return Status{Error::kSizeMismatch,
                  "the mesh needs " + std::to_string(m->layout.palette_size) +
                      " palette entries, the palette has " + std::to_string(p->entries),
                  "palette"};
  }
  if (m->layout.dual_quaternion && !p->dual) {
    return Status{Error::kInvalidArgument,
                  "a dual-quaternion mesh needs a palette made with "
                  "AddPalette(entries, SkinningMethod::kDualQuaternion)",
                  "palette"};
  }
  if (live_instances_ >= options_.max_instances) {
    return Full("the instance table is", "SkinCacheOptions::max_instances");
  }
  const MeshLayout& l = m->layout;
  const VkDeviceSize v = l.vertex_count;
  const detail::OutputStrides strides =
      detail::OutputStridesOf(l.has_normals, l.has_tangents, options_.formats);
  const bool interleaved = options_.formats.outputs == OutputLayout::kInterleaved;
  // Interleaved, a "positions" range holds whole vertices and the other two are empty.
  const VkDeviceSize positions = AlignUp(strides.positions * v, kOutputAlignment);
  const bool previous = options_.previous_positions != PreviousPositions::kNone;
  const VkDeviceSize normals =
      l.has_normals && !interleaved ? AlignUp(strides.normals * v, kOutputAlignment) : 0;
  const VkDeviceSize tangents = l.has_tangents && !interleaved ? strides.tangents * v : 0;
  State::Instance in;
  in.block_bytes = positions * (previous ? 2 : 1) + normals + tangents;
  std::optional<uint64_t> block;
  for (in.page = 0; in.page < s.pages.size() && !block; ++in.page) {
    block = s.pages[in.page].pool.Allocate(in.block_bytes, kOutputAlignment);
  }
  if (!block) {
    ErrorInfo full = Full("the output buffer is", "SkinCacheOptions::output_bytes");
    const auto an_output_page = [&](const detail::RangeAllocator* pool) {
      return std::any_of(s.pages.begin(), s.pages.end(),
                         [&](const State::Page& page) { return pool == &page.pool; });
    };
    full.message += s.StillInFlight(an_output_page, frame_, "removed instances");
    return full;
  }
  --in.page;
  in.block = *block;
  if (l.morph_target_count) {
    const auto words = MorphSlotWords(l.morph_target_count);
    const auto offset = s.morph_pool.Allocate(words);
    if (!offset) {
      s.pages[in.page].pool.Free(in.block, in.block_bytes);
      return Full("the morph weights are", "SkinCacheOptions::max_morph_weights");
    }
    in.morph_offset = static_cast<uint32_t>(*offset);
    in.weights.assign(l.morph_target_count, 0.0f);
    in.morph_slot.assign(words, 0u);  // every weight 0, none active
  }
  in.mesh = mesh_id.index;
  in.palette = palette_id.index;
  in.positions[0] = in.block;
  in.positions[1] = previous ? in.block + positions : in.block;
  in.normals = in.block + positions * (previous ? 2 : 1);
  in.tangents = in.normals + normals;
  ++m->users;
  ++p->users;
  ++live_instances_;
  ++s.topology;
  return s.instances.Add<InstanceId>(std::move(in));
}

Status SkinCache::RemoveInstance(InstanceId id) {
  State& s = *state_;
  State::Instance* in = s.instances.Find(id);
  if (!in) return {Error::kInvalidHandle, s.instances.Missing(id, "instance"), "instance"};
  // Frames in flight may still write its outputs; its morph slot is host memory, free at once.
  s.retired.push_back(
      {frame_ + frames_in_flight_, &s.pages[in->page].pool, in->block, in->block_bytes, {}});
  if (!in->morph_slot.empty()) s.morph_pool.Free(in->morph_offset, in->morph_slot.size());
  --s.meshes.slots[in->mesh].users;
  --s.palettes.slots[in->palette].users;
  --live_instances_;
  ++s.topology;
  s.instances.Remove(id.index);
  return {};
}

Status SkinCache::SetMorphWeights(InstanceId id, std::span<const float> weights) {
  State::Instance* in = state_->instances.Find(id);
  if (!in) return {Error::kInvalidHandle, state_->instances.Missing(id, "instance"), "instance"};
  if (weights.size() != in->weights.size()) {
    return {Error::kSizeMismatch,
            std::to_string(weights.size()) + " weights, the mesh has " +
                std::to_string(in->weights.size()) + " morph targets",
            "weights"};
  }
  if (weights.empty()) return {};
  if (Status s = detail::CheckMorphWeights(weights); !s) return s;
  std::copy(weights.begin(), weights.end(), in->weights.begin());
  detail::WriteMorphSlot(weights, in->morph_slot.data());
  ++in->weights_version;
  return {};
}

std::span<const float> SkinCache::morph_weights(InstanceId id) const {
  const State::Instance* in = state_->instances.Find(id);
  return in ? std::span<const float>(in->weights) : std::span<const float>();
}

Status SkinCache::Teleport(InstanceId id) {
  State::Instance* in = state_->instances.Find(id);
  if (!in) return {Error::kInvalidHandle, state_->instances.Missing(id, "instance"), "instance"};
  in->teleport = true;
  return {};
}

InstanceOutputs SkinCache::outputs(InstanceId id) const {
  State::Instance* in = state_->instances.Find(id);
  if (!in) return {};
  const MeshLayout& l = state_->meshes.slots[in->mesh].layout;
  InstanceOutputs out;
  out.buffer = state_->pages[in->page].buffer.handle();
  out.vertex_count = l.vertex_count;
  out.deformed = in->deformed;
  out.positions = in->positions[in->current];
  out.previous_positions = out.positions;
  const bool last_frame = in->deformed_frame != kNever && in->deformed_frame + 1 == frame_;
  if (last_frame && in->previous_valid) out.previous_positions = in->positions[1 - in->current];
  out.has_normals = l.has_normals;
  out.normals = l.has_normals ? in->normals : 0;
  out.has_tangents = l.has_tangents;
  out.tangents = l.has_tangents ? in->tangents : 0;
  out.directions = options_.formats.output_directions;
  const detail::OutputStrides strides =
      detail::OutputStridesOf(l.has_normals, l.has_tangents, options_.formats);
  out.positions_stride = strides.positions;
  out.normals_stride = strides.normals;
  out.tangents_stride = strides.tangents;
  if (options_.formats.outputs == OutputLayout::kInterleaved) {
    out.normals = l.has_normals ? out.positions + strides.normal_offset : 0;
    out.tangents = l.has_tangents ? out.positions + strides.tangent_offset : 0;
  }
  return out;
}

// --- Frames ---

Status SkinCache::Record(VkCommandBuffer cmd) {
  State& s = *state_;
  s.all.clear();
  for (uint32_t i = 0; i < s.instances.slots.size(); ++i) {
    const State::Instance& in = s.instances.slots[i];
    if (in.live) s.all.push_back(s.instances.IdOf<InstanceId>(i));
  }
  return Record(cmd, s.all);
}

Status SkinCache::Record(VkCommandBuffer cmd, std::span<const InstanceId> active) {
  if (cmd == VK_NULL_HANDLE) {
    return {Error::kInvalidArgument, "no command buffer to record into", "cmd"};
  }
  State& s = *state_;
  const uint32_t slot = frame_slot();
  const uint64_t stamp = ++s.record_stamp;
  // Check every id first: on error nothing is recorded and the frame stays open.
  s.keys.clear();
  const auto kernel_count = static_cast<uint32_t>(s.kernels.size());
  for (size_t i = 0; i < active.size(); ++i) {
    State::Instance* in = s.instances.Find(active[i]);
    if (!in || in->stamp == stamp) {
      return {Error::kInvalidHandle,
              in ? "listed twice" : s.instances.Missing(active[i], "instance"),
              "active/" + std::to_string(i)};
    }
    in->stamp = stamp;
    s.keys.push_back(kernel_count * in->page + s.meshes.slots[in->mesh].kernel);
  }
  // Dual-quaternion palettes: brought up to date in this slot, converted where a dual-quaternion
  // mesh reads them, before anything is recorded, so that a palette that cannot be converted (a
  // non-finite matrix) fails the Record with the frame still open. A palette that only linear
  // meshes read this frame needs its matrices alone.
  for (const InstanceId& id : active) {
    const State::Instance& in = s.instances.slots[id.index];
    if (s.meshes.slots[in.mesh].layout.dual_quaternion)
      s.palettes.slots[in.palette].read_dual = stamp;
  }
  for (size_t i = 0; i < active.size(); ++i) {
    State::Palette& p = s.palettes.slots[s.instances.slots[active[i].index].palette];
    if (!p.dual) continue;
    if (Status st = s.WriteDualPalette(slot, p, p.read_dual == stamp); !st) {
      return Prefixed(st, "active/" + std::to_string(i));
    }
  }
  // By output page, then kernel variant: one contiguous run of work items per (page, kernel), one
  // dispatch each. A counting sort by that key (kernel_count per page), stable.
  s.key_counts.assign(kernel_count * s.pages.size() + 1, 0);
  for (uint32_t key : s.keys) ++s.key_counts[key + 1];
  for (size_t k = 1; k < s.key_counts.size(); ++k) s.key_counts[k] += s.key_counts[k - 1];
  s.order.resize(active.size());
  s.order_keys.resize(active.size());
  for (size_t i = 0; i < active.size(); ++i) {
    const uint32_t at = s.key_counts[s.keys[i]]++;
    s.order[at] = active[i].index;
    s.order_keys[at] = s.keys[i];
  }

  unsigned char* bytes = s.FrameBytes(slot);
  auto* records = reinterpret_cast<SkinInstance*>(bytes + s.records_at);
  auto* items = reinterpret_cast<SkinWorkItem*>(bytes + s.items_at);
  auto* morph_words = reinterpret_cast<uint32_t*>(bytes + s.morph_at);
  const PreviousPositions mode = options_.previous_positions;
  SkinCacheFrameStats stats;
  uint32_t item_count = 0;
  s.runs.clear();
  State::Frame& frame = s.frames[slot];
  const bool items_stand = frame.topology == s.topology && frame.order == s.order;
  for (uint32_t r = 0; r < s.order.size(); ++r) {
    State::Instance& in = s.instances.slots[s.order[r]];
    State::Mesh& m = s.meshes.slots[in.mesh];
    State::Palette& p = s.palettes.slots[in.palette];
    if (!p.dual && p.written != frame_) (void)palette(s.palettes.IdOf<PaletteId>(in.palette));
    if (!in.morph_slot.empty() && in.slot_version[slot] != in.weights_version) {
      std::memcpy(morph_words + in.morph_offset, in.morph_slot.data(),
                  in.morph_slot.size() * sizeof(uint32_t));
      in.slot_version[slot] = in.weights_version;
    }
    // Where this deformation writes, and what previous positions it leaves.
    const bool moves = in.deformed && !in.teleport;
    SkinInstance rec = m.record;
    if (mode == PreviousPositions::kPingPong) {
      if (in.deformed) in.current = 1 - in.current;
      in.previous_valid = moves;
    } else if (mode == PreviousPositions::kCopy) {
      rec.flags |= moves ? kFlagCopyPrevious : kFlagPreviousIsCurrent;
      rec.previous_positions = static_cast<uint32_t>(in.positions[1] / 4);
      in.previous_valid = true;  // positions[1] holds the frame before, or a copy of this one
    }
    // In vec4 units; a dual-quaternion mesh reads the dual quaternions after the matrices.
    rec.palette = (p.offset + (m.layout.dual_quaternion ? p.entries : 0)) * 3;
    rec.morph_slot = in.morph_offset;
    rec.out_positions = static_cast<uint32_t>(in.positions[in.current] / 4);
    if (options_.formats.outputs == OutputLayout::kInterleaved) {  // inside the vertex, in words
      const detail::OutputStrides strides =
          detail::OutputStridesOf(m.layout.has_normals, m.layout.has_tangents, options_.formats);
      rec.out_normals = rec.out_positions + strides.normal_offset / 4;
      rec.out_tangents = rec.out_positions + strides.tangent_offset / 4;
    } else {
      rec.out_normals = static_cast<uint32_t>(in.normals / 4);
      // vec4 units for float32 tangents, words for packed ones (skinning_common.glsl).
      rec.out_tangents = static_cast<uint32_t>(
          in.tangents / (options_.formats.output_directions == DirectionFormat::kFloat32 ? 16 : 4));
    }
    records[r] = rec;
    const uint32_t key = s.order_keys[r];
    if (s.runs.empty() || s.runs.back().key != key) s.runs.push_back({key, item_count, item_count});
    item_count += items_stand ? detail::GroupCount(m.layout.vertex_count, s.workgroup_size)
                              : detail::WriteWorkItems(r, m.layout.vertex_count, s.workgroup_size,
                                                       items + item_count);
    s.runs.back().end = item_count;
    in.deformed = true;
    in.teleport = false;
    in.deformed_frame = frame_;
    stats.vertices += m.layout.vertex_count;
    if (m.stamp != stamp) {
      m.stamp = stamp;
      ++stats.meshes;
    }
  }
  if (!items_stand) {
    frame.order = s.order;
    frame.topology = s.topology;
  }
  stats.instances = static_cast<uint32_t>(s.order.size());
  stats.work_items = item_count;
  s.kernels_used.assign(kernel_count, false);
  for (const State::ItemRun& run : s.runs) {
    if (!s.kernels_used[run.key % kernel_count]) ++stats.kernel_variants;
    s.kernels_used[run.key % kernel_count] = true;
  }
  for (const State::ItemRun& run : s.runs) {
    stats.dispatches += detail::RecordSkinDispatches(
        context_, cmd, s.kernels[run.key % kernel_count], frame.sets[run.key / kernel_count],
        run.first, run.end - run.first);
  }
  stats_ = stats;

  // End the frame; give back what no frame in flight can use any more.
  ++frame_;
  auto done = std::remove_if(s.retired.begin(), s.retired.end(), [&](State::Retired& r) {
    if (r.frame > frame_) return false;
    if (r.pool) r.pool->Free(r.offset, r.size);
    return true;
  });
  s.retired.erase(done, s.retired.end());
  return {};
}

void SkinCache::RecordReuseBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                                   VkAccessFlags src_access) const {
  if (cmd == VK_NULL_HANDLE) return;
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access | VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  detail::Fn(context_).vkCmdPipelineBarrier(cmd, src_stage | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                                            nullptr, 0, nullptr);
}

void SkinCache::RecordOutputBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                                    VkAccessFlags dst_access) const {
  if (cmd == VK_NULL_HANDLE) return;
  detail::RecordComputeWriteBarrier(context_, cmd, dst_stage, dst_access);
}

uint32_t SkinCache::output_pages() const { return uint32_t(state_->pages.size()); }
VkBuffer SkinCache::mesh_buffer() const { return state_->mesh_buffer.handle(); }

}  // namespace sinew::vk
