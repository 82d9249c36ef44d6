#version 450
// skin_sparse.comp with the workgroup's instance record in shared memory, read once by one
// invocation, rather than in every invocation's registers (skinning_common.glsl,
// SINEW_INSTANCE_IN_SHARED_MEMORY): what hardware GPUs run (runtime/src/vk/kernels.cpp), where it
// freed registers and ran faster; lavapipe, where the barrier it needs costs more, runs
// skin_sparse.comp.
#extension GL_GOOGLE_include_directive : require

#define SINEW_INSTANCE_IN_SHARED_MEMORY
#include "skin_sparse.glsl"
