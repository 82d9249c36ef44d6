// Bindings and structs shared by every skinning kernel. Mirrored in C++ by
// runtime/include/sinew/vk/gpu_layout.h (static_asserts keep the two in step).
//
// A dispatch walks a work table: workgroup i of the dispatch takes work item
// pc.item_base + i, which names an instance record and a group of that instance's vertices, as many
// as the workgroup has invocations (constant_id 19 below).
// Instances of any number of meshes, each with its own sizes and streams, share the dispatch.

// The per-mesh choices, fixed per pipeline as specialization constants (runtime/src/vk/kernels.cpp
// creates one pipeline per kernel and combination in use): the kernels never branch on them.
layout(constant_id = 0) const bool kNormals = true;        // the mesh has normals
layout(constant_id = 1) const bool kTangents = true;       // the mesh has tangents
layout(constant_id = 2) const bool kMorphNormals = false;  // morph deltas carry normal offsets
layout(constant_id = 3) const bool kMorphTangents = false; // morph deltas carry tangent offsets
// Normals by Σ w · each joint's inverse-transpose (UsdSkel's rule; the linear kernels only).
layout(constant_id = 4) const bool kJointNormals = false;
// The dense kernels' influence slots per vertex K, fixed per pipeline when the mesh's K is 4, 8,
// 12 or 16 (so the loop over them has a constant bound); 0: the record's (other K, sparse).
layout(constant_id = 5) const uint kInfluences = 0u;
// The mesh's stream formats (vertex_formats.glsl), each a boolean so that the kernel branches on
// a specialization constant itself, as on the choices above: weights in unorm16 or unorm8 (else
// float32); joint indices or groups in 8 or 32 bits (else 16); rest normals and tangents
// octahedral or snorm10 (else float32); and the normals and tangents the kernel writes likewise.
layout(constant_id = 6) const bool kWeightsUnorm16 = false;
layout(constant_id = 7) const bool kWeightsUnorm8 = false;
layout(constant_id = 8) const bool kJoints8 = false;
layout(constant_id = 9) const bool kJoints32 = false;
layout(constant_id = 10) const bool kOctahedral = false;
layout(constant_id = 11) const bool kSnorm10 = false;
layout(constant_id = 12) const bool kOutOctahedral = false;
layout(constant_id = 13) const bool kOutSnorm10 = false;
// Rest positions as unorm16 on the mesh's bounds (else float32 xyz).
layout(constant_id = 14) const bool kPositions16 = false;
// Morph deltas as half floats, two to a word (else float32).
layout(constant_id = 15) const bool kMorphHalf = false;
// Outputs interleaved: each vertex's position, normal and tangent together (else a stream each),
// and the words from one vertex's position to the next's (3 when separate).
layout(constant_id = 16) const bool kInterleaved = false;
layout(constant_id = 17) const uint kOutStride = 3u;
// The mesh has morph targets (else the kernel has no morph stage at all).
layout(constant_id = 18) const bool kMorphs = false;
// Whether the dense kernels read a slot's joint index on its own, only where its weight is not 0,
// rather than with its quad (QuadJoints): set for K of 12 or more in unorm16 weights, where
// lavapipe ran it faster (BENCHMARKS.md, "Joint indices by slot"); float32 weights ran slower so.
layout(constant_id = 20) const bool kJointsBySlot = false;
// Invocations per workgroup, one vertex each: a power of two from 64 to 1024, chosen per SkinCache
// from the device's subgroup size (runtime/src/vk/skin_cache.cpp); gl_WorkGroupSize.x.
layout(local_size_x_id = 19) in;

#include "vertex_formats.glsl"

// Flags in SkinInstance.flags: what this frame does with previous positions (what the mesh has is
// in the constants above).
#define SINEW_FLAG_COPY_PREVIOUS 1u  // copy each replaced position to previous_positions first
#define SINEW_FLAG_PREVIOUS_IS_CURRENT 2u  // write the new position to previous_positions too

// Vertices per morph group (MorphDeltas, kMorphGroupSize; gpu_layout.h kMorphGroupVertices): a
// workgroup holds whole ones.
#define SINEW_MORPH_GROUP_SIZE 64u
// MorphDeltas::block_index where a target moves no vertex of the group (kNoMorphBlock).
#define SINEW_NO_MORPH_BLOCK 0xFFFFFFFFu

layout(push_constant) uniform SkinPushConstants {
  uint item_base;   // first work item of this dispatch
  uint item_count;  // work items of this dispatch
  uint pad0;
  uint pad1;
} pc;

