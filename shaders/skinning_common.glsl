// Bindings and structs shared by every skinning kernel. Mirrored in C++ by
// runtime/include/sinew/vk/gpu_layout.h (static_asserts keep the two in step).

// Flags in SkinPushConstants.flags.
#define SINEW_FLAG_NORMALS 1u
#define SINEW_FLAG_TANGENTS 2u

layout(push_constant) uniform SkinPushConstants {
  uint vertex_count;           // vertices per instance
  uint influences_per_vertex;  // K = 4·n
  uint palette_stride;         // palette entries per instance (joints dense, groups sparse)
  uint flags;                  // SINEW_FLAG_*
  uint instance_base;          // first instance covered by this dispatch (gl_WorkGroupID.y adds)
  uint pad0;
  uint pad1;
  uint pad2;
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
// Outputs, one block of vertex_count vertices per instance.
layout(std430, set = 0, binding = 6) writeonly buffer OutPositions { float out_positions[]; };
layout(std430, set = 0, binding = 7) writeonly buffer OutNormals { float out_normals[]; };
layout(std430, set = 0, binding = 8) writeonly buffer OutTangents { vec4 out_tangents[]; };

// v / |v|, or v unchanged when |v| == 0 (as NormalizeOrKeep on the CPU).
vec3 NormalizeOrKeep(vec3 v) {
  float len = length(v);
  return len > 0.0 ? v / len : v;
}

// Transforms position, normal and tangent of vertex `v` of instance `instance` by the blended
// matrix rows r0..r2 (identity when weight_sum == 0: the vertex keeps its rest attributes) and
// writes them; identical to the CPU reference jobs (runtime/src/cpu/skin_vertex.h).
void WriteSkinned(uint instance, uint v, vec4 r0, vec4 r1, vec4 r2, float weight_sum) {
  if (weight_sum == 0.0) {
    r0 = vec4(1, 0, 0, 0);
    r1 = vec4(0, 1, 0, 0);
    r2 = vec4(0, 0, 1, 0);
  }
  uint src3 = v * 3u;
  uint dst = instance * pc.vertex_count + v;
  vec4 p = vec4(rest_positions[src3], rest_positions[src3 + 1u], rest_positions[src3 + 2u], 1.0);
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
    vec3 n = vec3(rest_normals[src3], rest_normals[src3 + 1u], rest_normals[src3 + 2u]);
    vec3 o = NormalizeOrKeep(s * vec3(dot(c0, n), dot(c1, n), dot(c2, n)));
    out_normals[dst * 3u + 0u] = o.x;
    out_normals[dst * 3u + 1u] = o.y;
    out_normals[dst * 3u + 2u] = o.z;
  }
  if ((pc.flags & SINEW_FLAG_TANGENTS) != 0u) {
    vec4 t = rest_tangents[v];
    vec3 o = NormalizeOrKeep(vec3(dot(r0.xyz, t.xyz), dot(r1.xyz, t.xyz), dot(r2.xyz, t.xyz)));
    out_tangents[dst] = vec4(o, t.w);
  }
}
