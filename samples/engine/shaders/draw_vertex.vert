#version 450
#extension GL_GOOGLE_include_directive : require
// The engine sample's vertex stage: a deformed vertex straight from a sinew::vk::SkinCache output
// buffer (positions, normals and previous positions, in scene space) through the camera.

// sinew's decoders of its packed formats (shaders/vertex_formats.glsl).
#include "vertex_formats.glsl"

// Normals as sinew's octahedral words (DirectionFormat::kOctahedral) instead of xyz floats. Either
// way they arrive as raw 32-bit words (R32G32B32_UINT or R32_UINT).
layout(constant_id = 0) const bool kOctahedralNormals = false;

layout(location = 0) in vec3 position;
layout(location = 1) in uvec3 normal_bits;
layout(location = 2) in vec3 previous_position;  // last frame's (motion vectors)

layout(push_constant) uniform DrawConstants {
  mat4 view_projection;  // scene space to clip space (Vulkan: y down, depth 0..1)
  vec4 color;            // the material's base colour, linear RGBA; motion vectors: x the scale
  vec4 light;  // xyz: unit direction towards the light, scene space; w: the shading (draw_pass.h)
} pc;

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec3 out_position;
layout(location = 2) out vec4 out_clip;           // this frame's clip position
layout(location = 3) out vec4 out_previous_clip;  // last frame's, through the same camera

void main() {
  gl_Position = pc.view_projection * vec4(position, 1.0);
  gl_PointSize = 1.0;
  if (kOctahedralNormals) {
    out_normal = SinewDecodeOctahedralNormal(normal_bits.x);
  } else {
    out_normal = uintBitsToFloat(normal_bits);
  }
  out_position = position;
  out_clip = gl_Position;
  out_previous_clip = pc.view_projection * vec4(previous_position, 1.0);
}
