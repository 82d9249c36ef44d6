// Compact encodings of skinning's vertex streams: what the GPU reads instead of float32 where a
// SkinCache is asked to (SkinCacheOptions::formats), and what it may write instead of float32
// normals and tangents. The kernels (shaders/vertex_formats.glsl) decode and encode exactly as
// these functions do, so a test can decode the GPU's words on the host.
//
//  * Weights: float32, unorm16 (two per 32-bit word, low half first) or unorm8 (four per word,
//    lowest byte first). QuantizeWeights rounds each vertex's weights so that their quantized sum
//    is the rounded float sum: a vertex whose weights add up to 1 still does, exactly.
//  * Joint indices: 8, 16 or 32 bits each, packed the same way; the width is the smallest that
//    holds the mesh's palette (JointIndexBits), so it loses nothing and is never an option.
//  * Rest positions: float32, or unorm16 on the mesh's bounds (as KHR_mesh_quantization files
//    often store them): a grid origin and step per axis, then x, y, z of each vertex as 16-bit
//    integers, two to a word (p = origin + q · step).
//  * Morph deltas: float32, or IEEE half floats, two to a word, lowest first.
//  * Directions (normals, tangents): float32 (xyz, tangents xyzw), or one 32-bit word each:
//    - octahedral: the direction mapped onto the octahedron |x| + |y| + |z| = 1, its lower half
//      folded over the upper, (x, y) as snorm16 (normals); a tangent keeps 15 bits for y and puts
//      its handedness w < 0 in bit 31. Decoding renormalizes, so a zero vector comes back as +z.
//    - snorm10: x, y, z as 10-bit snorm in bits 0-9, 10-19, 20-29 and w as a 2-bit snorm in
//      bits 30-31 (VK_FORMAT_A2B10G10R10_SNORM_PACK32's layout, so a vertex shader can read it
//      with that format). Not renormalized; a zero vector stays zero.
#pragma once

#include <cstdint>
#include <span>

#include "sinew/core/math.h"

namespace sinew {

enum class WeightFormat : uint8_t { kFloat32, kUnorm16, kUnorm8 };
enum class DirectionFormat : uint8_t { kFloat32, kOctahedral, kSnorm10 };
enum class PositionFormat : uint8_t { kFloat32, kUnorm16 };
enum class MorphDeltaFormat : uint8_t { kFloat32, kHalf };
// How an instance's outputs lie: a stream each (positions, normals, tangents), or one interleaved
// stream of whole vertices (position, then normal, then tangent).
enum class OutputLayout : uint8_t { kSeparate, kInterleaved };

// How a SkinCache stores rest data and writes outputs. The default moves float32 everywhere and
// is exact (the GPU matches the CPU reference bit for bit on lavapipe); Compact() is what an
// engine that wants half the bytes asks for, within the error bounds docs/vertex_formats.md
// states and the tests check.
struct VertexFormats {
  WeightFormat weights = WeightFormat::kFloat32;
  DirectionFormat directions = DirectionFormat::kFloat32;         // rest normals and tangents
  DirectionFormat output_directions = DirectionFormat::kFloat32;  // skinned normals and tangents
  PositionFormat positions = PositionFormat::kFloat32;            // rest positions
  MorphDeltaFormat morph_deltas = MorphDeltaFormat::kFloat32;     // blend-shape offsets
  OutputLayout outputs = OutputLayout::kSeparate;                 // how the outputs lie

  // unorm16 weights, octahedral rest and output directions: 52 B per dense K = 4 vertex with
  // normals and tangents, against 100 B in float32 (both with 8-bit joint indices).
  static VertexFormats Compact() {
    return {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kOctahedral};
  }
  friend bool operator==(const VertexFormats&, const VertexFormats&) = default;
};

// Bytes of one weight (4, 2 or 1) and of one direction (normal: 12 or 4; tangent: 16 or 4).
// An interleaved output vertex is 12 + NormalBytes + TangentBytes of what the mesh has.
uint32_t WeightBytes(WeightFormat format);
uint32_t NormalBytes(DirectionFormat format);
uint32_t TangentBytes(DirectionFormat format);
// Bits of a joint index for a palette of `palette_size` entries: 8 up to 256, 16 up to 65,536,
// else 32.
uint32_t JointIndexBits(uint32_t palette_size);

// `weights` (groups of `per_vertex`, or any grouping the caller chooses: one call per vertex for
// sparse influences) as unorm16 or unorm8 integers into `out` (weights.size() values), each
// within one step of its weight (largest remainders): rounded down, then those that lost most
// rounded up until the group's integers add up to its sum rounded to nearest. A zero weight stays
// zero. `format` must not be kFloat32.
void QuantizeWeights(std::span<const float> weights, uint32_t per_vertex, WeightFormat format,
                     std::span<uint32_t> out);
// A quantized weight back as a float (q / 65535 or q / 255).
float DequantizeWeight(uint32_t q, WeightFormat format);

// The grid unorm16 positions are stored on: the bounds' minimum, and per axis the extent / 65535
// (0 for a flat axis, whose every vertex then sits at the origin's coordinate).
struct PositionGrid {
  Float3 origin;
  Float3 step;
};
PositionGrid PositionGridOf(std::span<const float> xyz);
// Words of `vertex_count` unorm16 positions: three 16-bit values per vertex, two to a word.
size_t QuantizedPositionWords(size_t vertex_count);
// `xyz` (three floats per vertex) on `grid`, each coordinate rounded to the nearest step, into
// `out` (QuantizedPositionWords(xyz.size() / 3) words, each written once and never read).
void QuantizePositions(std::span<const float> xyz, const PositionGrid& grid,
                       std::span<uint32_t> out);
// Vertex v of `words` back on the grid: origin + q · step.
Float3 DequantizePosition(std::span<const uint32_t> words, size_t v, const PositionGrid& grid);

// The largest magnitude a half float holds; a larger value would become infinite.
inline constexpr float kHalfMax = 65504.0f;
// An IEEE binary16 of `f`, rounded to nearest even (infinite beyond kHalfMax), and back exactly.
uint16_t FloatToHalf(float f);
float HalfToFloat(uint16_t h);

// A normal (xyz) or tangent (xyz, w its handedness) as one packed word; `format` must not be
// kFloat32.
uint32_t EncodeNormal(Float3 n, DirectionFormat format);
uint32_t EncodeTangent(Float4 t, DirectionFormat format);
Float3 DecodeNormal(uint32_t word, DirectionFormat format);
Float4 DecodeTangent(uint32_t word, DirectionFormat format);

}  // namespace sinew
