// The frame model for crowds, what engines call a GPU skin cache: one object owns the deformed
// vertices of every instance of every mesh of a scene, in a few large buffers, and records a
// frame's deformation in one dispatch per kernel variant in use per output page, whatever the
// number of meshes and instances (output_pages()). A variant is a kernel (dense or sparse
// influences, blended linearly or with dual quaternions) specialized for a mesh's choices
// (normals, tangents, morph normal and tangent offsets, UsdSkel's normal rule, dense K up to 16):
// meshes that agree share one, so a crowd of many meshes of one or two kinds is one or two
// dispatches.
//
// What it holds:
// * meshes: a Primitive's rest data (dense, sparse or rigid, with or without morph targets),
// uploaded
//   once into the cache's mesh pool (AddMesh);
// * palettes: the skinning matrices of one pose (one skinned node of a character), written by
//   the host for every frame it moves; the primitives of one skinned mesh share one (AddPalette);
// * instances: a mesh deformed with a palette and its own morph weights into its own range of an
//   output page: positions, normals and tangents, and previous positions for motion vectors
//   (AddInstance).
//
// Frames in flight. The host-written data (palettes, morph weights, instance records, the work
// table) lives in frames_in_flight slots. Record() ends a frame: what the host does afterwards
// (writing palettes and weights, adding and removing) belongs to the next frame and goes into the
// next slot, while the GPU may still run the frames before. Before writing a frame, the host waits
// until the GPU has finished the frame that used the same slot, frames_in_flight frames earlier:
// the fence an engine waits on anyway before reusing that frame's command buffer. A palette or
// weight not written in a frame keeps its last value. Removed meshes and instances give their GPU
// memory back frames_in_flight frames later, so frames still running never see it reused (a
// removed palette's or morph slot's host memory is reused at once: only the open frame's slot is
// ever written).
//
// Synchronization the caller records (the whole frame, also in synchronization2 terms, is in
// docs/embedding.md):
// * AddMesh's upload commands (copy, then a barrier to the compute stage) must execute before the
//   first Record() that deforms the mesh: the same command buffer before Record(), or an earlier
//   submission on the Context's queue.
// * before Record(): earlier commands that read the outputs (last frame's draws) or wrote them
//   (last frame's Record) must be done with them: RecordReuseBarrier().
// * after Record(): RecordOutputBarrier() before drawing from or copying the outputs.
//
// Not thread-safe: one thread calls a SkinCache; the palette spans it hands out (palette(),
// OverwritePalette()) may then be written by many threads at once, each its own palettes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "sinew/asset/primitive.h"
#include "sinew/core/error.h"
#include "sinew/core/math.h"
#include "sinew/vk/context.h"
#include "sinew/vk/mesh_layout.h"

