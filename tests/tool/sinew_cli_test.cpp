// The `sinew` tool end to end: each test runs the built binary with --json (or reads the files it
// writes) and checks the values. Suites ending in OnGpu need a Vulkan device (lavapipe in CI): they
// carry the gpu label, are skipped without a device, and fail without one when CI=true.
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gpu/gpu_test.h"
#include "sinew/asset/primitive.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/skin_run.h"
#include "test_assets.h"
#include "tool/tool_run.h"

namespace sinew::testing {
namespace {

// Positions within 1e-5 of the scene's extent, normals and tangents within 1e-5: the tolerance
// `sinew bench` checks the GPU against the CPU reference with.
constexpr double kTolerance = 1e-5;

std::string Asset(const char* relative) { return (TestAssets() / relative).string(); }

// The fuzz corpus's glTF seeds (tests/fuzz/corpus/gltf).
std::string CorpusGltf(const char* name) {
  return (std::filesystem::path(SINEW_TESTS_DIR) / "fuzz/corpus/gltf" / name).string();
}

// Runs `sinew args...` in `dir`, expects exit code 0 and returns its stdout parsed as JSON.
JsonDocument RunJson(const std::vector<std::string>& args, const ScratchDir& dir) {
  const ToolRun run = RunSinew(args, dir.path());
  EXPECT_EQ(run.exit_code, 0) << "stderr: " << run.err;
  return JsonDocument(run.out);
}

// `args` followed by `extra`.
std::vector<std::string> Plus(std::vector<std::string> args,
                              const std::vector<std::string>& extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// Whether a linearly blended mesh under the default run, as the bench's dense K = 4 row skins
// it, goes eight at a time with AVX-512 on this CPU.
bool LinearMeshesTakeAvx512() {
  Primitive mesh;
  mesh.influences.joints = {0, 0, 0, 0};
  mesh.influences.weights = {1.0f, 0.0f, 0.0f, 0.0f};
  return cpu::SkinsWithAvx512(mesh, cpu::SkinRun{});
}

// The layouts of a bench report's rows, as "path layout", in order.
std::vector<std::string> RowNames(const JsonValue& results) {
  std::vector<std::string> names;
  for (const JsonValue& r : results.Elements()) {
    names.push_back(r["path"].String() + " " + r["layout"].String());
  }
  return names;
}

// Every float32 GPU row of a `sinew bench --json` report matches the CPU reference within
// kTolerance, and there is one for every CPU row; every compact-format GPU row (no CPU row of its
// own) stays within its stated tolerance, at most the bounds docs/vertex_formats.md gives
// (unorm16: 1e-4 x extent; unorm8: 4e-3); the report says so.
void ExpectGpuRowsWithinTolerance(const JsonValue& report) {
  EXPECT_NE(report["device"].String(), "none");
  EXPECT_TRUE(report["within_tolerance"].Bool());
  size_t cpu = 0, gpu = 0;
  for (const JsonValue& r : report["results"].Elements()) {
    EXPECT_GT(r["ms_per_frame"].Number(), 0.0) << r.path();
    if (r["path"].String() == "cpu") {
      ++cpu;
      continue;
    }
    const std::string formats = r["formats"].String();
    const bool unorm16 = formats == "compact" || formats == "c+p16" || formats == "c-in";
    const double position = formats == "float32" ? kTolerance : unorm16 ? 1e-4 : 4e-3;
    const double direction = formats == "float32" ? kTolerance : unorm16 ? 1e-3 : 1e-2;
    EXPECT_EQ(r["position_tolerance"].Number(), position) << r.path();
    EXPECT_EQ(r["direction_tolerance"].Number(), direction) << r.path();
    EXPECT_LE(r["max_error_over_extent"].Number(), position) << r.path();
    EXPECT_LE(r["max_direction_error"].Number(), direction) << r.path();
    gpu += formats == "float32" ? 1 : 0;
  }
  EXPECT_GT(cpu, 0u);
  EXPECT_EQ(gpu, cpu);
}

// A bake manifest (docs/bake.md) and its binary: the device and pose asked for, the vertices of
// the one primitive, and a binary of byteLength bytes.
void ExpectBake(const ScratchDir& dir, const char* prefix, const char* device, const char* pose,
                int64_t vertices, int64_t byte_length) {
  const JsonDocument manifest(ReadText(dir.path() / (std::string(prefix) + ".json")));
  const JsonValue m = manifest.root();
  EXPECT_EQ(m["format"].String(), "sinew-bake");
  EXPECT_EQ(m["device"].String(), device);
  EXPECT_EQ(m["pose"].String(), pose);
  ASSERT_EQ(m["primitives"].size(), 1u);
  EXPECT_EQ(m["primitives"][0]["vertexCount"].Int(), vertices);
  EXPECT_EQ(m["primitives"][0]["positionsByteOffset"].Int(), 0);
  EXPECT_EQ(m["byteLength"].Int(), byte_length);
  EXPECT_EQ(std::filesystem::file_size(dir.path() / (std::string(prefix) + ".bin")),
            uintmax_t(byte_length));
}

// The mesh named `name` of a `sinew info --json` report.
JsonValue MeshNamed(const JsonValue& info, const std::string& name) {
  for (const JsonValue& mesh : info["meshes"].Elements()) {
    if (mesh["name"].String() == name) return mesh;
  }
  throw std::runtime_error("no mesh named '" + name + "' in " + info["file"].String());
}

// A shape of `sinew info --json`: its target, name and in-betweens as "target name weight".
struct ExpectedShape {
  int64_t target;
  std::string name;
  std::vector<std::string> inbetweens;
};

void ExpectShapes(const JsonValue& mesh, const std::vector<ExpectedShape>& expected) {
  ASSERT_EQ(mesh["shapes"].size(), expected.size()) << mesh.path();
  for (size_t s = 0; s < expected.size(); ++s) {
    const JsonValue shape = mesh["shapes"][s];
    EXPECT_EQ(shape["target"].Int(), expected[s].target) << shape.path();
    EXPECT_EQ(shape["name"].String(), expected[s].name) << shape.path();
    std::vector<std::string> inbetweens;
    for (const JsonValue& ib : shape["inbetweens"].Elements()) {
      inbetweens.push_back(std::to_string(ib["target"].Int()) + " " + ib["name"].String() + " " +
                           std::to_string(ib["weight"].Number()));
    }
    EXPECT_EQ(inbetweens, expected[s].inbetweens) << shape.path();
  }
}

// A test that needs a Vulkan device for the tool's GPU path.
class OnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    vk::ContextOptions options;
    if (const char* device = std::getenv("SINEW_DEVICE")) options.device = device;
    if (!CreateContextOrReport(options)) GTEST_SKIP() << "no Vulkan device";
  }
};
class SinewBenchOnGpu : public OnGpu {};
class SinewBakeOnGpu : public OnGpu {};
class SinewRenderOnGpu : public OnGpu {};

TEST_F(SinewBenchOnGpu, RunsASmallCrowdWithinTolerance) {
  ScratchDir dir;
  const JsonDocument doc = RunJson({"bench", "--characters", "3", "--vertices", "1000",
                                    "--influences", "4,8,12", "--frames", "2", "--json"},
                                   dir);
  const JsonValue report = doc.root();
  EXPECT_TRUE(report["file"].IsNull());
  EXPECT_EQ(report["characters"].Int(), 3);
  EXPECT_EQ(report["vertices_per_character"].Int(), 1000);
  const std::vector<std::string> rows = RowNames(report["results"]);
  for (const char* k : {"dense K=4", "dense K=8", "dense K=12", "dense K=4 dqs", "dense K=12 dqs",
                        "dense K=4 compact", "dense K=12 u8+s10", "dense K=4 dqs scaled"}) {
    EXPECT_NE(std::find(rows.begin(), rows.end(), std::string("gpu ") + k), rows.end()) << k;
  }
  EXPECT_EQ(report["results"][0]["vertices"].Int(), 3 * 1000);
  ExpectGpuRowsWithinTolerance(report);
  // Bytes per vertex as the SkinCache laid the mesh out (the GPU rows), beside the CPU
  // reference's float32 streams with 16-bit joints.
  std::map<std::string, int64_t> bytes;
  for (const JsonValue& r : report["results"].Elements()) {
    bytes[r["path"].String() + " " + r["layout"].String()] = r["bytes_per_vertex"].Int();
  }
  EXPECT_EQ(bytes["cpu dense K=4"], 104);
  EXPECT_EQ(bytes["gpu dense K=4"], 100);
  EXPECT_EQ(bytes["gpu dense K=4 compact"], 52);
  EXPECT_EQ(bytes["gpu dense K=4 u8+s10"], 48);
  EXPECT_EQ(bytes["gpu dense K=4 c+p16"], 46);  // and the grid's 32 B over 1,000 vertices
  EXPECT_EQ(bytes["gpu dense K=4 c-in"], 72);
  // The cpu rows say where the fast path is vectorized: dense linear, and dual quaternions with
  // and without scale eight at a time where the CPU has AVX; and that linear blending takes
  // AVX-512 where the CPU has it (dual quaternions never do).
  for (const JsonValue& r : report["results"].Elements()) {
    if (r["path"].String() != "cpu") continue;
    const std::string layout = r["layout"].String();
    if (layout == "dense K=4") {
      EXPECT_EQ(r["lanes"].Number(), double(cpu::WidestSkinLanes()));
      EXPECT_EQ(r["avx512"].Bool(), LinearMeshesTakeAvx512());
    }
    if (layout == "dense K=4 dqs" || layout == "dense K=4 dqs scaled") {
      EXPECT_EQ(r["lanes"].Number(), cpu::WidestSkinLanes() == 8 ? 8.0 : 1.0) << layout;
      EXPECT_FALSE(r["avx512"].Bool()) << layout;
    }
  }
  // Every cpu row of a skinned mesh also times the fast path with its influences checked once
  // (cpu::InfluenceCheck), and it gave the same outputs (the bench fails otherwise).
  // The procedural crowd's rows are all skinned; a rigid mesh's row would hold null.
  for (const JsonValue& r : report["results"].Elements()) {
    if (r["path"].String() == "cpu") {
      EXPECT_GT(r["checked_once_ms_per_frame"].Number(), 0) << r.path();
    }
  }
  // Meshes of 1,000 vertices are too small to split (SkinRun::min_vertices_per_thread): the jobs
  // asked for several threads ran on one, and the rows say so.
  for (const JsonValue& r : report["results"].Elements()) {
    if (r["path"].String() == "cpu" && r["threads"].Int() > 1) {
      EXPECT_EQ(r["threads_used"].Int(), 1) << r.path();
    }
  }
  // The scaled case's palettes carry scale and the others' do not, so the two dqs rows time the
  // blend with and without the scale rows; a linear row has no such flag.
  for (const JsonValue& r : report["results"].Elements()) {
    const std::string layout = r["layout"].String();
    if (layout == "dense K=4 dqs scaled") {
      EXPECT_TRUE(r["palette_scale"].Bool()) << r.path();
    } else if (layout.ends_with(" dqs")) {
      EXPECT_FALSE(r["palette_scale"].Bool()) << r.path();
    } else if (layout == "dense K=4") {
      EXPECT_TRUE(r["palette_scale"].IsNull()) << r.path();
    }
  }
}

// The copy kernel runs in the same report, on the same device: it moved a whole number of
// 16-byte words (at most 256 MiB, and checked for its first and last word), and each GPU row's
// copy_fraction is its GB/s over the copy's. The copy also runs as one dispatch of each row's
// frame bytes (half read, half written), and one_dispatch_copy_fraction is the row's GB/s over
// that one's.
TEST_F(SinewBenchOnGpu, MeasuresACopyKernelBesideTheSkinningKernels) {
  ScratchDir dir;
  const JsonDocument doc = RunJson(
      {"bench", "--characters", "2", "--vertices", "1000", "--influences", "4", "--no-layouts",
       "--no-shapes", "--no-dqs", "--no-formats", "--frames", "1", "--json"},
      dir);
  const JsonValue report = doc.root();
  ASSERT_FALSE(report["copy_kernel"].IsNull());
  const int64_t bytes = report["copy_kernel"]["bytes"].Int();
  EXPECT_GT(bytes, 0);
  EXPECT_LE(bytes, int64_t(256) << 20);
  EXPECT_EQ(bytes % 16, 0);
  const double copy = report["copy_kernel"]["gb_per_s"].Number();
  EXPECT_GT(copy, 0.0);
  EXPECT_GE(report["copy_kernel"]["copies_per_batch"].Int(), 1);
  EXPECT_LE(report["copy_kernel"]["copies_per_batch"].Int(), 64);
  size_t gpu_rows = 0;
  for (const JsonValue& r : report["results"].Elements()) {
    if (r["path"].String() != "gpu") continue;
    ++gpu_rows;
    EXPECT_NEAR(r["copy_fraction"].Number(), r["gb_per_s"].Number() / copy, 1e-3) << r.path();
    const int64_t frame_bytes = r["vertices"].Int() * r["bytes_per_vertex"].Int();
    size_t found = 0;
    for (const JsonValue& one : report["one_dispatch_copies"].Elements()) {
      if (one["frame_bytes"].Int() != frame_bytes) continue;
      ++found;
      EXPECT_EQ(one["bytes"].Int(), frame_bytes / 32 * 16) << one.path();
      EXPECT_GT(one["gb_per_s"].Number(), 0.0) << one.path();
      // Both GB/s figures are printed to 3 decimals, the fraction to 4: on lavapipe a small
      // frame's figures are under 1 GB/s, so the rounding bounds the tolerance.
      const double row = r["gb_per_s"].Number(), copy1 = one["gb_per_s"].Number();
      const double ratio = row / copy1;
      EXPECT_NEAR(r["one_dispatch_copy_fraction"].Number(), ratio,
                  ratio * (5e-4 / row + 5e-4 / copy1) + 5e-5 + 1e-9)
          << r.path();
    }
    EXPECT_EQ(found, 1u) << r.path();
  }
  EXPECT_EQ(gpu_rows, 1u);
  EXPECT_EQ(report["one_dispatch_copies"].Elements().size(), 1u);
}

// `--workgroup-size` runs the kernels at the size asked for (0: the device's, from its subgroup
// size), reports it beside the subgroup size, and refuses one the kernels cannot run.
TEST_F(SinewBenchOnGpu, RunsTheKernelsAtTheWorkgroupSizeAskedFor) {
  ScratchDir dir;
  const std::vector<std::string> small = {"bench",       "--characters", "2",        "--vertices",
                                          "300",         "--influences", "4",        "--no-layouts",
                                          "--no-shapes", "--no-dqs",     "--frames", "1"};
  const auto with = [&](const std::vector<std::string>& extra) { return Plus(small, extra); };
  const JsonDocument chosen = RunJson(with({"--json"}), dir);
  const int64_t subgroup = chosen.root()["subgroup_size"].Int();
  EXPECT_GT(subgroup, 0);
  EXPECT_EQ(chosen.root()["workgroup_size"].Int(), std::max<int64_t>(64, subgroup));
  const JsonDocument asked = RunJson(with({"--workgroup-size", "128", "--json"}), dir);
  EXPECT_EQ(asked.root()["workgroup_size"].Int(), 128);
  ExpectGpuRowsWithinTolerance(asked.root());
  const ToolRun refused = RunSinew(with({"--workgroup-size", "96"}), dir.path());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("SkinCacheOptions::workgroup_size"), std::string::npos) << refused.err;
}

