// `sinew convert IN OUT [--zstd] [--anim NAME|INDEX] [--json]`: writes a loaded asset's mesh
// instances (skinned characters and unskinned meshes) as 3D G4MF (.g4tf, or .g4b with --zstd
// optional), the way sinew makes G4MF test data from glTF (loader/g4mf_writer.h), or its skinned
// characters with one clip as a UsdSkel .usda layer (loader/usda_writer.h); warns on stderr about
// what it leaves out. With --json, what was written and left out goes to stdout as one object.
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bake.h"
#include "commands.h"
#include "counted.h"
#include "json_writer.h"
#include "load_arguments.h"
#include "output_file.h"
#include "output_paths.h"
#include "pose_arguments.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/load_asset.h"
#include "sinew/loader/usda_writer.h"

namespace sinew::tool {
namespace {

struct ConvertOptions {
  std::string in, out;
  loader::G4mfWriteOptions write;
  std::string usd;  // OUT's USD extension (".usda", ".usdc", ".usdz"); empty for G4MF
  loader::UsdaWriteOptions usda_write;
  std::string anim;  // --anim: the clip written to USD, by index or name; none given: the first
  bool json = false;
  loader::AssetOptions load;  // --usd-variant, --usd-fallback
};

void Usage(std::FILE* to) {
  std::fputs(
      "usage: sinew convert IN OUT.g4tf|OUT.g4b|OUT.usda|OUT.usdc|OUT.usdz [--zstd]\n"
      "                     [--anim NAME|INDEX] [--json] [--usd-variant /PRIM{SET=VARIANT}]...\n"
      "                     [--usd-fallback SET=VARIANT,...]...\n"
      "  writes IN's mesh instances as a 3D G4MF file (skinned ones with their bones in\n"
      "  the bind pose and sparse influences, unskinned ones under their joint; blend\n"
      "  shapes), or its skinned characters as a UsdSkel layer (skeletons, the clip --anim\n"
      "  names (default 0) as SkelAnimations, meshes with blend shapes): .usda text, a .usdc\n"
      "  crate file (0.8.0) or a .usdz package of one; --zstd encodes a .g4b's data\n"
      "  chunk; --json reports on stdout as JSON; --usd-variant chooses a USD prim's variant\n"
      "  over the stage's selection, --usd-fallback the variant of a set nothing selects in\n",
      to);
}

// Returns 0 on success, else the exit code (2: usage, after a message).
int ParseConvertArgs(std::span<const std::string_view> args, ConvertOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const Parsed parsed = ParseLoadArgument("convert", args, &i, &o->load);
    if (parsed == Parsed::kBad) return 2;
    if (parsed == Parsed::kTaken) continue;
    if (a == "--anim" && i + 1 == args.size()) {
      std::fputs("sinew convert: --anim needs a value\n", stderr);
      return 2;
    } else if (a == "--anim") {
      o->anim = args[++i];
      if (o->anim.empty()) {  // an unnamed clip is taken by its index
        std::fputs("sinew convert: --anim needs a clip's name or index\n", stderr);
        return 2;
      }
    } else if (a == "--zstd") {
      o->write.zstd = true;
    } else if (a == "--json") {
      o->json = true;
    } else if (a.starts_with("--")) {
      UnknownOption("convert", a);
      return 2;
    } else if (o->in.empty()) {
      o->in = a;
    } else if (o->out.empty()) {
      o->out = a;
    } else {
      std::fprintf(stderr, "sinew convert: unexpected argument '%.*s' (one IN and one OUT)\n",
                   int(a.size()), a.data());
      Usage(stderr);
      return 2;
    }
  }
  if (o->in.empty() || o->out.empty()) {
    std::fputs(o->in.empty() ? "sinew convert: no IN file\n" : "sinew convert: no OUT file\n",
               stderr);
    Usage(stderr);
    return 2;
  }
  o->write.binary = HasExtension(o->out, ".g4b");
  for (const char* extension : {".usda", ".usdc", ".usdz"}) {
    if (HasExtension(o->out, extension)) o->usd = extension;
  }
  if (!CanWriteOutput("convert", o->in, o->out)) return 2;
  if (!o->write.binary && o->usd.empty() && !HasExtension(o->out, ".g4tf")) {
    std::fprintf(stderr,
                 "sinew convert: %s: the output's extension says what to write: .g4tf, .g4b, "
                 ".usda, .usdc or .usdz\n",
                 o->out.c_str());
    return 2;
  }
  if (o->write.zstd && !o->write.binary) {
    std::fputs("sinew convert: --zstd needs a .g4b output\n", stderr);
    return 2;
  }
  return 0;
}

// What G4MF could not hold, as warnings on stderr.
void WarnLeftOut(const loader::G4mfWriteReport& report) {
  for (const std::string& mesh : report.meshes_left_out) {
    std::fprintf(stderr, "sinew convert: warning: mesh '%s' left out (no node instantiates it)\n",
                 mesh.c_str());
  }
  if (!report.animations_left_out.empty()) {
    std::string names;
    for (const std::string& animation : report.animations_left_out) {
      names += (names.empty() ? "'" : ", '") + animation + "'";
    }
    std::fprintf(stderr, "sinew convert: warning: %s left out (G4MF has none): %s\n",
                 Counted(report.animations_left_out.size(), "animation").c_str(), names.c_str());
  }
}

// `sinew convert --json`: the files, the bytes written and what was left out (G4MF: meshes and
// animations, and under left_out its writer's sentences, as a .usda's).
void PrintConvertJson(const ConvertOptions& o, size_t bytes, const loader::G4mfWriteReport& report,
                      const std::vector<std::string>& left_out) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("input").String(o.in);
  json.Key("output").String(o.out);
  json.Key("binary").Bool(o.write.binary || o.usd == ".usdc" || o.usd == ".usdz");
  json.Key("zstd").Bool(o.write.zstd);
  json.Key("bytes").Int(int64_t(bytes));
  json.Key("meshes_left_out").BeginArray(JsonWriter::kInline);
  for (const std::string& mesh : report.meshes_left_out) json.String(mesh);
  json.EndArray();
  json.Key("animations_left_out").BeginArray(JsonWriter::kInline);
  for (const std::string& animation : report.animations_left_out) json.String(animation);
  json.EndArray();
  json.Key("left_out").BeginArray();
  for (const std::string& what : left_out) json.String(what);
  json.EndArray();
  json.EndObject();
}

}  // namespace

