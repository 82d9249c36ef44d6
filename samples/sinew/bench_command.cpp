// `sinew bench [FILE]`: deforms the built-in procedural crowd, or every skinned primitive of a
// glTF, G4MF or USD file, on the CPU reference and the GPU, checks the GPU against the CPU, and
// reports throughput (GPU time from Vulkan timestamp queries). On the GPU every frame uploads every
// instance's palette (the crowd is posed anew on the CPU each frame, timed apart).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bench_util.h"
#include "commands.h"
#include "copy_bandwidth.h"
#include "cpu_copy_bandwidth.h"
#include "json_writer.h"
#include "kernel_statistics_report.h"
#include "load_arguments.h"
#include "pose_arguments.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/asset/morph_deltas.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/dual_quaternion_palette_job.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/influence_check.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/skin_run.h"
#include "sinew/cpu/sub_shape_weights_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/procedural/face_shapes.h"
#include "sinew/vk/context.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"
#include "timestamps.h"

namespace sinew::tool {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchOptions {
  uint32_t characters = 64;
  uint32_t vertices = 20000;
  std::vector<uint32_t> influences = {4, 8};
  uint32_t frames = 10;
  uint32_t seed = 1;
  std::string device;         // "" = SINEW_DEVICE or automatic
  std::string file;           // a glTF or G4MF file instead of the procedural crowd
  loader::AssetOptions load;  // FILE's --usd-variant, --usd-fallback
  bool json = false;
  bool skip_gpu = false;
  // The GPU rows alone: no CPU row is timed; each case's CPU reference runs once, untimed, on the
  // fast path's threads (its outputs are the scalar reference's bit for bit), for the error column.
  bool gpu_only = false;
  // Ask the driver for the compiled kernels' statistics (vk::ContextOptions::kernel_statistics)
  // and report them after the rows.
  bool kernel_stats = false;
  bool layouts = true;           // also the dense-vs-sparse cases
  bool shapes = true;            // also the blend-shape cases (procedural face shapes on K = 4)
  bool dual_quaternions = true;  // also each dense K blended with dual quaternions
  bool formats = true;           // also each dense K in compact vertex formats (GPU only)
  // The CPU reference is timed as the scalar code on one thread, then vectorized on one thread and
  // on this many (0: every hardware thread; 1: not again), each checked equal to the scalar
  // outputs bit for bit.
  uint32_t cpu_threads = 0;
  uint32_t cpu_lanes = 0;       // the fast path's cpu::SkinRun::max_lanes
  bool cpu_avx512 = true;       // the fast path's cpu::SkinRun::avx512
  uint32_t workgroup_size = 0;  // the GPU kernels' (vk::SkinCacheOptions::workgroup_size)

  // How the fast path runs on `threads` threads.
  cpu::SkinRun FastRun(uint32_t threads) const {
    cpu::SkinRun run{threads, true, cpu_lanes};
    run.avx512 = cpu_avx512;
    return run;
  }
};

struct Row {
  std::string path;       // "cpu" or "gpu"
  std::string layout;     // e.g. "dense K=4", "sparse varied"
  double influences = 0;  // K (dense) or mean entries per vertex (sparse)
  uint64_t vertices = 0;  // per frame, all characters
  uint32_t bytes_per_vertex = 0;
  double ms_per_frame = 0;
  std::vector<double> frame_ms;  // GPU only: each timed frame's GPU time, in order (the spread)
  double record_us = 0;          // GPU only: CPU time to record one frame's commands
  // GPU only: CPU time to pose every character's palette for one frame; negative when the frames
  // pose nothing (a file's instances, posed once before the frames): printed "-" / null.
  double pose_us = 0;
  double upload_us = 0;            // GPU only: CPU time to copy those palettes into the SkinCache
  double max_error = 0;            // GPU only: max |gpu - cpu| position error / extent
  double max_direction_error = 0;  // GPU only: max |gpu - cpu| over normals and tangents
  uint32_t active_shapes = 0;      // blend-shape cases: targets with a nonzero weight
  size_t touched = 0;              // vertex moves per character per frame by those targets
  const char* auto_layout = "";    // the layout InfluenceLayout::kAuto picks for this mesh
  double vectorized_ms = -1;       // CPU only: ms per frame, vectorized, one thread
  uint32_t threads = 1;            // CPU only: threads of the third timing (1: none)
  // CPU only: of those, the threads each character's job ran on (cpu::SkinThreads: a mesh too
  // small for ranges of SkinRun::min_vertices_per_thread runs on fewer).
  uint32_t threads_used = 1;
  double threaded_ms = -1;  // CPU only: ms per frame, vectorized, on `threads` threads
  // CPU only: ms per frame, vectorized, one thread, with the influences checked once
  // (cpu::InfluenceCheck) instead of on every run; -1 for a mesh without influences.
  double checked_once_ms = -1;
  uint32_t lanes = 1;   // CPU only: vertices at a time on the fast path (1: scalar)
  bool avx512 = false;  // CPU only: the fast path skins with AVX-512 (cpu::SkinsWithAvx512)
  // CPU only: a plain copy loop on one thread moving as many bytes as a frame (MeasureCpuCopy),
  // timed right after the fast path's runs on one thread, for their share of it (CpuCopyFraction).
  std::optional<CpuCopyBandwidth> cpu_copy;
  // Dual-quaternion rows: whether some character's palette carries scale (cpu::HasScale), so that
  // both paths blend the scale rows; none for linear blending.
  std::optional<bool> palette_scale;
  // GPU only: the largest errors allowed against the CPU reference (exact formats: 1e-5; the
  // compact ones: what docs/vertex_formats.md states for them).
  double position_tolerance = 1e-5;
  double direction_tolerance = 1e-5;
  std::string formats = "float32";  // GPU only: the mesh's vertex formats (Case::formats_name)
  double mvertices_per_s() const { return vertices / (ms_per_frame * 1e-3) / 1e6; }
  // The bytes a frame reads and writes (B/vert x vertices).
  uint64_t frame_bytes() const { return vertices * bytes_per_vertex; }
  // GB/s of a frame's bytes moved in `ms` (the row's own time, or one of the CPU fast path's).
  double GbPerS(double ms) const { return double(frame_bytes()) / (ms * 1e-3) / 1e9; }
  double gb_per_s() const { return GbPerS(ms_per_frame); }
  // A CPU row's fast path taking `ms` a frame, in GB/s as a share of cpu_copy's; negative
  // without either.
  double CpuCopyFraction(double ms) const {
    if (!cpu_copy || cpu_copy->gb_per_s <= 0 || ms <= 0) return -1.0;
    return GbPerS(ms) / cpu_copy->gb_per_s;
  }
};

// A progress line on stderr, shown once a run has taken more than a second: rewritten in place on
// a terminal, one line per second otherwise (CI logs).
class Progress {
 public:
  void Update(const std::string& phase, uint32_t done, uint32_t total) {
    const auto now = Clock::now();
    const auto interval = tty_ ? std::chrono::milliseconds(250) : std::chrono::milliseconds(1000);
    if (now - start_ < std::chrono::seconds(1) || now - last_ < interval) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, tty_ ? "\r[sinew bench] %s %u/%u   " : "[sinew bench] %s %u/%u\n",
                 phase.c_str(), done, total);
    std::fflush(stderr);
  }
  // Clears the line (on a terminal) before results are printed.
  void Finish() {
    if (shown_ && tty_) std::fputs("\r\033[K", stderr);
    shown_ = false;
  }

 private:
  bool tty_ = isatty(fileno(stderr)) != 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
  bool shown_ = false;
};

