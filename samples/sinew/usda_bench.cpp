// `sinew bench --usda [--json] [--mb N] [FILES]`: how fast the USD readers (loader/src/usd) turn a
// file's bytes into a layer (MB/s of the file), and the UsdSkel loader into a validated, packed
// asset. Without FILES it writes a synthetic stage (synthetic_usda.h) of about N MiB (default 32),
// and the same layer as a .usdc crate file, and reads both side by side.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_util.h"
#include "commands.h"
#include "json_writer.h"
#include "sinew/loader/file.h"
#include "sinew/loader/usd.h"
#include "synthetic_usda.h"
#include "usd/crate_writer.h"
#include "usd/read_layer.h"
#include "usd/usda_parser.h"

namespace sinew::tool {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct UsdaRow {
  std::string file;
  std::string format;  // usda, usdc or usdz
  size_t bytes = 0;
  size_t prims = 0, attributes = 0, time_samples = 0, numbers = 0;
  size_t rounds = 0;
  double first_ms = 0, median_ms = 0, min_ms = 0;
  size_t load_rounds = 0;
  double load_median_ms = 0;  // bytes -> validated asset with packed influences (LoadUsdFromMemory)
  double mb_per_s() const { return double(bytes) / (median_ms * 1e-3) / 1e6; }
};

struct UsdaBenchOptions {
  std::vector<std::filesystem::path> files;
  uint32_t megabytes = 32;
  bool json = false;
};

// The numbers a value holds (all storages but strings and dictionaries).
size_t Numbers(const loader::usd::Value& v) {
  return v.ints().size() + v.int64s().size() + v.floats().size() + v.doubles().size();
}

// What the layer holds, for the report.
void Count(const loader::usd::Layer& layer, UsdaRow* row) {
  row->prims = layer.prims.size();
  for (const auto& prim : layer.prims) {
    row->attributes += prim.attributes.size();
    for (const auto& a : prim.attributes) {
      row->time_samples += a.time_samples.size();
      if (a.default_value) row->numbers += Numbers(*a.default_value);
      for (const auto& s : a.time_samples) row->numbers += Numbers(s.value);
    }
  }
}

// Runs `step` until at least `min_rounds` rounds and about a second (at most 100 rounds); the
// times in ms, or empty when a round fails.
template <typename Step>
std::vector<double> Rounds(size_t min_rounds, Step&& step) {
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < min_rounds || (Ms(Clock::now() - start) < 1000 && times.size() < 100)) {
    const auto t0 = Clock::now();
    const bool ok = step();
    times.push_back(Ms(Clock::now() - t0));
    if (!ok) return {};
  }
  return times;
}

// Reads `path` once (first_ms), then again until at least 5 rounds and about a second from the
// same bytes in memory; then loads it as an asset at least 3 times. False (after a message) when
// it does not read.
bool MeasureFile(const std::filesystem::path& path, UsdaRow* row) {
  row->file = path.filename().string();
  auto bytes = loader::ReadFile(path);
  if (!bytes) {
    std::fprintf(stderr, "sinew bench: %s\n", bytes.error().ToString().c_str());
    return false;
  }
  const std::span<const uint8_t> data(bytes->data(), bytes->size);
  const loader::usd::LayerEncoding encoding = loader::usd::DetectLayerEncoding(data);
  row->format = encoding == loader::usd::LayerEncoding::kUsda   ? "usda"
                : encoding == loader::usd::LayerEncoding::kUsdc ? "usdc"
                                                                : "usdz";
  row->bytes = data.size();
  auto t0 = Clock::now();
  auto layer = loader::usd::ReadLayer(data);
  row->first_ms = Ms(Clock::now() - t0);
  if (!layer) {
    std::fprintf(stderr, "sinew bench: %s: %s\n", path.string().c_str(),
                 layer.error().ToString().c_str());
    return false;
  }
  Count(*layer, row);
  const std::vector<double> times = Rounds(5, [&] { return loader::usd::ReadLayer(data).ok(); });
  if (times.empty()) return false;
  row->rounds = times.size();
  row->median_ms = Median(times);
  row->min_ms = *std::min_element(times.begin(), times.end());
  auto loaded = loader::LoadUsdFromMemory(data);
  if (!loaded) {
    std::fprintf(stderr, "sinew bench: %s: %s\n", path.string().c_str(),
                 loaded.error().ToString().c_str());
    return false;
  }
  const std::vector<double> loads = Rounds(3, [&] { return loader::LoadUsdFromMemory(data).ok(); });
  if (loads.empty()) return false;
  row->load_rounds = loads.size();
  row->load_median_ms = Median(loads);
  return true;
}

