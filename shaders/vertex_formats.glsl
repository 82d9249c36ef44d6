// Decoding and encoding the compact vertex formats, exactly as runtime/src/core/vertex_formats.cpp
// does on the host (the layouts are described in runtime/include/sinew/core/vertex_formats.h).
// Which format a kernel reads and writes is a specialization constant (skinning_common.glsl).

// max(q / scale, -1) of the `bits`-bit two's complement field of `word` at `offset`.
float SnormField(uint word, int offset, int bits, float scale) {
  return max(float(bitfieldExtract(int(word), offset, bits)) / scale, -1.0);
}

// floor(v · scale + 0.5) of v clamped to [-1, 1], as `bits` bits at `offset`.
uint SnormBits(float v, float scale, int bits, int offset) {
  int q = int(floor(clamp(v, -1.0, 1.0) * scale + 0.5));
  return (uint(q) & ((1u << uint(bits)) - 1u)) << uint(offset);
}

vec4 DecodeSnorm10(uint word) {
  return vec4(SnormField(word, 0, 10, 511.0), SnormField(word, 10, 10, 511.0),
              SnormField(word, 20, 10, 511.0), SnormField(word, 30, 2, 1.0));
}

uint EncodeSnorm10(vec4 d) {
  float w = d.w > 0.0 ? 1.0 : (d.w < 0.0 ? -1.0 : 0.0);
  return SnormBits(d.x, 511.0, 10, 0) | SnormBits(d.y, 511.0, 10, 10) |
         SnormBits(d.z, 511.0, 10, 20) | SnormBits(w, 1.0, 2, 30);
}

float SignNotZero(float v) { return v < 0.0 ? -1.0 : 1.0; }

// Direction d's octahedral coordinates ((0, 0) for a zero vector).
vec2 OctahedralCoordinates(vec3 d) {
  float s = abs(d.x) + abs(d.y) + abs(d.z);
  if (s == 0.0) return vec2(0.0);
  vec2 p = d.xy / s;
  if (d.z < 0.0) {
    p = vec2((1.0 - abs(p.y)) * SignNotZero(p.x), (1.0 - abs(p.x)) * SignNotZero(p.y));
  }
  return p;
}

vec3 OctahedralDirection(vec2 p) {
  vec3 n = vec3(p, 1.0 - abs(p.x) - abs(p.y));
  float t = max(-n.z, 0.0);
  n.x += n.x >= 0.0 ? -t : t;
  n.y += n.y >= 0.0 ? -t : t;
  return n / length(n);
}

vec3 DecodeOctahedralNormal(uint word) {
  return OctahedralDirection(
      vec2(SnormField(word, 0, 16, 32767.0), SnormField(word, 16, 16, 32767.0)));
}

vec4 DecodeOctahedralTangent(uint word) {
  vec3 d = OctahedralDirection(
      vec2(SnormField(word, 0, 16, 32767.0), SnormField(word, 16, 15, 16383.0)));
  return vec4(d, (word & 0x80000000u) != 0u ? -1.0 : 1.0);
}

uint EncodeOctahedralNormal(vec3 n) {
  vec2 p = OctahedralCoordinates(n);
  return SnormBits(p.x, 32767.0, 16, 0) | SnormBits(p.y, 32767.0, 16, 16);
}

uint EncodeOctahedralTangent(vec4 t) {
  vec2 p = OctahedralCoordinates(t.xyz);
  return SnormBits(p.x, 32767.0, 16, 0) | SnormBits(p.y, 16383.0, 15, 16) |
         (t.w < 0.0 ? 0x80000000u : 0u);
}
