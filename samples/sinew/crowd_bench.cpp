// `sinew bench --crowd N[,N...]`: a mixed crowd in one vk::SkinCache, frame after frame as an
// engine runs it: every character posed on the CPU (CrowdPoseJob for the files' characters along
// their first clip, the procedural clip for the procedural ones) straight into the cache's
// palettes, the frame recorded (at most one dispatch per kernel variant and output page) and timed
// on the GPU.
// The last frame is checked against the CPU reference.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "commands.h"
#include "json_writer.h"
#include "sinew/asset/sparse_influences.h"
#include "sinew/cpu/crowd_pose_job.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/cpu/scene_transforms_job.h"
#include "sinew/cpu/skin_instance_palette_job.h"
#include "sinew/cpu/skin_mesh.h"
#include "sinew/cpu/sub_shape_weights_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"
#include "sinew/procedural/face_shapes.h"
#include "sinew/vk/readback.h"
#include "sinew/vk/skin_cache.h"
#include "sinew/vk/skin_cache_asset.h"
#include "timestamps.h"

namespace sinew::tool {
namespace {

using Clock = std::chrono::steady_clock;

double Microseconds(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since).count();
}

struct CrowdOptions {
  std::vector<uint32_t> sizes;  // characters per run
  std::vector<uint32_t> threads = {1, 2};
  uint32_t frames = 10;
  uint32_t vertices = 2000;  // per procedural character
  std::string assets;        // folder of skinned glTF/G4MF files ("" : none)
  std::string device;
  vk::PreviousPositions previous = vk::PreviousPositions::kPingPong;
  // The GPU kernels' (vk::SkinCacheOptions::workgroup_size; 0: the device's), then the size in use.
  uint32_t workgroup_size = 0;
  bool json = false;
};

// Runs fn(0 .. n-1) on n threads (the caller's among them) and waits for all.
class Workers {
 public:
  explicit Workers(uint32_t extra) {
    for (uint32_t i = 0; i < extra; ++i) threads_.emplace_back([this, i] { Loop(i + 1); });
  }
  ~Workers() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void Run(uint32_t n, const std::function<void(uint32_t)>& fn) {
    n = std::min<uint32_t>(n, uint32_t(threads_.size()) + 1);
    {
      std::lock_guard lock(mutex_);
      fn_ = &fn;
      active_ = n;
      pending_ = n - 1;
      ++generation_;
    }
    wake_.notify_all();
    fn(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }

 private:
  void Loop(uint32_t index) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(uint32_t)>* fn = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (index >= active_) continue;
        fn = fn_;
      }
      (*fn)(index);
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(uint32_t)>* fn_ = nullptr;
  uint32_t active_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

// One kind of character: a file's (posed along its first clip) or a procedural mesh.
struct Kind {
  std::string name;
  // A file's.
  std::unique_ptr<loader::LoadedFile> file;
  std::unique_ptr<cpu::PosePlan> plan;
  int32_t clip = -1;
  float start = 0, duration = 0;
  // A procedural one: its mesh and skeleton.
  Primitive mesh;
  Skeleton skeleton;
  std::vector<float> weights;  // resolved morph weights, constant
  uint32_t vertices = 0;       // per character
  uint32_t instances = 0;      // cache instances per character
};

// A kind's characters in one run's cache.
struct Members {
  vk::AssetMeshes asset_meshes;
  vk::MeshId mesh;
  std::vector<vk::AssetInstance> characters;  // a file's
  std::vector<vk::PaletteId> palettes;        // procedural: one each
  std::vector<vk::InstanceId> instances;      // procedural: one each
  std::vector<uint32_t> member;               // crowd index of each character
  std::vector<cpu::PoseScratch> scratch;      // per thread
  std::vector<std::span<Float3x4>> spans;     // this frame's palettes, [character][drawn]
  std::vector<float> times, weights;
};

float ClipTime(const Kind& k, uint32_t member, uint32_t frame) {
  const float t = float(frame) / 30.0f + 0.37f * float(member);
  return k.duration > 0 ? k.start + std::fmod(t, k.duration) : k.start;
}

std::string ParseCrowdArgs(std::span<const std::string_view> args, CrowdOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const auto value = [&]() -> std::string_view {
      return i + 1 < args.size() ? args[++i] : std::string_view();
    };
    if (a == "--crowd") {
      if (!ParseUintList(value(), 1, &o->sizes)) return "--crowd N[,N...] with N >= 1";
    } else if (a == "--threads") {
      if (!ParseUintList(value(), 1, &o->threads)) return "--threads N[,N...] with N >= 1";
    } else if (a == "--frames") {
      if (!ParseUint(value(), &o->frames) || o->frames == 0) return "--frames N >= 1";
    } else if (a == "--vertices") {
      if (!ParseUint(value(), &o->vertices) || o->vertices == 0) return "--vertices N >= 1";
    } else if (a == "--assets") {
      o->assets = std::string(value());
      if (!std::filesystem::is_directory(o->assets))
        return "--assets " + o->assets + ": no such folder";
    } else if (a == "--device") {
      o->device = std::string(value());
    } else if (a == "--previous") {
      const std::string_view m = value();
      if (m == "pingpong") {
        o->previous = vk::PreviousPositions::kPingPong;
      } else if (m == "copy") {
        o->previous = vk::PreviousPositions::kCopy;
      } else if (m == "none") {
        o->previous = vk::PreviousPositions::kNone;
      } else {
        return "--previous pingpong|copy|none";
      }
    } else if (a == "--workgroup-size") {
      if (!ParseUint(value(), &o->workgroup_size)) {
        return "--workgroup-size N (0: the device's, else a power of two from 64)";
      }
    } else if (a == "--json") {
      o->json = true;
    } else {
      return "unknown option '" + std::string(a) + "'";
    }
  }
  return {};
}

}  // namespace

