#include "kernel_statistics_report.h"

#include <cstdio>

namespace sinew::tool {

std::string KernelStatisticsTable(std::span<const vk::KernelStatistics> kernels) {
  std::string out =
      "kernels as the driver compiled them (VK_KHR_pipeline_executable_properties):\n";
  for (const vk::KernelStatistics& k : kernels) {
    out += "  " + k.kernel + " [" + k.executable + "]:";
    for (const vk::KernelStatistic& s : k.statistics) {
      char value[32];
      std::snprintf(value, sizeof value, "%g", s.value);
      out += " " + s.name + " " + value + ";";
    }
    out += "\n";
  }
  return out;
}

void WriteKernelStatistics(JsonWriter& json, std::span<const vk::KernelStatistics> kernels) {
  json.BeginArray();
  for (const vk::KernelStatistics& k : kernels) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("kernel").String(k.kernel);
    json.Key("executable").String(k.executable);
    json.Key("statistics").BeginObject(JsonWriter::kInline);
    for (const vk::KernelStatistic& s : k.statistics) {
      json.Key(s.name).Number(s.value, JsonWriter::Significant(6));
    }
    json.EndObject();
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace sinew::tool