void PrintHelp() {
  std::fputs(
      "usage: sinew bench [options] [FILE]\n"
      "       sinew bench --loader [--json] [FILES]   glTF loader vs a bare simdjson parse\n"
      "       sinew bench --usda [--json] [--mb N] [FILES]\n"
      "                                               USD readers in MB/s, and the UsdSkel loader\n"
      "                                               (no FILES: a synthetic stage of about N "
      "MiB,\n"
      "                                               default 32, as .usda and as .usdc)\n"
      "       sinew bench --crowd N[,N...] [options]  a mixed crowd in one SkinCache (--help)\n"
      "       sinew bench --pose FILE... [--characters N] [--json]\n"
      "                                               crowd posing vs per-character jobs\n"
      "                                               (--characters default 1000)\n"
      "  FILE              a glTF, G4MF or USD file: every skinned primitive of it, for\n"
      "                    --characters instances (posed along its first clip, if any), in its\n"
      "                    own influence layout and in the other one, instead of the procedural\n"
      "                    crowd\n"
      "  --usd-variant /PRIM{SET=VARIANT}, --usd-fallback SET=VARIANT,...\n"
      "                    the variants a USD FILE's sets take (as sinew info takes them)\n"
      "  --characters N    crowd size, or instances of FILE (default 64)\n"
      "  --vertices N      vertices per character (default 20000)\n"
      "  --influences LIST influence counts K to run, comma separated multiples of 4 (default "
      "4,8)\n"
      "  --frames N        frames timed per path (default 10); on the GPU each frame poses every\n"
      "                    character (procedural clip, 1/30 s apart) and uploads its palette:\n"
      "                    'pose us' and 'upload us' are that CPU time, apart from the GPU's\n"
      "                    (FILE instances are posed once, before the frames: 'pose us' -)\n"
      "  --seed N          procedural seed (default 1)\n"
      "  --device SEL      Vulkan device: index or name substring (default: SINEW_DEVICE, else\n"
      "                    discrete GPU first, then lavapipe)\n"
      "  --cpu-only        skip the GPU\n"
      "  --gpu-only        time the GPU alone: each case's CPU reference runs once, untimed, on\n"
      "                    --cpu-threads threads, for the error column\n"
      "  --cpu-threads N   the cpu rows time the scalar reference; then the fast path\n"
      "                    (vectorized) on one thread, again there with the influences checked\n"
      "                    once (cpu::InfluenceCheck), and on N (default 0: every hardware\n"
      "                    thread; 1: not), each checked equal to the reference bit for bit\n"
      "  --cpu-lanes N     the fast path skins at most N vertices at a time (default 0: 8 with\n"
      "                    AVX, else 4; 4: SSE2's four even where AVX would take eight; 1 to 3:\n"
      "                    the scalar code; dual quaternions go eight at a time or one)\n"
      "  --no-avx512       the fast path keeps to AVX where the CPU has AVX-512 as well\n"
      "  --workgroup-size N vertices per workgroup of the GPU kernels, a power of two from 64\n"
      "                    to the device's limit, at most 1024 (default 0: the device's, from\n"
      "                    its subgroup size)\n"
      "  --kernel-stats    after the rows, what the driver says of each GPU kernel it compiled\n"
      "                    (registers, code size: VK_KHR_pipeline_executable_properties), where\n"
      "                    the device has that extension\n"
      "  --no-layouts      skip the dense-vs-sparse cases (a uniform 4-bone mesh as sparse; a\n"
      "                    mesh with 1-2 bones on most vertices and 8-16 on some, both layouts)\n"
      "  --no-dqs          skip the dual-quaternion cases (each dense K again, blended with dual\n"
      "                    quaternions: 'dense K=4 dqs'; and the first K with scaled joints,\n"
      "                    'dense K=4 dqs scaled')\n"
      "  --no-formats      skip the compact-format cases (each dense K on the GPU only, from and\n"
      "                    into compact vertex formats: 'compact' unorm16 weights and octahedral\n"
      "                    normals and tangents; 'c+p16' the same with unorm16 positions;\n"
      "                    'u8+s10' unorm8 weights, snorm10 directions; 'c-in' compact's\n"
      "                    inputs with float32 outputs)\n"
      "  --no-shapes       skip the blend-shape cases (K = 4 with 50 procedural face shapes, 10\n"
      "                    with an in-between, at 0, 5 and 50 active shapes)\n"
      "  --json            machine-readable output on stdout\n"
      "On the GPU a plain copy kernel's bandwidth is measured in the same run; '%copy' is a row's\n"
      "GB/s (B/vert x vertices per second) as a share of it, and '%copy1' as a share of the copy\n"
      "kernel's run as one dispatch that moves as many bytes as one of the row's frames (at most\n"
      "512 MiB), which has the same launch and last wave as the row's dispatch. B/vert counts\n"
      "the mesh as each character reads it: when many characters share a mesh, a GPU's cache\n"
      "serves it after the first, so take --characters 1 with a large --vertices for memory\n"
      "traffic. On a hardware GPU the copy kernel also runs before each GPU case's timed frames,\n"
      "after its mesh upload (0.3 s, longer until its time is steady, at most 3 s), so that the\n"
      "clocks are up; then the case's own frames run untimed until their time settles (50 ms, at\n"
      "most 1 s). On the CPU a plain copy loop on one thread moves as many bytes as a frame\n"
      "of each cpu row (at most 512 MiB) right after the row's one-thread fast path, and the\n"
      "row's line below the table gives that path's GB/s as a share of the copy's; as on the\n"
      "GPU, characters share their mesh, which then stays in the CPU's caches, unless\n"
      "--characters is 1.\n",
      stdout);
}

// Returns an empty string on success, else what was wrong.
std::string ParseArgs(std::span<const std::string_view> args, BenchOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (const Parsed parsed = ParseLoadArgument("bench", args, &i, &o->load);
        parsed != Parsed::kNotMine) {
      if (parsed == Parsed::kBad) return "a malformed " + std::string(a);
      continue;
    }
    const auto value = [&]() -> std::string_view {
      return i + 1 < args.size() ? args[++i] : std::string_view();
    };
    if (a == "--json") {
      o->json = true;
    } else if (a == "--cpu-only") {
      o->skip_gpu = true;
    } else if (a == "--gpu-only") {
      o->gpu_only = true;
    } else if (a == "--kernel-stats") {
      o->kernel_stats = true;
    } else if (a == "--cpu-threads") {
      if (!ParseUint(value(), &o->cpu_threads)) return "--cpu-threads N (0: every hardware thread)";
    } else if (a == "--cpu-lanes") {
      if (!ParseUint(value(), &o->cpu_lanes)) return "--cpu-lanes N (0: the widest, 4: SSE2)";
    } else if (a == "--no-avx512") {
      o->cpu_avx512 = false;
    } else if (a == "--workgroup-size") {
      if (!ParseUint(value(), &o->workgroup_size)) {
        return "--workgroup-size N (0: the device's, else a power of two from 64)";
      }
    } else if (a == "--no-layouts") {
      o->layouts = false;
    } else if (a == "--no-shapes") {
      o->shapes = false;
    } else if (a == "--no-dqs") {
      o->dual_quaternions = false;
    } else if (a == "--no-formats") {
      o->formats = false;
    } else if (a == "--characters") {
      if (!ParseUint(value(), &o->characters) || o->characters == 0) return "--characters N >= 1";
    } else if (a == "--vertices") {
      if (!ParseUint(value(), &o->vertices) || o->vertices == 0) return "--vertices N >= 1";
    } else if (a == "--frames") {
      if (!ParseUint(value(), &o->frames) || o->frames == 0) return "--frames N >= 1";
    } else if (a == "--seed") {
      if (!ParseUint(value(), &o->seed)) return "--seed N";
    } else if (a == "--device") {
      o->device = std::string(value());
    } else if (a == "--influences") {
      if (!ParseUintList(value(), 1, &o->influences) ||
          std::any_of(o->influences.begin(), o->influences.end(),
                      [](uint32_t k) { return k % 4 != 0; })) {
        return "--influences takes multiples of 4, e.g. 4,8,12";
      }
    } else if (!a.starts_with("-") && o->file.empty()) {
      o->file = std::string(a);
    } else if (!a.starts_with("-")) {
      return "one FILE at a time ('" + o->file + "', then '" + std::string(a) + "')";
    } else {
      return "unknown option '" + std::string(a) + "'";
    }
  }
  if (o->skip_gpu && o->gpu_only) return "--cpu-only and --gpu-only together leave nothing to run";
  return {};
}

struct CpuOutputs {
  std::vector<float> positions, normals, tangents;
};

// Runs the CPU reference over the crowd `frames` times; returns ms per frame and the outputs.
double RunCpu(const Primitive& mesh, uint32_t joints, const std::vector<Float3x4>& palettes,
              const std::vector<float>& morph_weights, uint32_t characters, uint32_t frames,
              const cpu::SkinRun& run, CpuOutputs* out, Progress* progress,
              const cpu::InfluenceCheck* checked = nullptr) {
  const size_t v = mesh.vertex_count();
  const size_t j = mesh.palette_size(joints);
  out->positions.resize(characters * v * 3);
  // A file's primitive may have no normals or tangents (the procedural crowd has both).
  const size_t nv = mesh.normals.empty() ? 0 : v, tv = mesh.tangents.empty() ? 0 : v;
  out->normals.resize(characters * nv * 3);
  out->tangents.resize(characters * tv * 4);
  std::vector<double> times;
  for (uint32_t f = 0; f < frames; ++f) {
    const auto t0 = Clock::now();
    for (uint32_t c = 0; c < characters; ++c) {
      const Status s =
          cpu::SkinMesh(mesh, std::span(palettes).subspan(c * j, j), morph_weights,
                        std::span(out->positions).subspan(c * v * 3, v * 3),
                        std::span(out->normals).subspan(c * nv * 3, nv * 3),
                        std::span(out->tangents).subspan(c * tv * 4, tv * 4), run, checked);
      if (!s) {
        std::fprintf(stderr, "sinew bench: CPU job status: %s\n", s.error().ToString().c_str());
        std::exit(1);
      }
    }
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    progress->Update("cpu", f + 1, frames);
  }
  return Median(times);
}

// The time of the crowd's pose that the CPU reference deforms; the GPU's last frame poses it too.
constexpr float kReferenceTime = 0.75f;

// One SkinCache holding the GPU path's characters: a palette and an instance each.
struct GpuCrowd {
  std::unique_ptr<vk::SkinCache> cache;
  vk::MeshId mesh;
  std::vector<vk::PaletteId> palettes;
  std::vector<vk::InstanceId> instances;
};

