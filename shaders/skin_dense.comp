#version 450
// Dense (glTF-style) linear blend skinning: K = 4·n influence slots per vertex.
// One invocation per vertex, one workgroup per work item (skinning_common.glsl). Semantics:
// identical to sinew::cpu::SkinDenseJob (runtime/include/sinew/cpu/skin_dense_job.h).
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"

void main() {
  uint v;
  if (!SkinItem(v)) return;
  uint k_count = InfluencesPerVertex();

  vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
  float weight_sum = 0.0;
  uint first = v * k_count;
  for (uint k = 0u; k < k_count; ++k) {
    float w = WeightAt(first + k);
    if (w == 0.0) continue;
    AddJoint(JointAt(first + k), w, r0, r1, r2);
    weight_sum += w;
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(x);  // morph targets first, then skinning, fused in this pass
  WriteSkinned(v, x, r0, r1, r2, weight_sum);
}