// Word offsets into the mesh buffer (vec4/uvec4 units where noted), and into the instance's
// palette, morph slot and outputs.
struct SkinInstance {
  uint vertex_count;
  uint influences_per_vertex;  // K = 4·n (dense); 0 (sparse)
  uint flags;                  // SINEW_FLAG_*
  uint morph_target_count;     // 0: none
  uint morph_stride;           // floats per morph delta
  uint rest_positions;
  uint rest_normals;
  uint rest_tangents;  // vec4 units (float32), words (packed)
  uint influence_indices;
  uint weights;
  uint influence_offsets;
  uint morph_lookup;
  uint morph_blocks;  // uvec4 units
  uint morph_deltas;
  uint palette;  // vec4 units
  uint morph_slot;
  uint out_positions;
  uint out_normals;
  uint out_tangents;  // vec4 units (float32, separate), else words into out_direction_words
  uint previous_positions;
};

// Every mesh's rest data, viewed three ways. Positions are xyz floats per vertex, or (kPositions16)
// a grid origin and step (two vec4) followed by three unorm16 per vertex, two to a word; normals
// xyz floats and tangents vec4 per vertex, or one packed word each (kOctahedral, kSnorm10).
// Influences: dense, K joint indices and K weights per vertex; sparse (CSR), one group and one
// weight per entry, vertex v's entries in [influence_offsets[v], influence_offsets[v + 1]). Indices
// and weights narrower than a word are packed, the lowest bits first (WeightQuad, JointQuad,
// WeightAt, JointAt). Morph targets are packed sparse per group of 64 vertices
// (runtime/include/sinew/asset/morph_deltas.h); G = ceil(vertex_count / 64) groups. morph_lookup
// holds G + 1 group offsets (group g's blocks are [lookup[g], lookup[g + 1])), then the group-major
// block index (target t's block in group g is lookup[G + 1 + g * morph_target_count + t], or
// SINEW_NO_MORPH_BLOCK). A block is (target, mask of vertices 0-31, mask of 32-63, first delta);
// deltas morph_stride floats each (kMorphHalf: half floats, two to a word).
layout(std430, set = 0, binding = 0) readonly buffer MeshWords { uint mesh_words[]; };
layout(std430, set = 0, binding = 1) readonly buffer MeshVec4 { vec4 mesh_vec4[]; };
layout(std430, set = 0, binding = 2) readonly buffer MeshBlocks { uvec4 mesh_blocks[]; };
layout(std430, set = 0, binding = 3) readonly buffer Instances { SkinInstance instances[]; };
layout(std430, set = 0, binding = 4) readonly buffer WorkItems { uvec2 work_items[]; };
// Palettes: entries of three vec4 rows (3x4 affine, 48 bytes); an instance's from inst.palette.
// A dual-quaternion instance's inst.palette points at entries of eight vec4 instead
// (dual_quaternion.glsl).
layout(std430, set = 0, binding = 5) readonly buffer Palette { vec4 palette[]; };
// Per instance, 3T + 2 words from inst.morph_slot (T = morph_target_count; gpu_layout.h
// MorphSlotWords): T + 1 (target, weight bits) pairs, the first's target the count A of active
// targets (nonzero weight), pairs 1..A those targets and weights in ascending target order; then
// T weights, target t's at word 2T + 2 + t.
layout(std430, set = 0, binding = 6) readonly buffer MorphInstances { uint morph_words[]; };
// Outputs, vertex_count vertices from the instance's offsets.
layout(std430, set = 0, binding = 7) buffer OutPositions { float out_positions[]; };
// Normals (xyz floats, or one packed word each) and packed tangents (kOut*); binding 9
// holds float32 tangents. The three output bindings view the same buffer.
layout(std430, set = 0, binding = 8) writeonly buffer OutDirections { uint out_direction_words[]; };
layout(std430, set = 0, binding = 9) writeonly buffer OutTangents { vec4 out_tangents[]; };

// This workgroup's instance record (SkinItem), and the morph group of this invocation's vertex
// and the vertex's place in it. A kernel that defines SINEW_INSTANCE_IN_SHARED_MEMORY before
// including this file keeps the record in shared memory, read by one invocation for the whole
// workgroup, instead of in every invocation's registers: skin_sparse_shared.comp does, which on
// an H200 took the sparse linear kernel from 45 registers to 32 and 15-17 % less time at 1M
// vertices; the dense linear kernel ran its K = 8 and compact formats 0.7-6 % slower so, and keeps
// the record in registers (BENCHMARKS.md).
#ifdef SINEW_INSTANCE_IN_SHARED_MEMORY
shared SkinInstance inst;
#else
SkinInstance inst;
#endif
uint morph_group;
uint morph_lane;

