// The `sinew` tool's subcommands. Each takes the arguments after its name and returns an exit code.
#pragma once

#include <span>
#include <string_view>

namespace sinew::tool {

int BakeCommand(std::span<const std::string_view> args);
int BenchCommand(std::span<const std::string_view> args);
int ConvertCommand(std::span<const std::string_view> args);
int InfoCommand(std::span<const std::string_view> args);
// `sinew bench --loader [FILES]` (FILES empty: the shared assets and a synthetic crowd).
int LoaderBench(std::span<const std::string_view> files, bool json);

}  // namespace sinew::tool
