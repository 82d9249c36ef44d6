// `sinew render FILE --out PICTURE.png [options]`: pictures of the deformed meshes, deformed by a
// vk::SkinCache on the GPU (lavapipe where there is no other) and drawn from its output buffers by
// the engine sample's graphics pass (render.h, docs/render.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "camera.h"
#include "commands.h"
#include "counted.h"
#include "output_paths.h"
#include "png_file.h"
#include "pose_arguments.h"
#include "render.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"

namespace sinew::tool {
namespace {

// The pictures' background, where nothing is drawn (sRGB).
constexpr uint8_t kBackground[3] = {46, 50, 58};

// The most pixels of the contact sheet, its grid's cells times --size: 1 GiB, and at most as much
// again for the pictures it is made of (64 pictures of 2048x2048, or 4 of 8192x8192).
constexpr uint64_t kMaxSheetPixels = uint64_t(1) << 28;

struct CommandOptions {
  std::string file, out, device;
  PoseArguments pose;
  uint32_t width = 512, height = 512;
  uint32_t frames = 1;  // --frames: a contact sheet of this many pictures
  float fps = 0;        // --fps: frames this far apart from the clip's start (0: across the clip)
  bool motion_vectors = false;
  bool compact = false;  // --formats compact
  const char* camera = "auto";
};

void Usage(std::FILE* to) {
  std::fputs(
      "usage: sinew render FILE --out PICTURE.png [--anim NAME|INDEX]\n"
      "                    [--time SECONDS | --frames N [--fps F]] [--loop] [--pose "
      "rest|bind|bind:TYPE]\n"
      "                    [--weights MESH=w0,w1,...] [--variant NAME] [--skinning linear|dqs]\n"
      "                    [--size WxH] [--camera auto|front|side|top] [--motion-vectors]\n"
      "                    [--formats float32|compact] [--device INDEX|NAME]\n"
      "                    [--usd-variant /PRIM{SET=VARIANT}]... [--usd-fallback "
      "SET=VARIANT,...]...\n"
      "  draws every mesh instance of the scene, deformed on the GPU, in its material's base\n"
      "  colour, lit by its skinned normals, from a camera that frames the whole clip;\n"
      "  --frames N: a contact sheet of N pictures across the clip (or F a second from its "
      "start),\n"
      "  left to right, top to bottom; --size: of each picture (default 512x512);\n"
      "  --motion-vectors: each pixel's screen-space motion since 1/F s earlier (F: --fps, else\n"
      "  30) as the bytes red = 128 + 255 dx/32, green = 128 + 255 dy/32 (pixels, y down);\n"
      "  --formats compact: the meshes stored and deformed in VertexFormats::Compact() (unorm16\n"
      "  weights, octahedral normals in and out; docs/vertex_formats.md), drawn from those "
      "outputs\n",
      to);
}

// The contact sheet's columns and rows for `count` pictures: the smallest square's side of
// columns, and as many rows as they fill.
std::pair<uint32_t, uint32_t> SheetGrid(uint32_t count) {
  const uint32_t columns = std::max(1u, uint32_t(std::ceil(std::sqrt(double(count)))));
  return {columns, (count + columns - 1) / columns};
}

bool ParseSize(std::string_view text, uint32_t* width, uint32_t* height) {
  const size_t x = text.find('x');
  if (x == std::string_view::npos) return false;
  float w = 0, h = 0;
  if (!ParseFloat(text.substr(0, x), &w) || !ParseFloat(text.substr(x + 1), &h)) return false;
  if (w < 1 || h < 1 || w > 8192 || h > 8192 || w != std::floor(w) || h != std::floor(h)) {
    return false;
  }
  *width = uint32_t(w);
  *height = uint32_t(h);
  return true;
}

// Returns 0 on success, else the exit code (2: usage).
int Parse(std::span<const std::string_view> args, CommandOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const Parsed parsed = ParsePoseArgument("render", args, &i, &o->pose);
    if (parsed == Parsed::kBad) return 2;
    if (parsed == Parsed::kTaken) continue;
    const bool has_value = i + 1 < args.size();
    if (a == "--motion-vectors") {
      o->motion_vectors = true;
      continue;
    }
    constexpr std::string_view kWithValue[] = {"--out",  "--camera", "--device", "--formats",
                                               "--size", "--frames", "--fps"};
    const bool takes_value =
        std::find(std::begin(kWithValue), std::end(kWithValue), a) != std::end(kWithValue);
    if (a.starts_with("--") && !takes_value) {
      UnknownOption("render", a);
      return 2;
    }
    if (!has_value && takes_value) {
      std::fprintf(stderr, "sinew render: %.*s needs a value\n", int(a.size()), a.data());
      return 2;
    }
    if (a == "--out") {
      o->out = std::string(args[++i]);
    } else if (a == "--camera") {
      const std::string_view view = args[++i];
      const auto known =
          std::find_if(std::begin(engine::kCameraViews), std::end(engine::kCameraViews),
                       [&](const char* v) { return view == v; });
      if (known == std::end(engine::kCameraViews)) {
        std::fputs("sinew render: --camera auto|front|side|top\n", stderr);
        return 2;
      }
      o->camera = *known;
    } else if (a == "--device") {
      o->device = std::string(args[++i]);
    } else if (a == "--formats") {
      const std::string_view formats = args[++i];
      if (formats != "float32" && formats != "compact") {
        std::fputs("sinew render: --formats float32|compact\n", stderr);
        return 2;
      }
      o->compact = formats == "compact";
    } else if (a == "--size") {
      if (!ParseSize(args[++i], &o->width, &o->height)) {
        std::fputs("sinew render: --size WxH, each 1 to 8192\n", stderr);
        return 2;
      }
    } else if (a == "--frames") {
      float n = 0;
      if (!ParseFloat(args[++i], &n) || n < 1 || n > 256 || n != std::floor(n)) {
        std::fputs("sinew render: --frames 1 to 256\n", stderr);
        return 2;
      }
      o->frames = uint32_t(n);
    } else if (a == "--fps") {
      if (!ParseFloat(args[++i], &o->fps) || !(o->fps > 0)) {
        std::fputs("sinew render: --fps needs a positive number\n", stderr);
        return 2;
      }
    } else if (o->file.empty() && !a.starts_with("--")) {
      o->file = std::string(a);
    } else {
      std::fprintf(stderr, "sinew render: unexpected argument '%.*s'\n", int(a.size()), a.data());
      return 2;
    }
  }
  if (o->file.empty() || o->out.empty()) {
    std::fprintf(stderr, "sinew render: %s is missing\n",
                 o->file.empty() ? "FILE" : "--out PICTURE.png");
    return 2;
  }
  if (!ValidPoseArguments("render", o->pose)) return 2;
  if (o->frames > 1 && o->pose.time_given) {
    std::fputs("sinew render: --time or --frames, not both\n", stderr);
    return 2;
  }
  // Options that change nothing without another, said as bake's --time without --anim is.
  if (o->frames > 1 && o->pose.bake.anim.empty()) {
    std::fputs("sinew render: warning: --frames without --anim: every picture is the same pose\n",
               stderr);
  }
  if (o->fps > 0 && o->frames <= 1 && !o->motion_vectors) {
    std::fputs("sinew render: warning: --fps without --frames or --motion-vectors does nothing\n",
               stderr);
  }
  // The pictures and the sheet made of them are held in memory, 4 bytes a pixel each; the sheet
  // has a cell for each picture of its near-square grid (SheetGrid).
  const auto [columns, rows] = SheetGrid(o->frames);
  const uint64_t pixels = uint64_t(columns) * rows * o->width * o->height;
  if (pixels > kMaxSheetPixels) {
    std::fprintf(stderr,
                 "sinew render: --frames %u of --size %ux%u make %llu pixels, more than the %llu "
                 "(1 GiB) a contact sheet may have\n",
                 o->frames, o->width, o->height, static_cast<unsigned long long>(pixels),
                 static_cast<unsigned long long>(kMaxSheetPixels));
    return 2;
  }
  return 0;
}

// The times of --frames N: F a second from the clip's start, or spread evenly from its start to
// its end; the one --time (0 by default) otherwise.
Result<std::vector<float>> FrameTimes(const Asset& a, const CommandOptions& o) {
  if (o.frames <= 1) return std::vector<float>{o.pose.bake.time};
  auto clip = FindClip(a, o.pose.bake.anim);
  if (!clip) return clip.status();
  const cpu::ClipRange range =
      *clip >= 0 ? cpu::RangeOf(a.animations[size_t(*clip)]) : cpu::ClipRange{};
  std::vector<float> times;
  uint32_t past_end = 0;
  for (uint32_t i = 0; i < o.frames; ++i) {
    // (In double: a clip of keys near float's range overflows duration × i.)
    times.push_back(o.fps > 0
                        ? range.start + float(i) / o.fps
                        : float(double(range.start) + (double(range.end) - double(range.start)) *
                                                          double(i) / double(o.frames - 1)));
    past_end += times.back() > range.end ? 1 : 0;
  }
  // Pictures past the clip's end hold its last pose (or, with --loop, start it again).
  if (*clip >= 0 && past_end > 0 && !o.pose.bake.loop) {
    std::fprintf(stderr,
                 "sinew render: warning: %u of the %u pictures at --fps %g are past the clip's end "
                 "(at %.3f s): they show its last pose (--loop starts it again)\n",
                 past_end, o.frames, double(o.fps), double(range.end));
  }
  return times;
}

}  // namespace

