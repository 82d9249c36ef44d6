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
// morph_deltas.h): target t's block in group g is morph_blocks[morph_block_index[g *
// morph_target_count + t]] (or none: SINEW_NO_MORPH_BLOCK), each block (target, mask of vertices
// 0-31, mask of 32-63, first delta); deltas morph_stride floats each.
layout(std430, set = 0, binding = 10) readonly buffer MorphBlockIndex { uint morph_block_index[]; };
layout(std430, set = 0, binding = 11) readonly buffer MorphBlocks { uvec4 morph_blocks[]; };
layout(std430, set = 0, binding = 12) readonly buffer MorphDeltaValues { float morph_deltas[]; };
// Per instance, morph_target_count + 1 entries: entry 0's target is the count A of active targets
// (nonzero weight), entries 1..A those targets and weights in ascending target order.
struct MorphActiveTarget {
  uint target;
  float weight;
};
layout(std430, set = 0, binding = 13) readonly buffer MorphActive { MorphActiveTarget morph_active[]; };
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

// Adds instance's weighted morph deltas to vertex x (this invocation's vertex of its workgroup),
// active target by active target in ascending order, then renormalizes normal and tangent;
// identical to sinew::cpu::MorphTargetsJob. Only the instance's active targets are visited, each
// found in the group through one index lookup (the same for every invocation of the group): a
// target whose weight is 0 costs nothing, and an instance without any nonzero weight skips the
// stage, renormalization included.
void ApplyMorphs(uint instance, inout Vertex x) {
  if (pc.morph_target_count == 0u) return;
  uint slot = instance * (pc.morph_target_count + 1u);
  uint active_count = morph_active[slot].target;
  if (active_count == 0u) return;
  uint lane = gl_LocalInvocationID.x;
  uint bit = 1u << (lane & 31u);
  uint index_base = gl_WorkGroupID.x * pc.morph_target_count;
  for (uint k = 1u; k <= active_count; ++k) {
    MorphActiveTarget a = morph_active[slot + k];
    uint b = morph_block_index[index_base + a.target];
    if (b == SINEW_NO_MORPH_BLOCK) continue;  // the same for every invocation of the group
    uvec4 block = morph_blocks[b];
    uint word = lane < 32u ? block.y : block.z;
    if ((word & bit) == 0u) continue;
    uint below = lane < 32u ? uint(bitCount(block.y & (bit - 1u)))
                            : uint(bitCount(block.y)) + uint(bitCount(block.z & (bit - 1u)));
    uint at = (block.w + below) * pc.morph_stride;
    float w = a.weight;
    x.p += w * MorphDelta(at);
    at += 3u;
    if ((pc.flags & SINEW_FLAG_MORPH_NORMALS) != 0u) {
      x.n += w * MorphDelta(at);
      at += 3u;
    }
    if ((pc.flags & SINEW_FLAG_MORPH_TANGENTS) != 0u) x.t.xyz += w * MorphDelta(at);
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