// `--kernel-stats` lists every kernel the run compiled, under its descriptive name, with what the
// driver says of it, where the device offers VK_KHR_pipeline_executable_properties; elsewhere
// (lavapipe in Debian 12) the list is null and the table says why. Without the flag: null.
TEST_F(SinewBenchOnGpu, ListsTheCompiledKernelsStatisticsWhenAskedAndOffered) {
  ScratchDir dir;
  const std::vector<std::string> args = {"bench",        "--gpu-only",  "--characters", "2",
                                         "--vertices",   "300",         "--influences", "4",
                                         "--no-layouts", "--no-shapes", "--frames",     "1"};
  const auto with = [&](const std::vector<std::string>& extra) { return Plus(args, extra); };
  EXPECT_TRUE(RunJson(with({"--json"}), dir).root()["kernel_statistics"].IsNull());
  const JsonDocument doc = RunJson(with({"--kernel-stats", "--json"}), dir);
  const JsonValue kernels = doc.root()["kernel_statistics"];
  const ToolRun table = RunSinew(with({"--kernel-stats"}), dir.path());
  EXPECT_EQ(table.exit_code, 0) << table.err;
  if (kernels.IsNull()) {
    EXPECT_NE(table.out.find("kernel statistics: none (the device has no "
                             "VK_KHR_pipeline_executable_properties)"),
              std::string::npos)
        << table.out;
    return;
  }
  // The float32, dual-quaternion and three compact cases each need a kernel of their own.
  EXPECT_GE(kernels.Elements().size(), 5u);
  for (const JsonValue& k : kernels.Elements()) {
    EXPECT_TRUE(k["kernel"].String().starts_with("sinew skin_")) << k.path();
    EXPECT_FALSE(k["statistics"].IsNull()) << k.path();
  }
  EXPECT_NE(table.out.find("kernels as the driver compiled them"), std::string::npos) << table.out;
}

// `--gpu-only` times no CPU row, yet every GPU row is still checked against a CPU reference (an
// empty reference would give an infinite error), the compact formats' included; each GPU row
// lists its frames' times.
TEST_F(SinewBenchOnGpu, TimesTheGpuAloneWhenAskedAndStillChecksItAgainstTheCpu) {
  ScratchDir dir;
  const JsonDocument doc =
      RunJson({"bench", "--gpu-only", "--characters", "2", "--vertices", "500", "--influences", "4",
               "--no-layouts", "--no-shapes", "--frames", "3", "--json"},
              dir);
  const std::vector<std::string> rows = RowNames(doc.root()["results"]);
  EXPECT_EQ(rows, (std::vector<std::string>{"gpu dense K=4", "gpu dense K=4 dqs",
                                            "gpu dense K=4 dqs scaled", "gpu dense K=4 compact",
                                            "gpu dense K=4 c+p16", "gpu dense K=4 u8+s10",
                                            "gpu dense K=4 c-in"}));
  EXPECT_TRUE(doc.root()["within_tolerance"].Bool());
  for (const JsonValue& r : doc.root()["results"].Elements()) {
    EXPECT_GT(r["ms_per_frame"].Number(), 0.0) << r.path();
    // Each frame's time as it came, their median the row's.
    std::vector<double> frames;
    for (const JsonValue& ms : r["frame_ms"].Elements()) frames.push_back(ms.Number());
    ASSERT_EQ(frames.size(), 3u) << r.path();
    std::sort(frames.begin(), frames.end());
    EXPECT_NEAR(frames[1], r["ms_per_frame"].Number(), 1e-4) << r.path();
    EXPECT_LE(r["max_error_over_extent"].Number(), r["position_tolerance"].Number()) << r.path();
    EXPECT_LE(r["max_direction_error"].Number(), r["direction_tolerance"].Number()) << r.path();
  }
  const ToolRun refused = RunSinew({"bench", "--gpu-only", "--cpu-only"}, dir.path());
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("nothing to run"), std::string::npos) << refused.err;
}

// A mesh of one vertex has no extent: its error is taken over the size of its coordinates, so the
// GPU's float rounding there is within tolerance (it read as NaN and infinity, and the run failed).
TEST_F(SinewBenchOnGpu, ChecksAMeshOfOneVertexAgainstTheCpu) {
  ScratchDir dir;
  const JsonDocument doc = RunJson({"bench", "--characters", "1", "--vertices", "1", "--frames",
                                    "1", "--no-shapes", "--no-dqs", "--json"},
                                   dir);
  ExpectGpuRowsWithinTolerance(doc.root());
}

