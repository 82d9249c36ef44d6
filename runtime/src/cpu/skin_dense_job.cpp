#include "sinew/cpu/skin_dense_job.h"

#include <string>

#include "sinew/asset/skinned_mesh.h"

namespace sinew::cpu {
namespace {

Status CheckOutput(const char* name, size_t got, size_t expected) {
  if (got == expected) return {};
  return {Error::kSizeMismatch,
          std::string(name) + " has " + std::to_string(got) + " floats, expected " +
              std::to_string(expected),
          name};
}

}  // namespace

Status SkinDenseJob::Validate() const {
  if (positions.size() % 3 != 0) {
    return {Error::kSizeMismatch,
            "positions has " + std::to_string(positions.size()) + " floats, not whole triples",
            "positions"};
  }
  const size_t v = positions.size() / 3;
  if (!normals.empty()) {
    if (Status s = CheckOutput("normals", normals.size(), v * 3); !s) return s;
  }
  if (!tangents.empty()) {
    if (Status s = CheckOutput("tangents", tangents.size(), v * 4); !s) return s;
  }
  if (Status s = CheckOutput("out_positions", out_positions.size(), v * 3); !s) return s;
  if (Status s = CheckOutput("out_normals", out_normals.size(), normals.size()); !s) return s;
  if (Status s = CheckOutput("out_tangents", out_tangents.size(), tangents.size()); !s) return s;
  return ValidateDenseInfluences(v, influences_per_vertex, joints, weights, palette.size());
}

Status SkinDenseJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const size_t vertex_count = positions.size() / 3;
  const uint32_t k_count = influences_per_vertex;
  for (size_t v = 0; v < vertex_count; ++v) {
    // Blend the matrices first, then transform once (as the GPU kernel does).
    float m[3][4] = {};
    float weight_sum = 0.0f;
    for (uint32_t k = 0; k < k_count; ++k) {
      const float w = weights[v * k_count + k];
      if (w == 0.0f) continue;
      weight_sum += w;
      const Float3x4& p = palette[joints[v * k_count + k]];
      for (int r = 0; r < 3; ++r) {
        m[r][0] += w * p.row[r].x;
        m[r][1] += w * p.row[r].y;
        m[r][2] += w * p.row[r].z;
        m[r][3] += w * p.row[r].w;
      }
    }
    if (weight_sum == 0.0f) {  // No influence: the vertex keeps its rest attributes.
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) m[r][c] = r == c ? 1.0f : 0.0f;
    }

    const float* p = &positions[v * 3];
    for (int r = 0; r < 3; ++r) {
      out_positions[v * 3 + r] = m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3];
    }

    if (!normals.empty()) {
      // Cofactor of the 3x3 part, times sign(det): the inverse-transpose up to a positive scale.
      const float c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
      const float c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
      const float c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
      const float c10 = m[0][2] * m[2][1] - m[0][1] * m[2][2];
      const float c11 = m[0][0] * m[2][2] - m[0][2] * m[2][0];
      const float c12 = m[0][1] * m[2][0] - m[0][0] * m[2][1];
      const float c20 = m[0][1] * m[1][2] - m[0][2] * m[1][1];
      const float c21 = m[0][2] * m[1][0] - m[0][0] * m[1][2];
      const float c22 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
      const float det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
      const float sign = det < 0.0f ? -1.0f : 1.0f;
      const float* n = &normals[v * 3];
      const Float3 out = NormalizeOrKeep({sign * (c00 * n[0] + c01 * n[1] + c02 * n[2]),
                                          sign * (c10 * n[0] + c11 * n[1] + c12 * n[2]),
                                          sign * (c20 * n[0] + c21 * n[1] + c22 * n[2])});
      out_normals[v * 3 + 0] = out.x;
      out_normals[v * 3 + 1] = out.y;
      out_normals[v * 3 + 2] = out.z;
    }

    if (!tangents.empty()) {
      const float* t = &tangents[v * 4];
      const Float3 out = NormalizeOrKeep({m[0][0] * t[0] + m[0][1] * t[1] + m[0][2] * t[2],
                                          m[1][0] * t[0] + m[1][1] * t[1] + m[1][2] * t[2],
                                          m[2][0] * t[0] + m[2][1] * t[1] + m[2][2] * t[2]});
      out_tangents[v * 4 + 0] = out.x;
      out_tangents[v * 4 + 1] = out.y;
      out_tangents[v * 4 + 2] = out.z;
      out_tangents[v * 4 + 3] = t[3];
    }
  }
  return {};
}

SkinDenseJob SkinDenseJobFor(const SkinnedMesh& mesh, std::span<const Float3x4> palette) {
  SkinDenseJob job;
  job.influences_per_vertex = mesh.influences.influences_per_vertex;
  job.positions = mesh.positions;
  job.normals = mesh.normals;
  job.tangents = mesh.tangents;
  job.joints = mesh.influences.joints;
  job.weights = mesh.influences.weights;
  job.palette = palette;
  return job;
}

}  // namespace sinew::cpu
