#version 450
// The engine sample's vertex stage: a deformed vertex straight from a sinew::vk::SkinCache output
// buffer (positions, normals and previous positions, in scene space) through the camera.

// Normals as sinew's octahedral words (DirectionFormat::kOctahedral), read as R16G16_SNORM: the
// folded coordinates in normal.xy, unfolded here as sinew's shaders/vertex_formats.glsl does.
layout(constant_id = 0) const bool kOctahedralNormals = false;

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
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
    vec3 n = vec3(normal.xy, 1.0 - abs(normal.x) - abs(normal.y));
    float t = max(-n.z, 0.0);
    n.x += n.x >= 0.0 ? -t : t;
    n.y += n.y >= 0.0 ? -t : t;
    out_normal = normalize(n);
  } else {
    out_normal = normal;
  }
  out_position = position;
  out_clip = gl_Position;
  out_previous_clip = pc.view_projection * vec4(previous_position, 1.0);
}
