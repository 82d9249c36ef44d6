#version 450
// Dense (glTF-style) linear blend skinning: K = 4·n influence slots per vertex.
// One invocation per vertex, one workgroup per work item (skinning_common.glsl). Semantics:
// identical to sinew::cpu::SkinDenseJob (runtime/include/sinew/cpu/skin_dense_job.h).
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"

void main() {
  uint v;
  if (!SkinItem(v)) return;
  // For K of 4 and 8 the rest vertex comes first: its loads need nothing the influences give, so
  // they are in flight while the weights, joints and palette rows come in. On an H200 at 10M
  // vertices that took every format 1.8-5 % faster; at K = 16 (1M vertices) holding it through
  // the longer loop cost 7 % (BENCHMARKS.md), so larger K load it after.
  bool rest_first = kInfluences != 0u && InfluencesPerVertex() <= 8u;  // folds with K
  Vertex x;
  if (rest_first) x = LoadRest(v);
  uint quads = InfluencesPerVertex() / 4u;

  vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);
  float weight_sum = 0.0;
  for (uint c = 0u; c < quads; ++c) {  // slot by slot, in order: the CPU's sum
    vec4 weights = WeightQuad(v * quads + c);
    if (weights == vec4(0.0)) continue;  // a quad of zeros adds nothing (padding)
    uvec4 joints = QuadJoints(v * quads + c);
    for (uint i = 0u; i < 4u; ++i) {
      if (weights[i] == 0.0) continue;
      AddJoint(QuadJoint(joints, v * quads + c, i), weights[i], r0, r1, r2);
      weight_sum += weights[i];
    }
  }
  if (!rest_first) x = LoadRest(v);
  ApplyMorphs(x);  // morph targets first, then skinning, fused in this pass
  WriteSkinned(v, x, r0, r1, r2, weight_sum);
}
