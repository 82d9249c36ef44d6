#version 450
// The engine sample's fragment stage. Shading (light.w):
// 1: the base colour under one directional light and an ambient term, lit from either side (a
//    normal's sign does not matter) by the skinned vertex normal;
// 2: the same by the face's own normal, from the screen-space derivatives of the deformed
//    position (a mesh without normals);
// 0: the base colour, unlit (lines and points);
// 3: motion vectors: the screen-space motion since the previous positions, in pixels of a
//    color.y x color.z picture, stored as red = 128/255 + motion.x · color.x, green = 128/255 +
//    motion.y · color.x, blue = 128/255 (clamped; the values land in the picture's bytes as
//    they are, the sRGB encoding of the colour target undone here). Zero is the byte 128 itself:
//    0.5 is 127.5 bytes, which the round trip through sRGB rounded either way.

layout(push_constant) uniform DrawConstants {
  mat4 view_projection;
  vec4 color;
  vec4 light;
} pc;

layout(location = 0) in vec3 normal;
layout(location = 1) in vec3 position;
layout(location = 2) in vec4 clip;
layout(location = 3) in vec4 previous_clip;
layout(location = 0) out vec4 out_color;

// What the sRGB colour target encodes back to `c`.
vec3 SrgbToLinear(vec3 c) {
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), greaterThan(c, vec3(0.04045)));
}

void main() {
  if (pc.light.w == 3.0) {
    vec2 now = clip.xy / clip.w, before = previous_clip.xy / previous_clip.w;
    vec2 motion = (now - before) * 0.5 * pc.color.yz;
    const float zero = 128.0 / 255.0;
    vec3 encoded = clamp(vec3(zero + motion * pc.color.x, zero), 0.0, 1.0);
    out_color = vec4(SrgbToLinear(encoded), 1.0);
    return;
  }
  float shade = 1.0;
  if (pc.light.w != 0.0) {
    vec3 n = pc.light.w == 1.0 ? normal : cross(dFdx(position), dFdy(position));
    float len = length(n);
    float lambert = len > 0.0 ? abs(dot(n / len, pc.light.xyz)) : 1.0;
    shade = 0.3 + 0.7 * lambert;
  }
  out_color = vec4(pc.color.rgb * shade, 1.0);
}