// Every skinned primitive of the file, for a few instances, in its own influence layout and the
// other one. A file's instances are posed once, before the frames: the GPU rows time no pose.
TEST_F(SinewBenchOnGpu, DeformsTheSkinnedPrimitivesOfAGltfFile) {
  ScratchDir dir;
  const JsonDocument doc = RunJson(
      {"bench", Asset("CesiumMan/CesiumMan.glb"), "--characters", "3", "--frames", "2", "--json"},
      dir);
  const JsonValue report = doc.root();
  EXPECT_EQ(std::filesystem::path(report["file"].String()).filename(), "CesiumMan.glb");
  EXPECT_EQ(report["characters"].Int(), 3);
  EXPECT_TRUE(report["vertices_per_character"].IsNull());
  EXPECT_EQ(RowNames(report["results"]),
            (std::vector<std::string>{"cpu Cesium_Man/0 dense K=4", "gpu Cesium_Man/0 dense K=4",
                                      "cpu Cesium_Man/0 sparse", "gpu Cesium_Man/0 sparse"}));
  for (const JsonValue& r : report["results"].Elements()) {
    if (r["path"].String() == "gpu") {
      EXPECT_TRUE(r["pose_us"].IsNull()) << r.path();
    }
  }
  // The cpu rows count the streams CesiumMan has: position and normal in and out (48 B; no
  // tangents), and four 16-bit joints and float weights (24 B) in its dense layout.
  EXPECT_EQ(report["results"][0]["bytes_per_vertex"].Int(), 72);
  ExpectGpuRowsWithinTolerance(report);
}

TEST_F(SinewBenchOnGpu, DeformsTheSkinnedPrimitivesOfAG4mfFile) {
  ScratchDir dir;
  RunJson({"convert", Asset("Fox/Fox.glb"), "Fox_bench.g4b", "--zstd", "--json"}, dir);
  const JsonDocument doc =
      RunJson({"bench", "Fox_bench.g4b", "--characters", "3", "--frames", "2", "--json"}, dir);
  const JsonValue report = doc.root();
  EXPECT_EQ(report["file"].String(), "Fox_bench.g4b");
  EXPECT_EQ(RowNames(report["results"]),
            (std::vector<std::string>{"cpu fox1/0 sparse", "gpu fox1/0 sparse",
                                      "cpu fox1/0 dense K=4", "gpu fox1/0 dense K=4"}));
  ExpectGpuRowsWithinTolerance(report);
}

// Procedural characters and every shared skinned file in one SkinCache: 30 characters of 10
// kinds, of many meshes, are one dispatch a frame per kernel variant in use (the kernel and the
// meshes' specialization choices), fewer than the meshes; the last frame matches the CPU.
TEST_F(SinewBenchOnGpu, DeformsAMixedCrowdInOneDispatchPerKernelVariantAFrame) {
  ScratchDir dir;
  const JsonDocument doc = RunJson({"bench", "--crowd", "1,30", "--frames", "2", "--assets",
                                    TestAssets().string(), "--workgroup-size", "128", "--json"},
                                   dir);
  const JsonValue report = doc.root();
  EXPECT_NE(report["device"].String(), "none");
  EXPECT_EQ(report["workgroup_size"].Int(), 128);
  bool robot = false;
  for (const JsonValue& kind : report["kinds"].Elements()) {
    if (kind["name"].String() != "three_RobotExpressive/RobotExpressive.glb") continue;
    robot = true;
    EXPECT_EQ(kind["vertices"].Int(), 7214);
    EXPECT_EQ(kind["instances"].Int(), 19);
  }
  EXPECT_TRUE(robot) << "RobotExpressive is not among the kinds";
  ASSERT_EQ(report["results"].size(), 2u);
  const JsonValue thirty = report["results"][1];
  EXPECT_EQ(thirty["characters"].Int(), 30);
  EXPECT_EQ(thirty["dispatches"].Int(), thirty["kernel_variants"].Int());
  EXPECT_GE(thirty["kernel_variants"].Int(), 2);  // dense and sparse at least
  EXPECT_LT(thirty["kernel_variants"].Int(), thirty["meshes"].Int());
  EXPECT_GT(thirty["gpu_ms"].Number(), 0.0);
  EXPECT_EQ(thirty["pose_us"].size(), 2u);  // threads 1 and 2
  for (const JsonValue& r : report["results"].Elements()) {
    EXPECT_LE(r["max_error_over_extent"].Number(), kTolerance) << r.path();
  }
  EXPECT_TRUE(report["within_tolerance"].Bool());
}

// Each bench form answers --help wherever it stands (the --crowd form with its own), and refuses
// an option it does not know before it runs anything: --pose took one for a file after printing a
// row, --loader for a file, and `--crowd --help` took --help for the crowd's size.
TEST(SinewBench, EveryFormAnswersHelpAndRefusesAnOptionItDoesNotKnowBeforeRunning) {
  ScratchDir dir;
  const std::string fox = Asset("Fox/Fox.glb");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--pose", "--help"},
        {"bench", "--loader", "-h"},
        {"bench", "--usda", "--help"},
        {"bench", "--crowd", "--help"}}) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 0) << args[1] << run.err;
    EXPECT_EQ(run.out.rfind("usage: sinew bench", 0), 0u) << args[1] << run.out;
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--pose", fox, "--frames", "3"},
        {"bench", "--pose", fox, "--characters"},
        {"bench", "--pose", fox, "-x"},
        {"bench", "--loader", "--bogus"},
        {"bench", "--crowd", "2", "--assets", "no such folder"}}) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[2] << run.err;
    EXPECT_TRUE(run.out.empty()) << args[2] << run.out;  // nothing ran
  }
}

// Each cpu row's fast path on one thread is held to a plain copy loop moving a frame's bytes (half
// read, half written), timed right after it: the copy's size, and the row's GB/s, vectorized and
// checked once, over the copy's.
TEST(SinewBench, HoldsTheCpuFastPathToACopyOfAFramesBytes) {
  ScratchDir dir;
  const JsonDocument doc =
      RunJson({"bench", "--cpu-only", "--characters", "1", "--vertices", "20000", "--influences",
               "4", "--no-shapes", "--no-dqs", "--frames", "2", "--cpu-threads", "1", "--json"},
              dir);
  // Without the GPU nothing was checked against the CPU: neither within tolerance nor out of it.
  EXPECT_TRUE(doc.root()["within_tolerance"].IsNull());
  size_t cpu_rows = 0;
  for (const JsonValue& r : doc.root()["results"].Elements()) {
    ASSERT_EQ(r["path"].String(), "cpu");
    ++cpu_rows;
    const int64_t frame_bytes = r["vertices"].Int() * r["bytes_per_vertex"].Int();
    ASSERT_FALSE(r["cpu_copy"].IsNull()) << r.path();
    EXPECT_EQ(r["cpu_copy"]["bytes"].Int(), frame_bytes / 2 / 64 * 64) << r.path();
    const double copy = r["cpu_copy"]["gb_per_s"].Number();
    EXPECT_GT(copy, 0.0) << r.path();
    for (const auto& [fraction, ms] :
         {std::pair{"vectorized_copy_fraction", "vectorized_ms_per_frame"},
          std::pair{"checked_once_copy_fraction", "checked_once_ms_per_frame"}}) {
      const double expected = double(frame_bytes) / (r[ms].Number() * 1e6) / copy;
      // The milliseconds are printed to 4 decimals (a frame takes a tenth of one or more), the
      // GB/s to 3, the fraction to 4.
      EXPECT_NEAR(r[fraction].Number(), expected, 0.01 * expected + 1e-4) << r.path() << fraction;
    }
  }
  EXPECT_EQ(cpu_rows, 4u);  // dense K=4; sparse uniform 4; dense K=16 varied and sparse varied
}

// --no-avx512 keeps the fast path to AVX (cpu::SkinRun::avx512) where the CPU has AVX-512 too: the
// linear rows say so, and still go as many vertices at a time (and, as every run, give the
// reference's outputs bit for bit, or the bench fails). On a CPU without AVX-512 both rows say
// false.
TEST(SinewBench, KeepsTheCpuFastPathToAvxWhenAsked) {
  ScratchDir dir;
  const std::vector<std::string> args = {"bench",
                                         "--cpu-only",
                                         "--characters",
                                         "1",
                                         "--vertices",
                                         "20000",
                                         "--influences",
                                         "4",
                                         "--no-shapes",
                                         "--no-dqs",
                                         "--no-layouts",
                                         "--frames",
                                         "1",
                                         "--cpu-threads",
                                         "1",
                                         "--json"};
  std::vector<std::string> without = args;
  without.push_back("--no-avx512");
  const JsonDocument by_default = RunJson(args, dir), kept = RunJson(without, dir);
  const JsonValue& row = by_default.root()["results"][0];
  const JsonValue& kept_row = kept.root()["results"][0];
  ASSERT_EQ(row["layout"].String(), "dense K=4");
  ASSERT_EQ(kept_row["layout"].String(), "dense K=4");
  EXPECT_EQ(row["avx512"].Bool(), LinearMeshesTakeAvx512());
  EXPECT_FALSE(kept_row["avx512"].Bool());
  EXPECT_EQ(kept_row["lanes"].Int(), row["lanes"].Int());
}