// A USD source's coordinates are in its stage's up axis and units, and its keys at its time
// codes: a USD output says the same (a copy written Y-up in meters would lie on its back, 100
// times too big, for a Z-up centimetre source). G4MF has no such metadata (its readers take Y-up
// meters), so a G4MF output of another stage is warned about.
void PassOnTheStage(const ConvertOptions& o, const loader::LoadedAsset& loaded,
                    loader::UsdaWriteOptions* write) {
  write->up_axis = loaded.up_axis;
  write->meters_per_unit = loaded.meters_per_unit;
  if (loaded.time_codes_per_second) write->time_codes_per_second = *loaded.time_codes_per_second;
  if (o.usd.empty() && (write->up_axis != loader::UpAxis::kY || write->meters_per_unit != 1)) {
    std::fprintf(stderr,
                 "sinew convert: warning: %s is %s-up with %g m a unit; G4MF has no up axis or "
                 "units (its readers take Y-up meters): the coordinates are written as they are\n",
                 o.in.c_str(), loader::ToString(write->up_axis), write->meters_per_unit);
  }
}

int ConvertCommand(std::span<const std::string_view> args) {
  ConvertOptions o;
  if (AsksForHelp(args)) {
    Usage(stdout);
    return 0;
  }
  if (int rc = ParseConvertArgs(args, &o); rc != 0) return rc;
  auto loaded = loader::LoadAsset(o.in, o.load);
  if (!loaded) {
    std::fprintf(stderr, "sinew convert: %s: %s\n", o.in.c_str(),
                 loaded.error().ToString().c_str());
    return 1;
  }
  PrintLoaderWarnings("convert", loaded->loaded);
  if (!WritesNoFileItRead("convert", loaded->loaded, o.out)) return 2;
  // Without --anim, the first clip, if the file has one (FindClip("") is none).
  const bool first = o.anim.empty() && !loaded->loaded.asset.animations.empty();
  const auto clip = FindClip(loaded->loaded.asset, first ? "0" : o.anim);
  if (!clip) {
    std::fprintf(stderr, "sinew convert: %s\n", clip.error().ToString().c_str());
    return 1;
  }
  o.usda_write.animation = *clip;
  if (loader::IsUsd(loaded->format)) PassOnTheStage(o, loaded->loaded, &o.usda_write);
  loader::G4mfWriteReport report;
  loader::UsdaWriteReport usda_report;
  Result<std::vector<uint8_t>> bytes = std::vector<uint8_t>();
  if (o.usd == ".usda") {
    auto text = loader::WriteUsda(loaded->loaded.asset, o.usda_write, &usda_report);
    if (text) {
      bytes = std::vector<uint8_t>(text->begin(), text->end());
    } else {
      bytes = text.status();
    }
  } else if (o.usd == ".usdc") {
    bytes = loader::WriteUsdc(loaded->loaded.asset, o.usda_write, &usda_report);
  } else if (o.usd == ".usdz") {
    // The package's one layer, named after it.
    const std::string layer = std::filesystem::path(o.out).stem().string() + ".usdc";
    bytes = loader::WriteUsdz(loaded->loaded.asset, layer, o.usda_write, &usda_report);
  } else {
    bytes = loader::WriteG4mf(loaded->loaded.asset, o.write, &report);
  }
  if (!bytes) {
    std::fprintf(stderr, "sinew convert: %s\n", bytes.error().ToString().c_str());
    return 1;
  }
  errno = 0;
  if (!WriteOutputFile(
          o.out, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()))) {
    std::fprintf(stderr, "sinew convert: cannot write %s%s\n", o.out.c_str(),
                 WhyWritingFailed().c_str());
    return 1;
  }
  WarnLeftOut(report);
  // The sentences of either writer (a G4MF file's rigid bindings and normal rule, a .usda's).
  std::vector<std::string> left_out = usda_report.left_out;
  left_out.insert(left_out.end(), report.other_left_out.begin(), report.other_left_out.end());
  for (const std::string& what : left_out) {
    std::fprintf(stderr, "sinew convert: warning: left out: %s\n", what.c_str());
  }
  if (o.json) {
    PrintConvertJson(o, bytes->size(), report, left_out);
  } else {
    std::printf("%s -> %s (%zu bytes)\n", o.in.c_str(), o.out.c_str(), bytes->size());
  }
  return 0;
}

}  // namespace sinew::tool
