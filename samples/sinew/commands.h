// The `sinew` tool's subcommands. Each takes the arguments after its name and returns an exit code.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "sinew/vk/context.h"

namespace sinew::tool {

// Context options for the tool's GPU work: `device` (a --device flag's index or name substring)
// when not empty, else the SINEW_DEVICE environment variable, else automatic. The library reads
// no environment variable; the tool maps this one onto ContextOptions::device.
vk::ContextOptions ToolContextOptions(const std::string& device = {});

// Whether the arguments ask for a command's usage (--help or -h among them), which then goes to
// stdout with exit code 0; a malformed command line gets it on stderr with exit code 2.
inline bool AsksForHelp(std::span<const std::string_view> args) {
  for (std::string_view a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

// Says on stderr that `command` has no option `option`.
inline void UnknownOption(const char* command, std::string_view option) {
  std::fprintf(stderr, "sinew %s: unknown option '%.*s'\n", command, int(option.size()),
               option.data());
}

int BakeCommand(std::span<const std::string_view> args);
int BenchCommand(std::span<const std::string_view> args);
int ConvertCommand(std::span<const std::string_view> args);
int InfoCommand(std::span<const std::string_view> args);
// `sinew render FILE --out PICTURE.png [options]` (render_command.cpp).
int RenderCommand(std::span<const std::string_view> args);
// `sinew bench --crowd N[,N...] [options]`: a mixed crowd in one SkinCache (crowd_bench.cpp).
int CrowdBench(std::span<const std::string_view> args);
// Its usage, on stdout (BenchCommand prints it for --help).
void PrintCrowdHelp();
// `sinew bench --pose FILE... [--characters N] [--json]`: CrowdPoseJob against the per-character
// jobs.
int PoseBench(std::span<const std::string_view> args);
// `sinew bench --loader [FILES]` (FILES empty: the shared assets and a synthetic crowd).
int LoaderBench(std::span<const std::string_view> files, bool json);
// `sinew bench --usda [--json] [--mb N] [FILES]` (FILES empty: a synthetic stage of about N MB).
int UsdaBench(std::span<const std::string_view> args);

}  // namespace sinew::tool