// CrowdPoseJob against the per-character jobs on one file.
TEST(SinewBench, PoseComparesCrowdPosingWithThePerCharacterJobs) {
  ScratchDir dir;
  const JsonDocument doc =
      RunJson({"bench", "--pose", Asset("Fox/Fox.glb"), "--characters", "10", "--json"}, dir);
  const JsonValue report = doc.root();
  EXPECT_EQ(report["characters"].Int(), 10);
  ASSERT_EQ(report["results"].size(), 1u);
  const JsonValue fox = report["results"][0];
  EXPECT_EQ(fox["file"].String(), "Fox.glb");
  const double jobs = fox["jobs_us_per_character"].Number();
  const double crowd = fox["crowd_us_per_character"].Number();
  EXPECT_GT(jobs, 0.0);
  EXPECT_GT(crowd, 0.0);
  EXPECT_NEAR(fox["ratio"].Number(), jobs / crowd, 0.01 + 0.01 * jobs / crowd);
}

// The loader against a bare simdjson parse of the same JSON, on one file.
// With no file, `sinew bench --loader` times the shared assets and a synthetic crowd it writes;
// that crowd is itself valid glTF: `sinew info` loads it without a single warning (POSITION
// min/max included).
TEST(SinewBench, LoaderWritesASyntheticCrowdThatIsValidGltf) {
  ScratchDir dir;
  const JsonDocument doc = RunJson({"bench", "--loader", "--json"}, dir);
  size_t crowds = 0;
  for (const JsonValue& row : doc.root()["loader"].Elements()) {
    crowds += row["file"].String().starts_with("synthetic_crowd_");
  }
  EXPECT_EQ(crowds, 2u);
  const std::filesystem::path written =
      std::filesystem::temp_directory_path() / "sinew-bench-loader";
  for (const char* name : {"synthetic_crowd_pretty.gltf", "synthetic_crowd_min.gltf"}) {
    const JsonDocument info = RunJson({"info", "--json", (written / name).string()}, dir);
    EXPECT_TRUE(info.root()["valid"].Bool()) << name;
    EXPECT_EQ(info.root()["warnings"].size(), 0u) << name;
    EXPECT_EQ(info.root()["skins"].size(), 700u) << name;
  }
}

TEST(SinewBench, LoaderComparesTheLoaderWithADomParse) {
  ScratchDir dir;
  const JsonDocument doc =
      RunJson({"bench", "--loader", "--json", Asset("SimpleSkin/SimpleSkin.gltf")}, dir);
  const JsonValue rows = doc.root()["loader"];
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["file"].String(), "SimpleSkin.gltf");
  EXPECT_GT(rows[0]["json_values"].Int(), 0);
  EXPECT_GT(rows[0]["warm_ms"].Number(), 0.0);
  EXPECT_GT(rows[0]["ratio"].Number(), 0.0);
}

// Rows are named by the file's name, and two files of one name (the shared assets have two
// MorphStressTest.gltf) by their folder too.
TEST(SinewBench, LoaderNamesFilesOfOneNameByTheirFolderToo) {
  ScratchDir dir;
  for (const char* folder : {"a", "b"}) {
    std::filesystem::create_directories(dir.path() / folder);
    std::filesystem::copy_file(Asset("SimpleSkin/SimpleSkin.gltf"),
                               dir.path() / folder / "SimpleSkin.gltf");
  }
  const JsonDocument doc = RunJson({"bench", "--loader", "--json", "a/SimpleSkin.gltf",
                                    "b/SimpleSkin.gltf", Asset("Fox/Fox.glb")},
                                   dir);
  const JsonValue rows = doc.root()["loader"];
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["file"].String(), "a/SimpleSkin.gltf");
  EXPECT_EQ(rows[1]["file"].String(), "b/SimpleSkin.gltf");
  EXPECT_EQ(rows[2]["file"].String(), "Fox.glb");
}

// The .usda reader on a synthetic stage of about a megabyte, in MB/s.
// The stage as .usda, then the same layer as .usdc: the same counts, a smaller file, both loaded.
TEST(SinewBench, UsdaReadsASyntheticStageAsTextAndAsACrateAndReportsTheirSpeed) {
  ScratchDir dir;
  const JsonDocument doc = RunJson({"bench", "--usda", "--mb", "1", "--json"}, dir);
  const JsonValue rows = doc.root()["usda"];
  ASSERT_EQ(rows.size(), 2u);
  const JsonValue row = rows[0], crate = rows[1];
  EXPECT_EQ(row["file"].String(), "synthetic_stage.usda");
  EXPECT_EQ(row["format"].String(), "usda");
  EXPECT_GE(row["bytes"].Int(), 1 << 20);
  EXPECT_GT(row["prims"].Int(), 3);  // the root, the skeleton, its animation and meshes
  EXPECT_GT(row["time_samples"].Int(), 0);
  EXPECT_GT(row["numbers"].Int(), 0);
  EXPECT_GE(row["rounds"].Int(), 5);
  EXPECT_GT(row["mb_per_s"].Number(), 0.0);
  EXPECT_LE(row["min_ms"].Number(), row["median_ms"].Number());
  EXPECT_GE(row["load_rounds"].Int(), 3);
  EXPECT_GT(row["load_median_ms"].Number(), 0.0);
  EXPECT_EQ(crate["file"].String(), "synthetic_stage.usdc");
  EXPECT_EQ(crate["format"].String(), "usdc");
  EXPECT_LT(crate["bytes"].Int(), row["bytes"].Int());
  for (const char* count : {"prims", "attributes", "time_samples", "numbers"}) {
    EXPECT_EQ(crate[count].Int(), row[count].Int()) << count;
  }
  EXPECT_GT(crate["load_median_ms"].Number(), 0.0);
}

// The .usda reader on a file given: Pixar's LBS scene, with the counts it holds.
TEST(SinewBench, UsdaReadsTheFilesGiven) {
  ScratchDir dir;
  const std::string lbs = (TestConformance() / "usdskel/lbs.usda").string();
  const JsonDocument doc = RunJson({"bench", "--usda", "--json", lbs}, dir);
  const JsonValue rows = doc.root()["usda"];
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["file"].String(), "lbs.usda");
  EXPECT_EQ(rows[0]["prims"].Int(), 10);
  EXPECT_EQ(rows[0]["attributes"].Int(), 49);
  EXPECT_EQ(rows[0]["time_samples"].Int(), 150);  // 5 attributes of 30 samples
}

// At a time of a clip on the GPU: the manifest and the binary (the values are checked against the
// CPU by the gpu suite's AssetDeformGpu), and a PLY of the same mesh.
TEST_F(SinewBakeOnGpu, WritesAManifestABinaryAndAPly) {
  ScratchDir dir;
  const std::string skin = Asset("SimpleSkin/SimpleSkin.gltf");
  ASSERT_EQ(RunSinew({"bake", skin, "--anim", "0", "--time", "1.25", "--device", "gpu", "--out",
                      "baked_simple_skin"},
                     dir.path())
                .exit_code,
            0);
  ExpectBake(dir, "baked_simple_skin", "gpu", "rest", 10, 120);
  const JsonDocument manifest(ReadText(dir.path() / "baked_simple_skin.json"));
  EXPECT_EQ(manifest.root()["animation"]["index"].Int(), 0);
  EXPECT_EQ(manifest.root()["time"].Number(), 1.25);

  ASSERT_EQ(RunSinew({"bake", skin, "--anim", "0", "--time", "1.25", "--format", "ply", "--out",
                      "baked_simple_skin"},
                     dir.path())
                .exit_code,
            0);
  const std::string ply = ReadText(dir.path() / "baked_simple_skin.ply");
  size_t triangles = 0;
  for (size_t at = 0; (at = ply.find("\n3 ", at)) != std::string::npos; ++at) ++triangles;
  EXPECT_EQ(triangles, 8u) << ply;
  EXPECT_NE(ply.find("element vertex 10\n"), std::string::npos) << ply;
  // SimpleSkin has no normals: none are declared (zeros would read as normals to a PLY reader).
  EXPECT_EQ(ply.find("property float nx"), std::string::npos) << ply;
  const size_t first = ply.find("end_header\n") + sizeof("end_header\n") - 1;
  const std::string vertex = ply.substr(first, ply.find('\n', first) - first);
  EXPECT_EQ(std::count(vertex.begin(), vertex.end(), ' '), 2) << vertex;

  // CesiumMan has normals: declared, and unit length.
  ASSERT_EQ(RunSinew({"bake", Asset("CesiumMan/CesiumMan.glb"), "--format", "ply", "--out", "man"},
                     dir.path())
                .exit_code,
            0);
  const std::string man = ReadText(dir.path() / "man.ply");
  EXPECT_NE(man.find("property float x\nproperty float y\nproperty float z\nproperty float "
                     "nx\nproperty float ny\nproperty float nz\n"),
            std::string::npos);
  std::istringstream values(man.substr(man.find("end_header\n") + sizeof("end_header\n") - 1));
  float x, y, z, nx, ny, nz;
  ASSERT_TRUE(values >> x >> y >> z >> nx >> ny >> nz);
  EXPECT_NEAR(nx * nx + ny * ny + nz * nz, 1.0f, 1e-5f);
}

// `sinew bake` reads G4MF: CesiumMan converted to .g4tf, baked on the CPU at its rest pose. The
// values are checked against the glTF original's bake by the gpu suite's G4mfBake.
TEST(SinewBake, BakesACesiumManConvertedToG4tf) {
  ScratchDir dir;
  RunJson({"convert", Asset("CesiumMan/CesiumMan.glb"), "CesiumMan_bake.g4tf", "--json"}, dir);
  ASSERT_EQ(RunSinew({"bake", "CesiumMan_bake.g4tf", "--out", "baked"}, dir.path()).exit_code, 0);
  ExpectBake(dir, "baked", "cpu", "rest", 3273, 78552);
}

