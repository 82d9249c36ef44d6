#version 450
// An engine's vertex stage reading a SkinCache's octahedral output normals (one word each, bound
// as VK_FORMAT_R32_UINT) through the GLSL the sinew package installs.
#extension GL_GOOGLE_include_directive : require

#include "vertex_formats.glsl"

layout(location = 0) in vec3 position;
layout(location = 1) in uint packed_normal;
layout(location = 0) out vec3 normal;

void main() {
  normal = DecodeOctahedralNormal(packed_normal);
  gl_Position = vec4(position, 1.0);
}
