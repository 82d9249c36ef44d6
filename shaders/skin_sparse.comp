#version 450
// Sparse (G4MF-style, CSR) linear blend skinning: a variable number of (group, weight) entries per
// vertex; the palette is indexed by group (DESIGN.md §4.2). One invocation per vertex;
// gl_WorkGroupID.y selects the instance. Identical to sinew::cpu::SkinSparseJob.
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"

layout(local_size_x = SINEW_GROUP_SIZE) in;

void main() {
  uint v = gl_GlobalInvocationID.x;
  if (v >= pc.vertex_count) return;
  uint instance = pc.instance_base + gl_WorkGroupID.y;
  uint palette_base = instance * pc.palette_stride * 3u;

  vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
  float weight_sum = 0.0;
  uint end = influence_offsets[v + 1u];
  for (uint e = influence_offsets[v]; e < end; ++e) {
    float w = weights[e];
    if (w == 0.0) continue;
    uint at = palette_base + influence_indices[e] * 3u;
    r0 += w * palette[at];
    r1 += w * palette[at + 1u];
    r2 += w * palette[at + 2u];
    weight_sum += w;
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(instance, x);  // morph targets first (DESIGN.md §4), fused in this pass
  WriteSkinned(instance, v, x, r0, r1, r2, weight_sum);
}