namespace sinew::vk {

// Where previous positions (last frame's, for motion vectors) come from.
enum class PreviousPositions {
  kNone,      // no previous positions; InstanceOutputs::previous_positions == positions
  kPingPong,  // two position ranges per instance, written in turn (no extra GPU work)
  kCopy,      // the kernel copies each position to a fixed previous range before replacing it
};

struct SkinCacheOptions {
  // Frames the host may have in flight on the GPU while writing the next one; 1..8.
  uint32_t frames_in_flight = 2;
  // Live instances and palettes at once.
  uint32_t max_instances = 1024;
  uint32_t max_palettes = 1024;
  // Bytes of the mesh pool (every mesh's rest data: MeshLayout::bytes each).
  VkDeviceSize mesh_bytes = VkDeviceSize{32} << 20;
  // Bytes of output (in output_pages() buffers): per instance 12 bytes per vertex of positions, 12
  // of normals and 16 of tangents where its mesh has them (4 and 4 with packed
  // formats.output_directions), and 12 more of previous positions unless kNone (interleaved
  // outputs: the whole vertex again).
  VkDeviceSize output_bytes = VkDeviceSize{64} << 20;
  // Largest output page in bytes; 0: the device's maxStorageBufferRange (pages smaller than that
  // only make sense to bound single allocations). Each page can waste up to one instance's outputs
  // at its end. At most 1024 pages (each is a buffer and a descriptor set): Create refuses more.
  VkDeviceSize output_page_bytes = 0;
  // Palette entries (3x4 matrices) of all live palettes together; a dual-quaternion palette takes
  // PaletteUnits(entries, SkinningMethod::kDualQuaternion) of them.
  uint32_t max_palette_entries = 65536;
  // Morph weights of all live instances together (each instance: its mesh's target count).
  uint32_t max_morph_weights = 16384;
  PreviousPositions previous_positions = PreviousPositions::kPingPong;
  // The queue family of the command buffers AddMesh records into; VK_QUEUE_FAMILY_IGNORED: the
  // Context's. Another family (a transfer queue, say) makes the mesh pool shared between the two
  // (VK_SHARING_MODE_CONCURRENT: no ownership transfer), and AddMesh then records the copy alone:
  // the semaphore that orders the upload's submission before the first Record() that reads the
  // mesh also makes the copy visible to it.
  uint32_t upload_family = VK_QUEUE_FAMILY_IGNORED;
  // The formats meshes are stored in and normals and tangents written in (vertex_formats.h).
  // float32 is exact; VertexFormats::Compact() halves the bytes a vertex moves.
  VertexFormats formats{};
  // Extra usage bits for the output buffer, on top of STORAGE | VERTEX | TRANSFER_SRC (e.g.
  // SHADER_DEVICE_ADDRESS for vertex pulling; the Context must have buffer_device_address()).
  VkBufferUsageFlags extra_output_usage = 0;
  // Vertices per workgroup of the kernels, one invocation each: 0 picks the device's own
  // (SkinWorkgroupSize: whole subgroups); else a power of two from 64 to 1024 the device allows,
  // which holds whole 64-vertex morph groups but may leave a subgroup of 128 half empty.
  // options() reports the size in use.
  uint32_t workgroup_size = 0;
};

// The workgroup size a SkinCache runs its kernels with on `context` for
// SkinCacheOptions::workgroup_size `requested`. For 0: the smallest power of two of at least 64
// vertices (one morph group) and at least the device's subgroup size (Context::subgroup_size), so
// that every subgroup is full: 64 wherever subgroups have 64 invocations or fewer (NVIDIA, AMD,
// Intel, Arm, lavapipe), 128 where they have 128 (some Qualcomm Adreno GPUs). kInvalidArgument
// (where "SkinCacheOptions::workgroup_size") for a size that is not a power of two from 64 to the
// device's maxComputeWorkGroupSize[0] and maxComputeWorkGroupInvocations (and 1024).
Result<uint32_t> SkinWorkgroupSize(const Context& context, uint32_t requested);

// Ids of a SkinCache's meshes, palettes and instances. An id stays valid until removed; a
// removed id is refused with kInvalidHandle, even after its slot is reused, and so is an id of
// any other SkinCache, on this Context or another (`cache` tells them apart).
template <typename Tag>
struct SkinCacheId {
  uint32_t index = UINT32_MAX;
  uint32_t generation = 0;
  uint32_t cache = 0;  // which SkinCache gave it: a number from 1, unique within the process
  friend bool operator==(SkinCacheId, SkinCacheId) = default;
};
using MeshId = SkinCacheId<struct MeshTag>;
using PaletteId = SkinCacheId<struct PaletteTag>;
using InstanceId = SkinCacheId<struct InstanceTag>;

// Where an instance's outputs are, for binding them as vertex buffers: the output page's buffer
// and byte offsets in it, float xyz positions; normals as float xyz and tangents as float xyzw,
// or one packed 32-bit word each in
// `directions` (SkinCacheOptions::formats.output_directions; DecodeNormal and DecodeTangent in
// vertex_formats.h, or VK_FORMAT_A2B10G10R10_SNORM_PACK32 for kSnorm10); the strides below say
// whether they are separate streams or one interleaved stream
// (SkinCacheOptions::formats.outputs). `positions` are the
// outputs of the last Record() that deformed the instance; `previous_positions` what they were one
// frame before that. Both hold the same positions when the instance has no previous frame to move
// from: before its second deformation, after Teleport(), when it was left out of the last Record(),
// or with PreviousPositions::kNone.
struct InstanceOutputs {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint32_t vertex_count = 0;
  bool deformed =
      false;  // a Record() has deformed the instance: until then its ranges hold nothing
  VkDeviceSize positions = 0;
  VkDeviceSize previous_positions = 0;
  bool has_normals = false;
  VkDeviceSize normals = 0;
  bool has_tangents = false;
  VkDeviceSize tangents = 0;
  DirectionFormat directions = DirectionFormat::kFloat32;
  // Bytes from one vertex to the next in each stream: 12, 12 (4 packed), 16 (4 packed) for
  // separate streams; with OutputLayout::kInterleaved all three (and previous_positions) are the
  // whole vertex, 12 + the normal's + the tangent's bytes, normals at positions + 12 and tangents
  // after them.
  uint32_t positions_stride = 12;
  uint32_t normals_stride = 12;
  uint32_t tangents_stride = 16;
};

// What the last Record() did.
struct SkinCacheFrameStats {
  // vkCmdDispatch calls: one per kernel variant in use on each output page (more only past the
  // device's workgroup-count limit).
  uint32_t dispatches = 0;
  // Distinct kernel variants among the instances: the kernel (dense or sparse, linear or dual
  // quaternions) and the mesh's choices it is specialized for (normals, tangents, morph normal and
  // tangent offsets, UsdSkel's per-joint normal rule, dense K up to 16). Meshes that agree share
  // one.
  uint32_t kernel_variants = 0;
  uint32_t instances = 0;   // instances deformed
  uint32_t work_items = 0;  // workgroups: one per workgroup_size vertices of each instance
  uint64_t vertices = 0;    // vertices deformed
  uint32_t meshes = 0;      // distinct meshes among them
};

// What a palette of `entries` takes of SkinCacheOptions::max_palette_entries: `entries` for
// linear blending; with dual quaternions their 128-byte entries too, counted in 48-byte units:
// entries + ceil(8 · entries / 3).
uint32_t PaletteUnits(uint32_t entries, SkinningMethod method);

// SkinCacheOptions::output_bytes for outputs of `total` bytes in all, the largest instance's
// `largest` bytes: outputs live in pages (output_page_bytes, at most the device's
// maxStorageBufferRange, which Vulkan guarantees to be at least 2^27 bytes) and an instance never
// straddles two pages, so each page may leave up to one instance unused at its end. A bound for
// any device.
VkDeviceSize SkinCacheOutputBytes(VkDeviceSize total, VkDeviceSize largest,
                                  VkDeviceSize output_page_bytes = 0);

// `base` with every capacity set to hold `instances` instances of `mesh` (each with a palette of
// its own, mesh.palette_size(joints) entries, PaletteUnits of them counted against
// max_palette_entries): the mesh's exact packed size, outputs with page
// slack. The mesh's validation errors. (For an asset's characters: SkinCacheOptionsFor in
// skin_cache_asset.h.)
Result<SkinCacheOptions> SkinCacheOptionsFor(const Primitive& mesh, uint32_t joints,
                                             uint32_t instances, const SkinCacheOptions& base = {});

class SkinCache {
 public:
  // Allocates the pools. kInvalidArgument for frames_in_flight outside 1..8, a zero size or a
  // workgroup size the device cannot run (SkinWorkgroupSize); kFeatureNotEnabled for device-address
  // outputs without buffer_device_address(); Vulkan errors. `context` must outlive the cache: a
  // Context destroyed first stops the program with a message.
  static Result<std::unique_ptr<SkinCache>> Create(const Context& context,
                                                   const SkinCacheOptions& options = {});
  ~SkinCache();
  SkinCache(const SkinCache&) = delete;
  SkinCache& operator=(const SkinCache&) = delete;