// --time (or --loop) without --anim samples no clip: the bake still writes the rest pose, and says
// on stderr that the option did nothing; with --anim it says nothing of the kind.
TEST(SinewBake, WarnsThatATimeWithoutAClipSamplesNothing) {
  ScratchDir dir;
  const ToolRun alone = RunSinew(
      {"bake", Asset("CesiumMan/CesiumMan.glb"), "--out", "rest", "--time", "0.5"}, dir.path());
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(alone.err.find("warning: --time without --anim: no clip is sampled, the rest pose is "
                           "used"),
            std::string::npos)
      << alone.err;
  const ToolRun clip = RunSinew(
      {"bake", Asset("CesiumMan/CesiumMan.glb"), "--out", "walk", "--anim", "0", "--time", "0.5"},
      dir.path());
  ASSERT_EQ(clip.exit_code, 0) << clip.err;
  EXPECT_EQ(clip.err.find("warning"), std::string::npos) << clip.err;
}

// The loader's warnings reach the user of bake as they reach the user of info (RobotExpressive's
// weights not summing to 1 are normalized), and a file that draws nothing bakes with a warning
// saying so rather than silently writing nothing.
TEST(SinewBake, PassesOnTheLoadersWarningsAndSaysWhenNothingIsBaked) {
  ScratchDir dir;
  const ToolRun robot = RunSinew(
      {"bake", Asset("three_RobotExpressive/RobotExpressive.glb"), "--out", "robot"}, dir.path());
  ASSERT_EQ(robot.exit_code, 0) << robot.err;
  EXPECT_NE(robot.err.find("sinew bake: warning at /meshes/12/primitives/0/attributes/WEIGHTS_0: "
                           "174 of 256 vertices have weights that do not sum to 1; normalized"),
            std::string::npos)
      << robot.err;
  EXPECT_EQ(robot.err.find("nothing to bake"), std::string::npos) << robot.err;
  std::ofstream(dir.path() / "empty.gltf") << R"({"asset": {"version": "2.0"}})";
  const ToolRun empty = RunSinew({"bake", "empty.gltf", "--out", "empty"}, dir.path());
  ASSERT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_NE(empty.err.find("warning: nothing to bake: the scene has no mesh instance"),
            std::string::npos)
      << empty.err;
}

// How two bakes' positions (the first `vertices` xyz floats of each .bin) differ: the largest
// difference of a coordinate, and the first bake's extent (its largest coordinate minus its
// smallest).
struct BakeDifference {
  float largest = 0, extent = 0;
};
BakeDifference CompareBakes(const std::string& first, const std::string& second, size_t vertices) {
  EXPECT_EQ(first.size(), second.size());
  EXPECT_GE(first.size(), vertices * 3 * sizeof(float));
  if (first.size() != second.size() || first.size() < vertices * 3 * sizeof(float)) return {};
  const auto* a = reinterpret_cast<const float*>(first.data());
  const auto* b = reinterpret_cast<const float*>(second.data());
  float lo = 1e30f, hi = -1e30f;
  BakeDifference d;
  for (size_t i = 0; i < vertices * 3; ++i) {
    lo = std::min(lo, a[i]);
    hi = std::max(hi, a[i]);
    d.largest = std::max(d.largest, std::fabs(a[i] - b[i]));
  }
  d.extent = hi - lo;
  return d;
}

// `--skinning dqs`: CesiumMan walking, blended with dual quaternions on the CPU reference. The
// manifest says so; the mesh moves like the linear bake's (a few percent of its extent at most)
// but not exactly as it (the joints' rotations are blended, not their matrices).
TEST(SinewBake, BlendsWithDualQuaternionsWhenAsked) {
  ScratchDir dir;
  for (const char* skinning : {"linear", "dqs"}) {
    const ToolRun run = RunSinew({"bake", Asset("CesiumMan/CesiumMan.glb"), "--anim", "0", "--time",
                                  "0.5", "--skinning", skinning, "--out", skinning},
                                 dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const JsonDocument manifest(ReadText(dir.path() / "dqs.json"));
  EXPECT_EQ(manifest.root()["skinning"].String(), "dualQuaternion");
  const BakeDifference d =
      CompareBakes(ReadText(dir.path() / "linear.bin"), ReadText(dir.path() / "dqs.bin"), 3273);
  EXPECT_GT(d.largest, 1e-4f * d.extent);
  EXPECT_LT(d.largest, 0.05f * d.extent);
  EXPECT_EQ(
      RunSinew({"bake", Asset("CesiumMan/CesiumMan.glb"), "--skinning", "quaternion", "--out", "x"},
               dir.path())
          .exit_code,
      2);
}

// Finite weights whose product overflows a float deform to infinities: the bake is refused (exit
// 1, naming the vertex), not written as a file sinew's own loaders would refuse.
TEST(SinewBake, RefusesABakeWhoseVerticesAreNotFinite) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"bake", Asset("AnimatedMorphCube/AnimatedMorphCube.gltf"),
                                "--weights", "0=3e38,3e38", "--format", "obj", "--out", "huge"},
                               dir.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("kNonFiniteValue at nodes/0/primitives/0/positions/"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "huge.obj"));
}