// K of a dense mesh: the pipeline's constant when it has one, else the record's.
uint InfluencesPerVertex() {
  return kInfluences != 0u ? kInfluences : inst.influences_per_vertex;
}

// Loads the workgroup's work item into `inst`, and `morph_group` and `morph_lane`; false when the
// workgroup is past the dispatch's items or the invocation past its instance's vertices.
bool SkinItem(out uint v) {
  uint index = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  v = 0u;
  if (index >= pc.item_count) return false;
  uvec2 item = work_items[pc.item_base + index];
#ifdef SINEW_INSTANCE_IN_SHARED_MEMORY
  // The whole workgroup gets here or returned above (index is the same for all of it).
  if (gl_LocalInvocationIndex == 0u) inst = instances[item.x];
  barrier();
#else
  inst = instances[item.x];
#endif
  v = item.y * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  morph_group = v / SINEW_MORPH_GROUP_SIZE;
  morph_lane = v % SINEW_MORPH_GROUP_SIZE;
  return v < inst.vertex_count;
}

float MeshFloat(uint at) { return uintBitsToFloat(mesh_words[at]); }
vec3 MeshVec3(uint at) { return vec3(MeshFloat(at), MeshFloat(at + 1u), MeshFloat(at + 2u)); }

// Sparse entry i's group: 8, 16 or 32 bits (the dense kernels read whole quads, JointQuad, unless
// kJointsBySlot).
uint JointAt(uint i) {
  if (kJoints8) {
    return bitfieldExtract(mesh_words[inst.influence_indices + (i >> 2u)], int((i & 3u) * 8u), 8);
  }
  if (kJoints32) return mesh_words[inst.influence_indices + i];
  return bitfieldExtract(mesh_words[inst.influence_indices + (i >> 1u)], int((i & 1u) * 16u), 16);
}

// Sparse entry i's weight: unorm16, unorm8 or float32.
float WeightAt(uint i) {
  if (kWeightsUnorm16) {
    return float(bitfieldExtract(mesh_words[inst.weights + (i >> 1u)], int((i & 1u) * 16u), 16)) /
           65535.0;
  }
  if (kWeightsUnorm8) {
    return float(bitfieldExtract(mesh_words[inst.weights + (i >> 2u)], int((i & 3u) * 8u), 8)) /
           255.0;
  }
  return MeshFloat(inst.weights + i);
}

// Influence slots 4q to 4q + 3 of a dense mesh, counted from its first vertex's (vertex v's K = 4·n
// slots are its quads v·n to v·n + n - 1): their weights (WeightQuad) and joint indices
// (JointQuad), decoded as WeightAt and JointAt decode one entry but read as whole words. A quad of
// float32 weights or 32-bit indices is one aligned 16-byte vector (each mesh's streams are 16-byte
// aligned within it, runtime/src/vk/mesh_upload.cpp, and each mesh within the pool,
// runtime/src/vk/skin_cache.cpp), of 16-bit fields two words, of 8-bit fields one word.
vec4 WeightQuad(uint q) {
  if (kWeightsUnorm16) {
    uint lo = mesh_words[inst.weights + 2u * q];
    uint hi = mesh_words[inst.weights + 2u * q + 1u];
    return vec4(uvec4(bitfieldExtract(lo, 0, 16), bitfieldExtract(lo, 16, 16),
                      bitfieldExtract(hi, 0, 16), bitfieldExtract(hi, 16, 16))) /
           65535.0;
  }
  if (kWeightsUnorm8) {
    uint word = mesh_words[inst.weights + q];
    return vec4(uvec4(bitfieldExtract(word, 0, 8), bitfieldExtract(word, 8, 8),
                      bitfieldExtract(word, 16, 8), bitfieldExtract(word, 24, 8))) /
           255.0;
  }
  return mesh_vec4[(inst.weights >> 2u) + q];
}

