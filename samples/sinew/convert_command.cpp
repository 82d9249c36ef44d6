// `sinew convert IN OUT`: writes a loaded asset's mesh instances (skinned characters and unskinned
// meshes) as 3D G4MF (.g4tf, or .g4b with --zstd optional), the way sinew makes G4MF test data
// from glTF (loader/g4mf_writer.h); warns about what it leaves out (uninstantiated meshes,
// animations).
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "commands.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/load_asset.h"

namespace sinew::tool {

int ConvertCommand(std::span<const std::string_view> args) {
  std::string in, out;
  loader::G4mfWriteOptions options;
  for (std::string_view a : args) {
    if (a == "--zstd") {
      options.zstd = true;
    } else if (a == "--help" || a == "-h") {
      in.clear();
      break;
    } else if (in.empty()) {
      in = a;
    } else if (out.empty()) {
      out = a;
    } else {
      in.clear();
      break;
    }
  }
  if (in.empty() || out.empty()) {
    std::fputs(
        "usage: sinew convert IN OUT.g4tf|OUT.g4b [--zstd]\n"
        "  writes IN's mesh instances as a 3D G4MF file (skinned ones with their bones in\n"
        "  the bind pose and sparse influences, unskinned ones under their joint; blend\n"
        "  shapes); --zstd encodes a .g4b's data chunk\n",
        stderr);
    return 2;
  }
  options.binary = out.size() >= 4 && out.compare(out.size() - 4, 4, ".g4b") == 0;
  if (options.zstd && !options.binary) {
    std::fputs("sinew convert: --zstd needs a .g4b output\n", stderr);
    return 2;
  }
  auto loaded = loader::LoadAsset(in);
  if (!loaded) {
    std::fprintf(stderr, "sinew convert: %s: %s\n", in.c_str(), loaded.error().ToString().c_str());
    return 1;
  }
  loader::G4mfWriteReport report;
  auto bytes = loader::WriteG4mf(loaded->loaded.asset, options, &report);
  if (!bytes) {
    std::fprintf(stderr, "sinew convert: %s\n", bytes.error().ToString().c_str());
    return 1;
  }
  std::ofstream file(out, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes->data()), std::streamsize(bytes->size()));
  if (!file) {
    std::fprintf(stderr, "sinew convert: cannot write %s\n", out.c_str());
    return 1;
  }
  for (const std::string& mesh : report.meshes_left_out) {
    std::fprintf(stderr, "sinew convert: warning: mesh '%s' left out (no node instantiates it)\n",
                 mesh.c_str());
  }
  if (!report.animations_left_out.empty()) {
    std::string names;
    for (const std::string& animation : report.animations_left_out) {
      names += (names.empty() ? "'" : ", '") + animation + "'";
    }
    std::fprintf(stderr, "sinew convert: warning: %zu animation(s) left out (G4MF has none): %s\n",
                 report.animations_left_out.size(), names.c_str());
  }
  std::printf("%s -> %s (%zu bytes)\n", in.c_str(), out.c_str(), bytes->size());
  return 0;
}

}  // namespace sinew::tool