// The source's name goes into the written files as text: a quote in it is escaped in the .usda
// (which reads back), a newline kept out of a PLY header.
TEST(SinewBake, WritesTheSourcesNameSoThatTheFileStillReads) {
  ScratchDir dir;
  const std::filesystem::path odd = dir.path() / "in\"put\nname.glb";
  std::filesystem::copy_file(Asset("CesiumMan/CesiumMan.glb"), odd);
  for (const char* format : {"usda", "ply"}) {
    const ToolRun run =
        RunSinew({"bake", odd.string(), "--format", format, "--out", "odd"}, dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const ToolRun info = RunSinew({"info", "odd.usda"}, dir.path());
  EXPECT_EQ(info.exit_code, 0) << info.err;
  const std::string ply = ReadText(dir.path() / "odd.ply");
  EXPECT_EQ(ply.find("\nname.glb"), std::string::npos);
  EXPECT_NE(ply.find("in\"put?name.glb\nelement vertex"), std::string::npos);
}

// `--skinning dqs --device gpu`: CesiumMan walking, blended with dual quaternions by the GPU
// kernels, equals the CPU reference's bake within 1e-5 of the mesh's extent.
TEST_F(SinewBakeOnGpu, BlendsWithDualQuaternionsOnTheGpuAsOnTheCpu) {
  ScratchDir dir;
  for (const char* device : {"cpu", "gpu"}) {
    ASSERT_EQ(RunSinew({"bake", Asset("CesiumMan/CesiumMan.glb"), "--anim", "0", "--time", "0.5",
                        "--skinning", "dqs", "--device", device, "--out", device},
                       dir.path())
                  .exit_code,
              0);
  }
  const BakeDifference d =
      CompareBakes(ReadText(dir.path() / "cpu.bin"), ReadText(dir.path() / "gpu.bin"), 3273);
  EXPECT_LE(d.largest, 1e-5f * d.extent);
  EXPECT_EQ(JsonDocument(ReadText(dir.path() / "gpu.json")).root()["skinning"].String(),
            "dualQuaternion");
}

// And converted to a Zstd .g4b, baked on the GPU in bind pose.
TEST_F(SinewBakeOnGpu, BakesACesiumManConvertedToAZstdG4b) {
  ScratchDir dir;
  RunJson({"convert", Asset("CesiumMan/CesiumMan.glb"), "CesiumMan_bake.g4b", "--zstd", "--json"},
          dir);
  ASSERT_EQ(RunSinew({"bake", "CesiumMan_bake.g4b", "--device", "gpu", "--pose", "bind", "--out",
                      "baked"},
                     dir.path())
                .exit_code,
            0);
  ExpectBake(dir, "baked", "gpu", "bind", 3273, 78552);
}

// A primitive the loader skips for want of POSITION (here one listing SimpleMorph's two targets
// before its real one) has nothing in the GPU's cache: baked on the GPU it is what the CPU bakes
// (no vertices, the real primitive morphed), and `sinew render` draws the rest.
TEST_F(SinewBakeOnGpu, APrimitiveWithoutPositionIsPassedOverOnTheGpuAsOnTheCpu) {
  ScratchDir dir;
  for (const char* name : {"simpleMorphGeometry.bin", "simpleMorphAnimation.bin"}) {
    std::filesystem::copy_file(TestAssets() / "SimpleMorph" / name, dir.path() / name);
  }
  const std::string gltf = ReadText(TestAssets() / "SimpleMorph/SimpleMorph.gltf");
  const std::string primitive = R"("primitives":[)";
  const size_t at = gltf.find(primitive);
  ASSERT_NE(at, std::string::npos) << "SimpleMorph.gltf is not spelled as this test expects";
  WriteText(dir.path() / "skip.gltf",
            gltf.substr(0, at + primitive.size()) +
                R"({"attributes": {}, "targets": [{"POSITION": 2}, {"POSITION": 3}]}, )" +
                gltf.substr(at + primitive.size()));
  for (const char* device : {"cpu", "gpu"}) {
    const ToolRun run = RunSinew(
        {"bake", "skip.gltf", "--anim", "0", "--time", "0.5", "--device", device, "--out", device},
        dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const JsonDocument manifest(ReadText(dir.path() / "gpu.json"));
  ASSERT_EQ(manifest.root()["primitives"].size(), 2u);
  EXPECT_EQ(manifest.root()["primitives"][0]["vertexCount"].Int(), 0);
  EXPECT_EQ(manifest.root()["primitives"][1]["vertexCount"].Int(), 3);
  const BakeDifference d =
      CompareBakes(ReadText(dir.path() / "cpu.bin"), ReadText(dir.path() / "gpu.bin"), 3);
  EXPECT_LE(d.largest, 1e-5f * d.extent);
  const ToolRun render = RunSinew(
      {"render", "skip.gltf", "--anim", "0", "--size", "32x32", "--out", "skip.png"}, dir.path());
  EXPECT_EQ(render.exit_code, 0) << render.err;
}

// The tool never writes over what it reads: the input file itself, or a file beside it that the
// input names (a .gltf's external buffer, which `bake --out NAME` would replace with NAME.bin).
// Each refusal is a usage error (2) that says why, and leaves the file as it was.
TEST(SinewTool, NeverWritesOverItsInputNorAFileTheInputNames) {
  ScratchDir dir;
  for (const char* name : {"AnimatedMorphCube.gltf", "AnimatedMorphCube.bin"}) {
    std::filesystem::copy_file(TestAssets() / "AnimatedMorphCube" / name, dir.path() / name);
  }
  const std::string gltf = ReadText(dir.path() / "AnimatedMorphCube.gltf");
  const std::string bin = ReadText(dir.path() / "AnimatedMorphCube.bin");
  const std::vector<std::vector<std::string>> runs = {
      {"convert", "AnimatedMorphCube.gltf", "./AnimatedMorphCube.gltf"},
      {"bake", "AnimatedMorphCube.gltf", "--out", "AnimatedMorphCube"},
      {"render", "AnimatedMorphCube.gltf", "--out", "picture.png"},  // a link to the input
  };
  std::filesystem::create_symlink("AnimatedMorphCube.gltf", dir.path() / "picture.png");
  for (const std::vector<std::string>& args : runs) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[0] << ": " << run.err;
    EXPECT_NE(run.err.find("which would be overwritten"), std::string::npos) << run.err;
  }
  // The buffer reached another way: a symlink, a hard link, a URI with a folder and an escape.
  std::filesystem::create_symlink("AnimatedMorphCube.bin", dir.path() / "soft.bin");
  std::filesystem::create_hard_link(dir.path() / "AnimatedMorphCube.bin", dir.path() / "hard.bin");
  std::filesystem::create_directory(dir.path() / "bufs");
  std::filesystem::copy_file(dir.path() / "AnimatedMorphCube.bin", dir.path() / "bufs/cube x.bin");
  std::string escaped = gltf;
  escaped.replace(escaped.find("\"AnimatedMorphCube.bin\""), 23, "\"bufs/cube%20x.bin\"");
  std::ofstream(dir.path() / "escaped.gltf") << escaped;
  // Strings that hold an @ or an escaped quote before the buffer's do not hide its name.
  std::string tricky = gltf;
  tricky.insert(tricky.find('{') + 1, R"("extras": {"by": "me@x.org", "note": "a 12\" figure"},)");
  std::ofstream(dir.path() / "tricky.gltf") << tricky;
  const std::string moved = ReadText(dir.path() / "bufs/cube x.bin");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"bake", "AnimatedMorphCube.gltf", "--out", "soft"},
           {"bake", "AnimatedMorphCube.gltf", "--out", "hard"},
           {"bake", "escaped.gltf", "--out", "bufs/cube x"},
           {"bake", "tricky.gltf", "--out", "AnimatedMorphCube"}}) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[3] << ": " << run.err;
    EXPECT_NE(run.err.find("is a file the input names"), std::string::npos) << run.err;
  }
  // A name no text holds as written (a JSON escape in the URI) is caught once the file is loaded,
  // by the files its loader read (LoadedAsset::external_files), and so is a .g4b's.
  // (The buffer copied under the names a picture and a conversion would have.)
  for (const char* name : {"AnimatedMorphCube.bin", "data.png", "data.usda"}) {
    std::string json_escaped = gltf;
    char first[8];
    std::snprintf(first, sizeof(first), "\\u%04x", unsigned(name[0]));  // "\u0041" for 'A'
    json_escaped.replace(json_escaped.find("\"AnimatedMorphCube.bin\""), 23,
                         "\"" + std::string(first) + std::string(name + 1) + "\"");
    if (std::string_view(name) != "AnimatedMorphCube.bin") {
      std::filesystem::copy_file(dir.path() / "AnimatedMorphCube.bin", dir.path() / name);
    }
    WriteText(dir.path() / (std::string(name) + ".gltf"), json_escaped);
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"bake", "AnimatedMorphCube.bin.gltf", "--out", "AnimatedMorphCube"},
           {"render", "data.png.gltf", "--out", "data.png"},
           {"convert", "data.usda.gltf", "data.usda"}}) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[0] << ": " << run.err;
    EXPECT_NE(run.err.find("is a file the input names"), std::string::npos) << run.err;
  }
  EXPECT_EQ(ReadText(dir.path() / "AnimatedMorphCube.gltf"), gltf);
  EXPECT_EQ(ReadText(dir.path() / "AnimatedMorphCube.bin"), bin);
  EXPECT_EQ(ReadText(dir.path() / "bufs/cube x.bin"), moved);
  // Outputs into a folder that does not exist, or onto a folder, are refused before loading.
  std::filesystem::create_directory(dir.path() / "sub");
  const std::vector<std::pair<std::vector<std::string>, std::string>> misplaced = {
      {{"bake", "AnimatedMorphCube.gltf", "--out", "nowhere/cube"}, "does not exist"},
      {{"bake", "AnimatedMorphCube.gltf", "--out", "sub/"}, "is a folder"},
      {{"bake", "AnimatedMorphCube.gltf", "--out", "sub"}, "is a folder"},
      {{"render", "AnimatedMorphCube.gltf", "--out", "nowhere/cube.png"}, "does not exist"},
      {{"convert", "AnimatedMorphCube.gltf", "sub"}, "is a folder"},
  };
  for (const auto& [args, why] : misplaced) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[3 % args.size()] << ": " << run.err;
    EXPECT_NE(run.err.find(why), std::string::npos) << run.err;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path() / "sub"));
  // A file the input names is refused before anything has written it too, so that a second run
  // does not refuse what the first wrote.
  WriteText(dir.path() / "names.usda",
            "#usda 1.0\ndef Xform \"X\"\n{\n    asset tex = @./named.obj@\n}\n");
  for (int run_index = 0; run_index < 2; ++run_index) {
    const ToolRun run =
        RunSinew({"bake", "names.usda", "--format", "obj", "--out", "named"}, dir.path());
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_NE(run.err.find("is a file the input names"), std::string::npos) << run.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "named.obj"));
  // A .usda bake of the same name writes no file the input names.
  const ToolRun usda =
      RunSinew({"bake", "AnimatedMorphCube.gltf", "--out", "AnimatedMorphCube", "--format", "usda"},
               dir.path());
  EXPECT_EQ(usda.exit_code, 0) << usda.err;
}

// A folder given as the input is refused as the loaders refuse it (exit 1, the path named), also
// when the output already exists: the overwrite check read the folder as a file and aborted.
TEST(SinewTool, RefusesAFolderAsItsInputWhenTheOutputExists) {
  ScratchDir dir;
  std::filesystem::create_directory(dir.path() / "folder");
  WriteText(dir.path() / "x.png", "old");
  WriteText(dir.path() / "b.json", "old");
  WriteText(dir.path() / "o.usda", "old");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"render", "folder", "--out", "x.png"},
                                             {"bake", "folder", "--out", "b"},
                                             {"convert", "folder", "o.usda"}}) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 1) << args[0] << ": " << run.err;
    EXPECT_NE(run.err.find("folder"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("a directory, not a file"), std::string::npos) << run.err;
  }
  EXPECT_EQ(ReadText(dir.path() / "x.png"), "old");
  EXPECT_EQ(ReadText(dir.path() / "b.json"), "old");
  EXPECT_EQ(ReadText(dir.path() / "o.usda"), "old");
}

// Usage asked for (--help) is the program's output: on stdout, exit code 0, so that it pipes into
// a pager. Usage after a malformed command line is an error: on stderr, exit code 2.
TEST(SinewTool, PrintsTheUsageAskedForOnStdoutAndAfterAMistakeOnStderr) {
  ScratchDir dir;
  for (const char* command : {"", "bake", "bench", "convert", "info", "render"}) {
    std::vector<std::string> args = {"--help"};
    if (*command != 0) args.insert(args.begin(), command);
    const ToolRun asked = RunSinew(args, dir.path());
    EXPECT_EQ(asked.exit_code, 0) << command;
    EXPECT_EQ(asked.out.rfind("usage: sinew", 0), 0u) << command << ": " << asked.out;
    EXPECT_EQ(asked.err, "") << command;
    if (*command == 0) continue;
    // Wherever it stands among the arguments.
    const ToolRun after = RunSinew({command, "model.glb", "--help"}, dir.path());
    EXPECT_EQ(after.exit_code, 0) << command;
    EXPECT_EQ(after.out, asked.out) << command;
  }
  // `sinew help bake` is `sinew bake --help`; --version says which sinew this is.
  const ToolRun help = RunSinew({"help", "bake"}, dir.path());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, RunSinew({"bake", "--help"}, dir.path()).out);
  const ToolRun version = RunSinew({"--version"}, dir.path());
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("sinew 0.", 0), 0u) << version.out;
  for (const char* command : {"bake", "convert", "info", "render"}) {
    const ToolRun mistaken = RunSinew({command}, dir.path());
    EXPECT_EQ(mistaken.exit_code, 2) << command;
    EXPECT_EQ(mistaken.out, "") << command;
    EXPECT_NE(mistaken.err.find("usage: sinew"), std::string::npos) << command;
  }
}

// An output's extension says what convert writes; one it cannot write is refused, not written as
// G4MF text under that name.
TEST(SinewConvert, RefusesAnOutputExtensionItDoesNotWrite) {
  ScratchDir dir;
  for (const char* out : {"CesiumMan.gltf", "CesiumMan.fbx", "CesiumMan"}) {
    const ToolRun run = RunSinew({"convert", Asset("CesiumMan/CesiumMan.glb"), out}, dir.path());
    EXPECT_EQ(run.exit_code, 2) << out;
    EXPECT_NE(run.err.find(".g4tf, .g4b, .usda, .usdc or .usdz"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / out)) << out;
  }
}