Result<GpuCrowd> CreateGpuCrowd(const vk::Context& ctx, const Primitive& mesh, uint32_t joints,
                                const std::vector<float>& morph_weights, uint32_t characters,
                                const VertexFormats& formats, uint32_t workgroup_size) {
  vk::SkinCacheOptions base;
  base.formats = formats;
  base.workgroup_size = workgroup_size;
  base.frames_in_flight = 1;
  base.previous_positions = vk::PreviousPositions::kNone;
  auto options = vk::SkinCacheOptionsFor(mesh, joints, characters, base);
  if (!options) return options.status();
  auto cache = vk::SkinCache::Create(ctx, *options);
  if (!cache) return cache.status();
  GpuCrowd crowd;
  crowd.cache = std::move(cache.value());
  auto mesh_id = crowd.cache->AddMesh(mesh, joints);
  if (!mesh_id) return mesh_id.status();
  crowd.mesh = *mesh_id;
  for (uint32_t c = 0; c < characters; ++c) {
    auto palette = crowd.cache->AddPalette(
        uint32_t(mesh.palette_size(joints)),
        mesh.dual_quaternion() ? SkinningMethod::kDualQuaternion : SkinningMethod::kLinear);
    if (!palette) return palette.status();
    auto instance = crowd.cache->AddInstance(*mesh_id, *palette);
    if (!instance) return instance.status();
    if (!morph_weights.empty()) {
      if (Status s = crowd.cache->SetMorphWeights(*instance, morph_weights); !s) return s;
    }
    crowd.palettes.push_back(*palette);
    crowd.instances.push_back(*instance);
  }
  return crowd;
}

// How long the copy kernel runs before a GPU case's frames on a hardware GPU: at least the first,
// until its time is steady, at most the second (CopyKernel::WarmUp).
constexpr double kWarmUpMinMs = 300;
constexpr double kWarmUpMaxMs = 3000;

// Runs the GPU path's frames; fills `row`'s times. Every frame is run as an engine runs it: each
// character's palette at that frame's time (the procedural clip: PoseCharacter -> LocalToModelJob
// -> SkinningPaletteJob, on the CPU), uploaded to its slot with SetPalette, then the dispatch.
// Frames are 1/30 s apart and the last one is at kReferenceTime, so its output is the one checked
// against the CPU reference.
// `procedural`: the skeleton of the procedural crowd. A file's instances (`procedural` null) have
// no procedural clip: their palettes, posed once from the file's clip, are uploaded every frame as
// they are (no pose time: "pose us" prints "-").
// Once the first frame's palettes are uploaded, the case's own dispatch runs untimed until its
// time settles (SettleFrames, on a hardware GPU), and only then are the frames timed.
Status RunGpuFrames(const vk::Context& ctx, const GpuCrowd& crowd, const Primitive& mesh,
                    uint32_t joints, std::vector<Float3x4> posed, const Skeleton* procedural,
                    const BenchOptions& o, Row* row, Progress* progress) {
  const size_t j = mesh.palette_size(joints);
  const GpuTimer timer(ctx);
  if (!timer.status()) return timer.status();
  std::vector<double> gpu_ms, record_us, pose_us, upload_us;
  for (uint32_t f = 0; f < o.frames; ++f) {
    const float time = kReferenceTime - float(o.frames - 1 - f) / 30.0f;
    Status status;
    const auto p0 = Clock::now();
    for (uint32_t c = 0; c < o.characters && status && procedural; ++c) {
      status = procedural::CrowdPalette(*procedural, time, c, std::span(posed).subspan(c * j, j));
    }
    const auto p1 = Clock::now();
    for (uint32_t c = 0; c < o.characters && status; ++c) {
      status = crowd.cache->SetPalette(crowd.palettes[c], std::span(posed).subspan(c * j, j));
    }
    pose_us.push_back(std::chrono::duration<double, std::micro>(p1 - p0).count());
    upload_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - p1).count());
    if (!status) return status;
    if (f == 0) {
      if (Status s = SettleFrames(ctx, *crowd.cache, timer); !s) return s;
    }
    auto frame = RunTimedFrame(ctx, *crowd.cache, timer);
    if (!frame) return frame.status();
    record_us.push_back(frame->record_us);
    gpu_ms.push_back(frame->gpu_ms);
    progress->Update("gpu", f + 1, o.frames);
  }
  row->ms_per_frame = Median(gpu_ms);
  row->frame_ms = gpu_ms;
  row->record_us = Median(record_us);
  row->pose_us = procedural ? Median(pose_us) : -1.0;
  row->upload_us = Median(upload_us);
  return {};
}

// Reads every character's outputs back and fills `row`'s errors against `reference` (positions:
// PositionErrorOverExtent).
Status CompareWithReference(const vk::Context& ctx, const GpuCrowd& crowd,
                            const CpuOutputs& reference, Row* row) {
  CpuOutputs got;
  for (vk::InstanceId id : crowd.instances) {
    auto out = vk::ReadInstanceOutputs(ctx, *crowd.cache, id);
    if (!out) return out.status();
    got.positions.insert(got.positions.end(), out->positions.begin(), out->positions.end());
    got.normals.insert(got.normals.end(), out->normals.begin(), out->normals.end());
    got.tangents.insert(got.tangents.end(), out->tangents.begin(), out->tangents.end());
  }
  row->max_error = PositionErrorOverExtent(got.positions, reference.positions);
  row->max_direction_error = std::max(MaxAbsDiff(got.normals, reference.normals),
                                      MaxAbsDiff(got.tangents, reference.tangents));
  return {};
}

// Runs the GPU path with the mesh in `formats`; fills `row` (time, record cost, bytes per vertex
// as the cache laid the mesh out plus `morph_bytes_per_vertex`, error against `reference`).
// `warm`, when given, runs between the mesh's upload and the frames to bring the GPU's clocks up:
// packing a large mesh into compact formats leaves the GPU idle for a second or more, and an
// H200 measured 0.78 ms instead of 0.03 per frame when its clocks were down (BENCHMARKS.md).
Status RunGpu(const vk::Context& ctx, const Primitive& mesh, uint32_t joints,
              const std::vector<Float3x4>& palettes, const Skeleton* procedural,
              const std::vector<float>& morph_weights, const VertexFormats& formats,
              double morph_bytes_per_vertex, const BenchOptions& o, const CpuOutputs& reference,
              CopyKernel* warm, Row* row, Progress* progress) {
  auto crowd =
      CreateGpuCrowd(ctx, mesh, joints, morph_weights, o.characters, formats, o.workgroup_size);
  if (!crowd) return crowd.status();
  if (warm) {
    if (Status s = warm->WarmUp(kWarmUpMinMs, kWarmUpMaxMs); !s) return s;
  }
  row->bytes_per_vertex = uint32_t(std::lround(
      vk::BytesPerVertex(*crowd->cache->mesh_layout(crowd->mesh)) + morph_bytes_per_vertex));
  if (Status s = RunGpuFrames(ctx, *crowd, mesh, joints, palettes, procedural, o, row, progress);
      !s) {
    return s;
  }
  return CompareWithReference(ctx, *crowd, reference, row);
}

// One mesh the benchmark deforms, on the CPU and (when there is one) the GPU: a row each.
struct Case {
  std::string layout;
  Primitive mesh;
  std::vector<float> morph_weights;  // per target, after in-between resolution
  uint32_t active = 0;
  size_t touched = 0;
  double morph_bytes_per_vertex = 0;  // active targets: entries, lookups, blocks, deltas read
  std::vector<Float3x4> palettes;     // per character; empty: the procedural crowd's
  uint32_t joints = 0;  // of the skin: a palette has mesh.palette_size(joints) entries
  Skeleton skeleton;    // the procedural crowd's, posed every frame; empty for a file's
  // The formats the GPU path stores and writes the mesh in. A compact case runs on the GPU only
  // (its CPU reference is the float32 one, computed once, untimed) with its own tolerances.
  VertexFormats formats;
  bool gpu_only = false;
  // A GPU-only case's reference is the CPU outputs of the case named here, when it ran before
  // (the same mesh and poses, in float32).
  std::string reference_of;
  double position_tolerance = 1e-5, direction_tolerance = 1e-5;
  std::string formats_name = "float32";
};

Result<procedural::Character> ProceduralCharacter(const BenchOptions& o, uint32_t influences) {
  procedural::CharacterOptions co;
  co.vertex_count = o.vertices;
  co.influences_per_vertex = influences;
  co.seed = o.seed;
  return procedural::MakeCharacter(co);
}

// A case of the procedural crowd: `mesh` skinned by `skeleton`.
Case CrowdCase(std::string layout, Primitive mesh, const Skeleton& skeleton) {
  Case c;
  c.layout = std::move(layout);
  c.mesh = std::move(mesh);
  c.joints = uint32_t(skeleton.joint_count());
  c.skeleton = skeleton;
  return c;
}