void PrintCrowdHelp() {
  std::fputs(
      "usage: sinew bench --crowd N[,N...] [options]\n"
      "  a mixed crowd of N characters in one SkinCache, frame after frame: posed on the CPU\n"
      "  straight into the cache's palettes, recorded, timed on the GPU; the last frame checked\n"
      "  against the CPU reference. Characters take turns among the kinds: four procedural\n"
      "  meshes (dense K=4, K=8, sparse, K=4 with 12 face shapes at 0.5) and every skinned\n"
      "  glTF/G4MF file with a clip under --assets.\n"
      "  --assets DIR      folder searched for skinned files (default: SINEW_TEST_ASSETS, else\n"
      "                    ../shared/assets when it exists)\n"
      "  --threads LIST    posing threads to time, comma separated (default 1,2)\n"
      "  --frames N        frames timed (default 10, after one untimed)\n"
      "  --vertices N      vertices per procedural character (default 2000)\n"
      "  --previous M      previous positions: pingpong (default), copy or none\n"
      "  --device SEL      Vulkan device: index or name substring\n"
      "  --workgroup-size N vertices per workgroup of the GPU kernels, a power of two from 64\n"
      "                    to the device's limit, at most 1024 (default 0: the device's, from\n"
      "                    its subgroup size)\n"
      "  --json            machine-readable output on stdout\n",
      stdout);
}