// --anim names the clip a USD output holds, by index or by name as bake and render take it; a clip
// the file does not have is an error, not a file without animation.
TEST(SinewConvert, TakesAClipByNameOrIndexAndRefusesOneTheFileLacks) {
  ScratchDir dir;
  const std::string fox = Asset("Fox/Fox.glb");
  const JsonDocument by_name =
      RunJson({"convert", fox, "walk.usda", "--anim", "Walk", "--json"}, dir);
  const JsonDocument by_index =
      RunJson({"convert", fox, "index.usda", "--anim", "1", "--json"}, dir);
  EXPECT_EQ(ReadText(dir.path() / "walk.usda"), ReadText(dir.path() / "index.usda"));
  EXPECT_EQ(by_name.root()["left_out"].size(), by_index.root()["left_out"].size());
  for (const char* anim : {"9", "Fly"}) {
    const ToolRun run = RunSinew({"convert", fox, "none.usda", "--anim", anim}, dir.path());
    EXPECT_EQ(run.exit_code, 1) << anim;
    EXPECT_NE(run.err.find("no animation"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "none.usda"));
  }
}

// glTF -> G4MF (.g4b, Zstd), then `sinew info` validates the result: CesiumMan's skin as sparse
// influences on its 19 joints' groups.
TEST(SinewConvert, WritesAG4mfFileThatInfoValidates) {
  ScratchDir dir;
  const JsonDocument converted = RunJson(
      {"convert", Asset("CesiumMan/CesiumMan.glb"), "CesiumMan.g4b", "--zstd", "--json"}, dir);
  EXPECT_TRUE(converted.root()["binary"].Bool());
  EXPECT_TRUE(converted.root()["zstd"].Bool());
  EXPECT_EQ(int64_t(std::filesystem::file_size(dir.path() / "CesiumMan.g4b")),
            converted.root()["bytes"].Int());
  const JsonDocument doc = RunJson({"info", "CesiumMan.g4b", "--json"}, dir);
  const JsonValue info = doc.root();
  EXPECT_TRUE(info["valid"].Bool());
  EXPECT_EQ(info["format"].String(), "G4MF (3D)");
  const JsonValue skin = MeshNamed(info, "Cesium_Man")["primitives"][0]["skin"];
  EXPECT_EQ(skin["layout"].String(), "sparse");
  EXPECT_EQ(skin["groups"].Int(), 19);
}

// `sinew convert CesiumMan.glb CesiumMan.usda`, then `sinew bake` of the .usda at a time of the
// clip: the glTF's bake at the same time, within 1e-5 of the extent (glTF -> USD -> bake).
TEST(SinewConvert, WritesAUsdSkelLayerThatBakesAsTheGltf) {
  ScratchDir dir;
  const JsonDocument converted =
      RunJson({"convert", Asset("CesiumMan/CesiumMan.glb"), "CesiumMan.usda", "--json"}, dir);
  EXPECT_EQ(int64_t(std::filesystem::file_size(dir.path() / "CesiumMan.usda")),
            converted.root()["bytes"].Int());
  EXPECT_EQ(converted.root()["left_out"].size(), 0u);
  for (const char* in : {"gltf", "usda"}) {
    const std::string file = std::string(in) == "gltf" ? Asset("CesiumMan/CesiumMan.glb")
                                                       : std::string("CesiumMan.usda");
    ASSERT_EQ(
        RunSinew({"bake", file, "--anim", "0", "--time", "1.1", "--out", in}, dir.path()).exit_code,
        0)
        << in;
  }
  const BakeDifference d =
      CompareBakes(ReadText(dir.path() / "gltf.bin"), ReadText(dir.path() / "usda.bin"), 3273);
  EXPECT_GT(d.extent, 0.0f);
  EXPECT_LE(d.largest, 1e-5f * d.extent);
}

// Every mesh instance of RobotExpressive is written (12 unskinned parts, the Head's face shapes),
// and what G4MF cannot hold (the animations) is named in a warning.
TEST(SinewConvert, WritesUnskinnedMeshesAndWarnsAboutAnimations) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"convert", Asset("three_RobotExpressive/RobotExpressive.glb"),
                                "RobotExpressive.g4tf", "--json"},
                               dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("warning: 14 animations left out (G4MF has none): 'Dance'"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("sinew convert: warning at /meshes/12/primitives/0/attributes/WEIGHTS_0"),
            std::string::npos)
      << "the loader's warnings are passed on: " << run.err;
  const JsonDocument converted(run.out);
  const JsonValue left_out = converted.root()["animations_left_out"];
  ASSERT_EQ(left_out.size(), 14u);
  EXPECT_EQ(left_out[0].String(), "Dance");
  const JsonDocument doc = RunJson({"info", "RobotExpressive.g4tf", "--json"}, dir);
  const JsonValue info = doc.root();
  EXPECT_TRUE(info["valid"].Bool());
  EXPECT_EQ(info["format"].String(), "G4MF (3D)");
  EXPECT_EQ(info["meshes"].size(), 14u);
  EXPECT_EQ(MeshNamed(info, "Head_3")["morph_targets"].Int(), 3);
}

// Each blend shape with its name and its in-betweens (target, name, weight): a glTF seed with
// SINEW_morph_inbetweens and extras.targetNames, and RobotExpressive's face shapes (named by
// extras.targetNames, no in-betweens).
TEST(SinewInfo, ListsBlendShapesWithNamesAndInbetweens) {
  ScratchDir dir;
  const JsonDocument seed =
      RunJson({"info", CorpusGltf("morph_inbetweens_named.gltf"), "--json"}, dir);
  const JsonValue face = seed.root()["meshes"][0];
  EXPECT_EQ(face["name"].String(), "Face");
  EXPECT_EQ(face["morph_targets"].Int(), 4);
  ExpectShapes(
      face,
      {{0, "Smile", {"1 Smile_half " + std::to_string(0.5), "2 Smile_over " + std::to_string(1.5)}},
       {3, "Blink", {}}});
  EXPECT_EQ(face["primitives"].size(), 1u);

  const JsonDocument robot =
      RunJson({"info", Asset("three_RobotExpressive/RobotExpressive.glb"), "--json"}, dir);
  const JsonValue head = robot.root()["meshes"][2];
  EXPECT_EQ(head["name"].String(), "Head");
  EXPECT_EQ(head["morph_targets"].Int(), 3);
  ExpectShapes(head, {{0, "Angry", {}}, {1, "Surprised", {}}, {2, "Sad", {}}});
  EXPECT_GE(head["primitives"].size(), 1u);
}

// The text report counts in words: "1 channel", "2 joints", "1 morph target".
TEST(SinewInfo, CountsInTheSingularWhereThereIsOne) {
  ScratchDir dir;
  const ToolRun skin = RunSinew({"info", Asset("SimpleSkin/SimpleSkin.gltf")}, dir.path());
  ASSERT_EQ(skin.exit_code, 0) << skin.err;
  EXPECT_NE(skin.out.find("skin 0 '': 2 joints\n"), std::string::npos) << skin.out;
  EXPECT_NE(skin.out.find("primitive 0: 10 vertices, 24 indices,"), std::string::npos) << skin.out;
  EXPECT_NE(skin.out.find("5.500 s, 1 channel (rotation 1; LINEAR 1)"), std::string::npos)
      << skin.out;
  const ToolRun morph =
      RunSinew({"info", Asset("MorphPrimitivesTest/MorphPrimitivesTest.gltf")}, dir.path());
  ASSERT_EQ(morph.exit_code, 0) << morph.err;
  EXPECT_NE(morph.out.find("mesh 0 'mesh': 1 morph target\n"), std::string::npos) << morph.out;
  // And it names the file it read beside the .gltf (SimpleSkin's buffers are data: URIs: none).
  EXPECT_NE(morph.out.find("files read: "), std::string::npos) << morph.out;
  EXPECT_NE(morph.out.find("MorphPrimitivesTest.bin\n"), std::string::npos) << morph.out;
  EXPECT_EQ(skin.out.find("files read"), std::string::npos) << skin.out;
}

// An invalid file: exit code 1 and the error's code and place.
TEST(SinewInfo, ReportsAnInvalidFileWithItsError) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"info", "missing.gltf", "--json"}, dir.path());
  EXPECT_EQ(run.exit_code, 1);
  const JsonDocument doc(run.out);
  EXPECT_FALSE(doc.root()["valid"].Bool());
  EXPECT_EQ(doc.root()["error"]["code"].String(), "kFileNotFound");
  EXPECT_EQ(doc.root()["error"]["where"].String(), "missing.gltf");
}

// A PNG's width and height (its IHDR chunk, big-endian after the 8-byte signature).
std::pair<uint32_t, uint32_t> PngSize(const std::string& png) {
  EXPECT_GE(png.size(), 24u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  if (png.size() < 24) return {0, 0};
  const auto word = [&](size_t at) {
    return uint32_t(uint8_t(png[at])) << 24 | uint32_t(uint8_t(png[at + 1])) << 16 |
           uint32_t(uint8_t(png[at + 2])) << 8 | uint32_t(uint8_t(png[at + 3]));
  };
  return {word(16), word(20)};
}

// A picture of nothing is written, with a warning saying nothing was drawn.
TEST_F(SinewRenderOnGpu, SaysWhenNothingWasDrawn) {
  ScratchDir dir;
  std::ofstream(dir.path() / "empty.gltf") << R"({"asset": {"version": "2.0"}})";
  const ToolRun run =
      RunSinew({"render", "empty.gltf", "--size", "16x16", "--out", "empty.png"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("warning: nothing was drawn"), std::string::npos) << run.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "empty.png"));
}

// A clip that is not there is refused with the clips there are, by index and by name; a picture
// that cannot be written says why.
TEST_F(SinewRenderOnGpu, SaysWhichClipsThereAreAndWhyAPictureCannotBeWritten) {
  ScratchDir dir;
  const std::string fox = Asset("Fox/Fox.glb");
  const ToolRun clip =
      RunSinew({"render", fox, "--anim", "Trot", "--size", "8x8", "--out", "fox.png"}, dir.path());
  EXPECT_EQ(clip.exit_code, 1);
  EXPECT_NE(clip.err.find("no animation 'Trot': the file has 3, by index 0 to 2 or by name: "
                          "'Survey', 'Walk', 'Run'"),
            std::string::npos)
      << clip.err;
  const ToolRun unwritable =
      RunSinew({"render", fox, "--size", "8x8", "--out", "/proc/sinew-test.png"}, dir.path());
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("cannot open /proc/sinew-test.png: "), std::string::npos)
      << unwritable.err;
}

