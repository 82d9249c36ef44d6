#version 450
// The engine sample's fragment stage: the base colour under one directional light and an ambient
// term, lit from either side (a normal's sign does not matter), opaque. The normal is the skinned
// vertex normal (light.w 1), the face's own from the screen-space derivatives of the deformed
// position (light.w 2: a mesh without normals), or none (light.w 0: lines and points, unlit).

layout(push_constant) uniform DrawConstants {
  mat4 view_projection;
  vec4 color;
  vec4 light;
} pc;

layout(location = 0) in vec3 normal;
layout(location = 1) in vec3 position;
layout(location = 0) out vec4 out_color;

void main() {
  float shade = 1.0;
  if (pc.light.w != 0.0) {
    vec3 n = pc.light.w == 1.0 ? normal : cross(dFdx(position), dFdy(position));
    float len = length(n);
    float lambert = len > 0.0 ? abs(dot(n / len, pc.light.xyz)) : 1.0;
    shade = 0.3 + 0.7 * lambert;
  }
  out_color = vec4(pc.color.rgb * shade, 1.0);
}
