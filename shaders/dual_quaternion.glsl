// Dual-quaternion skinning, shared by skin_dense_dq.comp and skin_sparse_dq.comp; identical to the
// CPU reference (runtime/src/cpu/dual_quaternion_vertex.h, docs/semantics.md "Dual-quaternion
// skinning"). Include after skinning_common.glsl.
//
// A dual-quaternion instance's palette entry is eight vec4 (cpu::DualQuaternion, 128 bytes, made
// by cpu::DualQuaternionPaletteJob when the SkinCache records the frame): the rotation R (a unit
// quaternion, x y z w), the dual part D, the rows of the scale/shear K, the rows of K's
// inverse-transpose. Row 0 of K's w, in the palette's entry 0, is 1 when some entry's K is not the
// identity (cpu::HasScale) and 0 when none is: K is then skipped for every vertex.

// A vertex's blend of its entries, built in two passes over its influences: DqPivot for each (the
// heaviest influence's R, the first on ties, picks the hemisphere), DqLoadPivot, then DqAdd for
// each.
struct DqBlend {
  float pivot_weight;
  uint pivot_entry;
  vec4 pivot;
  vec4 real;
  vec4 dual;
  vec3 k0, k1, k2;  // Σ w · K, by rows
  vec3 n0, n1, n2;  // Σ w · K⁻ᵀ, by rows
  float weight_sum;
  bool has_scale;  // the palette's flag: without it the K sums are neither made nor read
};

// Call after SkinItem (it reads the instance's palette).
DqBlend DqBegin() {
  DqBlend b;
  b.has_scale = palette[inst.palette + 2u].w != 0.0;
  b.pivot_weight = 0.0;
  b.pivot_entry = 0u;
  b.pivot = vec4(0.0);
  b.real = vec4(0.0);
  b.dual = vec4(0.0);
  b.k0 = b.k1 = b.k2 = vec3(0.0);
  b.n0 = b.n1 = b.n2 = vec3(0.0);
  b.weight_sum = 0.0;
  return b;
}

void DqPivot(inout DqBlend b, uint entry, float w) {
  if (w > b.pivot_weight) {
    b.pivot_weight = w;
    b.pivot_entry = entry;
  }
}

// The pivot's rotation, once its influence is known (zero without a positive weight, as on the
// CPU: then no entry is flipped).
void DqLoadPivot(inout DqBlend b) {
  if (b.pivot_weight > 0.0) b.pivot = palette[inst.palette + b.pivot_entry * 8u];
}

void DqAdd(inout DqBlend b, uint entry, float w) {
  if (w == 0.0) return;
  uint at = inst.palette + entry * 8u;
  b.weight_sum += w;
  if (b.has_scale) {  // the same for the whole instance
    b.k0 += w * palette[at + 2u].xyz;
    b.k1 += w * palette[at + 3u].xyz;
    b.k2 += w * palette[at + 4u].xyz;
    b.n0 += w * palette[at + 5u].xyz;
    b.n1 += w * palette[at + 6u].xyz;
    b.n2 += w * palette[at + 7u].xyz;
  }
  vec4 real = palette[at];
  // Hemisphere: q and −q are one rotation; blend the one on the pivot's side.
  float s = dot(real, b.pivot) < 0.0 ? -w : w;
  b.real += s * real;
  b.dual += s * palette[at + 1u];
}

// v rotated by the unit quaternion q.
vec3 DqRotate(vec4 q, vec3 v) {
  vec3 c = cross(q.xyz, v);
  return v + 2.0 * cross(q.xyz, c + q.w * v);
}

// Normalizes the blend (the identity when its real part is shorter than 1e-10) and writes vertex
// x (vertex `v` of the instance): position R·(K p) + translation, normal R·(K⁻ᵀ n) and tangent
// R·(K t.xyz) normalized, w kept; K skipped when the palette has no scale. A vertex whose weights
// sum to 0 keeps its attributes.
void WriteDualQuaternionSkinned(uint v, Vertex x, DqBlend b) {
  if (b.weight_sum == 0.0) {
    WriteVertex(v, x.p, x.n, x.t);
    return;
  }
  vec4 r = b.real;
  vec4 d = b.dual;
  float len = sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
  if (len < 1e-10) {
    r = vec4(0.0, 0.0, 0.0, 1.0);
    d = vec4(0.0);
  } else {
    r /= len;
    d /= len;
    d -= dot(r, d) * r;  // keep D ⟂ R
  }
  // Translation 2·vec(D ⊗ conj(R)).
  vec3 translation = 2.0 * (r.w * d.xyz - d.w * r.xyz - cross(d.xyz, r.xyz));
  bool has_scale = b.has_scale;
  vec3 p = has_scale ? vec3(dot(b.k0, x.p), dot(b.k1, x.p), dot(b.k2, x.p)) : x.p;
  vec3 o = DqRotate(r, p) + translation;
  vec3 n = vec3(0.0);
  vec4 t = vec4(0.0);
  if (kNormals) {
    vec3 ns = has_scale ? vec3(dot(b.n0, x.n), dot(b.n1, x.n), dot(b.n2, x.n)) : x.n;
    n = NormalizeOrKeep(DqRotate(r, ns));
  }
  if (kTangents) {
    vec3 ts = x.t.xyz;
    if (has_scale) ts = vec3(dot(b.k0, x.t.xyz), dot(b.k1, x.t.xyz), dot(b.k2, x.t.xyz));
    t = vec4(NormalizeOrKeep(DqRotate(r, ts)), x.t.w);
  }
  WriteVertex(v, o, n, t);
}
