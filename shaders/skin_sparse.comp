#version 450
// Sparse (G4MF-style, CSR) linear blend skinning: a variable number of (group, weight) entries per
// vertex; the palette is indexed by group (sparse_influences.h). One invocation per vertex, one
// workgroup per work item (skinning_common.glsl). Identical to sinew::cpu::SkinSparseJob.
// The kernel itself is skin_sparse.glsl.
#extension GL_GOOGLE_include_directive : require

#include "skin_sparse.glsl"
