// Bindings and structs shared by every skinning kernel. Mirrored in C++ by
// runtime/include/sinew/vk/gpu_layout.h (static_asserts keep the two in step).

// Flags in SkinPushConstants.flags.
#define SINEW_FLAG_NORMALS 1u
#define SINEW_FLAG_TANGENTS 2u
#define SINEW_FLAG_MORPH_NORMALS 4u   // morph deltas carry normal offsets
#define SINEW_FLAG_MORPH_TANGENTS 8u  // morph deltas carry tangent offsets

// Vertices per workgroup, and per morph group (MorphDeltas, kMorphGroupSize).
#define SINEW_GROUP_SIZE 64
// MorphDeltas::block_index where a target moves no vertex of the group (kNoMorphBlock).
#define SINEW_NO_MORPH_BLOCK 0xFFFFFFFFu

layout(push_constant) uniform SkinPushConstants {
  uint vertex_count;           // vertices per instance
  uint influences_per_vertex;  // K = 4·n
  uint palette_stride;         // palette entries per instance (joints dense, groups sparse)
  uint flags;                  // SINEW_FLAG_*
  uint instance_base;          // first instance covered by this dispatch (gl_WorkGroupID.y adds)
  uint morph_target_count;     // morph targets of the mesh; 0: none
  uint morph_stride;           // floats per morph delta
  uint pad0;
} pc;

// Rest attributes of one mesh, tightly packed floats (xyz, xyz, xyzw per vertex).
layout(std430, set = 0, binding = 0) readonly buffer RestPositions { float rest_positions[]; };
layout(std430, set = 0, binding = 1) readonly buffer RestNormals { float rest_normals[]; };
layout(std430, set = 0, binding = 2) readonly buffer RestTangents { vec4 rest_tangents[]; };
// Influences. Dense: K u16 joint indices per vertex, two to a uint (low half first), and K
// weights. Sparse (CSR): one u32 group and one weight per entry, vertex v's entries in
// [influence_offsets[v], influence_offsets[v + 1]).
layout(std430, set = 0, binding = 3) readonly buffer InfluenceIndices { uint influence_indices[]; };
layout(std430, set = 0, binding = 4) readonly buffer Weights { float weights[]; };
layout(std430, set = 0, binding = 9) readonly buffer InfluenceOffsets { uint influence_offsets[]; };
// Palette: per instance, palette_stride entries (joints for dense, groups for sparse) of three vec4
// rows (3x4 affine, 48 bytes).
layout(std430, set = 0, binding = 5) readonly buffer Palette { vec4 palette[]; };
// Morph targets, packed sparse per group of 64 vertices (runtime/include/sinew/asset/
// morph_deltas.h); G = ceil(vertex_count / 64) groups. morph_lookup holds G + 1 group offsets
// (group g's blocks are [morph_lookup[g], morph_lookup[g + 1])), then the group-major block index
// (target t's block in group g is morph_lookup[G + 1 + g * morph_target_count + t], or
// SINEW_NO_MORPH_BLOCK). A block is (target, mask of vertices 0-31, mask of 32-63, first delta);
// deltas morph_stride floats each.
layout(std430, set = 0, binding = 10) readonly buffer MorphLookup { uint morph_lookup[]; };
layout(std430, set = 0, binding = 11) readonly buffer MorphBlocks { uvec4 morph_blocks[]; };
layout(std430, set = 0, binding = 12) readonly buffer MorphDeltaValues { float morph_deltas[]; };
// Per instance, 3T + 2 words (T = morph_target_count; gpu_layout.h MorphSlotWords): T + 1
// (target, weight bits) pairs, the first's target the count A of active targets (nonzero weight),
// pairs 1..A those targets and weights in ascending target order; then T weights, target t's at
// word 2T + 2 + t.
layout(std430, set = 0, binding = 13) readonly buffer MorphInstances { uint morph_words[]; };
// Outputs, one block of vertex_count vertices per instance.
layout(std430, set = 0, binding = 6) writeonly buffer OutPositions { float out_positions[]; };
layout(std430, set = 0, binding = 7) writeonly buffer OutNormals { float out_normals[]; };
layout(std430, set = 0, binding = 8) writeonly buffer OutTangents { vec4 out_tangents[]; };

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
  uint src3 = v * 3u;
  x.p = vec3(rest_positions[src3], rest_positions[src3 + 1u], rest_positions[src3 + 2u]);
  x.n = vec3(0.0);
  x.t = vec4(0.0);
  if ((pc.flags & SINEW_FLAG_NORMALS) != 0u) {
    x.n = vec3(rest_normals[src3], rest_normals[src3 + 1u], rest_normals[src3 + 2u]);
  }
  if ((pc.flags & SINEW_FLAG_TANGENTS) != 0u) x.t = rest_tangents[v];
  return x;
}

vec3 MorphDelta(uint at) {
  return vec3(morph_deltas[at], morph_deltas[at + 1u], morph_deltas[at + 2u]);
}

