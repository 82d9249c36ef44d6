// Decoding and encoding the compact vertex formats, exactly as runtime/src/core/vertex_formats.cpp
// does on the host (the layouts are described in runtime/include/sinew/core/vertex_formats.h).
// Which format a kernel reads and writes is a specialization constant (skinning_common.glsl).
// Installed for engines' own shaders (include/sinew/glsl): guarded, so it may be included more
// than once, and every name starts with "Sinew", so it does not collide with an engine's own.
#ifndef SINEW_VERTEX_FORMATS_GLSL
#define SINEW_VERTEX_FORMATS_GLSL

// max(q / scale, -1) of the `bits`-bit two's complement field of `word` at `offset`.
float SinewSnormField(uint word, int offset, int bits, float scale) {
  return max(float(bitfieldExtract(int(word), offset, bits)) / scale, -1.0);
}

// floor(v · scale + 0.5) of v clamped to [-1, 1], as `bits` bits at `offset`.
uint SinewSnormBits(float v, float scale, int bits, int offset) {
  int q = int(floor(clamp(v, -1.0, 1.0) * scale + 0.5));
  return (uint(q) & ((1u << uint(bits)) - 1u)) << uint(offset);
}

vec4 SinewDecodeSnorm10(uint word) {
  return vec4(SinewSnormField(word, 0, 10, 511.0), SinewSnormField(word, 10, 10, 511.0),
              SinewSnormField(word, 20, 10, 511.0), SinewSnormField(word, 30, 2, 1.0));
}

uint SinewEncodeSnorm10(vec4 d) {
  float w = d.w > 0.0 ? 1.0 : (d.w < 0.0 ? -1.0 : 0.0);
  return SinewSnormBits(d.x, 511.0, 10, 0) | SinewSnormBits(d.y, 511.0, 10, 10) |
         SinewSnormBits(d.z, 511.0, 10, 20) | SinewSnormBits(w, 1.0, 2, 30);
}

float SinewSignNotZero(float v) { return v < 0.0 ? -1.0 : 1.0; }

// Direction d's octahedral coordinates ((0, 0) for a zero vector).
vec2 SinewOctahedralCoordinates(vec3 d) {
  float s = abs(d.x) + abs(d.y) + abs(d.z);
  if (s == 0.0) return vec2(0.0);
  vec2 p = d.xy / s;
  if (d.z < 0.0) {
    p = vec2((1.0 - abs(p.y)) * SinewSignNotZero(p.x), (1.0 - abs(p.x)) * SinewSignNotZero(p.y));
  }
  return p;
}

vec3 SinewOctahedralDirection(vec2 p) {
  vec3 n = vec3(p, 1.0 - abs(p.x) - abs(p.y));
  float t = max(-n.z, 0.0);
  n.x += n.x >= 0.0 ? -t : t;
  n.y += n.y >= 0.0 ? -t : t;
  return n / length(n);
}

vec3 SinewDecodeOctahedralNormal(uint word) {
  return SinewOctahedralDirection(
      vec2(SinewSnormField(word, 0, 16, 32767.0), SinewSnormField(word, 16, 16, 32767.0)));
}

vec4 SinewDecodeOctahedralTangent(uint word) {
  vec3 d = SinewOctahedralDirection(
      vec2(SinewSnormField(word, 0, 16, 32767.0), SinewSnormField(word, 16, 15, 16383.0)));
  return vec4(d, (word & 0x80000000u) != 0u ? -1.0 : 1.0);
}

uint SinewEncodeOctahedralNormal(vec3 n) {
  vec2 p = SinewOctahedralCoordinates(n);
  return SinewSnormBits(p.x, 32767.0, 16, 0) | SinewSnormBits(p.y, 32767.0, 16, 16);
}

uint SinewEncodeOctahedralTangent(vec4 t) {
  vec2 p = SinewOctahedralCoordinates(t.xyz);
  return SinewSnormBits(p.x, 32767.0, 16, 0) | SinewSnormBits(p.y, 16383.0, 15, 16) |
         (t.w < 0.0 ? 0x80000000u : 0u);
}

#endif  // SINEW_VERTEX_FORMATS_GLSL