// A file's instances posed: the first clip sampled at evenly spaced times (the rest pose when the
// file has no clip).
Result<std::vector<cpu::EvaluatedScene>> PoseFileInstances(const Asset& a, uint32_t characters) {
  std::vector<cpu::EvaluatedScene> scenes;
  for (uint32_t ch = 0; ch < characters; ++ch) {
    const int32_t clip = a.animations.empty() ? -1 : 0;
    float time = 0;
    if (clip >= 0) {
      const cpu::ClipRange range = cpu::RangeOf(a.animations[0]);
      time = range.start + range.duration() * float(ch) / float(characters);
    }
    auto scene = cpu::EvaluateScene(a, clip, time);
    if (!scene) return scene.status();
    scenes.push_back(std::move(scene.value()));
  }
  return scenes;
}

// A skinned primitive's cases: in its own influence layout and in the other one (lossless, where
// it converts). `palettes`: `joints` per character.
void AddPrimitiveCases(const Primitive& prim, const std::string& name,
                       const std::vector<Float3x4>& palettes, size_t joints,
                       const std::vector<float>& morph, uint32_t characters,
                       std::vector<Case>* cases) {
  Primitive native = prim;
  const auto label = [&](const Primitive& m) {
    return name + (m.sparse() ? std::string(" sparse")
                              : " dense K=" + std::to_string(m.influences.influences_per_vertex));
  };
  // Sparse -> dense needs groups == joints: the palette cut to the groups the primitive uses (a
  // group-indexed palette, so its first group_count entries).
  const size_t used =
      native.sparse() ? std::min<size_t>(joints, native.sparse_influences.group_count) : joints;
  Primitive other = prim;
  std::vector<Float3x4> other_palettes;
  for (uint32_t ch = 0; ch < characters; ++ch) {
    const auto first = palettes.begin() + ptrdiff_t(ch * joints);
    other_palettes.insert(other_palettes.end(), first, first + ptrdiff_t(used));
  }
  const bool converted =
      used > 0 &&
      UseInfluenceLayout(
          other, native.sparse() ? InfluenceLayout::kDense : InfluenceLayout::kSparse, 0, used)
          .ok();
  cases->push_back({label(native), std::move(native), morph, 0, 0, 0, palettes, uint32_t(joints)});
  if (converted) {
    cases->push_back(
        {label(other), std::move(other), morph, 0, 0, 0, other_palettes, uint32_t(used)});
  }
}

// FILE: per skinned primitive of every drawn skinned mesh instance, its cases (AddPrimitiveCases),
// with one palette per instance (PoseFileInstances); per primitive with morph targets of an
// unskinned instance, a "rigid" case (the fused kernel with the node's world matrix as the one
// palette entry). Morph targets apply, on every instance, at the first instance's weights (the
// clip's weights at its start, or the rest weights); their bytes are not counted in B/vert.
Status AddFileCases(const Asset& a, const BenchOptions& o, std::vector<Case>* cases) {
  auto scenes = PoseFileInstances(a, o.characters);
  if (!scenes) return scenes.status();
  for (uint32_t n : cpu::DrawnNodes(a)) {
    const Node& node = a.nodes[n];
    if (node.mesh < 0) continue;
    const Mesh& mesh = a.meshes[size_t(node.mesh)];
    const std::string mesh_name =
        mesh.name.empty() ? "mesh " + std::to_string(node.mesh) : mesh.name;
    if (node.skin < 0) {
      std::vector<Float3x4> world;
      for (const cpu::EvaluatedScene& scene : *scenes) world.push_back(ToFloat3x4(scene.world[n]));
      const std::vector<float> weights = cpu::MorphWeightsFor(mesh, (*scenes)[0].pose.weights[n]);
      for (size_t k = 0; k < mesh.primitives.size(); ++k) {
        const Primitive& prim = mesh.primitives[k];
        if (prim.targets.empty() || prim.skinned() || prim.vertex_count() == 0) continue;
        cases->push_back(
            {mesh_name + "/" + std::to_string(k) + " rigid", prim, weights, 0, 0, 0, world, 1});
      }
      continue;
    }
    std::vector<Float3x4> palettes;
    for (const cpu::EvaluatedScene& scene : *scenes) {
      auto palette = cpu::NodePalette(a, n, scene.world);
      if (!palette) return palette.status();
      palettes.insert(palettes.end(), palette->begin(), palette->end());
    }
    const size_t joints = palettes.size() / o.characters;
    const std::vector<float> weights = cpu::MorphWeightsFor(mesh, (*scenes)[0].pose.weights[n]);
    for (size_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& prim = mesh.primitives[k];
      if (prim.influences.joints.empty() && prim.sparse_influences.offsets.empty()) continue;
      const std::string name = mesh_name + "/" + std::to_string(k);
      AddPrimitiveCases(prim, name, palettes, joints,
                        prim.targets.empty() ? std::vector<float>() : weights, o.characters, cases);
    }
  }
  return {};
}

// FILE loaded and its cases added; `note` says what was loaded and how long it took. False (after
// a message) when the file does not load or has no skinned or morphing mesh instance.
bool LoadFileCases(const BenchOptions& o, std::vector<Case>* cases, std::string* note) {
  const auto t0 = Clock::now();
  auto file = loader::LoadAsset(o.file, o.load);
  const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!file) {
    std::fprintf(stderr, "sinew bench: %s: %s\n", o.file.c_str(), file.error().ToString().c_str());
    return false;
  }
  PrintLoaderWarnings("bench", file->loaded);
  if (Status s = AddFileCases(file->loaded.asset, o, cases); !s) {
    std::fprintf(stderr, "sinew bench: %s\n", s.error().ToString().c_str());
    return false;
  }
  if (cases->empty()) {
    std::fprintf(stderr, "sinew bench: %s has no skinned or morphing mesh instance\n",
                 o.file.c_str());
    return false;
  }
  char text[512];
  std::snprintf(text, sizeof(text), "%s: loaded in %.2f ms, %zu primitive cases", o.file.c_str(),
                load_ms, cases->size());
  *note = text;
  return true;
}

// Dense with each K asked for.
Status AddDenseCases(const BenchOptions& o, std::vector<Case>* cases) {
  for (uint32_t k : o.influences) {
    auto character = ProceduralCharacter(o, k);
    if (!character) return character.status();
    cases->push_back(
        CrowdCase("dense K=" + std::to_string(k), std::move(character->mesh), character->skeleton));
  }
  for (uint32_t k : o.influences) {
    if (!o.dual_quaternions) break;
    auto character = ProceduralCharacter(o, k);
    if (!character) return character.status();
    character->mesh.skinning = SkinningMethod::kDualQuaternion;
    cases->push_back(CrowdCase("dense K=" + std::to_string(k) + " dqs", std::move(character->mesh),
                               character->skeleton));
  }
  if (o.dual_quaternions && !o.influences.empty()) {
    // The first K once more with a non-uniform scale in every third joint's rest transform, so
    // that the palettes carry scale: the blending of the scale rows that the other dqs cases
    // skip (the kernels' and the CPU fast path's "with scale" code).
    const uint32_t k = o.influences.front();
    auto character = ProceduralCharacter(o, k);
    if (!character) return character.status();
    character->mesh.skinning = SkinningMethod::kDualQuaternion;
    std::vector<Float4x4>& rest = character->skeleton.rest_local;
    for (size_t j = 1; j < rest.size(); j += 3) {
      rest[j] = Multiply(rest[j], ComposeTrs({0, 0, 0}, {0, 0, 0, 1}, {1.15f, 0.9f, 1.05f}));
    }
    cases->push_back(CrowdCase("dense K=" + std::to_string(k) + " dqs scaled",
                               std::move(character->mesh), character->skeleton));
  }
  return {};
}

// Each dense K from and into compact formats, on the GPU: VertexFormats::Compact(), the same with
// unorm16 rest positions, unorm8 weights with snorm10 directions, and Compact()'s inputs with
// float32 outputs (an engine's vertex layout unchanged). Tolerances: positions (x
// extent) above the largest errors measured on the procedural crowd for K = 4 to 16 (unorm16: 1e-5;
// unorm8: 1.7e-3); directions as component differences of unit vectors, about the angle in radians.
Status AddFormatCases(const BenchOptions& o, std::vector<Case>* cases) {
  struct Format {
    const char* name;
    VertexFormats formats;
    double position, direction;
  };
  const Format formats[] = {
      {"compact", VertexFormats::Compact(), 1e-4, 1e-3},
      {"c+p16",
       {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kOctahedral,
        PositionFormat::kUnorm16},
       1e-4,
       1e-3},
      {"u8+s10",
       {WeightFormat::kUnorm8, DirectionFormat::kSnorm10, DirectionFormat::kSnorm10},
       4e-3,
       1e-2},
      {"c-in",
       {WeightFormat::kUnorm16, DirectionFormat::kOctahedral, DirectionFormat::kFloat32},
       1e-4,
       1e-3}};
  for (uint32_t k : o.influences) {
    auto character = ProceduralCharacter(o, k);  // one character per K, each format a copy
    if (!character) return character.status();
    for (const Format& f : formats) {
      Case c = CrowdCase("dense K=" + std::to_string(k) + " " + f.name, character->mesh,
                         character->skeleton);
      c.formats = f.formats;
      c.gpu_only = true;
      c.reference_of = "dense K=" + std::to_string(k);
      c.formats_name = f.name;
      c.position_tolerance = f.position;
      c.direction_tolerance = f.direction;
      cases->push_back(std::move(c));
    }
  }
  return {};
}

