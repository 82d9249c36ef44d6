// The sparse linear kernel's main, shared by skin_sparse.comp and skin_sparse_shared.comp (which
// differ only in where the workgroup's instance record lives: skinning_common.glsl,
// SINEW_INSTANCE_IN_SHARED_MEMORY).
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