uvec4 JointQuad(uint q) {
  if (kJoints8) {
    uint word = mesh_words[inst.influence_indices + q];
    return uvec4(bitfieldExtract(word, 0, 8), bitfieldExtract(word, 8, 8),
                 bitfieldExtract(word, 16, 8), bitfieldExtract(word, 24, 8));
  }
  if (kJoints32) return mesh_blocks[(inst.influence_indices >> 2u) + q];
  uint lo = mesh_words[inst.influence_indices + 2u * q];
  uint hi = mesh_words[inst.influence_indices + 2u * q + 1u];
  return uvec4(bitfieldExtract(lo, 0, 16), bitfieldExtract(lo, 16, 16), bitfieldExtract(hi, 0, 16),
               bitfieldExtract(hi, 16, 16));
}

// Quad q's joint indices for QuadJoint: JointQuad's, or nothing with kJointsBySlot.
uvec4 QuadJoints(uint q) { return kJointsBySlot ? uvec4(0u) : JointQuad(q); }

// Slot i of quad q's joint index: from `joints` (QuadJoints), or read on its own with
// kJointsBySlot (call it only for a slot whose weight is not 0).
uint QuadJoint(uvec4 joints, uint q, uint i) {
  return kJointsBySlot ? JointAt(q * 4u + i) : joints[i];
}

// v / |v|, or v unchanged when |v| == 0 (as NormalizeOrKeep on the CPU).
vec3 NormalizeOrKeep(vec3 v) {
  float len = length(v);
  return len > 0.0 ? v / len : v;
}

// A vertex's attributes on their way through the kernel.
struct Vertex {
  vec3 p;
  vec3 n;
  vec4 t;
};

Vertex LoadRest(uint v) {
  Vertex x;
  if (kPositions16) {
    uint grid = inst.rest_positions >> 2u;  // the stream is 16-byte aligned
    uint first = inst.rest_positions + 8u, h = 3u * v;
    vec3 q = vec3(bitfieldExtract(mesh_words[first + (h >> 1u)], int((h & 1u) * 16u), 16),
                  bitfieldExtract(mesh_words[first + ((h + 1u) >> 1u)], int(((h + 1u) & 1u) * 16u), 16),
                  bitfieldExtract(mesh_words[first + ((h + 2u) >> 1u)], int(((h + 2u) & 1u) * 16u), 16));
    x.p = mesh_vec4[grid].xyz + q * mesh_vec4[grid + 1u].xyz;
  } else {
    x.p = MeshVec3(inst.rest_positions + v * 3u);
  }
  x.n = vec3(0.0);
  x.t = vec4(0.0);
  if (kNormals) {
    if (kOctahedral) {
      x.n = SinewDecodeOctahedralNormal(mesh_words[inst.rest_normals + v]);
    } else if (kSnorm10) {
      x.n = SinewDecodeSnorm10(mesh_words[inst.rest_normals + v]).xyz;
    } else {
      x.n = MeshVec3(inst.rest_normals + v * 3u);
    }
  }
  if (kTangents) {
    if (kOctahedral) {
      x.t = SinewDecodeOctahedralTangent(mesh_words[inst.rest_tangents + v]);
    } else if (kSnorm10) {
      x.t = SinewDecodeSnorm10(mesh_words[inst.rest_tangents + v]);
    } else {
      x.t = mesh_vec4[inst.rest_tangents + v];
    }
  }
  return x;
}

// The three values of a morph delta from value `at` of the instance's deltas.
vec3 MorphDelta(uint at) {
  if (kMorphHalf) {
    uint base = inst.morph_deltas;
    return vec3(unpackHalf2x16(mesh_words[base + (at >> 1u)])[at & 1u],
                unpackHalf2x16(mesh_words[base + ((at + 1u) >> 1u)])[(at + 1u) & 1u],
                unpackHalf2x16(mesh_words[base + ((at + 2u) >> 1u)])[(at + 2u) & 1u]);
  }
  return MeshVec3(inst.morph_deltas + at);
}

// Adds block's deltas times w to vertex x if the block moves this invocation's vertex.
void AddMorphBlock(uvec4 block, float w, inout Vertex x) {
  uint lane = morph_lane;
  uint bit = 1u << (lane & 31u);
  uint word = lane < 32u ? block.y : block.z;
  if ((word & bit) == 0u) return;
  uint below = lane < 32u ? uint(bitCount(block.y & (bit - 1u)))
                          : uint(bitCount(block.y)) + uint(bitCount(block.z & (bit - 1u)));
  uint at = (block.w + below) * inst.morph_stride;  // floats (or halves) into the deltas
  x.p += w * MorphDelta(at);
  at += 3u;
  if (kMorphNormals) {
    x.n += w * MorphDelta(at);
    at += 3u;
  }
  if (kMorphTangents) x.t.xyz += w * MorphDelta(at);
}

