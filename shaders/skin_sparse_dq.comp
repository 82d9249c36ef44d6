#version 450
// Sparse (G4MF-style, CSR) dual-quaternion skinning: a variable number of (group, weight) entries
// per vertex, blended as dual_quaternion.glsl says. One invocation per vertex, one workgroup per
// work item (skinning_common.glsl). Identical to sinew::cpu::SkinSparseJob with dual quaternions.
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"
#include "dual_quaternion.glsl"

void main() {
  uint v;
  if (!SkinItem(v)) return;
  DqBlend b = DqBegin();
  uint first = mesh_words[inst.influence_offsets + v];
  uint end = mesh_words[inst.influence_offsets + v + 1u];
  for (uint e = first; e < end; ++e) {
    DqPivot(b, JointAt(e), WeightAt(e));
  }
  DqLoadPivot(b);
  for (uint e = first; e < end; ++e) {
    DqAdd(b, JointAt(e), WeightAt(e));
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(x);  // morph targets first, then skinning, fused in this pass
  WriteDualQuaternionSkinned(v, x, b);
}