// Keeps each vertex's heaviest entries: 8-16 of them on every 10th vertex, else 1 or 2.
SparseInfluences VariedInfluences(const SparseInfluences& s) {
  SparseInfluences kept;
  kept.group_count = s.group_count;
  kept.offsets.push_back(0);
  for (size_t v = 0; v + 1 < s.offsets.size(); ++v) {
    const uint32_t available = s.offsets[v + 1] - s.offsets[v];
    const uint32_t want = v % 10 == 0 ? 8 + uint32_t(v / 10 % 9) : 1 + uint32_t(v % 2);
    for (uint32_t e = 0; e < std::min(available, want); ++e) {
      kept.groups.push_back(s.groups[s.offsets[v] + e]);
      kept.weights.push_back(s.weights[s.offsets[v] + e]);
    }
    kept.offsets.push_back(uint32_t(kept.groups.size()));
  }
  return kept;
}

// The layout comparison: a uniform 4-bone mesh as sparse, and a mesh whose influence counts vary
// (most vertices 1-2 bones, every 10th 8-16) in both layouts.
Status AddLayoutCases(const BenchOptions& o, std::vector<Case>* cases) {
  auto uniform = ProceduralCharacter(o, 4);
  if (!uniform) return uniform.status();
  const Skeleton& skeleton = uniform->skeleton;
  const size_t joints = skeleton.joint_count();
  Primitive& sparse_uniform = uniform->mesh;
  if (Status s = UseInfluenceLayout(sparse_uniform, InfluenceLayout::kSparse, 0, joints); !s) {
    return s;
  }
  auto varied = ProceduralCharacter(o, 16);
  if (!varied) return varied.status();
  Primitive& sparse_varied = varied->mesh;
  if (Status s = UseInfluenceLayout(sparse_varied, InfluenceLayout::kSparse, 0, joints); !s) {
    return s;
  }
  sparse_varied.sparse_influences = VariedInfluences(sparse_varied.sparse_influences);
  Primitive dense_varied = sparse_varied;
  // Lossless: K = 16.
  if (Status s = UseInfluenceLayout(dense_varied, InfluenceLayout::kDense, 0, joints); !s) {
    return s;
  }
  cases->push_back(CrowdCase("sparse uniform 4", std::move(sparse_uniform), skeleton));
  cases->push_back(CrowdCase("dense K=16 varied", std::move(dense_varied), skeleton));
  cases->push_back(CrowdCase("sparse varied", std::move(sparse_varied), skeleton));
  return {};
}

// Bytes the kernel reads for morphing, per vertex, at the resolved weights `resolved`; per
// group: the instance's active count (8); if not 0, the group's two offsets (8), the shorter of
// the active list (per target: entry 8, block index 4) and the group's blocks (per block: header
// 16, weight entry 8), then the header (16, once) and deltas of each active target's block.
double MorphBytesPerVertex(const MorphDeltas& packed, const std::vector<float>& resolved,
                           size_t vertices) {
  const size_t a =
      size_t(std::count_if(resolved.begin(), resolved.end(), [](float x) { return x != 0.0f; }));
  double bytes = 0;
  for (size_t g = 0; g + 1 < packed.group_offsets.size(); ++g) {
    bytes += 8;
    if (a == 0) continue;
    const size_t blocks = packed.group_offsets[g + 1] - packed.group_offsets[g];
    bytes += 8 + (a <= blocks ? 12.0 * double(a) : 24.0 * double(blocks));
    for (size_t b = packed.group_offsets[g]; b < packed.group_offsets[g + 1]; ++b) {
      if (resolved[packed.blocks[b * 4]] == 0) continue;
      bytes += (a <= blocks ? 16 : 0) + double(std::popcount(packed.blocks[b * 4 + 1]) +
                                               std::popcount(packed.blocks[b * 4 + 2])) *
                                            packed.stride() * 4;
    }
  }
  return bytes / double(vertices);
}

// Blend shapes fused with skinning: K = 4 with 50 face shapes (10 with an in-between), at 0, 5
// and 50 active shapes (weights 0.8: through the in-betweens where there are some).
Status AddShapeCases(const BenchOptions& o, std::vector<Case>* cases) {
  auto character = ProceduralCharacter(o, 4);
  if (!character) return character.status();
  Primitive* face = &character->mesh;
  procedural::FaceShapeOptions fo;
  fo.seed = o.seed;
  auto shapes = procedural::MakeFaceShapes(*face, fo);
  if (!shapes) return shapes.status();
  face->targets = shapes->targets;
  const MorphDeltas packed = PackMorphTargets(face->vertex_count(), face->targets);
  for (uint32_t active : {0u, 5u, 50u}) {
    std::vector<float> weights(shapes->targets.size(), 0.0f), resolved(weights.size());
    for (uint32_t t = 0; t < active; ++t) weights[t] = 0.8f;
    cpu::SubShapeWeightsJob job;
    job.shapes = shapes->inbetweens;
    job.weights = weights;
    job.output = resolved;
    if (Status s = job.Run(); !s) return s;
    size_t touched = 0;
    for (size_t t = 0; t < resolved.size(); ++t)
      touched += resolved[t] != 0 ? shapes->touched[t] : 0;
    Case c = CrowdCase("K=4 shapes " + std::to_string(active) + "/50", *face, character->skeleton);
    c.morph_weights = resolved;
    c.active = active;
    c.touched = touched;
    c.morph_bytes_per_vertex = MorphBytesPerVertex(packed, resolved, face->vertex_count());
    cases->push_back(std::move(c));
  }
  return {};
}

// The cases: FILE's (LoadFileCases), or the procedural ones: dense with each K asked for, then
// the layout comparison and the blend shapes unless skipped. False after a message.
bool MakeCases(const BenchOptions& o, std::vector<Case>* cases, std::string* file_note) {
  if (!o.file.empty()) return LoadFileCases(o, cases, file_note);
  Status status = AddDenseCases(o, cases);
  if (status && o.formats && !o.skip_gpu) status = AddFormatCases(o, cases);
  if (status && o.layouts) status = AddLayoutCases(o, cases);
  if (status && o.shapes) status = AddShapeCases(o, cases);
  if (!status) std::fprintf(stderr, "sinew bench: %s\n", status.error().ToString().c_str());
  return status.ok();
}

// Bytes the CPU reference moves per vertex: the float32 streams the mesh has (rest position,
// normal and tangent) read and written (80 when it has all three), the influences as its layout
// holds them (influence_layout.h), and the morph bytes. Palette reads are shared by a character's
// vertices (cached) and not counted.
uint32_t BytesPerVertex(const Case& c) {
  const Primitive& mesh = c.mesh;
  const size_t v = mesh.vertex_count();
  // float32 position, and normal and tangent where the mesh has them, each read and written.
  const size_t stream_bytes =
      2 * (12 + (mesh.normals.empty() ? 0 : 12) + (mesh.tangents.empty() ? 0 : 16));
  const size_t influence_bytes =  // a rigid mesh reads none on the CPU
      mesh.sparse()    ? SparseInfluenceBytes(v, mesh.sparse_influences.entry_count())
      : mesh.skinned() ? DenseInfluenceBytes(v, mesh.influences.influences_per_vertex)
                       : 0;
  return uint32_t(stream_bytes) +
         uint32_t(std::lround(double(influence_bytes) / double(v) + c.morph_bytes_per_vertex));
}

// CPU outputs kept for the cases that take them as their reference (Case::reference_of), by
// layout.
using KeptReferences = std::map<std::string, CpuOutputs>;

