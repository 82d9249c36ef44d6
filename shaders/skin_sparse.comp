#version 450
// Sparse (G4MF-style, CSR) linear blend skinning: a variable number of (group, weight) entries per
// vertex; the palette is indexed by group (sparse_influences.h). One invocation per vertex, one
// workgroup per work item (skinning_common.glsl). Identical to sinew::cpu::SkinSparseJob.
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"

void main() {
  uint v;
  if (!SkinItem(v)) return;

  vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
  float weight_sum = 0.0;
  uint end = mesh_words[inst.influence_offsets + v + 1u];
  for (uint e = mesh_words[inst.influence_offsets + v]; e < end; ++e) {
    float w = WeightAt(e);
    if (w == 0.0) continue;
    AddJoint(JointAt(e), w, r0, r1, r2);
    weight_sum += w;
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(x);  // morph targets first, then skinning, fused in this pass
  WriteSkinned(v, x, r0, r1, r2, weight_sum);
}
