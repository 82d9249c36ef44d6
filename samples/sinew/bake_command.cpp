// `sinew bake FILE ... --out PREFIX`: the deformed vertices of every mesh instance of the scene at
// a time of a clip (or a rest / bind pose), in scene space, as PREFIX.json (manifest, docs/bake.md)
// + PREFIX.bin (little-endian float32), or as .ply / .obj for people.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bake.h"
#include "bake_files.h"
#include "commands.h"
#include "counted.h"
#include "output_file.h"
#include "output_paths.h"
#include "pose_arguments.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/vk/context.h"

namespace sinew::tool {
namespace {

// The command line: the computation's options (bake.h) and where and how to write.
struct CommandOptions {
  std::string file, out, device = "cpu", format = "bin";
  PoseArguments pose;  // --time given: usda writes that time alone
};

// `--format usda` writes time codes at this rate (the UsdSkel loader's default, and Pixar's).
constexpr double kBakeTimeCodesPerSecond = 24;
// The most time codes `--format usda` bakes: 100,000 is over an hour at 24 a second.
constexpr double kMostBakeTimeCodes = 100000;

void Usage(std::FILE* to) {
  std::fputs(
      "usage: sinew bake FILE --out PREFIX [--anim NAME|INDEX] [--time T] [--loop]\n"
      "                  [--weights MESH=w0,w1,...] [--pose rest|bind|bind:TYPE]\n"
      "                  [--variant NAME] [--device cpu|gpu] [--format bin|ply|obj|usda]\n"
      "                  [--skinning linear|dqs] [--usd-variant /PRIM{SET=VARIANT}]...\n"
      "                  [--usd-fallback SET=VARIANT,...]...\n"
      "  writes every mesh instance of the scene deformed, in scene space:\n"
      "  bin: PREFIX.json (manifest) + PREFIX.bin (float32); ply/obj: PREFIX.ply / PREFIX.obj;\n"
      "  usda: PREFIX.usda, points and normals (and rigid prims' transforms) as time samples at\n"
      "  every time code (24 a second) of the clip's range, or at --time alone, each prim at its\n"
      "  source's path (a .usda's)\n"
      "  --pose bind poses every skin's joints where its inverse bind matrices put them (the\n"
      "  mesh as bound); bind:TPose|APose|IPose|Custom in the skins' "
      "KHR_character_skeleton_bindpose\n"
      "  pose of that type; other nodes, children of joints included, follow their parents\n"
      "  --skinning linear|dqs blends every skinned mesh and rigid binding that way (CPU and GPU\n"
      "  alike); without it each is blended as its file says (UsdSkel's skel:skinningMethod)\n"
      "  --usd-variant chooses a USD prim's variant over the stage's selection; --usd-fallback\n"
      "  the variant of a set nothing selects in\n",
      to);
}

// Returns 0 on success, else the exit code (2: usage).
int Parse(std::span<const std::string_view> args, CommandOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const Parsed parsed = ParsePoseArgument("bake", args, &i, &o->pose);
    if (parsed == Parsed::kBad) return 2;
    if (parsed == Parsed::kTaken) continue;
    const bool has_value = i + 1 < args.size();
    const auto value = [&]() { return std::string(args[++i]); };
    const bool known = a == "--out" || a == "--device" || a == "--format";
    if (a.starts_with("--") && !known) {
      UnknownOption("bake", a);
      return 2;
    } else if (known && !has_value) {
      std::fprintf(stderr, "sinew bake: %.*s needs a value\n", int(a.size()), a.data());
      return 2;
    } else if (a == "--out") {
      o->out = value();
    } else if (a == "--device") {
      o->device = value();
    } else if (a == "--format") {
      o->format = value();
    } else if (o->file.empty() && !a.starts_with("--")) {
      o->file = std::string(a);
    } else {
      std::fprintf(stderr, "sinew bake: unexpected argument '%.*s'\n", int(a.size()), a.data());
      return 2;
    }
  }
  if (o->file.empty() || o->out.empty()) {
    std::fprintf(stderr, "sinew bake: %s is missing\n", o->file.empty() ? "FILE" : "--out PREFIX");
    return 2;
  }
  if (o->device != "cpu" && o->device != "gpu") {
    std::fputs("sinew bake: --device cpu|gpu\n", stderr);
    return 2;
  }
  if (!ValidPoseArguments("bake", o->pose)) return 2;
  if (o->format != "bin" && o->format != "ply" && o->format != "obj" && o->format != "usda") {
    std::fputs("sinew bake: --format bin|ply|obj|usda\n", stderr);
    return 2;
  }
  return 0;
}

// A bake of no mesh instance and no rigid binding is written, but said to be empty.
void WarnIfNothingBaked(const BakeResult& baked) {
  if (baked.primitives.empty() && baked.rigid.empty()) {
    std::fputs("sinew bake: warning: nothing to bake: the scene has no mesh instance\n", stderr);
  }
}

// `--format usda`: the bake at every time code of the clip's range (or at --time), one file.
int BakeUsda(const CommandOptions& o, const loader::LoadedFile& file, const vk::Context* context) {
  const Asset& a = file.loaded.asset;
  std::vector<double> time_codes;
  if (o.pose.time_given || o.pose.bake.anim.empty()) {
    time_codes.push_back(double(o.pose.bake.time) * kBakeTimeCodesPerSecond);
  } else {
    auto clip = FindClip(a, o.pose.bake.anim);
    if (!clip) {
      std::fprintf(stderr, "sinew bake: %s\n", clip.error().ToString().c_str());
      return 1;
    }
    const cpu::ClipRange range = cpu::RangeOf(a.animations[size_t(*clip)]);
    const double begin = std::round(double(range.start) * kBakeTimeCodesPerSecond);
    const double end = std::round(double(range.end) * kBakeTimeCodesPerSecond);
    // Every time code's bake is held until the file is written: a clip whose keys lie hours
    // apart would take the machine's memory (or, unbounded, never finish).
    if (!(end - begin < kMostBakeTimeCodes)) {
      std::fprintf(stderr,
                   "sinew bake: clip '%s' runs %g..%g s, more than %g time codes at %g a second; "
                   "--format usda writes at most that many (give --time for one)\n",
                   a.animations[size_t(*clip)].name.c_str(), double(range.start), double(range.end),
                   kMostBakeTimeCodes, kBakeTimeCodesPerSecond);
      return 1;
    }
    for (double t = begin; t <= end; ++t) time_codes.push_back(t);
  }
  std::vector<BakeFrame> frames;
  GpuBake session;  // one SkinCache for every time code
  for (double time_code : time_codes) {
    BakeOptions at = o.pose.bake;
    at.time = float(time_code / kBakeTimeCodesPerSecond);
    auto baked = BakeAsset(a, at, context, &session);
    if (!baked) {
      std::fprintf(stderr, "sinew bake: %s\n", baked.error().ToString().c_str());
      return 1;
    }
    frames.push_back({time_code, std::move(*baked)});
  }
  errno = 0;
  BakeStage stage;
  stage.time_codes_per_second = kBakeTimeCodesPerSecond;
  stage.up_axis = loader::ToString(file.loaded.up_axis);
  stage.meters_per_unit = file.loaded.meters_per_unit;
  if (!WriteBakeUsda(o.out, o.file, a, stage, frames)) {
    std::fprintf(stderr, "sinew bake: cannot write %s.usda%s\n", o.out.c_str(),
                 WhyWritingFailed().c_str());
    return 1;
  }
  WarnIfNothingBaked(frames.front().baked);
  std::printf("sinew bake: %s and %s at %s -> %s.usda\n",
              Counted(frames.front().baked.primitives.size(), "primitive").c_str(),
              Counted(frames.front().baked.rigid.size(), "rigid prim").c_str(),
              Counted(frames.size(), "time code").c_str(), o.out.c_str());
  return 0;
}

}  // namespace