void PrintJson(const std::vector<UsdaRow>& rows) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("usda").BeginArray();
  for (const UsdaRow& r : rows) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("file").String(r.file);
    json.Key("format").String(r.format);
    json.Key("bytes").Int(int64_t(r.bytes));
    json.Key("prims").Int(int64_t(r.prims));
    json.Key("attributes").Int(int64_t(r.attributes));
    json.Key("time_samples").Int(int64_t(r.time_samples));
    json.Key("numbers").Int(int64_t(r.numbers));
    json.Key("rounds").Int(int64_t(r.rounds));
    json.Key("first_ms").Number(r.first_ms, JsonWriter::Fixed(3));
    json.Key("median_ms").Number(r.median_ms, JsonWriter::Fixed(3));
    json.Key("min_ms").Number(r.min_ms, JsonWriter::Fixed(3));
    json.Key("mb_per_s").Number(r.mb_per_s(), JsonWriter::Fixed(1));
    json.Key("load_rounds").Int(int64_t(r.load_rounds));
    json.Key("load_median_ms").Number(r.load_median_ms, JsonWriter::Fixed(3));
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

void PrintTable(const std::vector<UsdaRow>& rows) {
  std::printf("%-28s %-5s %9s %6s %7s %8s %10s %9s %9s %8s %8s\n", "file", "fmt", "KiB", "prims",
              "attrs", "samples", "numbers", "first ms", "median ms", "MB/s", "load ms");
  for (const UsdaRow& r : rows) {
    std::printf("%-28s %-5s %9.1f %6zu %7zu %8zu %10zu %9.2f %9.2f %8.1f %8.2f\n", r.file.c_str(),
                r.format.c_str(), double(r.bytes) / 1024.0, r.prims, r.attributes, r.time_samples,
                r.numbers, r.first_ms, r.median_ms, r.mb_per_s(), r.load_median_ms);
  }
  std::printf(
      "first = the first read of the file's bytes in this process; median = the median of the\n"
      "reads after it (at least 5, about a second), bytes in memory -> usd::Layer; MB/s = file\n"
      "bytes (10^6) / median; load = bytes -> validated sinew::Asset with packed influences\n"
      "(LoadUsdFromMemory), median of at least 3\n");
}

// Returns an empty string on success, else what was wrong.
std::string ParseUsdaArgs(std::span<const std::string_view> args, UsdaBenchOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--json") {
      o->json = true;
    } else if (args[i] == "--mb") {
      if (i + 1 == args.size() || !ParseUint(args[++i], &o->megabytes) || o->megabytes == 0) {
        return "--mb N >= 1";
      }
    } else if (args[i].starts_with("--")) {
      return "unknown option '" + std::string(args[i]) + "'";
    } else {
      o->files.emplace_back(args[i]);
    }
  }
  return {};
}

}  // namespace

int UsdaBench(std::span<const std::string_view> args) {
  UsdaBenchOptions o;
  if (std::string err = ParseUsdaArgs(args, &o); !err.empty()) {
    std::fprintf(stderr, "sinew bench --usda: %s (see sinew bench --help)\n", err.c_str());
    return 2;
  }
  if (o.files.empty()) {
    const auto dir = std::filesystem::temp_directory_path() / "sinew-bench-usda";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    SyntheticUsdaOptions synthetic;
    synthetic.target_bytes = size_t(o.megabytes) << 20;
    const auto path = dir / "synthetic_stage.usda";
    auto written = WriteSyntheticUsda(path, synthetic);
    if (!written) {
      std::fprintf(stderr, "sinew bench: %s\n", written.error().ToString().c_str());
      return 1;
    }
    o.files.push_back(path);
    // The same layer as a crate file, read side by side with the text.
    auto text = loader::ReadFile(path);
    if (!text) return 1;
    auto layer = loader::usd::ReadUsda(
        std::string_view(reinterpret_cast<const char*>(text->data()), text->size));
    auto crate =
        layer ? loader::usd::WriteCrate(*layer) : Result<std::vector<uint8_t>>(layer.status());
    if (!crate) {
      std::fprintf(stderr, "sinew bench: %s\n", crate.error().ToString().c_str());
      return 1;
    }
    const auto crate_path = dir / "synthetic_stage.usdc";
    std::FILE* f = std::fopen(crate_path.string().c_str(), "wb");
    const bool written_all = f && std::fwrite(crate->data(), 1, crate->size(), f) == crate->size();
    if (f) std::fclose(f);
    if (!written_all) {
      std::fprintf(stderr, "sinew bench: cannot write %s\n", crate_path.string().c_str());
      return 1;
    }
    o.files.push_back(crate_path);
  }
  std::vector<UsdaRow> rows;
  for (const auto& path : o.files) {
    UsdaRow row;
    if (!MeasureFile(path, &row)) return 1;
    rows.push_back(row);
  }
  if (o.json) {
    PrintJson(rows);
  } else {
    PrintTable(rows);
  }
  return 0;
}

}  // namespace sinew::tool
