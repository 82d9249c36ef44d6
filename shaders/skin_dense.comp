#version 450
// Dense (glTF-style) linear blend skinning: K = 4·n influence slots per vertex.
// One invocation per vertex; gl_WorkGroupID.y selects the instance. Semantics: DESIGN.md §4.1,
// §4.4, identical to sinew::cpu::SkinDenseJob.
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"

layout(local_size_x = SINEW_GROUP_SIZE) in;

void main() {
  uint v = gl_GlobalInvocationID.x;
  if (v >= pc.vertex_count) return;
  uint instance = pc.instance_base + gl_WorkGroupID.y;
  uint k_count = pc.influences_per_vertex;
  uint palette_base = instance * pc.palette_stride * 3u;

  vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
  float weight_sum = 0.0;
  uint first = v * k_count;
  for (uint k = 0u; k < k_count; k += 2u) {
    uint pair = influence_indices[(first + k) >> 1u];
    for (uint half_index = 0u; half_index < 2u; ++half_index) {
      float w = weights[first + k + half_index];
      if (w == 0.0) continue;
      uint j = half_index == 0u ? (pair & 0xFFFFu) : (pair >> 16u);
      uint at = palette_base + j * 3u;
      r0 += w * palette[at];
      r1 += w * palette[at + 1u];
      r2 += w * palette[at + 2u];
      weight_sum += w;
    }
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(instance, x);  // morph targets first (DESIGN.md §4), fused in this pass
  WriteSkinned(instance, v, x, r0, r1, r2, weight_sum);
}