  // --- Meshes ---
  // `joints`: the joint count of the skin a dense mesh is instantiated with (the entries of its
  // palettes); a sparse mesh's palettes have its group_count entries and a rigid (unskinned)
  // mesh's one, its node's world matrix, whatever `joints` says.
  // Validates `mesh` (Primitive::Validate(joints), so an out-of-range joint index never reaches the
  // GPU; kInvalidArgument for a mesh without vertices), places it in the mesh pool and records its
  // upload into `upload_cmd` (recording, of options().upload_family): a copy from a staging buffer
  // the cache frees frames_in_flight frames later (the upload must have completed by then), then,
  // on the Context's family, a barrier to the compute stage. kCapacityExceeded when the pool has
  // no room; kInvalidArgument (where "upload_cmd") for VK_NULL_HANDLE.
  Result<MeshId> AddMesh(const Primitive& mesh, uint32_t joints, VkCommandBuffer upload_cmd);
  // Headless contexts: the same, submitted and waited for. kNotAllowedInAdoptMode otherwise.
  Result<MeshId> AddMesh(const Primitive& mesh, uint32_t joints);
  // kInUse while an instance deforms it; kInvalidHandle.
  Status RemoveMesh(MeshId mesh);
  // The mesh's sizes, flags and stream offsets within its range of the pool; null for an
  // invalid id.
  const MeshLayout* mesh_layout(MeshId mesh) const;

