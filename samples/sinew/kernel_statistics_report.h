// How `sinew bench --kernel-stats` shows what the driver says of each compiled kernel
// (vk::Context::QueryKernelStatistics): one line per kernel in the table, one object per kernel
// in the JSON.
#pragma once

#include <span>
#include <string>

#include "json_writer.h"
#include "sinew/vk/context.h"

namespace sinew::tool {

// A heading, then per kernel "  <kernel> [<executable>]: <name> <value>; ..." (values as %g).
std::string KernelStatisticsTable(std::span<const vk::KernelStatistics> kernels);

// An array of {"kernel", "executable", "statistics": {name: value, ...}}, values to six
// significant digits.
void WriteKernelStatistics(JsonWriter& json, std::span<const vk::KernelStatistics> kernels);

}  // namespace sinew::tool