// Runs a case on the CPU and, with `ctx`, the GPU; appends a row each. False after a message.
// `warm`, when given, runs before the GPU frames to bring the GPU's clocks up (the CPU reference
// and the mesh's upload before them leave the GPU idle for seconds): see RunGpu.
bool RunCase(const Case& c, const BenchOptions& o, const vk::Context* ctx, CopyKernel* warm,
             KeptReferences* kept, Progress* progress, std::vector<Row>* rows) {
  const Primitive& mesh = c.mesh;
  const size_t j = mesh.palette_size(c.joints);
  std::vector<Float3x4> palettes(o.characters * j);
  if (!c.palettes.empty()) palettes = c.palettes;
  for (uint32_t ch = 0; ch < o.characters && c.palettes.empty(); ++ch) {
    Status s = procedural::CrowdPalette(c.skeleton, kReferenceTime, ch,
                                        std::span(palettes).subspan(ch * j, j));
    if (!s) {
      std::fprintf(stderr, "sinew bench: %s\n", s.error().ToString().c_str());
      return false;
    }
  }
  const size_t v = mesh.vertex_count();
  const double entries = mesh.sparse() ? double(mesh.sparse_influences.entry_count()) / double(v)
                                       : double(mesh.influences.influences_per_vertex);
  CpuOutputs own;
  const CpuOutputs* reference = &own;
  Row cpu_row{"cpu", c.layout, entries, uint64_t(o.characters) * v, BytesPerVertex(c)};
  cpu_row.auto_layout = mesh.skinned() ? ToString(ChooseInfluenceLayout(mesh)) : "-";
  cpu_row.active_shapes = c.active;
  cpu_row.touched = c.touched;
  if (mesh.dual_quaternion()) {
    std::vector<cpu::DualQuaternion> dqs(palettes.size());
    if (Status s = cpu::DualQuaternionPaletteJob{palettes, dqs}.Run(); !s) {
      std::fprintf(stderr, "sinew bench: %s\n", s.error().ToString().c_str());
      return false;
    }
    cpu_row.palette_scale = cpu::HasScale(dqs);
  }
  const bool gpu_only = c.gpu_only || o.gpu_only;
  if (gpu_only) {  // the reference alone: kept from an earlier case, or one untimed frame
    if (!ctx) return true;
    if (auto it = kept->find(c.reference_of); it != kept->end()) {
      reference = &it->second;
    } else {
      RunCpu(mesh, c.joints, palettes, c.morph_weights, o.characters, 1,
             o.FastRun(cpu::ThreadCount(o.cpu_threads)), &own, progress);
    }
  }
  cpu_row.ms_per_frame = gpu_only ? 0
                                  : RunCpu(mesh, c.joints, palettes, c.morph_weights, o.characters,
                                           o.frames, cpu::SkinRun{1, false}, &own, progress);
  // The fast path: vectorized on one thread, then on several; the same outputs, bit for bit.
  const auto fast = [&](uint32_t threads, double* ms,
                        const cpu::InfluenceCheck* checked = nullptr) {
    CpuOutputs out;
    *ms = RunCpu(mesh, c.joints, palettes, c.morph_weights, o.characters, o.frames,
                 o.FastRun(threads), &out, progress, checked);
    const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
      return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    };
    if (same(out.positions, own.positions) && same(out.normals, own.normals) &&
        same(out.tangents, own.tangents)) {
      return true;
    }
    std::fprintf(stderr,
                 "sinew bench: %s: the vectorized CPU path on %u threads%s differs from the "
                 "scalar\n",
                 c.layout.c_str(), threads, checked != nullptr ? ", checked once," : "");
    return false;
  };
  if (!gpu_only) {
    cpu_row.lanes = cpu::SkinLanes(mesh, o.FastRun(1));
    cpu_row.avx512 = cpu::SkinsWithAvx512(mesh, o.FastRun(1));
    if (!fast(1, &cpu_row.vectorized_ms)) return false;
    // The same with the influences checked once, as an engine that skins a mesh every frame
    // would: what the per-run check costs.
    if (mesh.skinned()) {
      auto checked = cpu::InfluenceCheck::Of(mesh);
      if (!checked) {
        std::fprintf(stderr, "sinew bench: %s\n", checked.error().ToString().c_str());
        return false;
      }
      if (!fast(1, &cpu_row.checked_once_ms, &*checked)) return false;
    }
    // The copy the one-thread figures are held to, beside them in time on this noisy machine.
    cpu_row.cpu_copy = MeasureCpuCopy(cpu_row.frame_bytes());
    if (const uint32_t threads = cpu::ThreadCount(o.cpu_threads); threads > 1) {
      cpu_row.threads = threads;
      cpu_row.threads_used = cpu::SkinThreads(v, cpu::SkinRun{threads});
      if (!fast(threads, &cpu_row.threaded_ms)) return false;
    }
    rows->push_back(cpu_row);
  }
  if (!ctx) return true;
  Row gpu_row = cpu_row;
  gpu_row.path = "gpu";
  gpu_row.position_tolerance = c.position_tolerance;
  gpu_row.direction_tolerance = c.direction_tolerance;
  gpu_row.formats = c.formats_name;
  if (Status s = RunGpu(*ctx, mesh, c.joints, palettes, c.palettes.empty() ? &c.skeleton : nullptr,
                        c.morph_weights, c.formats, c.morph_bytes_per_vertex, o, *reference, warm,
                        &gpu_row, progress);
      !s) {
    std::fprintf(stderr, "sinew bench: GPU path status: %s\n", s.error().ToString().c_str());
    return false;
  }
  rows->push_back(gpu_row);
  if (!own.positions.empty()) (*kept)[c.layout] = std::move(own);  // for later cases to name
  return true;
}

// GPU rows within their tolerance of the CPU reference (positions x extent, normals and
// tangents).
bool WithinTolerance(const std::vector<Row>& rows) {
  return std::all_of(rows.begin(), rows.end(), [](const Row& r) {
    return r.path != "gpu" ||
           (r.max_error <= r.position_tolerance && r.max_direction_error <= r.direction_tolerance);
  });
}

// The row of `path` and `layout`, or null.
const Row* FindRow(const std::vector<Row>& rows, const std::string& path,
                   const std::string& layout) {
  for (const Row& r : rows) {
    if (r.path == path && r.layout == layout) return &r;
  }
  return nullptr;
}

// The blend-shape summary: fused kernel with no active shape against skinning alone, and the cost
// per active shape and per touched vertex (50 active against 0 active), per path.
void PrintShapeCosts(const std::vector<Row>& rows, uint32_t characters) {
  for (const char* path : {"cpu", "gpu"}) {
    const Row* skin = FindRow(rows, path, "dense K=4");
    const Row* none = FindRow(rows, path, "K=4 shapes 0/50");
    const Row* all = FindRow(rows, path, "K=4 shapes 50/50");
    if (!none || !all || all->touched == 0) continue;
    const double delta_ms = all->ms_per_frame - none->ms_per_frame;
    std::printf("blend shapes (%s): ", path);
    if (skin) {
      std::printf("0 active costs %+.1f%% over skinning alone; ",
                  100.0 * (none->ms_per_frame / skin->ms_per_frame - 1.0));
    }
    std::printf("50 active: %.1f us per active shape per frame, %.2f ns per touched vertex\n",
                delta_ms * 1e3 / all->active_shapes,
                delta_ms * 1e6 / (double(all->touched) * characters));
  }
}

// The dual-quaternion summary: each dense K blended with dual quaternions against linearly, and
// the scaled case against the same K without scale, per path.
void PrintDualQuaternionCosts(const std::vector<Row>& rows) {
  // (suffix of the row's layout, the other row's, what the figure is over)
  const struct {
    const char *suffix, *what, *over;
  } pairs[] = {{" dqs", "dual quaternions", "linear blending"},
               {" scaled", "dual quaternions with scale", "without"}};
  for (const auto& pair : pairs) {
    for (const Row& r : rows) {
      if (!r.layout.ends_with(std::string(pair.suffix))) continue;
      const std::string base = r.layout.substr(0, r.layout.size() - std::strlen(pair.suffix));
      if (const Row* b = FindRow(rows, r.path, base)) {
        std::printf("%s (%s, %s): %+.1f%% over %s\n", pair.what, r.path.c_str(), base.c_str(),
                    100.0 * (r.ms_per_frame / b->ms_per_frame - 1.0), pair.over);
      }
    }
  }
}

// What the run measured, for the table or the JSON.
struct BenchReport {
  std::string device;           // the GPU's name, "none" without one
  uint32_t workgroup_size = 0;  // the GPU kernels' (0 without a GPU)
  uint32_t subgroup_size = 0;   // the GPU's (Context::subgroup_size)
  std::string gpu_note;   // why the GPU path did not run ("" when it did, or was not asked for)
  std::string file_note;  // FILE: what was loaded, and how long it took
  bool gpu = false;       // the GPU path ran
  bool within_tolerance = true;
  std::vector<Row> rows;
  // The copy kernel's bandwidth on the same device (copy_bandwidth.h), when the GPU path ran and
  // it could be measured; copy_note says why not otherwise.
  std::optional<CopyBandwidth> copy;
  std::string copy_note;
  // The copy kernel as one dispatch moving a frame's bytes (CopyKernel::MeasureOneDispatch), by
  // Row::frame_bytes of the GPU rows; measured with `copy`.
  std::map<uint64_t, CopyBandwidth> one_dispatch;
  std::string one_dispatch_note;  // why one of those could not be measured ("" otherwise)
  // With --kernel-stats: every kernel the run compiled, as the driver describes it, or why none
  // could be listed.
  std::optional<std::vector<vk::KernelStatistics>> kernels;
  std::string kernels_note;
  // A GPU row's GB/s as a fraction of the copy kernel's; negative without a copy figure.
  double CopyFraction(const Row& r) const {
    return copy && copy->gb_per_s > 0 ? r.gb_per_s() / copy->gb_per_s : -1.0;
  }
  // The same against one copy dispatch of the row's bytes; negative without one.
  double OneDispatchFraction(const Row& r) const {
    const auto found = one_dispatch.find(r.frame_bytes());
    return found != one_dispatch.end() && found->second.gb_per_s > 0
               ? r.gb_per_s() / found->second.gb_per_s
               : -1.0;
  }
};

