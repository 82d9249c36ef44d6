// The `sinew` tool's subcommands. Each takes the arguments after its name and returns an exit code.
#pragma once

#include <span>
#include <string_view>

namespace sinew::tool {

int BenchCommand(std::span<const std::string_view> args);
int InfoCommand(std::span<const std::string_view> args);

}  // namespace sinew::tool
