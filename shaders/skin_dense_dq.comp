#version 450
// Dense (glTF-style) dual-quaternion skinning: K = 4·n influence slots per vertex, blended as
// dual_quaternion.glsl says. One invocation per vertex, one workgroup per work item
// (skinning_common.glsl). Identical to sinew::cpu::SkinDenseJob with dual quaternions.
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"
#include "dual_quaternion.glsl"

// Influence k of vertex v's K: its palette entry and weight.
void DenseInfluence(uint v, uint k, out uint entry, out float w) {
  uint at = v * InfluencesPerVertex() + k;
  entry = JointAt(at);
  w = WeightAt(at);
}

void main() {
  uint v;
  if (!SkinItem(v)) return;
  uint k_count = InfluencesPerVertex();
  DqBlend b = DqBegin();
  uint entry;
  float w;
  for (uint k = 0u; k < k_count; ++k) {
    DenseInfluence(v, k, entry, w);
    DqPivot(b, entry, w);
  }
  DqLoadPivot(b);
  for (uint k = 0u; k < k_count; ++k) {
    DenseInfluence(v, k, entry, w);
    DqAdd(b, entry, w);
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(x);  // morph targets first, then skinning, fused in this pass
  WriteDualQuaternionSkinned(v, x, b);
}