// The copy kernel moves this much (or the device's maxStorageBufferRange, if less): four times a
// desktop GPU's last-level cache and more.
constexpr VkDeviceSize kCopyBytes = VkDeviceSize(256) << 20;

// `sinew bench --json`: the options, then a row per path and case.
void PrintJson(const BenchOptions& o, const BenchReport& report) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("device").String(report.device);
  for (const auto& [key, value] : {std::pair{"workgroup_size", report.workgroup_size},
                                   std::pair{"subgroup_size", report.subgroup_size}}) {
    json.Key(key);
    if (value) {
      json.Int(value);
    } else {
      json.Null();
    }
  }
  json.Key("file");
  if (o.file.empty()) {
    json.Null();
  } else {
    json.String(o.file);
  }
  json.Key("characters").Int(o.characters);
  json.Key("vertices_per_character");
  if (o.file.empty()) {
    json.Int(o.vertices);
  } else {
    json.Null();
  }
  json.Key("frames").Int(o.frames);
  json.Key("within_tolerance");  // null where the GPU did not run: nothing was compared
  if (report.gpu) {
    json.Bool(report.within_tolerance);
  } else {
    json.Null();
  }
  json.Key("copy_kernel");
  if (report.copy) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("bytes").Int(int64_t(report.copy->bytes));
    json.Key("gb_per_s").Number(report.copy->gb_per_s, JsonWriter::Fixed(3));
    json.Key("copies_per_batch").Int(report.copy->copies_per_batch);
    json.EndObject();
  } else {
    json.Null();
  }
  // --kernel-stats: each compiled kernel and what the driver says of it.
  json.Key("kernel_statistics");
  if (report.kernels) {
    WriteKernelStatistics(json, *report.kernels);
  } else {
    json.Null();
  }
  // CopyKernel::MeasureOneDispatch for each GPU row's frame bytes.
  json.Key("one_dispatch_copies").BeginArray();
  for (const auto& [frame_bytes, one] : report.one_dispatch) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("frame_bytes").Int(int64_t(frame_bytes));
    json.Key("bytes").Int(int64_t(one.bytes));
    json.Key("gb_per_s").Number(one.gb_per_s, JsonWriter::Fixed(3));
    json.EndObject();
  }
  json.EndArray();
  json.Key("results").BeginArray();
  for (const Row& r : report.rows) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("path").String(r.path);
    json.Key("layout").String(r.layout);
    json.Key("influences").Number(r.influences, JsonWriter::Fixed(3));
    json.Key("vertices").Int(int64_t(r.vertices));
    json.Key("bytes_per_vertex").Int(r.bytes_per_vertex);
    json.Key("ms_per_frame").Number(r.ms_per_frame, JsonWriter::Fixed(4));
    json.Key("mvertices_per_s").Number(r.mvertices_per_s(), JsonWriter::Fixed(2));
    json.Key("gb_per_s").Number(r.gb_per_s(), JsonWriter::Fixed(3));
    json.Key("auto_layout").String(r.auto_layout);
    json.Key("active_shapes").Int(r.active_shapes);
    json.Key("touched_per_character").Int(int64_t(r.touched));
    json.Key("palette_scale");
    if (r.palette_scale) {
      json.Bool(*r.palette_scale);
    } else {
      json.Null();
    }
    if (r.path == "cpu") {
      json.Key("vectorized_ms_per_frame").Number(r.vectorized_ms, JsonWriter::Fixed(4));
      json.Key("checked_once_ms_per_frame");
      if (r.checked_once_ms >= 0) {
        json.Number(r.checked_once_ms, JsonWriter::Fixed(4));
      } else {
        json.Null();
      }
      json.Key("cpu_copy");
      if (r.cpu_copy) {
        json.BeginObject(JsonWriter::kInline);
        json.Key("bytes").Int(int64_t(r.cpu_copy->bytes));
        json.Key("gb_per_s").Number(r.cpu_copy->gb_per_s, JsonWriter::Fixed(3));
        json.EndObject();
      } else {
        json.Null();
      }
      for (const auto& [key, fraction] :
           {std::pair{"vectorized_copy_fraction", r.CpuCopyFraction(r.vectorized_ms)},
            std::pair{"checked_once_copy_fraction", r.CpuCopyFraction(r.checked_once_ms)}}) {
        json.Key(key);
        if (fraction >= 0) {
          json.Number(fraction, JsonWriter::Fixed(4));
        } else {
          json.Null();
        }
      }
      json.Key("lanes").Int(r.lanes);
      json.Key("avx512").Bool(r.avx512);
      json.Key("threads").Int(r.threads);
      json.Key("threads_used").Int(r.threads_used);
      if (r.threaded_ms >= 0) {
        json.Key("threaded_ms_per_frame").Number(r.threaded_ms, JsonWriter::Fixed(4));
      } else {
        json.Key("threaded_ms_per_frame").Null();
      }
    }
    if (r.path == "gpu") {
      json.Key("formats").String(r.formats);
      json.Key("position_tolerance").Number(r.position_tolerance);
      json.Key("direction_tolerance").Number(r.direction_tolerance);
      json.Key("frame_ms").BeginArray(JsonWriter::kInline);
      for (double ms : r.frame_ms) json.Number(ms, JsonWriter::Fixed(4));
      json.EndArray();
      json.Key("record_us").Number(r.record_us, JsonWriter::Fixed(2));
      json.Key("pose_us");
      if (r.pose_us >= 0) {
        json.Number(r.pose_us, JsonWriter::Fixed(1));
      } else {
        json.Null();
      }
      json.Key("upload_us").Number(r.upload_us, JsonWriter::Fixed(1));
      for (const auto& [key, fraction] :
           {std::pair{"copy_fraction", report.CopyFraction(r)},
            std::pair{"one_dispatch_copy_fraction", report.OneDispatchFraction(r)}}) {
        json.Key(key);
        if (fraction >= 0) {
          json.Number(fraction, JsonWriter::Fixed(4));
        } else {
          json.Null();
        }
      }
      json.Key("max_error_over_extent").Number(r.max_error, JsonWriter::Significant(3));
      json.Key("max_direction_error").Number(r.max_direction_error, JsonWriter::Significant(3));
    }
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

// The CPU fast path beside the scalar reference (the table's cpu rows): Mvertices/s vectorized on
// one thread, and on several (with the figure per thread).
void PrintFastCpu(const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    if (r.path != "cpu" || r.vectorized_ms < 0) continue;
    const auto mvs = [&](double ms) { return double(r.vertices) / (ms * 1e-3) / 1e6; };
    // The fast path is vectorized for linear blending with the blended-matrix normal rule and for
    // dual quaternions, eight at a time (cpu::SkinLanes); the others run their
    // scalar code there too, on threads.
    std::printf("cpu %-21s scalar %.1f Mvert/s; %s %.1f", r.layout.c_str(), r.mvertices_per_s(),
                r.lanes > 1 ? "vectorized" : "fast path (scalar code for this mesh)",
                mvs(r.vectorized_ms));
    if (r.checked_once_ms >= 0) std::printf(" (checked once %.1f)", mvs(r.checked_once_ms));
    if (r.threaded_ms >= 0) {
      std::printf(", on %u threads %.1f", r.threads, mvs(r.threaded_ms));
      if (r.threads_used == r.threads) {
        std::printf(" (%.1f per thread)", mvs(r.threaded_ms) / r.threads);
      } else {
        std::printf(" (%u used: the mesh is too small for more)", r.threads_used);
      }
    }
    if (r.lanes > 1) std::printf("; %u vertices at a time", r.lanes);
    if (r.avx512) std::printf(" with AVX-512");
    std::printf("; the same outputs bit for bit\n");
    if (const double copy = r.CpuCopyFraction(r.vectorized_ms); copy >= 0) {
      std::printf("    one thread: %.2f GB/s, %.1f %% of a copy loop's %.2f GB/s",
                  r.GbPerS(r.vectorized_ms), 100.0 * copy, r.cpu_copy->gb_per_s);
      if (const double once = r.CpuCopyFraction(r.checked_once_ms); once >= 0) {
        std::printf(" (checked once %.1f %%)", 100.0 * once);
      }
      std::printf("\n");
    }
  }
}