namespace {

// The procedural kinds: dense K=4, K=8, sparse, and K=4 with 12 face shapes at 0.5.
Status AddProceduralKinds(const CrowdOptions& o, std::vector<Kind>* kinds) {
  procedural::CharacterOptions co;
  co.vertex_count = o.vertices;
  const auto character = [&](uint32_t k) {
    co.influences_per_vertex = k;
    return procedural::MakeCharacter(co);
  };
  for (const char* name :
       {"procedural K=4", "procedural K=8", "procedural sparse", "procedural shapes"}) {
    auto made = character(std::string(name) == "procedural K=8" ? 8 : 4);
    if (!made) return made.status();
    Kind k;
    k.name = name;
    k.mesh = std::move(made->mesh);
    k.skeleton = std::move(made->skeleton);
    if (k.name == "procedural sparse") {
      auto sparse =
          DenseToSparse(k.mesh.vertex_count(), k.mesh.influences, k.skeleton.joint_count());
      if (!sparse) return sparse.status();
      k.mesh.sparse_influences = std::move(sparse.value());
      k.mesh.influences = {};
    }
    if (k.name == "procedural shapes") {
      procedural::FaceShapeOptions fo;
      fo.shapes = 12;
      auto shapes = procedural::MakeFaceShapes(k.mesh, fo);
      if (!shapes) return shapes.status();
      k.mesh.targets = shapes->targets;
      std::vector<float> w(shapes->targets.size(), 0.0f);
      for (size_t t = 0; t < fo.shapes; ++t) w[t] = 0.5f;
      k.weights.resize(w.size());
      cpu::SubShapeWeightsJob job;
      job.shapes = shapes->inbetweens;
      job.weights = w;
      job.output = k.weights;
      if (Status s = job.Run(); !s) return s;
    }
    k.vertices = uint32_t(k.mesh.vertex_count());
    k.instances = 1;
    kinds->push_back(std::move(k));
  }
  return {};
}

// The glTF and G4MF files under `folder`, in path order.
std::vector<std::filesystem::path> AssetFiles(const std::string& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string ext = it->path().extension().string();
    if (ext == ".gltf" || ext == ".glb" || ext == ".g4tf" || ext == ".g4b") {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The kind of `path`, named relative to `folder`: posed along its first clip. Null when the file
// does not load (the shared folder holds broken files on purpose), draws no skinned mesh or has
// no clip.
std::unique_ptr<Kind> FileKind(const std::filesystem::path& path, const std::string& folder) {
  auto loaded = loader::LoadAsset(path);
  if (!loaded) return nullptr;
  auto k = std::make_unique<Kind>();
  k->file = std::make_unique<loader::LoadedFile>(std::move(loaded.value()));
  const Asset& a = k->file->loaded.asset;
  bool skinned = false;
  for (const cpu::DrawnMesh& d : cpu::DrawnMeshes(a)) skinned |= d.skin >= 0;
  if (!skinned || a.animations.empty()) return nullptr;
  auto plan = cpu::PosePlan::Create(a);
  if (!plan) return nullptr;
  k->plan = std::make_unique<cpu::PosePlan>(std::move(plan.value()));
  k->name = std::filesystem::relative(path, folder).string();
  k->clip = 0;
  const cpu::ClipRange range = cpu::RangeOf(a.animations[0]);
  k->start = range.start;
  k->duration = range.duration();
  for (const cpu::DrawnMesh& d : k->plan->drawn()) {
    for (const Primitive& p : a.meshes[d.mesh].primitives) {
      k->vertices += uint32_t(p.vertex_count());
      ++k->instances;
    }
  }
  return k;
}

// The kinds: procedural meshes, then the files under --assets with a skinned drawn mesh and a
// clip, in path order.
Status MakeKinds(const CrowdOptions& o, std::vector<Kind>* kinds) {
  if (Status s = AddProceduralKinds(o, kinds); !s) return s;
  if (o.assets.empty()) return {};
  size_t skipped = 0;
  for (const auto& path : AssetFiles(o.assets)) {
    if (std::unique_ptr<Kind> k = FileKind(path, o.assets)) {
      kinds->push_back(std::move(*k));
    } else {
      ++skipped;
    }
  }
  if (skipped > 0) {  // (one line: the shared folder holds broken files on purpose)
    std::fprintf(stderr,
                 "sinew bench --crowd: %zu files under %s left out (not loaded, or no skinned mesh "
                 "or clip)\n",
                 skipped, o.assets.c_str());
  }
  return {};
}

struct CrowdRow {
  uint32_t characters = 0, instances = 0, meshes = 0, dispatches = 0, kernel_variants = 0;
  uint64_t vertices = 0;
  std::vector<double> pose_us;  // per thread count
  double upload_us = 0, record_us = 0, gpu_ms = 0;
  double max_error = 0;  // positions: max |gpu - cpu| / extent over the checked characters
  double mvertices_per_s() const { return double(vertices) / (gpu_ms * 1e-3) / 1e6; }
};

// The cache's capacities: each kind's meshes once, and `count[k]` characters of kind k with their
// palettes, instances and outputs, as the runtime counts them (vk::SkinCacheOptionsFor), summed.
Result<vk::SkinCacheOptions> CrowdCacheOptions(const std::vector<Kind>& kinds,
                                               const std::vector<uint32_t>& count,
                                               const CrowdOptions& o) {
  vk::SkinCacheOptions options;
  options.previous_positions = o.previous;
  options.workgroup_size = o.workgroup_size;
  options.frames_in_flight = 2;
  options.max_instances = options.max_palettes = options.max_palette_entries = 0;
  options.max_morph_weights = 0;
  options.mesh_bytes = options.output_bytes = 0;
  for (size_t k = 0; k < kinds.size(); ++k) {
    vk::SkinCacheOptions need;
    if (kinds[k].file) {
      need = vk::SkinCacheOptionsFor(kinds[k].file->loaded.asset, count[k], options);
    } else {
      auto exact = vk::SkinCacheOptionsFor(kinds[k].mesh, uint32_t(kinds[k].skeleton.joint_count()),
                                           count[k], options);
      if (!exact) return exact.status();
      need = *exact;
    }
    options.max_instances += need.max_instances;
    options.max_palettes += need.max_palettes;
    options.max_palette_entries += need.max_palette_entries;
    options.max_morph_weights += need.max_morph_weights;
    options.mesh_bytes += need.mesh_bytes;
    options.output_bytes += need.output_bytes;
  }
  // Output pages may each leave one instance's outputs unused at their end (a character's
  // vertices bound its largest instance).
  uint64_t largest = 0;
  for (const Kind& k : kinds) {
    largest = std::max<uint64_t>(largest, uint64_t{k.vertices} * 64 + 256);
  }
  options.output_bytes = vk::SkinCacheOutputBytes(options.output_bytes, largest);
  options.max_instances = std::max(options.max_instances, 1u);
  options.max_palettes = std::max(options.max_palettes, 1u);
  return options;
}

// One run's cache and its characters, kind by kind (`members[k]` for `kinds[k]`).
struct CrowdRun {
  std::unique_ptr<vk::SkinCache> cache;
  std::vector<Members> members;
};

// Each kind with characters in the run: its meshes in the cache once, and (a file's) a posing
// scratch per thread.
Status AddKindMeshes(std::vector<Kind>& kinds, const std::vector<uint32_t>& count,
                     uint32_t max_threads, CrowdRun* run) {
  for (size_t k = 0; k < kinds.size(); ++k) {
    Kind& kind = kinds[k];
    Members& m = run->members[k];
    if (count[k] == 0) continue;
    if (kind.file) {
      auto meshes = vk::AddAssetMeshes(*run->cache, kind.file->loaded.asset);
      if (!meshes) return Prefixed(meshes.status(), kind.name);
      m.asset_meshes = std::move(meshes.value());
      for (uint32_t t = 0; t < max_threads; ++t) m.scratch.push_back(kind.plan->MakeScratch());
    } else {
      auto mesh = run->cache->AddMesh(kind.mesh, uint32_t(kind.skeleton.joint_count()));
      if (!mesh) return Prefixed(mesh.status(), kind.name);
      m.mesh = *mesh;
    }
  }
  return {};
}

// `n` characters, kinds taking turns: a file's instances (AddAssetInstance), or a procedural
// character's palette and instance (with its constant morph weights).
Status AddCharacters(const std::vector<Kind>& kinds, uint32_t n, CrowdRun* run) {
  vk::SkinCache& cache = *run->cache;
  for (uint32_t c = 0; c < n; ++c) {
    const size_t k = c % kinds.size();
    Members& m = run->members[k];
    m.member.push_back(c);
    if (kinds[k].file) {
      auto character = vk::AddAssetInstance(cache, m.asset_meshes);
      if (!character) return character.status();
      m.characters.push_back(std::move(character.value()));
    } else {
      auto palette =
          cache.AddPalette(uint32_t(kinds[k].mesh.palette_size(kinds[k].skeleton.joint_count())));
      if (!palette) return palette.status();
      auto instance = cache.AddInstance(m.mesh, *palette);
      if (!instance) return instance.status();
      if (!kinds[k].weights.empty()) {
        if (Status s = cache.SetMorphWeights(*instance, kinds[k].weights); !s) return s;
      }
      m.palettes.push_back(*palette);
      m.instances.push_back(*instance);
    }
  }
  return {};
}

// The run's cache, sized for `n` characters, holding them.
Result<CrowdRun> CreateCrowdRun(const vk::Context& ctx, std::vector<Kind>& kinds, uint32_t n,
                                const CrowdOptions& o) {
  std::vector<uint32_t> count(kinds.size(), 0);
  for (uint32_t c = 0; c < n; ++c) ++count[c % kinds.size()];
  auto options = CrowdCacheOptions(kinds, count, o);
  if (!options) return options.status();
  auto created = vk::SkinCache::Create(ctx, *options);
  if (!created) return created.status();
  CrowdRun run;
  run.cache = std::move(created.value());
  run.members.resize(kinds.size());
  const uint32_t max_threads = *std::max_element(o.threads.begin(), o.threads.end());
  if (Status s = AddKindMeshes(kinds, count, max_threads, &run); !s) return s;
  if (Status s = AddCharacters(kinds, n, &run); !s) return s;
  return run;
}

// Upload, first half: this frame's clip times and palette memory (OverwritePalette), which the
// posing overwrites in full.
void MapFramePalettes(const std::vector<Kind>& kinds, uint32_t frame, CrowdRun* run) {
  for (size_t k = 0; k < kinds.size(); ++k) {
    Members& m = run->members[k];
    m.spans.clear();
    m.times.clear();
    for (size_t i = 0; i < m.member.size(); ++i) {
      m.times.push_back(ClipTime(kinds[k], m.member[i], frame));
      if (kinds[k].file) {
        for (vk::PaletteId p : m.characters[i].palettes) {
          m.spans.push_back(run->cache->OverwritePalette(p));
        }
      } else {
        m.spans.push_back(run->cache->OverwritePalette(m.palettes[i]));
      }
    }
    m.weights.assign(kinds[k].file ? m.member.size() * kinds[k].plan->weight_count() : 0, 0.0f);
  }
}

// Thread `t` of `threads` poses its share of each kind's characters: a file's through
// CrowdPoseJob (palettes and morph weights), a procedural one's with CrowdPalette.
Status PoseShare(const std::vector<Kind>& kinds, uint32_t t, uint32_t threads, CrowdRun* run) {
  Status result;
  for (size_t k = 0; k < kinds.size(); ++k) {
    Members& m = run->members[k];
    const size_t count_k = m.member.size();
    const size_t first = count_k * t / threads, last = count_k * (t + 1) / threads;
    if (first == last) continue;
    if (kinds[k].file) {
      const size_t drawn = kinds[k].plan->drawn().size();
      const uint32_t wc = kinds[k].plan->weight_count();
      cpu::CrowdPoseJob job;
      job.plan = kinds[k].plan.get();
      job.scratch = &m.scratch[t];
      job.animation = kinds[k].clip;
      job.times = std::span(m.times).subspan(first, last - first);
      job.palettes = std::span(m.spans).subspan(first * drawn, (last - first) * drawn);
      if (wc) job.weights = std::span(m.weights).subspan(first * wc, (last - first) * wc);
      if (Status s = job.Run(); !s) result = s;
    } else {
      for (size_t i = first; i < last; ++i) {
        Status s = procedural::CrowdPalette(kinds[k].skeleton, m.times[i], m.member[i], m.spans[i]);
        if (!s) result = s;
      }
    }
  }
  return result;
}

// Poses every character on `threads` threads; the microseconds it took.
Result<double> PoseCrowd(const std::vector<Kind>& kinds, uint32_t threads, Workers& workers,
                         CrowdRun* run) {
  std::vector<Status> results(threads);
  const auto p0 = Clock::now();
  workers.Run(threads, [&](uint32_t t) { results[t] = PoseShare(kinds, t, threads, run); });
  const double us = Microseconds(p0);
  Status status;
  for (const Status& s : results) {
    if (!s) status = s;
  }
  if (!status) return status;
  return us;
}

// Upload, second half: the files' resolved morph weights, to every primitive with targets.
Status UploadMorphWeights(const std::vector<Kind>& kinds, CrowdRun* run) {
  for (size_t k = 0; k < kinds.size(); ++k) {
    if (!kinds[k].file || kinds[k].plan->weight_count() == 0) continue;
    Members& m = run->members[k];
    const Asset& a = kinds[k].file->loaded.asset;
    const uint32_t wc = kinds[k].plan->weight_count();
    for (size_t i = 0; i < m.characters.size(); ++i) {
      for (size_t d = 0; d < kinds[k].plan->drawn().size(); ++d) {
        const uint32_t offset = kinds[k].plan->weight_offset(d);
        if (offset == UINT32_MAX) continue;
        const Mesh& mesh = a.meshes[kinds[k].plan->drawn()[d].mesh];
        const auto w =
            std::span(m.weights).subspan(i * wc + offset, mesh.primitives[0].targets.size());
        for (size_t p = 0; p < mesh.primitives.size(); ++p) {
          const vk::InstanceId id = m.characters[i].instances[d][p];
          if (mesh.primitives[p].targets.empty() || id == vk::InstanceId{}) continue;
          if (Status s = run->cache->SetMorphWeights(id, w); !s) {
            return s;
          }
        }
      }
    }
  }
  return {};
}

// Frames 0 .. --frames: each mapped, posed (once per thread count asked for, each writing the same
// palettes), its morph weights uploaded, recorded and timed. Frame 0 is not timed; on a hardware
// GPU frames then run untimed until their time settles (SettleFrames). Fills `row`'s times and the
// last frame's statistics.
Status RunCrowdFrames(const vk::Context& ctx, const std::vector<Kind>& kinds, const CrowdOptions& o,
                      Workers& workers, CrowdRun* run, CrowdRow* row) {
  GpuTimer timer(ctx);
  if (!timer.status()) return timer.status();
  std::vector<std::vector<double>> pose_us(o.threads.size());
  std::vector<double> upload_us, record_us, gpu_ms;
  for (uint32_t frame = 0; frame <= o.frames; ++frame) {
    const auto u0 = Clock::now();
    MapFramePalettes(kinds, frame, run);
    double upload = Microseconds(u0);
    for (size_t ti = 0; ti < o.threads.size(); ++ti) {
      auto us = PoseCrowd(kinds, o.threads[ti], workers, run);
      if (!us) return us.status();
      if (frame > 0) pose_us[ti].push_back(*us);
    }
    const auto u1 = Clock::now();
    const Status uploaded = UploadMorphWeights(kinds, run);
    upload += Microseconds(u1);
    if (!uploaded) return uploaded;
    auto timed = RunTimedFrame(ctx, *run->cache, timer);
    if (!timed) return timed.status();
    if (frame == 0) {
      if (Status s = SettleFrames(ctx, *run->cache, timer); !s) return s;
    }
    if (frame > 0) {
      record_us.push_back(timed->record_us);
      gpu_ms.push_back(timed->gpu_ms);
      upload_us.push_back(upload);
    }
  }
  const vk::SkinCacheFrameStats& stats = run->cache->last_frame_stats();
  row->instances = stats.instances;
  row->meshes = stats.meshes;
  row->dispatches = stats.dispatches;
  row->kernel_variants = stats.kernel_variants;
  row->vertices = stats.vertices;
  for (const auto& p : pose_us) row->pose_us.push_back(Median(p));
  row->upload_us = Median(upload_us);
  row->record_us = Median(record_us);
  row->gpu_ms = Median(gpu_ms);
  return {};
}

// Positions read back from an instance's outputs: `floats` of them.
Result<std::vector<float>> ReadPositions(const vk::Context& ctx, const vk::SkinCache& cache,
                                         vk::InstanceId id, size_t floats) {
  const vk::InstanceOutputs out = cache.outputs(id);
  return vk::ReadFloats(ctx, out.buffer, out.positions, floats * sizeof(float));
}

// A procedural character's last frame against cpu::SkinMesh at its time: the position error.
Result<double> CheckProceduralCharacter(const vk::Context& ctx, const vk::SkinCache& cache,
                                        const Kind& kind, uint32_t member, float time,
                                        vk::InstanceId instance) {
  const Primitive& mesh = kind.mesh;
  std::vector<Float3x4> palette(mesh.palette_size(kind.skeleton.joint_count()));
  if (Status s = procedural::CrowdPalette(kind.skeleton, time, member, palette); !s) return s;
  std::vector<float> want(mesh.positions.size()), normals(mesh.normals.size()),
      tangents(mesh.tangents.size());
  if (Status s = cpu::SkinMesh(mesh, palette, kind.weights, want, normals, tangents); !s) {
    return s;
  }
  auto got = ReadPositions(ctx, cache, instance, want.size());
  if (!got) return got.status();
  return PositionErrorOverExtent(*got, want);
}

// A file's character's last frame against the CPU reference (EvaluateScene, DeformPrimitive)
// at its time: the largest position error over its primitives.
Result<double> CheckFileCharacter(const vk::Context& ctx, const vk::SkinCache& cache,
                                  const Kind& kind, const Members& m, float time) {
  const Asset& a = kind.file->loaded.asset;
  auto scene = cpu::EvaluateScene(a, kind.clip, time);
  if (!scene) return scene.status();
  double error = 0;
  for (size_t d = 0; d < m.asset_meshes.drawn.size(); ++d) {
    const uint32_t node = m.asset_meshes.drawn[d].node;
    std::vector<Float3x4> palette;
    if (a.nodes[node].skin >= 0) {
      auto p = cpu::NodePalette(a, node, scene->world);
      if (!p) return p.status();
      palette = std::move(p.value());
    }
    for (uint32_t p = 0; p < a.meshes[m.asset_meshes.drawn[d].mesh].primitives.size(); ++p) {
      if (m.characters[0].instances[d][p] == vk::InstanceId{}) continue;  // (no vertices)
      cpu::DeformedPrimitive want;
      if (Status s = cpu::DeformPrimitive(a, node, p, scene->world, scene->pose.weights[node],
                                          palette, &want);
          !s) {
        return s;
      }
      auto got = ReadPositions(ctx, cache, m.characters[0].instances[d][p], want.positions.size());
      if (!got) return got.status();
      error = std::max(error, PositionErrorOverExtent(*got, want.positions));
    }
  }
  return error;
}

// The last frame, checked: the first character of each kind against the CPU reference; the
// largest position error goes to `row`.
Status CheckLastFrame(const vk::Context& ctx, const std::vector<Kind>& kinds, const CrowdOptions& o,
                      const CrowdRun& run, CrowdRow* row) {
  for (size_t k = 0; k < kinds.size(); ++k) {
    const Members& m = run.members[k];
    if (m.member.empty()) continue;
    const float time = ClipTime(kinds[k], m.member[0], o.frames);
    auto error = kinds[k].file ? CheckFileCharacter(ctx, *run.cache, kinds[k], m, time)
                               : CheckProceduralCharacter(ctx, *run.cache, kinds[k], m.member[0],
                                                          time, m.instances[0]);
    if (!error) return error.status();
    row->max_error = std::max(row->max_error, *error);
  }
  return {};
}

// One run: `n` characters, kinds taking turns.
Status RunCrowd(const vk::Context& ctx, std::vector<Kind>& kinds, uint32_t n, const CrowdOptions& o,
                Workers& workers, CrowdRow* row) {
  auto run = CreateCrowdRun(ctx, kinds, n, o);
  if (!run) return run.status();
  row->characters = n;
  if (Status s = RunCrowdFrames(ctx, kinds, o, workers, &*run, row); !s) return s;
  return CheckLastFrame(ctx, kinds, o, *run, row);
}

const char* ToString(vk::PreviousPositions p) {
  switch (p) {
    case vk::PreviousPositions::kPingPong:
      return "pingpong";
    case vk::PreviousPositions::kCopy:
      return "copy";
    default:
      return "none";
  }
}

// `sinew bench --crowd --json`.
void PrintCrowdJson(const CrowdOptions& o, const std::string& device,
                    const std::vector<Kind>& kinds, bool within,
                    const std::vector<CrowdRow>& rows) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("device").String(device);
  json.Key("previous_positions").String(ToString(o.previous));
  json.Key("workgroup_size").Int(o.workgroup_size);
  json.Key("frames").Int(o.frames);
  json.Key("kinds").BeginArray();
  for (const Kind& k : kinds) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String(k.name);
    json.Key("vertices").Int(k.vertices);
    json.Key("instances").Int(k.instances);
    json.EndObject();
  }
  json.EndArray();
  json.Key("within_tolerance").Bool(within);
  json.Key("results").BeginArray();
  for (const CrowdRow& r : rows) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("characters").Int(r.characters);
    json.Key("instances").Int(r.instances);
    json.Key("meshes").Int(r.meshes);
    json.Key("vertices").Int(int64_t(r.vertices));
    json.Key("pose_us").BeginObject();
    for (size_t t = 0; t < o.threads.size(); ++t) {
      json.Key(std::to_string(o.threads[t])).Number(r.pose_us[t], JsonWriter::Fixed(1));
    }
    json.EndObject();
    json.Key("upload_us").Number(r.upload_us, JsonWriter::Fixed(1));
    json.Key("record_us").Number(r.record_us, JsonWriter::Fixed(1));
    json.Key("dispatches").Int(r.dispatches);
    json.Key("kernel_variants").Int(r.kernel_variants);
    json.Key("gpu_ms").Number(r.gpu_ms, JsonWriter::Fixed(3));
    json.Key("mvertices_per_s").Number(r.mvertices_per_s(), JsonWriter::Fixed(1));
    json.Key("max_error_over_extent").Number(r.max_error, JsonWriter::Significant(3));
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

// `sinew bench --crowd`'s table.
void PrintCrowdTable(const CrowdOptions& o, const std::string& device,
                     const std::vector<Kind>& kinds, bool within,
                     const std::vector<CrowdRow>& rows) {
  std::printf(
      "sinew bench --crowd: %zu kinds of character, %u frames (median), previous "
      "positions %s, workgroups of %u vertices, device: %s\n",
      kinds.size(), o.frames, ToString(o.previous), o.workgroup_size, device.c_str());
  for (const Kind& k : kinds) {
    std::printf("  %-45s %6u vertices, %2u instances a character\n", k.name.c_str(), k.vertices,
                k.instances);
  }
  std::printf("%10s %9s %6s %10s", "characters", "instances", "meshes", "vertices");
  for (uint32_t t : o.threads) std::printf(" %8s%-2u", "pose us/", t);
  std::printf(" %9s %9s %10s %8s %9s %12s\n", "upload us", "record us", "dispatches", "GPU ms",
              "Mvert/s", "max err/ext");
  for (const CrowdRow& r : rows) {
    std::printf("%10u %9u %6u %10llu", r.characters, r.instances, r.meshes,
                static_cast<unsigned long long>(r.vertices));
    for (double p : r.pose_us) std::printf(" %10.1f", p);
    std::printf(" %9.1f %9.1f %10u %8.3f %9.1f %12.2e\n", r.upload_us, r.record_us, r.dispatches,
                r.gpu_ms, r.mvertices_per_s(), r.max_error);
  }
  std::printf("GPU vs CPU: %s (positions <= 1e-5 x extent, first character of each kind)\n",
              within ? "within tolerance" : "OUT OF TOLERANCE");
  std::printf(
      "pose us/N: the CPU time to pose every character of one frame on N threads (not per "
      "character); upload us and record us: per frame too\n");
}

struct PoseOptions {
  std::vector<std::string> files;
  uint32_t characters = 1000;
  bool json = false;
};

// Returns an empty string on success, else what was wrong.
std::string ParsePoseArgs(std::span<const std::string_view> args, PoseOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--pose") continue;
    if (args[i] == "--json") {
      o->json = true;
    } else if (args[i] == "--characters") {
      if (i + 1 == args.size() || !ParseUint(args[++i], &o->characters) || o->characters == 0) {
        return "--characters N >= 1";
      }
    } else if (args[i].size() > 1 && args[i].starts_with("-")) {  // before any file is read
      return "unknown option '" + std::string(args[i]) + "'";
    } else {
      o->files.emplace_back(args[i]);
    }
  }
  return {};
}

// Rounds of each way of posing in `sinew bench --pose`; the best of them counts.
constexpr int kPoseRounds = 15;

// One file's posing cost: the best round of each way, in microseconds per character.
struct PoseRow {
  std::string file;  // the file name, without its folder
  double jobs_us = 0, crowd_us = 0;
};

// Palettes for `characters` characters of `plan`: one span per character and drawn mesh.
struct PaletteStorage {
  std::vector<std::vector<Float3x4>> storage;
  std::vector<std::span<Float3x4>> spans;
};

PaletteStorage MakePaletteStorage(const cpu::PosePlan& plan, uint32_t characters) {
  PaletteStorage p;
  p.storage.reserve(size_t(characters) * plan.drawn().size());
  for (uint32_t c = 0; c < characters; ++c) {
    for (const cpu::DrawnMesh& d : plan.drawn()) {
      p.storage.emplace_back(d.palette_size);
      p.spans.push_back(p.storage.back());
    }
  }
  return p;
}

// The per-character jobs, as an engine ran them before PosePlan: validated on every call.
Status PosePerCharacter(const Asset& a, const cpu::PosePlan& plan, std::span<const float> times,
                        std::span<const std::span<Float3x4>> palettes, ScenePose* pose,
                        std::vector<Float4x4>* world) {
  for (size_t c = 0; c < times.size(); ++c) {
    cpu::SampleAnimationJob sample;
    sample.animation = &a.animations[0];
    sample.time = times[c];
    sample.pose = pose;
    if (Status s = sample.Run(); !s) return s;
    cpu::SceneTransformsJob scene;
    scene.nodes = a.nodes;
    scene.pose = pose;
    scene.output = *world;
    if (Status s = scene.Run(); !s) return s;
    for (size_t d = 0; d < plan.drawn().size(); ++d) {
      const cpu::DrawnMesh& m = plan.drawn()[d];
      const std::span<Float3x4> out = palettes[c * plan.drawn().size() + d];
      if (m.skin < 0) {
        out[0] = ToFloat3x4((*world)[m.node]);
        continue;
      }
      cpu::SkinInstancePaletteJob palette;
      palette.skin = &a.skins[size_t(m.skin)];
      palette.world = *world;
      palette.node = m.node;
      palette.output = out;
      if (Status s = palette.Run(); !s) return s;
    }
  }
  return {};
}

// `characters` characters of `a` posed along its first clip at evenly spaced times, by the
// per-character jobs and by CrowdPoseJob, in alternation, kPoseRounds rounds. `a` has a clip.
Result<PoseRow> TimePosing(const Asset& a, const cpu::PosePlan& plan, uint32_t characters) {
  PaletteStorage palettes = MakePaletteStorage(plan, characters);
  const cpu::ClipRange range = cpu::RangeOf(a.animations[0]);
  std::vector<float> times(characters);
  for (uint32_t c = 0; c < characters; ++c) {
    times[c] = range.start + range.duration() * float(c) / float(characters);
  }
  ScenePose pose = RestPose(a);
  std::vector<Float4x4> world(a.nodes.size());
  cpu::PoseScratch scratch = plan.MakeScratch();
  double best_jobs = 1e30, best_crowd = 1e30;
  for (int round = 0; round < kPoseRounds; ++round) {
    auto t0 = Clock::now();
    if (Status s = PosePerCharacter(a, plan, times, palettes.spans, &pose, &world); !s) return s;
    best_jobs = std::min(best_jobs, Microseconds(t0));
    t0 = Clock::now();
    cpu::CrowdPoseJob job;
    job.plan = &plan;
    job.scratch = &scratch;
    job.animation = 0;
    job.times = times;
    job.palettes = palettes.spans;
    if (Status s = job.Run(); !s) return s;
    best_crowd = std::min(best_crowd, Microseconds(t0));
  }
  PoseRow row;
  row.jobs_us = best_jobs / characters;
  row.crowd_us = best_crowd / characters;
  return row;
}

// `sinew bench --pose --json`.
void PrintPoseJson(const PoseOptions& o, const std::vector<PoseRow>& rows) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("characters").Int(o.characters);
  json.Key("rounds").Int(kPoseRounds);
  json.Key("results").BeginArray();
  for (const PoseRow& r : rows) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("file").String(r.file);
    json.Key("jobs_us_per_character").Number(r.jobs_us, JsonWriter::Fixed(3));
    json.Key("crowd_us_per_character").Number(r.crowd_us, JsonWriter::Fixed(3));
    json.Key("ratio").Number(r.jobs_us / r.crowd_us, JsonWriter::Fixed(2));
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

}  // namespace

