// `sinew bench --kernel-stats`'s listing (samples/sinew/kernel_statistics_report.h), on statistics
// made up here: lavapipe, which CI runs on, reports none, so the tool's own test of the flag
// (sinew_cli_test.cpp) sees only the "none" branch there.
#include "kernel_statistics_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool/tool_run.h"

namespace sinew::tool {
namespace {

using testing::JsonDocument;

std::vector<vk::KernelStatistics> TwoKernels() {
  return {{"sinew skin_dense K=4 normals tangents joints8 workgroup 64",
           "Compute Shader",
           {{"Register Count", "registers per thread", 40}, {"Binary Size", "bytes", 12345.678}}},
          {"sinew skin_sparse workgroup 64", "Compute Shader", {}}};
}

TEST(KernelStatisticsReport, ListsEachKernelOnALineWithItsStatistics) {
  EXPECT_EQ(KernelStatisticsTable(TwoKernels()),
            "kernels as the driver compiled them (VK_KHR_pipeline_executable_properties):\n"
            "  sinew skin_dense K=4 normals tangents joints8 workgroup 64 [Compute Shader]: "
            "Register Count 40; Binary Size 12345.7;\n"
            "  sinew skin_sparse workgroup 64 [Compute Shader]:\n");
}

TEST(KernelStatisticsReport, WritesAnArrayOfKernelsWithTheirStatisticsByName) {
  std::string out;
  JsonWriter json(&out);
  WriteKernelStatistics(json, TwoKernels());
  ASSERT_TRUE(json.Done());
  const JsonDocument doc(out);
  const auto kernels = doc.root().Elements();
  ASSERT_EQ(kernels.size(), 2u) << out;
  EXPECT_EQ(kernels[0]["kernel"].String(),
            "sinew skin_dense K=4 normals tangents joints8 workgroup 64");
  EXPECT_EQ(kernels[0]["executable"].String(), "Compute Shader");
  EXPECT_EQ(kernels[0]["statistics"]["Register Count"].Number(), 40);
  EXPECT_EQ(kernels[0]["statistics"]["Binary Size"].Number(), 12345.7) << "six digits";
  EXPECT_EQ(kernels[1]["kernel"].String(), "sinew skin_sparse workgroup 64");
  EXPECT_EQ(kernels[1]["statistics"].size(), 0u) << out;
}

TEST(KernelStatisticsReport, AnEmptyListIsAHeadingAndAnEmptyArray) {
  EXPECT_EQ(KernelStatisticsTable({}),
            "kernels as the driver compiled them (VK_KHR_pipeline_executable_properties):\n");
  std::string out;
  JsonWriter json(&out);
  WriteKernelStatistics(json, {});
  EXPECT_TRUE(json.Done());
  EXPECT_EQ(out, "[]\n");
}

}  // namespace
}  // namespace sinew::tool
