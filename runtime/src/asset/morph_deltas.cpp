#include "sinew/asset/morph_deltas.h"

#include <algorithm>

namespace sinew {

namespace {

bool Moves(const std::vector<float>& stream, size_t v) {
  return !stream.empty() &&
         (stream[v * 3] != 0.0f || stream[v * 3 + 1] != 0.0f || stream[v * 3 + 2] != 0.0f);
}

void AppendXyz(const std::vector<float>& stream, size_t v, std::vector<float>* out) {
  if (stream.empty()) {
    out->insert(out->end(), 3, 0.0f);
  } else {
    out->insert(out->end(), stream.begin() + ptrdiff_t(v * 3),
                stream.begin() + ptrdiff_t(v * 3 + 3));
  }
}

}  // namespace

MorphDeltas PackMorphTargets(size_t vertex_count, std::span<const MorphTarget> targets) {
  MorphDeltas out;
  out.target_count = uint32_t(targets.size());
  for (const MorphTarget& t : targets) {
    out.normals |= !t.normals.empty();
    out.tangents |= !t.tangents.empty();
  }
  const size_t groups = (vertex_count + kMorphGroupSize - 1) / kMorphGroupSize;
  out.group_offsets.reserve(groups + 1);
  out.group_offsets.push_back(0);
  out.block_index.assign(groups * targets.size(), kNoMorphBlock);
  for (size_t g = 0; g < groups; ++g) {
    const size_t first = g * kMorphGroupSize;
    const size_t last = std::min(vertex_count, first + kMorphGroupSize);
    for (uint32_t t = 0; t < targets.size(); ++t) {
      const MorphTarget& m = targets[t];
      uint32_t mask[2] = {0, 0};
      const uint32_t delta = uint32_t(out.deltas.size() / out.stride());
      for (size_t v = first; v < last; ++v) {
        if (!Moves(m.positions, v) && !Moves(m.normals, v) && !Moves(m.tangents, v)) continue;
        const uint32_t bit = uint32_t(v - first);
        mask[bit / 32] |= 1u << (bit % 32);
        AppendXyz(m.positions, v, &out.deltas);
        if (out.normals) AppendXyz(m.normals, v, &out.deltas);
        if (out.tangents) AppendXyz(m.tangents, v, &out.deltas);
      }
      if (mask[0] == 0 && mask[1] == 0) continue;
      out.block_index[g * targets.size() + t] = uint32_t(out.blocks.size() / 4);
      out.blocks.insert(out.blocks.end(), {t, mask[0], mask[1], delta});
    }
    out.group_offsets.push_back(uint32_t(out.blocks.size() / 4));
  }
  return out;
}

}  // namespace sinew
