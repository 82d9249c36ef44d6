#version 450
// An engine's vertex stage reading a SkinCache's octahedral output normals (one word each, bound
// as VK_FORMAT_R32_UINT) through the GLSL the sinew package installs.
#extension GL_GOOGLE_include_directive : require

#include "vertex_formats.glsl"
// Included again, as an engine's headers may each include it: the file guards itself.
#include "vertex_formats.glsl"

// A name of the engine's own that a helper without sinew's prefix would have collided with.
float SignNotZero(float v) { return v < 0.0 ? -1.0 : 1.0; }

layout(location = 0) in vec3 position;
layout(location = 1) in uint packed_normal;
layout(location = 0) out vec3 normal;

void main() {
  normal = SinewDecodeOctahedralNormal(packed_normal) * SignNotZero(1.0);
  gl_Position = vec4(position, 1.0);
}
