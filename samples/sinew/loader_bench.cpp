// `sinew bench --loader [FILES]`: parse + validate + pack time of the glTF and G4MF loaders against
// a bare simdjson DOM parse of the same JSON bytes, in the same process.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "bench_util.h"
#include "commands.h"
#include "json_writer.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/g4mf_writer.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/load_asset.h"
#include "synthetic_gltf.h"

namespace sinew::tool {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct LoaderRow {
  std::string file;
  size_t json_bytes = 0, values = 0;
  double first_ms = 0, warm_ms = 0, dom_ms = 0;
  double ratio = 0;  // Median over paired rounds of load / DOM (not warm_ms / dom_ms).
  double ns_per_value() const { return warm_ms * 1e6 / double(values); }
  double mb_per_s() const { return double(json_bytes) / (warm_ms * 1e-3) / 1e6; }
};

// Times `fn` once, in ms.
template <typename Fn>
double TimeMs(Fn&& fn) {
  const auto t0 = Clock::now();
  fn();
  return Ms(Clock::now() - t0);
}

// Repeated rounds of `load` and (when `dom` is set) `dom`, each round running both back to back,
// in alternating order, until at least 5 rounds and about 0.6 s (at most 500 rounds). The two
// sides share the machine's state round by round, so on a busy machine their ratio is steadier
// than the ratio of two medians taken one after the other: ratio = median of the rounds' ratios.
struct PairedTimes {
  double load_ms = 0, dom_ms = 0, ratio = 0;
};
template <typename Load, typename Dom>
PairedTimes TimePaired(Load&& load, Dom&& dom, bool with_dom) {
  std::vector<double> loads, doms, ratios;
  const auto start = Clock::now();
  while (loads.size() < 5 || (Ms(Clock::now() - start) < 600 && loads.size() < 500)) {
    double l = 0, d = 0;
    if (!with_dom) {
      l = TimeMs(load);
    } else if (loads.size() % 2 == 0) {
      d = TimeMs(dom);
      l = TimeMs(load);
    } else {
      l = TimeMs(load);
      d = TimeMs(dom);
    }
    loads.push_back(l);
    if (with_dom) {
      doms.push_back(d);
      ratios.push_back(l / d);
    }
  }
  PairedTimes t;
  t.load_ms = Median(loads);
  if (with_dom) {
    t.dom_ms = Median(doms);
    t.ratio = Median(ratios);
  }
  return t;
}

std::vector<std::filesystem::path> DefaultFiles(const std::filesystem::path& scratch) {
  std::vector<std::filesystem::path> files;
  const char* env = std::getenv("SINEW_TEST_ASSETS");
  const std::filesystem::path assets = env ? env : "../shared/assets";
  std::error_code ec;
  if (std::filesystem::is_directory(assets, ec)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(assets, ec)) {
      const auto ext = entry.path().extension();
      if (ext == ".gltf" || ext == ".glb") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
  }
  std::filesystem::create_directories(scratch, ec);
  // G4MF: CesiumMan converted (sinew convert), as .g4tf (base64 buffer) and Zstd .g4b.
  if (auto cesium = loader::LoadGltf(assets / "CesiumMan/CesiumMan.glb")) {
    for (bool binary : {false, true}) {
      loader::G4mfWriteOptions w;
      w.binary = w.zstd = binary;
      auto bytes = loader::WriteG4mf(cesium->asset, w);
      if (!bytes) continue;
      const auto path = scratch / (binary ? "CesiumMan_zstd.g4b" : "CesiumMan.g4tf");
      std::FILE* f = std::fopen(path.string().c_str(), "wb");
      if (!f) continue;
      const bool written = std::fwrite(bytes->data(), 1, bytes->size(), f) == bytes->size();
      if (std::fclose(f) == 0 && written) files.push_back(path);
    }
  }
  for (bool pretty : {true, false}) {
    SyntheticGltfOptions o;
    o.pretty = pretty;
    const auto path =
        scratch / (pretty ? "synthetic_crowd_pretty.gltf" : "synthetic_crowd_min.gltf");
    auto written = WriteSyntheticGltf(path, o);
    if (written) files.push_back(path);
  }
  return files;
}

// `sinew bench --loader --json`: a row per file; the DOM comparison where there is one.
void PrintLoaderJson(const std::vector<LoaderRow>& rows) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("loader").BeginArray();
  for (const LoaderRow& r : rows) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("file").String(r.file);
    json.Key("first_ms").Number(r.first_ms, JsonWriter::Fixed(4));
    json.Key("warm_ms").Number(r.warm_ms, JsonWriter::Fixed(4));
    if (r.dom_ms > 0) {
      json.Key("json_bytes").Int(int64_t(r.json_bytes));
      json.Key("json_values").Int(int64_t(r.values));
      json.Key("dom_parse_ms").Number(r.dom_ms, JsonWriter::Fixed(4));
      json.Key("ratio").Number(r.ratio, JsonWriter::Fixed(3));
      json.Key("ns_per_value").Number(r.ns_per_value(), JsonWriter::Fixed(2));
      json.Key("mb_per_s").Number(r.mb_per_s(), JsonWriter::Fixed(1));
    }
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

// Times the loader on `path` (first load, then warm loads paired with the DOM baseline). False
// when the file does not load (after a message) or a timed load fails.
bool MeasureFile(const std::filesystem::path& path, loader::GltfLoader& gltf_loader,
                 loader::GltfLoader& baseline, LoaderRow* row) {
  row->file = path.filename().string();
  // First load: the first time this process loads this file (file read included).
  const auto t0 = Clock::now();
  auto first = loader::LoadAsset(path);
  row->first_ms = Ms(Clock::now() - t0);
  if (!first) {
    std::fprintf(stderr, "sinew bench: %s: %s\n", path.string().c_str(),
                 first.error().ToString().c_str());
    return false;
  }
  if (loader::IsUsd(first->format)) {
    std::fprintf(stderr,
                 "sinew bench: %s: the loader benchmark compares JSON loaders; `sinew bench "
                 "--usda` measures the .usda reader\n",
                 path.string().c_str());
    return false;
  }
  auto bytes = loader::ReadFile(path);
  if (!bytes) return false;
  const std::span<const uint8_t> data(bytes->data(), bytes->size);
  const bool g4mf = first->format == loader::AssetFormat::kG4mf;
  // The DOM baseline parses JSON (a .glb's JSON chunk); a .g4b's JSON sits in a chunk the
  // baseline does not open, so binary G4MF rows have no ratio.
  const bool g4b = g4mf && data.size() >= 4 &&
                   std::string_view(reinterpret_cast<const char*>(data.data()), 4) == "G4MF";
  const auto base = path.parent_path();
  bool ok = true;
  if (!g4b) {
    auto stats = baseline.ParseJsonOnly(data, true);
    if (!stats) return false;
    row->json_bytes = stats->json_bytes;
    row->values = stats->values;
  }
  const PairedTimes t = TimePaired(
      [&] {
        ok &= g4mf ? loader::LoadG4mfFromMemory(data, base).ok()
                   : gltf_loader.LoadFromMemory(data, base).ok();
      },
      [&] { ok &= baseline.ParseJsonOnly(data, false).ok(); }, !g4b);
  row->warm_ms = t.load_ms;
  row->dom_ms = t.dom_ms;
  row->ratio = t.ratio;
  return ok;
}

// `sinew bench --loader`'s table, with what its columns mean.
void PrintLoaderTable(const std::vector<LoaderRow>& rows) {
  int width = 34;  // the file column: the longest name, at least 34
  for (const LoaderRow& r : rows) width = std::max(width, int(r.file.size()));
  std::printf("%-*s %9s %8s %9s %9s %9s %6s %8s %8s\n", width, "file", "JSON KiB", "values",
              "first ms", "warm ms", "DOM ms", "ratio", "ns/val", "MB/s");
  for (const LoaderRow& r : rows) {
    if (r.dom_ms <= 0) {
      std::printf("%-*s %9s %8s %9.3f %9.3f %9s %6s %8s %8s\n", width, r.file.c_str(), "-", "-",
                  r.first_ms, r.warm_ms, "-", "-", "-", "-");
      continue;
    }
    std::printf("%-*s %9.1f %8zu %9.3f %9.3f %9.3f %6.2f %8.1f %8.1f\n", width, r.file.c_str(),
                double(r.json_bytes) / 1024.0, r.values, r.first_ms, r.warm_ms, r.dom_ms, r.ratio,
                r.ns_per_value(), r.mb_per_s());
  }
  std::printf(
      "first = first load of the file in this process (fresh loader, file read included);\n"
      "warm = median load from memory (glTF: a reused GltfLoader; G4MF: LoadG4mfFromMemory),\n"
      "parse + validate + pack, external buffers read; DOM = bare simdjson DOM parse of the\n"
      "same JSON with a reused parser (none for .g4b: its JSON is in a chunk), timed in\n"
      "rounds paired with the loads; ratio = median over the rounds of load / DOM\n");
}

}  // namespace

int LoaderBench(std::span<const std::string_view> file_args, bool json) {
  std::vector<std::filesystem::path> files(file_args.begin(), file_args.end());
  if (files.empty()) {
    files = DefaultFiles(std::filesystem::temp_directory_path() / "sinew-bench-loader");
  }
  std::vector<LoaderRow> rows;
  // Each side reuses its own parser, as an engine loading many files would.
  loader::GltfLoader gltf_loader, baseline;
  std::map<std::string, int> named;  // how many files have each name
  for (const auto& path : files) ++named[path.filename().string()];
  for (const auto& path : files) {
    LoaderRow row;
    if (!MeasureFile(path, gltf_loader, baseline, &row)) return 1;
    // A row is named by its file's name, or by its folder and name where files share the name.
    if (named[row.file] > 1) {
      row.file = (path.parent_path().filename() / path.filename()).generic_string();
    }
    rows.push_back(row);
  }
  if (json) {
    PrintLoaderJson(rows);
  } else {
    PrintLoaderTable(rows);
  }
  return 0;
}

}  // namespace sinew::tool
