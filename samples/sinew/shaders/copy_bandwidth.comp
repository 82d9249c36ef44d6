// The reference for `sinew bench`'s bandwidth fraction: a plain copy of 16-byte words from one
// buffer to another, through buffer device addresses, in a grid-stride loop. It reads and writes
// every byte once, as well as a GPU can: what the skinning kernels' bytes per vertex are held to.
#version 460
#extension GL_EXT_buffer_reference : require

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Source {
  uvec4 words[];
};
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Destination {
  uvec4 words[];
};

layout(push_constant) uniform Push {
  Source source;
  Destination destination;
  uint word_count;
} push;

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < push.word_count; i += stride) {
    push.destination.words[i] = push.source.words[i];
  }
}