int BakeCommand(std::span<const std::string_view> args) {
  CommandOptions o;
  if (AsksForHelp(args)) {
    Usage(stdout);
    return 0;
  }
  if (int rc = Parse(args, &o); rc != 0) {
    Usage(stderr);
    return rc;
  }
  // PREFIX names files, not the folder they go in ("--out dir/" would write dir/.json).
  if (IsFolderName(o.out)) {
    std::fprintf(stderr, "sinew bake: --out %s is a folder: give a file name prefix\n",
                 o.out.c_str());
    return 2;
  }
  const std::vector<std::string> extensions = o.format == "bin"
                                                  ? std::vector<std::string>{".json", ".bin"}
                                                  : std::vector<std::string>{"." + o.format};
  for (const std::string& extension : extensions) {
    if (!CanWriteOutput("bake", o.file, o.out + extension)) return 2;
  }
  const std::unique_ptr<loader::LoadedFile> file = LoadForCommand("bake", o.file, o.pose);
  if (!file) return 1;
  for (const std::string& extension : extensions) {
    if (!WritesNoFileItRead("bake", file->loaded, o.out + extension)) return 2;
  }
  const Asset& a = file->loaded.asset;
  std::unique_ptr<vk::Context> context;
  if (o.device == "gpu") {
    auto ctx = vk::Context::Create(ToolContextOptions());
    if (!ctx) {
      std::fprintf(stderr, "sinew bake: --device gpu: %s\n", ctx.error().ToString().c_str());
      return 1;
    }
    context = std::move(ctx.value());
  }
  if (o.format == "usda") return BakeUsda(o, *file, context.get());
  auto baked = BakeAsset(a, o.pose.bake, context.get());
  if (!baked) {
    std::fprintf(stderr, "sinew bake: %s\n", baked.error().ToString().c_str());
    return 1;
  }
  errno = 0;
  const bool ok = o.format == "bin"
                      ? WriteBakeBin(o.out, {o.file, o.device, o.pose.bake}, a, *baked)
                      : WriteBakeMesh(o.out, o.format, o.file, *baked);
  if (!ok) {
    std::fprintf(stderr, "sinew bake: cannot write %s.%s%s\n", o.out.c_str(),
                 o.format == "bin" ? "bin or .json" : o.format.c_str(), WhyWritingFailed().c_str());
    return 1;
  }
  WarnIfNothingBaked(*baked);
  size_t vertices = 0;
  for (const BakedPrimitive& b : baked->primitives) vertices += b.data.positions.size() / 3;
  std::printf("sinew bake: %s, %s -> %s.%s%s\n",
              Counted(baked->primitives.size(), "primitive").c_str(),
              Counted(vertices, "vertex", "vertices").c_str(), o.out.c_str(),
              o.format == "bin" ? "json + " : "",
              o.format == "bin" ? (o.out + ".bin").c_str() : o.format.c_str());
  return 0;
}

}  // namespace sinew::tool