// The human-readable table, with the GPU-vs-CPU verdict and the blend-shape summary.
void PrintTable(const BenchOptions& o, const BenchReport& report) {
  if (report.file_note.empty()) {
    std::printf("sinew bench: %u characters x %u vertices, %u frames (median), device: %s\n",
                o.characters, o.vertices, o.frames, report.device.c_str());
  } else {
    std::printf("sinew bench: %s; %u instances, %u frames (median), device: %s\n",
                report.file_note.c_str(), o.characters, o.frames, report.device.c_str());
  }
  if (!report.gpu_note.empty()) std::printf("GPU path skipped: %s\n", report.gpu_note.c_str());
  if (report.workgroup_size) {
    std::printf("GPU kernels: workgroups of %u vertices (the device's subgroups: %u)\n",
                report.workgroup_size, report.subgroup_size);
  }
  std::printf("%-5s %-21s %6s %6s %10s %7s %10s %9s %7s %6s %6s %10s %9s %9s %12s\n", "path",
              "influences", "/vert", "auto", "vertices", "B/vert", "ms/frame", "Mvert/s", "GB/s",
              "%copy", "%copy1", "record us", "pose us", "upload us", "max err/ext");
  for (const Row& r : report.rows) {
    std::printf("%-5s %-21s %6.2f %6s %10llu %7u %10.3f %9.1f %7.2f", r.path.c_str(),
                r.layout.c_str(), r.influences, r.auto_layout,
                static_cast<unsigned long long>(r.vertices), r.bytes_per_vertex, r.ms_per_frame,
                r.mvertices_per_s(), r.gb_per_s());
    if (r.path == "gpu") {
      for (double fraction : {report.CopyFraction(r), report.OneDispatchFraction(r)}) {
        if (fraction >= 0) {
          std::printf(" %6.1f", 100.0 * fraction);
        } else {
          std::printf(" %6s", "-");
        }
      }
      std::printf(" %10.1f", r.record_us);
      if (r.pose_us >= 0) {
        std::printf(" %9.1f", r.pose_us);
      } else {
        std::printf(" %9s", "-");
      }
      std::printf(" %9.1f %12.2e\n", r.upload_us, r.max_error);
    } else {
      std::printf(" %6s %6s %10s %9s %9s %12s\n", "-", "-", "-", "-", "-", "reference");
    }
  }
  std::printf(
      "GPU vs CPU: %s (positions <= 1e-5 x extent, normals/tangents <= 1e-5; compact formats:\n"
      "  compact, c+p16 and c-in 1e-4 and 1e-3, u8+s10 4e-3 and 1e-2)\n",
      report.gpu ? (report.within_tolerance ? "within tolerance" : "OUT OF TOLERANCE") : "not run");
  if (report.copy) {
    std::printf(
        "copy kernel: %.1f GB/s (%llu MiB read and written each copy, %u back to back); %%copy = "
        "GB/s / that\n",
        report.copy->gb_per_s, static_cast<unsigned long long>(report.copy->bytes >> 20),
        report.copy->copies_per_batch);
    std::printf("%%copy1 = GB/s / the copy kernel's as one dispatch moving a frame's bytes:");
    const char* separator = " ";
    for (const auto& [frame_bytes, one] : report.one_dispatch) {
      std::printf("%s%.1f MB %.1f GB/s", separator, 2.0 * double(one.bytes) / 1e6, one.gb_per_s);
      separator = ", ";
    }
    if (!report.one_dispatch_note.empty()) {
      std::printf("%snot measured (%s)", separator, report.one_dispatch_note.c_str());
    }
    std::printf("\n");
  } else if (report.gpu) {
    std::printf("copy kernel: not measured (%s)\n", report.copy_note.c_str());
  }
  PrintShapeCosts(report.rows, o.characters);
  PrintDualQuaternionCosts(report.rows);
  PrintFastCpu(report.rows);
  if (report.kernels) {
    std::fputs(KernelStatisticsTable(*report.kernels).c_str(), stdout);
  } else if (o.kernel_stats) {
    std::printf("kernel statistics: none (%s)\n", report.kernels_note.c_str());
  }
}

// The GPU path's Context on the device `tool_options` selects (ToolContextOptions), or null (with
// `note` saying why) when it is skipped or none is found.
std::unique_ptr<vk::Context> CreateBenchContext(const BenchOptions& o,
                                                const vk::ContextOptions& tool_options,
                                                std::string* note) {
  if (o.skip_gpu) return nullptr;
  vk::ContextOptions context_options = tool_options;
  context_options.validation = vk::Validation::kOff;  // Timing, not checking.
  context_options.kernel_statistics = o.kernel_stats;
  auto created = vk::Context::Create(context_options);
  if (!created) {
    *note = created.error().ToString();
    std::fprintf(stderr, "sinew bench: no GPU path: %s\n", note->c_str());
    return nullptr;
  }
  return std::move(created.value());
}

// `sinew bench --loader [--json] [FILES]`.
int LoaderBenchCommand(std::span<const std::string_view> args) {
  std::vector<std::string_view> files;
  bool json = false;
  for (std::string_view a : args) {
    if (a == "--json") {
      json = true;
    } else if (a.starts_with("--")) {
      std::fprintf(stderr, "sinew bench --loader: unknown option '%.*s' (see sinew bench --help)\n",
                   int(a.size()), a.data());
      return 2;
    } else {
      files.push_back(a);
    }
  }
  return LoaderBench(files, json);
}

}  // namespace

int BenchCommand(std::span<const std::string_view> args) {
  // --help wherever it stands, in every form: the --crowd form has a help of its own.
  const bool crowd = std::find(args.begin(), args.end(), "--crowd") != args.end();
  if (AsksForHelp(args)) {
    crowd ? PrintCrowdHelp() : PrintHelp();
    return 0;
  }
  if (!args.empty() && args[0] == "--loader") return LoaderBenchCommand(args.subspan(1));
  if (!args.empty() && args[0] == "--usda") return UsdaBench(args.subspan(1));
  if (crowd) return CrowdBench(args);
  if (std::find(args.begin(), args.end(), "--pose") != args.end()) return PoseBench(args);
  BenchOptions o;
  if (std::string err = ParseArgs(args, &o); !err.empty()) {
    std::fprintf(stderr, "sinew bench: %s (see sinew bench --help)\n", err.c_str());
    return 2;
  }
  BenchReport report;
  // --device, else SINEW_DEVICE, read once for the context and the message below.
  const vk::ContextOptions tool_options = ToolContextOptions(o.device);
  const std::unique_ptr<vk::Context> ctx = CreateBenchContext(o, tool_options, &report.gpu_note);
  const std::string& context_device = tool_options.device;
  report.gpu = ctx != nullptr;
  // A device asked for by name or index that is not there is an error, not a CPU-only run.
  if (!ctx && !o.skip_gpu && !context_device.empty()) {
    std::fprintf(stderr, "sinew bench: no device '%s' (--device or SINEW_DEVICE)\n",
                 context_device.c_str());
    return 1;
  }
  if (o.gpu_only && !ctx) {
    std::fprintf(stderr, "sinew bench: --gpu-only, and no GPU path\n");
    return 1;
  }
  report.device = ctx ? ctx->properties().deviceName : "none";
  if (ctx) {
    auto workgroup_size = vk::SkinWorkgroupSize(*ctx, o.workgroup_size);
    if (!workgroup_size) {
      std::fprintf(stderr, "sinew bench: %s\n", workgroup_size.error().ToString().c_str());
      return 2;
    }
    report.workgroup_size = *workgroup_size;
    report.subgroup_size = ctx->subgroup_size();
  }
  Progress progress;
  std::vector<Case> cases;
  if (!MakeCases(o, &cases, &report.file_note)) return 1;
  std::unique_ptr<CopyKernel> copy_kernel;
  if (ctx) {
    auto created = CopyKernel::Create(*ctx, kCopyBytes);
    if (created) {
      copy_kernel = std::move(*created);
    } else {
      report.copy_note = created.error().ToString();
    }
  }
  CopyKernel* warm = ctx && !ctx->cpu_device() ? copy_kernel.get() : nullptr;
  KeptReferences kept;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    if (!RunCase(c, o, ctx.get(), warm, &kept, &progress, &report.rows)) return 1;
    // A kept reference goes once no later case names it (10M vertices: 400 MB a character).
    for (const std::string& key : {c.layout, c.reference_of}) {
      const auto names = [&](const Case& d) { return d.reference_of == key; };
      if (std::none_of(cases.begin() + i + 1, cases.end(), names)) kept.erase(key);
    }
  }
  if (copy_kernel) {
    if (warm) (void)warm->WarmUp(kWarmUpMinMs, kWarmUpMaxMs);
    auto copy = copy_kernel->Measure();
    if (copy) {
      report.copy = *copy;
      for (const Row& r : report.rows) {
        if (r.path != "gpu" || report.one_dispatch.count(r.frame_bytes())) continue;
        auto one = copy_kernel->MeasureOneDispatch(r.frame_bytes());
        if (!one) {
          report.one_dispatch_note = one.error().ToString();
          break;
        }
        report.one_dispatch[r.frame_bytes()] = *one;
      }
    } else {
      report.copy_note = copy.error().ToString();
    }
  }
  if (o.kernel_stats && !ctx) {
    report.kernels_note = "no GPU path";
  } else if (o.kernel_stats) {
    if (!ctx->kernel_statistics_enabled()) {
      report.kernels_note = "the device has no VK_KHR_pipeline_executable_properties";
    } else if (auto kernels = ctx->QueryKernelStatistics(); kernels) {
      std::sort(kernels->begin(), kernels->end(),
                [](const auto& a, const auto& b) { return a.kernel < b.kernel; });
      report.kernels = std::move(*kernels);
    } else {
      report.kernels_note = kernels.error().ToString();
    }
  }
  progress.Finish();
  report.within_tolerance = WithinTolerance(report.rows);
  if (o.json) {
    PrintJson(o, report);
  } else {
    PrintTable(o, report);
  }
  return report.within_tolerance ? 0 : 1;
}

}  // namespace sinew::tool
