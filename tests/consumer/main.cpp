// Links sinew::runtime and sinew::loader from an installed package and skins one vertex.
#include <cstdio>
#include <vector>

#include "sinew/cpu/skin_dense_job.h"
#include "sinew/loader/file.h"
#include "sinew/vk/context.h"

int main() {
  const std::vector<float> positions = {1, 2, 3};
  const std::vector<uint16_t> joints = {0, 0, 0, 0};
  const std::vector<float> weights = {1, 0, 0, 0};
  sinew::Float3x4 palette;
  palette.row[0].w = 10;  // Translate x by 10.
  std::vector<float> out(3);
  sinew::cpu::SkinDenseJob job;
  job.positions = positions;
  job.joints = joints;
  job.weights = weights;
  job.palette = {&palette, 1};
  job.out_positions = out;
  if (!job.Run() || out[0] != 11.0f || out[1] != 2.0f || out[2] != 3.0f) {
    std::puts("consumer: skinning gave the wrong answer");
    return 1;
  }
  // The Vulkan and loader parts link too (no device is required for this check).
  const auto missing = sinew::loader::ReadFile("/nonexistent/sinew-consumer");
  if (missing.code() != sinew::Error::kFileNotFound) return 1;
  sinew::vk::AdoptInfo empty;
  if (sinew::vk::Context::Adopt(empty).code() != sinew::Error::kInvalidArgument) return 1;
  std::puts("consumer ok");
  return 0;
}
