// `sinew bench --usda [--json] [--mb N] [FILES]`: how fast the .usda reader (loader/src/usd) turns
// text into a layer, in MB/s of text. Without FILES it writes a synthetic stage (synthetic_usda.h)
// of about N MB (default 32) and reads that.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_util.h"
#include "commands.h"
#include "json_writer.h"
#include "sinew/loader/file.h"
#include "synthetic_usda.h"
#include "usd/usda_parser.h"

namespace sinew::tool {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct UsdaRow {
  std::string file;
  size_t bytes = 0;
  size_t prims = 0, attributes = 0, time_samples = 0, numbers = 0;
  size_t rounds = 0;
  double first_ms = 0, median_ms = 0, min_ms = 0;
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

// Reads `path` once (first_ms), then again until at least 5 rounds and about a second (at most
// 100 rounds) from the same bytes in memory. False (after a message) when it does not read.
bool MeasureFile(const std::filesystem::path& path, UsdaRow* row) {
  row->file = path.filename().string();
  auto bytes = loader::ReadFile(path);
  if (!bytes) {
    std::fprintf(stderr, "sinew bench: %s\n", bytes.error().ToString().c_str());
    return false;
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size);
  row->bytes = text.size();
  auto t0 = Clock::now();
  auto layer = loader::usd::ReadUsda(text);
  row->first_ms = Ms(Clock::now() - t0);
  if (!layer) {
    std::fprintf(stderr, "sinew bench: %s: %s\n", path.string().c_str(),
                 layer.error().ToString().c_str());
    return false;
  }
  Count(*layer, row);
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 5 || (Ms(Clock::now() - start) < 1000 && times.size() < 100)) {
    t0 = Clock::now();
    const bool ok = loader::usd::ReadUsda(text).ok();
    times.push_back(Ms(Clock::now() - t0));
    if (!ok) return false;
  }
  row->rounds = times.size();
  row->median_ms = Median(times);
  row->min_ms = *std::min_element(times.begin(), times.end());
  return true;
}

void PrintJson(const std::vector<UsdaRow>& rows) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("usda").BeginArray();
  for (const UsdaRow& r : rows) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("file").String(r.file);
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
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

void PrintTable(const std::vector<UsdaRow>& rows) {
  std::printf("%-32s %9s %7s %8s %8s %10s %9s %9s %8s\n", "file", "KB", "prims", "attrs", "samples",
              "numbers", "first ms", "median ms", "MB/s");
  for (const UsdaRow& r : rows) {
    std::printf("%-32s %9.1f %7zu %8zu %8zu %10zu %9.2f %9.2f %8.1f\n", r.file.c_str(),
                double(r.bytes) / 1024.0, r.prims, r.attributes, r.time_samples, r.numbers,
                r.first_ms, r.median_ms, r.mb_per_s());
  }
  std::printf(
      "first = the first read of the file's bytes in this process; median = the median of the\n"
      "reads after it (at least 5, about a second), text in memory -> usd::Layer; MB/s = file\n"
      "bytes (10^6) / median\n");
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
      return "unknown option " + std::string(args[i]);
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