  // --- Palettes ---
  // A palette of `entries` matrices (>= 1), identity until written. kCapacityExceeded.
  // With SkinningMethod::kDualQuaternion the palette also feeds dual-quaternion meshes (and still
  // linear ones): the host writes matrices as for any palette, into host memory of the cache's
  // own, and Record() converts a palette written since the frame slot last held it
  // (cpu::DualQuaternionPaletteJob, on the recording thread) into the 128-byte entries the
  // dual-quaternion kernels read, beside the matrices.
  Result<PaletteId> AddPalette(uint32_t entries, SkinningMethod method = SkinningMethod::kLinear);
  // kInUse while an instance uses it; kInvalidHandle.
  Status RemovePalette(PaletteId palette);
  // The palette's matrices in the open frame, to write in place (a 3x4 per entry, e.g. from
  // cpu::SkinningPaletteJob or cpu::NodePalette); empty for an invalid id. Calling it counts as
  // writing the palette for the open frame.
  std::span<Float3x4> palette(PaletteId palette);
  // The palette's memory in the open frame for the caller to write every entry of (e.g. posing
  // jobs writing in place): unlike palette(), last frame's matrices are not copied in first, so
  // entries left unwritten hold whatever this frame slot held before. Empty for an invalid id.
  std::span<Float3x4> OverwritePalette(PaletteId palette);
  // Copies `matrices` into the palette for the open frame. kInvalidHandle, kSizeMismatch.
  Status SetPalette(PaletteId palette, std::span<const Float3x4> matrices);

  // --- Instances ---
  // An instance of `mesh` deformed with `palette`, which must hold at least the mesh's palette
  // size (MeshLayout::palette_size), and be a dual-quaternion palette for a dual-quaternion mesh.
  // Morph weights start at 0. kInvalidHandle, kSizeMismatch (a palette too small),
  // kInvalidArgument (a linear palette for a dual-quaternion mesh), kCapacityExceeded (instances,
  // outputs or morph weights).
  Result<InstanceId> AddInstance(MeshId mesh, PaletteId palette);
  Status RemoveInstance(InstanceId instance);
  // One weight per morph target of the instance's mesh, already resolved over in-betweens (e.g.
  // cpu::MorphWeightsFor), kept until set again. kInvalidHandle, kSizeMismatch, kNonFiniteValue
  // (where "weights/<t>"; the weights unchanged).
  Status SetMorphWeights(InstanceId instance, std::span<const float> weights);
  // The morph weights last set for the instance (all 0 until set); empty for an invalid id or a
  // mesh without morph targets.
  std::span<const float> morph_weights(InstanceId instance) const;
  // The next Record() that deforms the instance gives it no motion: previous = current.
  Status Teleport(InstanceId instance);
  // The instance's output ranges (see InstanceOutputs); vertex_count 0 for an invalid id.
  InstanceOutputs outputs(InstanceId instance) const;
  uint32_t instance_count() const { return live_instances_; }