int RenderCommand(std::span<const std::string_view> args) {
  CommandOptions o;
  if (AsksForHelp(args)) {
    Usage(stdout);
    return 0;
  }
  if (int rc = Parse(args, &o); rc != 0) {
    Usage(stderr);
    return rc;
  }
  if (!HasExtension(o.out, ".png")) {
    std::fprintf(stderr, "sinew render: %s: the picture is a PNG, so its name ends in .png\n",
                 o.out.c_str());
    return 2;
  }
  if (!CanWriteOutput("render", o.file, o.out)) return 2;
  const std::unique_ptr<loader::LoadedFile> file = LoadForCommand("render", o.file, o.pose);
  if (!file) return 1;
  if (!WritesNoFileItRead("render", file->loaded, o.out)) return 2;
  const Asset& a = file->loaded.asset;
  auto times = FrameTimes(a, o);
  if (!times) {
    std::fprintf(stderr, "sinew render: %s\n", times.error().ToString().c_str());
    return 1;
  }
  auto context = vk::Context::Create(ToolContextOptions(o.device));
  if (!context) {
    std::fprintf(stderr, "sinew render: %s\n", context.error().ToString().c_str());
    return 1;
  }
  RenderOptions ro;
  ro.pose = o.pose.bake;
  ro.times = *times;
  ro.width = o.width;
  ro.height = o.height;
  ro.motion_vectors = o.motion_vectors;
  if (o.compact) ro.formats = VertexFormats::Compact();
  ro.camera = o.camera;
  if (file->loaded.up_axis == loader::UpAxis::kZ) ro.up_axis = engine::UpAxis::kZ;
  if (o.fps > 0) ro.motion_fps = o.fps;
  auto rendered = RenderAsset(**context, a, ro);
  if (!rendered) {
    std::fprintf(stderr, "sinew render: %s\n", rendered.error().ToString().c_str());
    return 1;
  }
  const bool drawn = std::any_of(rendered->pictures.begin(), rendered->pictures.end(),
                                 [](const std::vector<uint8_t>& picture) {
                                   for (size_t i = 3; i < picture.size(); i += 4) {
                                     if (picture[i] != 0) return true;
                                   }
                                   return false;
                                 });
  if (!drawn) {
    std::fputs(
        "sinew render: warning: nothing was drawn: no triangle, line or point covers a pixel "
        "centre (no mesh in the file, or seen edge-on, degenerate or smaller than a pixel)\n",
        stderr);
  }
  // The contact sheet: pictures left to right, top to bottom, in a near-square grid.
  const uint32_t count = uint32_t(rendered->pictures.size());
  const auto [columns, rows] = SheetGrid(count);
  const uint32_t w = o.width * columns, h = o.height * rows;
  std::vector<uint8_t> sheet(size_t(w) * h * 4, 0);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t x0 = (i % columns) * o.width, y0 = (i / columns) * o.height;
    for (uint32_t y = 0; y < o.height; ++y) {
      std::copy_n(rendered->pictures[i].begin() + ptrdiff_t(size_t(y) * o.width * 4),
                  size_t(o.width) * 4, sheet.begin() + ptrdiff_t((size_t(y0 + y) * w + x0) * 4));
    }
  }
  engine::OverBackground(sheet, kBackground);
  std::string error;
  if (!engine::WritePng(o.out, w, h, sheet, &error)) {
    std::fprintf(stderr, "sinew render: %s\n", error.c_str());
    return 1;
  }
  const std::vector<std::string> messages = (*context)->validation_messages();
  for (const std::string& m : messages)
    std::fprintf(stderr, "sinew render: validation: %s\n", m.c_str());
  std::printf("sinew render: %s of %ux%u -> %s (%ux%u)%s\n", Counted(count, "picture").c_str(),
              o.width, o.height, o.out.c_str(), w, h,
              ro.up_axis == engine::UpAxis::kZ ? ", +Z up (the stage's upAxis)" : "");
  return messages.empty() ? 0 : 1;
}

}  // namespace sinew::tool