// Adds the instance's weighted morph deltas to vertex x (this invocation's vertex of the group),
// target by target in ascending order, then renormalizes normal and tangent; identical to
// sinew::cpu::MorphTargetsJob. A mesh without morph targets has no such stage (kMorphs); an
// instance without any nonzero weight skips it,
// renormalization included. Otherwise the group visits the shorter of two lists, both ascending
// by target (so the sum is the same either way): the instance's A active targets, each found in
// the group through the block index, or the group's B blocks, each with its target's weight (0:
// skipped). The choice and every lookup are the same for the whole morph group of 64 vertices,
// which no subgroup of 64 invocations or fewer straddles; the cost per vertex is min(A, B) steps,
// nothing for a target whose weight is 0.
void ApplyMorphs(inout Vertex x) {
  if (kMorphs) {
    uint targets = inst.morph_target_count;
    uint slot = inst.morph_slot;
    uint active_count = morph_words[slot];
    if (active_count == 0u) return;
    uint first = mesh_words[inst.morph_lookup + morph_group];
    uint end = mesh_words[inst.morph_lookup + morph_group + 1u];
    if (active_count <= end - first) {
      uint groups = (inst.vertex_count + SINEW_MORPH_GROUP_SIZE - 1u) / SINEW_MORPH_GROUP_SIZE;
      uint index_base = inst.morph_lookup + groups + 1u + morph_group * targets;
      for (uint k = 1u; k <= active_count; ++k) {
        uint target = morph_words[slot + 2u * k];
        uint b = mesh_words[index_base + target];
        if (b != SINEW_NO_MORPH_BLOCK) {
          AddMorphBlock(mesh_blocks[inst.morph_blocks + b],
                        uintBitsToFloat(morph_words[slot + 2u * k + 1u]), x);
        }
      }
    } else {
      uint weight_base = slot + 2u * targets + 2u;
      for (uint b = first; b < end; ++b) {
        uvec4 block = mesh_blocks[inst.morph_blocks + b];
        float w = uintBitsToFloat(morph_words[weight_base + block.x]);
        if (w != 0.0) AddMorphBlock(block, w, x);
      }
    }
    x.n = NormalizeOrKeep(x.n);
    x.t.xyz = NormalizeOrKeep(x.t.xyz);
  }
}

// With kJointNormals: the rows of Σ w · inverse-transpose(entry 3x3) over the
// vertex's influences so far (AddJoint), what WriteSkinned transforms the normal by.
vec3 joint_normal_rows[3] = vec3[3](vec3(0.0), vec3(0.0), vec3(0.0));

// Adds palette entry `entry` of the instance, times w, to the blended rows r0..r2 (and, with
// kJointNormals, w · its inverse-transpose, as cofactor / det, to joint_normal_rows; an
// entry with det 0 adds nothing there), as BlendedMatrix::Add does on the CPU
// (runtime/src/cpu/skin_vertex.h).
void AddJoint(uint entry, float w, inout vec4 r0, inout vec4 r1, inout vec4 r2) {
  uint at = inst.palette + entry * 3u;
  vec4 p0 = palette[at];
  vec4 p1 = palette[at + 1u];
  vec4 p2 = palette[at + 2u];
  r0 += w * p0;
  r1 += w * p1;
  r2 += w * p2;
  if (kJointNormals) {
    vec3 c0 = cross(p1.xyz, p2.xyz);
    vec3 c1 = cross(p2.xyz, p0.xyz);
    vec3 c2 = cross(p0.xyz, p1.xyz);
    float det = dot(p0.xyz, c0);
    if (det != 0.0) {
      float s = w / det;
      joint_normal_rows[0] += s * c0;
      joint_normal_rows[1] += s * c1;
      joint_normal_rows[2] += s * c2;
    }
  }
}

// The first word of output direction `v` from `base` (a normal or tangent stream's offset): `words`
// words a vertex in a separate stream, kOutStride interleaved.
uint DirectionAt(uint base, uint v, uint words) {
  if (kInterleaved) return base + v * kOutStride;
  return base + v * words;
}

