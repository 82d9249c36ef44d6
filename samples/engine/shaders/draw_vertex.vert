#version 450
// The engine sample's vertex stage: a deformed vertex straight from a sinew::vk::SkinCache output
// buffer (positions and normals in scene space) through the camera.

layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

layout(push_constant) uniform DrawConstants {
  mat4 view_projection;  // scene space to clip space (Vulkan: y down, depth 0..1)
  vec4 color;            // the material's base colour, linear RGBA
  vec4 light;  // xyz: unit direction towards the light, scene space; w: the shading (draw_pass.h)
} pc;

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec3 out_position;

void main() {
  gl_Position = pc.view_projection * vec4(position, 1.0);
  gl_PointSize = 1.0;
  out_normal = normal;
  out_position = position;
}