  // --- Frames ---
  // The host-memory slot (0 .. frames_in_flight - 1) the open frame writes; the frame that used
  // it before must have completed on the GPU before the host writes palettes or weights, adds or
  // removes anything.
  uint32_t frame_slot() const { return static_cast<uint32_t>(frame_ % frames_in_flight_); }
  // Frames ended so far (Record calls that succeeded).
  uint64_t frame() const { return frame_; }

  // Records the deformation of every live instance, or of the instances in `active` only (the
  // others keep their last outputs), into `cmd` (recording, on the Context's queue family), then
  // ends the frame. kInvalidHandle (where "active/<i>") for an invalid or repeated id, and
  // kNonFiniteValue (where "active/<i>/palette/<entry>") for a dual-quaternion palette read by a
  // dual-quaternion mesh with a matrix that cannot be converted: nothing is recorded then and the
  // frame stays open. (A deliberate stop: a NaN in a palette is the host's bug, and where a linear
  // palette would spread it over one character, this names it.) kInvalidArgument (where "cmd")
  // for VK_NULL_HANDLE.
  Status Record(VkCommandBuffer cmd);
  Status Record(VkCommandBuffer cmd, std::span<const InstanceId> active);
  // What the last Record() recorded.
  const SkinCacheFrameStats& last_frame_stats() const { return stats_; }

  // Before Record(): makes earlier accesses to the outputs (`src_stage`/`src_access`, e.g.
  // VERTEX_INPUT / VERTEX_ATTRIBUTE_READ of last frame's draws, plus the previous Record()'s
  // compute writes) complete before the kernels read and write them.
  void RecordReuseBarrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage,
                          VkAccessFlags src_access) const;
  // After Record(): a barrier from the compute writes to `dst_stage`/`dst_access`, e.g.
  // VERTEX_INPUT / VERTEX_ATTRIBUTE_READ to draw, or TRANSFER / TRANSFER_READ to copy. (Either
  // barrier records nothing into a null command buffer.)
  void RecordOutputBarrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stage,
                           VkAccessFlags dst_access) const;

  // Buffers the outputs live in: output_bytes split in pages of at most the device's
  // maxStorageBufferRange (what one storage binding sees; lavapipe: 128 MiB, desktop GPUs: 2 to 4
  // GiB). Each page adds its own dispatches (one per kernel variant on it) to a frame
  // (InstanceOutputs::buffer says which).
  uint32_t output_pages() const;
  // The pool every mesh's rest data lives in.
  VkBuffer mesh_buffer() const;
  const SkinCacheOptions& options() const { return options_; }

 private:
  struct State;
  explicit SkinCache(const Context& context);
  // AddMesh's work: places `mesh` and records its upload; the staging buffer goes to the caller,
  // who keeps it until the upload has run.
  Result<MeshId> RecordMesh(const Primitive& mesh, uint32_t joints, VkCommandBuffer upload_cmd,
                            Buffer* staging_out);

  const Context& context_;
  SkinCacheOptions options_;
  uint32_t frames_in_flight_ = 1;
  uint64_t frame_ = 0;
  uint32_t live_instances_ = 0;
  SkinCacheFrameStats stats_;
  std::unique_ptr<State> state_;
};

}  // namespace sinew::vk