int PoseBench(std::span<const std::string_view> args) {
  PoseOptions o;
  if (std::string err = ParsePoseArgs(args, &o); !err.empty()) {
    std::fprintf(stderr, "sinew bench --pose: %s (see sinew bench --help)\n", err.c_str());
    return 2;
  }
  if (o.files.empty()) {
    std::fprintf(stderr, "usage: sinew bench --pose FILE... [--characters N] [--json]\n");
    return 2;
  }
  if (!o.json) {
    std::printf("sinew bench --pose: %u characters along the first clip, one thread, best of %d\n",
                o.characters, kPoseRounds);
    std::printf("%-40s %14s %14s %7s\n", "file", "jobs us/char", "crowd us/char", "ratio");
  }
  std::vector<PoseRow> rows;
  for (const std::string& path : o.files) {
    auto file = loader::LoadAsset(path);
    if (!file) {
      std::fprintf(stderr, "sinew bench: %s: %s\n", path.c_str(), file.error().ToString().c_str());
      return 1;
    }
    const Asset& a = file->loaded.asset;
    auto plan = cpu::PosePlan::Create(a);
    if (!plan || a.animations.empty()) {
      std::fprintf(stderr, "sinew bench: %s: no clip to pose\n", path.c_str());
      return 1;
    }
    auto row = TimePosing(a, *plan, o.characters);
    if (!row) {
      std::fprintf(stderr, "sinew bench: %s\n", row.error().ToString().c_str());
      return 1;
    }
    row->file = std::filesystem::path(path).filename().string();
    if (!o.json) {
      std::printf("%-40s %14.3f %14.3f %6.2fx\n", row->file.c_str(), row->jobs_us, row->crowd_us,
                  row->jobs_us / row->crowd_us);
    }
    rows.push_back(std::move(row.value()));
  }
  if (o.json) PrintPoseJson(o, rows);
  return 0;
}