// Writes vertex `v` of the instance: its position (previous positions first, as the flags ask),
// and its normal and tangent where the mesh has them.
void WriteVertex(uint v, vec3 o, vec3 n, vec4 t) {
  uint dst = inst.out_positions + v * kOutStride;
  uint previous = inst.previous_positions + v * kOutStride;
  if ((inst.flags & SINEW_FLAG_PREVIOUS_IS_CURRENT) != 0u) {
    out_positions[previous] = o.x;
    out_positions[previous + 1u] = o.y;
    out_positions[previous + 2u] = o.z;
  } else if ((inst.flags & SINEW_FLAG_COPY_PREVIOUS) != 0u) {
    out_positions[previous] = out_positions[dst];
    out_positions[previous + 1u] = out_positions[dst + 1u];
    out_positions[previous + 2u] = out_positions[dst + 2u];
  }
  out_positions[dst] = o.x;
  out_positions[dst + 1u] = o.y;
  out_positions[dst + 2u] = o.z;
  if (kNormals) {
    if (kOutOctahedral) {
      out_direction_words[DirectionAt(inst.out_normals, v, 1u)] = SinewEncodeOctahedralNormal(n);
    } else if (kOutSnorm10) {
      out_direction_words[DirectionAt(inst.out_normals, v, 1u)] = SinewEncodeSnorm10(vec4(n, 0.0));
    } else {
      uint at = DirectionAt(inst.out_normals, v, 3u);
      out_direction_words[at] = floatBitsToUint(n.x);
      out_direction_words[at + 1u] = floatBitsToUint(n.y);
      out_direction_words[at + 2u] = floatBitsToUint(n.z);
    }
  }
  if (kTangents) {
    if (kOutOctahedral) {
      out_direction_words[DirectionAt(inst.out_tangents, v, 1u)] = SinewEncodeOctahedralTangent(t);
    } else if (kOutSnorm10) {
      out_direction_words[DirectionAt(inst.out_tangents, v, 1u)] = SinewEncodeSnorm10(t);
    } else if (kInterleaved) {  // float32 xyzw inside the vertex: not 16-byte aligned
      uint at = DirectionAt(inst.out_tangents, v, 4u);
      out_direction_words[at] = floatBitsToUint(t.x);
      out_direction_words[at + 1u] = floatBitsToUint(t.y);
      out_direction_words[at + 2u] = floatBitsToUint(t.z);
      out_direction_words[at + 3u] = floatBitsToUint(t.w);
    } else {
      out_tangents[inst.out_tangents + v] = t;
    }
  }
}

// Transforms vertex x (vertex `v` of the instance) by the blended matrix rows r0..r2 (identity
// when weight_sum == 0: the vertex keeps its attributes) and writes it; identical to the CPU
// reference jobs (runtime/src/cpu/skin_vertex.h).
void WriteSkinned(uint v, Vertex x, vec4 r0, vec4 r1, vec4 r2, float weight_sum) {
  if (weight_sum == 0.0) {
    r0 = vec4(1, 0, 0, 0);
    r1 = vec4(0, 1, 0, 0);
    r2 = vec4(0, 0, 1, 0);
  }
  vec4 p = vec4(x.p, 1.0);
  vec3 o = vec3(dot(r0, p), dot(r1, p), dot(r2, p));
  vec3 n = vec3(0.0);
  vec4 t = vec4(0.0);
  if (kJointNormals && weight_sum != 0.0) {
    n = NormalizeOrKeep(vec3(dot(joint_normal_rows[0], x.n), dot(joint_normal_rows[1], x.n),
                             dot(joint_normal_rows[2], x.n)));
  } else if (kNormals) {
    // sign(det) · cofactor(M3x3) == inverse-transpose up to a positive scale.
    vec3 c0 = vec3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x);
    vec3 c1 = vec3(r0.z * r2.y - r0.y * r2.z, r0.x * r2.z - r0.z * r2.x, r0.y * r2.x - r0.x * r2.y);
    vec3 c2 = vec3(r0.y * r1.z - r0.z * r1.y, r0.z * r1.x - r0.x * r1.z, r0.x * r1.y - r0.y * r1.x);
    float det = dot(r0.xyz, c0);
    float s = det < 0.0 ? -1.0 : 1.0;
    n = NormalizeOrKeep(s * vec3(dot(c0, x.n), dot(c1, x.n), dot(c2, x.n)));
  }
  if (kTangents) {
    vec3 a = vec3(dot(r0.xyz, x.t.xyz), dot(r1.xyz, x.t.xyz), dot(r2.xyz, x.t.xyz));
    t = vec4(NormalizeOrKeep(a), x.t.w);
  }
  WriteVertex(v, o, n, t);
}
