#version 450
// Dense (glTF-style) dual-quaternion skinning: K = 4·n influence slots per vertex, blended as
// dual_quaternion.glsl says. One invocation per vertex, one workgroup per work item
// (skinning_common.glsl). Identical to sinew::cpu::SkinDenseJob with dual quaternions.
#extension GL_GOOGLE_include_directive : require

#include "skinning_common.glsl"
#include "dual_quaternion.glsl"

void main() {
  uint v;
  if (!SkinItem(v)) return;
  uint quads = InfluencesPerVertex() / 4u;
  DqBlend b = DqBegin();
  // Both passes skip a quad of zeros, which neither would use (DqPivot, DqAdd).
  for (uint c = 0u; c < quads; ++c) {
    vec4 weights = WeightQuad(v * quads + c);
    if (weights == vec4(0.0)) continue;
    uvec4 joints = QuadJoints(v * quads + c);
    for (uint i = 0u; i < 4u; ++i) {  // a weight of 0 is never the pivot
      if (kJointsBySlot && weights[i] == 0.0) continue;
      DqPivot(b, QuadJoint(joints, v * quads + c, i), weights[i]);
    }
  }
  DqLoadPivot(b);
  for (uint c = 0u; c < quads; ++c) {
    vec4 weights = WeightQuad(v * quads + c);
    if (weights == vec4(0.0)) continue;
    uvec4 joints = QuadJoints(v * quads + c);
    for (uint i = 0u; i < 4u; ++i) {  // a weight of 0 adds nothing
      if (kJointsBySlot && weights[i] == 0.0) continue;
      DqAdd(b, QuadJoint(joints, v * quads + c, i), weights[i]);
    }
  }
  Vertex x = LoadRest(v);
  ApplyMorphs(x);  // morph targets first, then skinning, fused in this pass
  WriteDualQuaternionSkinned(v, x, b);
}