int CrowdBench(std::span<const std::string_view> args) {
  CrowdOptions o;
  if (const char* env = std::getenv("SINEW_TEST_ASSETS")) {
    o.assets = env;
  } else if (std::filesystem::is_directory("../shared/assets")) {
    o.assets = "../shared/assets";
  }
  if (std::string err = ParseCrowdArgs(args, &o); !err.empty()) {
    std::fprintf(stderr, "sinew bench --crowd: %s (see sinew bench --crowd --help)\n", err.c_str());
    return 2;
  }
  vk::ContextOptions context_options = ToolContextOptions(o.device);
  context_options.validation = vk::Validation::kOff;  // Timing, not checking.
  auto ctx = vk::Context::Create(context_options);
  if (!ctx) {
    std::fprintf(stderr, "sinew bench: %s\n", ctx.error().ToString().c_str());
    return 1;
  }
  auto workgroup_size = vk::SkinWorkgroupSize(**ctx, o.workgroup_size);
  if (!workgroup_size) {
    std::fprintf(stderr, "sinew bench: %s\n", workgroup_size.error().ToString().c_str());
    return 2;
  }
  o.workgroup_size = *workgroup_size;
  std::vector<Kind> kinds;
  if (Status s = MakeKinds(o, &kinds); !s) {
    std::fprintf(stderr, "sinew bench: %s\n", s.error().ToString().c_str());
    return 1;
  }
  Workers workers(*std::max_element(o.threads.begin(), o.threads.end()) - 1);
  std::vector<CrowdRow> rows;
  bool within = true;
  for (uint32_t n : o.sizes) {
    CrowdRow row;
    if (Status s = RunCrowd(**ctx, kinds, n, o, workers, &row); !s) {
      std::fprintf(stderr, "sinew bench: crowd of %u: %s\n", n, s.error().ToString().c_str());
      return 1;
    }
    within &= row.max_error <= 1e-5;
    rows.push_back(row);
  }
  const std::string device = (*ctx)->properties().deviceName;
  if (o.json) {
    PrintCrowdJson(o, device, kinds, within, rows);
  } else {
    PrintCrowdTable(o, device, kinds, within, rows);
  }
  return within ? 0 : 1;
}

}  // namespace sinew::tool
