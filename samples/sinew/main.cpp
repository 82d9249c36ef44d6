// sinew — command-line tool: `sinew bake`, `bench`, `convert`, `info` and `render` (see README.md).
#include <cstdio>
#include <cstdlib>
#include <new>
#include <span>
#include <string_view>
#include <vector>

#include "commands.h"

namespace {

void PrintUsage(std::FILE* to) {
  std::fputs(
      "usage: sinew <command> [options]\n"
      "\n"
      "commands:\n"
      "  bake     write the deformed meshes of a file at a time of a clip (or a bind pose), in\n"
      "           scene space, on the CPU or the GPU (sinew bake --help)\n"
      "  bench    deform a procedural crowd on the CPU reference and the GPU; report throughput\n"
      "           and GPU-vs-CPU error (sinew bench --help)\n"
      "  convert  write a file's skinned characters as 3D G4MF (.g4tf or .g4b) or UsdSkel\n"
      "           (.usda, .usdc or .usdz) (sinew convert --help)\n"
      "  info     validate and describe a glTF (.gltf, .glb), G4MF (.g4tf, .g4b) or USD (.usda,\n"
      "           .usdc, .usdz) file; exit 0 valid, 1 invalid (sinew info --help)\n"
      "  render   draw the deformed meshes of a file, deformed and drawn on the GPU, as a PNG\n"
      "           (sinew render --help)\n"
      "\n"
      "sinew help COMMAND is sinew COMMAND --help; sinew --version prints the version\n",
      to);
}

}  // namespace

namespace sinew::tool {

vk::ContextOptions ToolContextOptions(const std::string& device) {
  vk::ContextOptions options;
  options.device = device;
  if (options.device.empty()) {
    if (const char* env = std::getenv("SINEW_DEVICE")) options.device = env;
  }
  return options;
}

}  // namespace sinew::tool

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    PrintUsage(args.empty() ? stderr : stdout);  // asked for: on stdout
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::printf("sinew %s\n", SINEW_VERSION);
    return 0;
  }
  // `sinew help COMMAND` is `sinew COMMAND --help`.
  if (args[0] == "help") {
    if (args.size() == 1) {
      PrintUsage(stdout);
      return 0;
    }
    args = {args[1], "--help"};
  }
  const std::string_view command = args[0];
  const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
  using Command = int (*)(std::span<const std::string_view>);
  Command run = nullptr;
  if (command == "bake") run = sinew::tool::BakeCommand;
  if (command == "bench") run = sinew::tool::BenchCommand;
  if (command == "convert") run = sinew::tool::ConvertCommand;
  if (command == "info") run = sinew::tool::InfoCommand;
  if (command == "render") run = sinew::tool::RenderCommand;
  if (run == nullptr) {
    std::fprintf(stderr, "sinew: unknown command '%.*s'\n", static_cast<int>(command.size()),
                 command.data());
    PrintUsage(stderr);
    return 2;
  }
  // The libraries report their errors as values; what is left is the memory a request needs (a
  // bench of 4 billion vertices, say): a failure of the work, said, not an abort.
  try {
    return run(rest);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "sinew %.*s: out of memory: the request needs more than this machine has\n",
                 static_cast<int>(command.size()), command.data());
    return 1;
  }
}