// A stage whose upAxis is "Z" is drawn with +Z up (the camera turns with it), and the command says
// so; a +Y-up stage is drawn as before, without a word.
TEST_F(SinewRenderOnGpu, DrawsAZUpStageWithZUp) {
  ScratchDir dir;
  const ToolRun z = RunSinew({"render", (TestConformance() / "usdskel/blendshapes.usda").string(),
                              "--size", "8x8", "--out", "z.png"},
                             dir.path());
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_NE(z.out.find(", +Z up (the stage's upAxis)"), std::string::npos) << z.out;
  const ToolRun y = RunSinew({"render", (TestConformance() / "usdskel/lbs.usda").string(), "--size",
                              "8x8", "--out", "y.png"},
                             dir.path());
  ASSERT_EQ(y.exit_code, 0) << y.err;
  EXPECT_EQ(y.out.find("+Z up"), std::string::npos) << y.out;
}

// --frames without a clip draws one pose again and again, and --fps without --frames or
// --motion-vectors is not used: each is said, and the picture still written.
TEST_F(SinewRenderOnGpu, WarnsAboutOptionsThatChangeNothing) {
  ScratchDir dir;
  const std::string skin = Asset("SimpleSkin/SimpleSkin.gltf");
  const ToolRun frames =
      RunSinew({"render", skin, "--frames", "2", "--size", "8x8", "--out", "a.png"}, dir.path());
  ASSERT_EQ(frames.exit_code, 0) << frames.err;
  EXPECT_NE(frames.err.find("warning: --frames without --anim"), std::string::npos) << frames.err;
  const ToolRun fps =
      RunSinew({"render", skin, "--fps", "3", "--size", "8x8", "--out", "b.png"}, dir.path());
  ASSERT_EQ(fps.exit_code, 0) << fps.err;
  EXPECT_NE(fps.err.find("warning: --fps without --frames or --motion-vectors"), std::string::npos)
      << fps.err;
  const ToolRun used = RunSinew({"render", skin, "--anim", "0", "--frames", "2", "--fps", "3",
                                 "--size", "8x8", "--out", "c.png"},
                                dir.path());
  ASSERT_EQ(used.exit_code, 0) << used.err;
  EXPECT_EQ(used.err.find("warning"), std::string::npos) << used.err;
  // Pictures past the clip's end (Fox's Walk: 0.708 s, 22 pictures at 30 a second) hold its last
  // pose, which is said; with --loop they do not.
  const std::string fox = Asset("Fox/Fox.glb");
  const ToolRun past = RunSinew({"render", fox, "--anim", "Walk", "--frames", "24", "--fps", "30",
                                 "--size", "4x4", "--out", "d.png"},
                                dir.path());
  ASSERT_EQ(past.exit_code, 0) << past.err;
  EXPECT_NE(past.err.find("warning: 2 of the 24 pictures at --fps 30 are past the clip's end"),
            std::string::npos)
      << past.err;
  const ToolRun looped = RunSinew({"render", fox, "--anim", "Walk", "--frames", "24", "--fps", "30",
                                   "--loop", "--size", "4x4", "--out", "e.png"},
                                  dir.path());
  ASSERT_EQ(looped.exit_code, 0) << looped.err;
  EXPECT_EQ(looped.err.find("warning"), std::string::npos) << looped.err;
}

// Command lines that meant something else are refused with a message that says what: an unknown
// option, an empty --anim (an unnamed clip is taken by index), a picture not named .png; an
// output extension is read whatever its letter case.
TEST(SinewTool, RefusesCommandLinesThatMeantSomethingElseSayingWhat) {
  ScratchDir dir;
  const std::string skin = Asset("SimpleSkin/SimpleSkin.gltf");
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"bake", skin, "--out", "b", "--bogus"}, "unknown option '--bogus'"},
      {{"render", skin, "--out", "r.png", "--bogus", "1"}, "unknown option '--bogus'"},
      {{"convert", "--bogus", skin, "c.usda"}, "unknown option '--bogus'"},
      {{"info", "--bogus"}, "unknown option '--bogus'"},
      {{"bake", skin, "--anim", "", "--out", "b"}, "--anim needs a clip's name or index"},
      {{"convert", skin, "c.usda", "--anim", ""}, "--anim needs a clip's name or index"},
      {{"render", skin, "--out", "r.jpg"}, "its name ends in .png"},
  };
  for (const auto& [args, why] : refused) {
    const ToolRun run = RunSinew(args, dir.path());
    EXPECT_EQ(run.exit_code, 2) << args[0] << " " << why;
    EXPECT_NE(run.err.find(why), std::string::npos) << run.err;
  }
  const ToolRun upper = RunSinew({"convert", skin, "SKIN.USDA"}, dir.path());
  EXPECT_EQ(upper.exit_code, 0) << upper.err;
  EXPECT_EQ(ReadText(dir.path() / "SKIN.USDA").rfind("#usda 1.0", 0), 0u);
}

// A device asked for that is not there fails the benchmark, instead of a CPU-only run that exits
// 0 as if the GPU had been measured.
TEST(SinewBench, FailsWhenTheDeviceAskedForIsNotThere) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"bench", "--characters", "1", "--vertices", "64", "--frames", "1",
                                "--device", "no such device"},
                               dir.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("no device 'no such device'"), std::string::npos) << run.err;
}

// A bake that cannot be written says which file and why, and leaves no manifest behind for a
// .bin that was never written.
TEST(SinewBake, LeavesNothingBehindWhenItCannotWriteAndSaysWhy) {
  ScratchDir dir;
  std::filesystem::create_symlink("/dev/full", dir.path() / "full.bin");
  const ToolRun run =
      RunSinew({"bake", Asset("SimpleSkin/SimpleSkin.gltf"), "--out", "full"}, dir.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("cannot write full.bin or .json: No space left on device"),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "full.json"));
}

// Numbers are decimal: a hexadecimal time, or one with a unit, is a usage error, not 16 seconds.
TEST(SinewBake, TakesOnlyDecimalNumbers) {
  ScratchDir dir;
  for (const char* time : {"0x10", "1.5s", "+", ""}) {
    const ToolRun run = RunSinew(
        {"bake", Asset("SimpleSkin/SimpleSkin.gltf"), "--anim", "0", "--time", time, "--out", "t"},
        dir.path());
    EXPECT_EQ(run.exit_code, 2) << time;
    EXPECT_NE(run.err.find("--time needs a finite number"), std::string::npos) << run.err;
  }
}

// Every limit of --frames and --size may be within range while their product is not: 256
// pictures of 8192x8192 would need 64 GiB. That is refused before anything is drawn.
TEST(SinewRender, RefusesAContactSheetTooLargeToHold) {
  ScratchDir dir;
  const ToolRun run = RunSinew({"render", Asset("SimpleSkin/SimpleSkin.gltf"), "--anim", "0",
                                "--frames", "256", "--size", "8192x8192", "--out", "huge.png"},
                               dir.path());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("17179869184 pixels, more than the 268435456"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "huge.png"));
}

// `sinew render` writes a PNG of the size asked for (what is in it: tests/gpu/render_gpu_test.cpp),
// and with --frames a contact sheet: 4 pictures as 2 x 2.
TEST_F(SinewRenderOnGpu, WritesAPngOfThePictureAndAContactSheetOfFrames) {
  ScratchDir dir;
  const std::string fox = (TestAssets() / "Fox/Fox.glb").string();
  ToolRun run = RunSinew(
      {"render", fox, "--anim", "Walk", "--time", "0.3", "--size", "96x64", "--out", "fox.png"},
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("nothing was drawn"), std::string::npos) << run.err;
  EXPECT_EQ(PngSize(ReadText(dir.path() / "fox.png")), std::make_pair(96u, 64u));
  run = RunSinew(
      {"render", fox, "--anim", "Walk", "--frames", "4", "--size", "32x32", "--out", "sheet.png"},
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(PngSize(ReadText(dir.path() / "sheet.png")), std::make_pair(64u, 64u));
  // Motion vectors of a pose that does not move (no clip): every drawn pixel is (128, 128, 128),
  // the background (46, 50, 58).
  run = RunSinew({"render", fox, "--motion-vectors", "--size", "64x64", "--out", "still.png"},
                 dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_file(&image, (dir.path() / "still.png").c_str()));
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> rgb(PNG_IMAGE_SIZE(image));
  ASSERT_TRUE(png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr));
  size_t still = 0;
  for (size_t i = 0; i + 2 < rgb.size(); i += 3) {
    const bool background = rgb[i] == 46 && rgb[i + 1] == 50 && rgb[i + 2] == 58;
    if (background) continue;
    ++still;
    ASSERT_NEAR(rgb[i], 128, 1) << i;
    ASSERT_NEAR(rgb[i + 1], 128, 1) << i;
  }
  EXPECT_GT(still, 64u);
  run = RunSinew({"render", fox, "--frames", "2", "--time", "1", "--out", "x.png"}, dir.path());
  EXPECT_EQ(run.exit_code, 2);
  run = RunSinew({"render", fox, "--variant", "none", "--out", "x.png"}, dir.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("no material variant 'none'"), std::string::npos) << run.err;
  // Compact formats (the picture itself: tests/gpu/render_gpu_test.cpp, RenderCompactGpu).
  run = RunSinew({"render", fox, "--formats", "compact", "--size", "48x48", "--out", "c.png"},
                 dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(PngSize(ReadText(dir.path() / "c.png")), std::make_pair(48u, 48u));
  run = RunSinew({"render", fox, "--formats", "half", "--out", "x.png"}, dir.path());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--formats float32|compact"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace sinew::testing