// Adds block's deltas times w to vertex x if the block moves this invocation's vertex.
void AddMorphBlock(uvec4 block, float w, inout Vertex x) {
  uint lane = gl_LocalInvocationID.x;
  uint bit = 1u << (lane & 31u);
  uint word = lane < 32u ? block.y : block.z;
  if ((word & bit) == 0u) return;
  uint below = lane < 32u ? uint(bitCount(block.y & (bit - 1u)))
                          : uint(bitCount(block.y)) + uint(bitCount(block.z & (bit - 1u)));
  uint at = (block.w + below) * pc.morph_stride;
  x.p += w * MorphDelta(at);
  at += 3u;
  if ((pc.flags & SINEW_FLAG_MORPH_NORMALS) != 0u) {
    x.n += w * MorphDelta(at);
    at += 3u;
  }
  if ((pc.flags & SINEW_FLAG_MORPH_TANGENTS) != 0u) x.t.xyz += w * MorphDelta(at);
}

// Adds instance's weighted morph deltas to vertex x (this invocation's vertex of its workgroup),
// target by target in ascending order, then renormalizes normal and tangent; identical to
// sinew::cpu::MorphTargetsJob. An instance without any nonzero weight skips the stage,
// renormalization included. Otherwise the group visits the shorter of two lists, both ascending
// by target (so the sum is the same either way): the instance's A active targets, each found in
// the group through the block index, or the group's B blocks, each with its target's weight (0:
// skipped). The choice and every lookup are the same for the whole workgroup; the cost per vertex
// is min(A, B) steps, nothing for a target whose weight is 0.
void ApplyMorphs(uint instance, inout Vertex x) {
  if (pc.morph_target_count == 0u) return;
  uint targets = pc.morph_target_count;
  uint slot = instance * (3u * targets + 2u);
  uint active_count = morph_words[slot];
  if (active_count == 0u) return;
  uint group = gl_WorkGroupID.x;
  uint first = morph_lookup[group];
  uint end = morph_lookup[group + 1u];
  if (active_count <= end - first) {
    uint groups = (pc.vertex_count + uint(SINEW_GROUP_SIZE) - 1u) / uint(SINEW_GROUP_SIZE);
    uint index_base = groups + 1u + group * targets;
    for (uint k = 1u; k <= active_count; ++k) {
      uint target = morph_words[slot + 2u * k];
      uint b = morph_lookup[index_base + target];
      if (b != SINEW_NO_MORPH_BLOCK) {
        AddMorphBlock(morph_blocks[b], uintBitsToFloat(morph_words[slot + 2u * k + 1u]), x);
      }
    }
  } else {
    uint weight_base = slot + 2u * targets + 2u;
    for (uint b = first; b < end; ++b) {
      uvec4 block = morph_blocks[b];
      float w = uintBitsToFloat(morph_words[weight_base + block.x]);
      if (w != 0.0) AddMorphBlock(block, w, x);
    }
  }
  x.n = NormalizeOrKeep(x.n);
  x.t.xyz = NormalizeOrKeep(x.t.xyz);
}

// Transforms vertex x (vertex `v` of instance `instance`) by the blended matrix rows r0..r2
// (identity when weight_sum == 0: the vertex keeps its attributes) and writes it; identical to
// the CPU reference jobs (runtime/src/cpu/skin_vertex.h).
void WriteSkinned(uint instance, uint v, Vertex x, vec4 r0, vec4 r1, vec4 r2, float weight_sum) {
  if (weight_sum == 0.0) {
    r0 = vec4(1, 0, 0, 0);
    r1 = vec4(0, 1, 0, 0);
    r2 = vec4(0, 0, 1, 0);
  }
  uint dst = instance * pc.vertex_count + v;
  vec4 p = vec4(x.p, 1.0);
  out_positions[dst * 3u + 0u] = dot(r0, p);
  out_positions[dst * 3u + 1u] = dot(r1, p);
  out_positions[dst * 3u + 2u] = dot(r2, p);

  if ((pc.flags & SINEW_FLAG_NORMALS) != 0u) {
    // sign(det) · cofactor(M3x3) == inverse-transpose up to a positive scale.
    vec3 c0 = vec3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x);
    vec3 c1 = vec3(r0.z * r2.y - r0.y * r2.z, r0.x * r2.z - r0.z * r2.x, r0.y * r2.x - r0.x * r2.y);
    vec3 c2 = vec3(r0.y * r1.z - r0.z * r1.y, r0.z * r1.x - r0.x * r1.z, r0.x * r1.y - r0.y * r1.x);
    float det = dot(r0.xyz, c0);
    float s = det < 0.0 ? -1.0 : 1.0;
    vec3 o = NormalizeOrKeep(s * vec3(dot(c0, x.n), dot(c1, x.n), dot(c2, x.n)));
    out_normals[dst * 3u + 0u] = o.x;
    out_normals[dst * 3u + 1u] = o.y;
    out_normals[dst * 3u + 2u] = o.z;
  }
  if ((pc.flags & SINEW_FLAG_TANGENTS) != 0u) {
    vec3 o = NormalizeOrKeep(vec3(dot(r0.xyz, x.t.xyz), dot(r1.xyz, x.t.xyz), dot(r2.xyz, x.t.xyz)));
    out_tangents[dst] = vec4(o, x.t.w);
  }
}
