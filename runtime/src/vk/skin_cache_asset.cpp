#include "sinew/vk/skin_cache_asset.h"

#include <algorithm>
#include <string>

#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/skin_instance_palette_job.h"
#include "skin_records.h"

namespace sinew::vk {

namespace {

// How a drawn mesh's palette blends: with dual quaternions when any of its primitives does (the
// palette then feeds its linear primitives too).
SkinningMethod PaletteMethod(const Mesh& mesh) {
  const bool dual = std::any_of(mesh.primitives.begin(), mesh.primitives.end(),
                                [](const Primitive& p) { return p.dual_quaternion(); });
  return dual ? SkinningMethod::kDualQuaternion : SkinningMethod::kLinear;
}

// Adds every primitive of every drawn mesh through `add` (one of SkinCache::AddMesh's forms).
template <typename AddMesh>
Result<AssetMeshes> AddEach(SkinCache& cache, const Asset& asset, const AddMesh& add) {
  AssetMeshes out;
  out.drawn = cpu::DrawnMeshes(asset);
  for (const cpu::DrawnMesh& d : out.drawn) {
    out.meshes.emplace_back();
    const Mesh& mesh = asset.meshes[d.mesh];
    for (size_t k = 0; k < mesh.primitives.size(); ++k) {
      if (mesh.primitives[k].vertex_count() == 0) {  // (nothing to deform or draw)
        out.meshes.back().push_back(MeshId{});
        continue;
      }
      auto id = add(mesh.primitives[k], d.palette_size);
      if (!id) {
        (void)RemoveAssetMeshes(cache, out);
        return Prefixed(id.status(),
                        "nodes/" + std::to_string(d.node) + "/primitives/" + std::to_string(k));
      }
      out.meshes.back().push_back(*id);
    }
  }
  return out;
}

// Whether `meshes` is what AddAssetMeshes gave (a list per drawn mesh), of `asset` where one is
// given (its nodes, meshes, skins and primitives), and `instance`, where given, a character of
// them (AddAssetInstance's): a default-constructed or mismatched one is an error, not an index
// past an end.
Status CheckShapes(const Asset* asset, const AssetMeshes& meshes, const AssetInstance* instance) {
  if (meshes.meshes.size() != meshes.drawn.size()) {
    return {Error::kInvalidArgument, "not the meshes AddAssetMeshes gave", "meshes"};
  }
  for (size_t i = 0; asset && i < meshes.drawn.size(); ++i) {
    const cpu::DrawnMesh& d = meshes.drawn[i];
    if (d.node >= asset->nodes.size() || d.mesh >= asset->meshes.size() ||
        (d.skin >= 0 && size_t(d.skin) >= asset->skins.size()) ||
        meshes.meshes[i].size() != asset->meshes[d.mesh].primitives.size()) {
      return {Error::kInvalidArgument, "the meshes of another asset", "meshes"};
    }
  }
  if (!instance) return {};
  bool fits = instance->palettes.size() == meshes.drawn.size() &&
              instance->instances.size() == meshes.drawn.size();
  for (size_t i = 0; fits && i < meshes.drawn.size(); ++i) {
    fits = instance->instances[i].size() == meshes.meshes[i].size();
  }
  if (!fits) {
    return {Error::kInvalidArgument, "not a character of these meshes (AddAssetInstance gives one)",
            "instance"};
  }
  return {};
}

}  // namespace

SkinCacheOptions SkinCacheOptionsFor(std::span<const AssetCharacters> crowd,
                                     const SkinCacheOptions& base) {
  // Each stream padded to the largest storage-buffer offset alignment Vulkan allows (256).
  constexpr uint64_t kPad = 256;
  uint64_t mesh_bytes = 0, output_bytes = 0, entries = 0, morph_weights = 0, instances = 0;
  uint64_t palettes = 0, largest_output = 0;
  const uint64_t previous = base.previous_positions == PreviousPositions::kNone ? 0 : 1;
  for (const AssetCharacters& kind : crowd) {
    if (kind.asset == nullptr) continue;
    const Asset& asset = *kind.asset;
    const uint64_t n = std::max<uint32_t>(kind.characters, 1);
    const std::vector<cpu::DrawnMesh> drawn = cpu::DrawnMeshes(asset);
    palettes += drawn.size() * n;
    for (const cpu::DrawnMesh& d : drawn) {
      entries += n * PaletteUnits(d.palette_size, PaletteMethod(asset.meshes[d.mesh]));
      for (const Primitive& p : asset.meshes[d.mesh].primitives) {
        const uint64_t v = p.vertex_count(), groups = (v + 63) / 64, t = p.targets.size();
        const uint64_t k =
            p.influences.influences_per_vertex ? p.influences.influences_per_vertex : 4;
        uint64_t bytes = 4 * (p.positions.size() + p.normals.size() + p.tangents.size());
        bytes += p.sparse_influences.offsets.empty()
                     ? v * k * 6
                     : 8 * p.sparse_influences.weights.size() + 4 * (v + 1);
        bytes += t ? 4 * (groups + 1 + t * groups) + 16 * t * groups + 36 * t * v : 0;
        mesh_bytes += bytes + 10 * kPad;  // the meshes once, whatever the characters
        const uint64_t instance_bytes =
            uint64_t{detail::OutputBytesPerVertex(!p.normals.empty(), !p.tangents.empty(),
                                                  base.formats, previous == 1)} *
                v +
            4 * 16;
        output_bytes += instance_bytes * n;
        largest_output = std::max(largest_output, instance_bytes);
        morph_weights += t * n;
        instances += n;
      }
    }
  }
  SkinCacheOptions o = base;
  // Pages are counted once for the whole crowd: each may waste up to its largest instance.
  output_bytes = SkinCacheOutputBytes(output_bytes, largest_output, base.output_page_bytes);
  const auto at_least_1 = [](uint64_t x) { return std::max<uint64_t>(x, 1); };
  o.max_instances = uint32_t(at_least_1(instances));
  o.max_palettes = uint32_t(at_least_1(palettes));
  o.mesh_bytes = at_least_1(mesh_bytes);
  o.output_bytes = at_least_1(output_bytes);
  o.max_palette_entries = uint32_t(at_least_1(entries));
  o.max_morph_weights = uint32_t(morph_weights);
  return o;
}

SkinCacheOptions SkinCacheOptionsFor(const Asset& asset, uint32_t characters,
                                     const SkinCacheOptions& base) {
  const AssetCharacters one{&asset, characters};
  return SkinCacheOptionsFor(std::span(&one, 1), base);
}

Result<AssetMeshes> AddAssetMeshes(SkinCache& cache, const Asset& asset,
                                   VkCommandBuffer upload_cmd) {
  return AddEach(cache, asset, [&](const Primitive& m, uint32_t joints) {
    return cache.AddMesh(m, joints, upload_cmd);
  });
}

Result<AssetMeshes> AddAssetMeshes(SkinCache& cache, const Asset& asset) {
  return AddEach(cache, asset,
                 [&](const Primitive& m, uint32_t joints) { return cache.AddMesh(m, joints); });
}

Status RemoveAssetMeshes(SkinCache& cache, const AssetMeshes& meshes) {
  for (const auto& primitives : meshes.meshes) {
    for (MeshId id : primitives) {
      if (id == MeshId{}) continue;
      if (Status s = cache.RemoveMesh(id); !s) return s;
    }
  }
  return {};
}

Result<AssetInstance> AddAssetInstance(SkinCache& cache, const AssetMeshes& meshes) {
  if (Status s = CheckShapes(nullptr, meshes, nullptr); !s) return s;
  AssetInstance out;
  for (size_t i = 0; i < meshes.drawn.size(); ++i) {
    SkinningMethod method = SkinningMethod::kLinear;
    for (MeshId mesh : meshes.meshes[i]) {
      const MeshLayout* l = cache.mesh_layout(mesh);
      if (l && l->dual_quaternion) method = SkinningMethod::kDualQuaternion;
    }
    auto palette = cache.AddPalette(meshes.drawn[i].palette_size, method);
    if (!palette) {
      (void)RemoveAssetInstance(cache, out);
      return palette.status();
    }
    out.palettes.push_back(*palette);
    out.instances.emplace_back();
    for (MeshId mesh : meshes.meshes[i]) {
      if (mesh == MeshId{}) {
        out.instances.back().push_back(InstanceId{});
        continue;
      }
      auto instance = cache.AddInstance(mesh, *palette);
      if (!instance) {
        (void)RemoveAssetInstance(cache, out);
        return instance.status();
      }
      out.instances.back().push_back(*instance);
    }
  }
  return out;
}

Status RemoveAssetInstance(SkinCache& cache, const AssetInstance& instance) {
  for (const auto& primitives : instance.instances) {
    for (InstanceId id : primitives) {
      if (id == InstanceId{}) continue;
      if (Status s = cache.RemoveInstance(id); !s) return s;
    }
  }
  for (PaletteId id : instance.palettes) {
    if (Status s = cache.RemovePalette(id); !s) return s;
  }
  return {};
}

void AppendInstances(const AssetInstance& instance, std::vector<InstanceId>* out) {
  for (const auto& primitives : instance.instances) {
    for (InstanceId id : primitives) {
      if (id != InstanceId{}) out->push_back(id);
    }
  }
}

Status PoseAssetInstance(SkinCache& cache, const Asset& asset, const AssetMeshes& meshes,
                         const AssetInstance& instance, std::span<const Float4x4> world,
                         std::span<const std::vector<float>> weights) {
  if (Status s = CheckShapes(&asset, meshes, &instance); !s) return s;
  // The morph weights are checked for every drawn mesh before anything is written, so that a
  // miscounted list leaves the character as it was rather than half posed.
  const auto morphs = [&](const Mesh& mesh) {
    return std::any_of(mesh.primitives.begin(), mesh.primitives.end(),
                       [](const Primitive& p) { return !p.targets.empty(); });
  };
  for (const cpu::DrawnMesh& d : meshes.drawn) {
    if (weights.empty() || !morphs(asset.meshes[d.mesh])) continue;
    if (d.node >= weights.size()) {
      return {Error::kSizeMismatch,
              std::to_string(weights.size()) + " nodes' weights, the asset has " +
                  std::to_string(asset.nodes.size()) + " nodes",
              "weights"};
    }
    const std::string where = "nodes/" + std::to_string(d.node) + "/weights";
    if (Status s = cpu::CheckMorphWeightCount(asset.meshes[d.mesh], weights[d.node], where,
                                              /*allow_empty=*/false);
        !s) {
      return s;
    }
  }
  for (size_t i = 0; i < meshes.drawn.size(); ++i) {
    const cpu::DrawnMesh& d = meshes.drawn[i];
    const std::span<Float3x4> palette = cache.palette(instance.palettes[i]);
    if (palette.empty()) return {Error::kInvalidHandle, "no such palette", "palettes"};
    if (d.skin >= 0) {
      cpu::SkinInstancePaletteJob job;
      job.skin = &asset.skins[size_t(d.skin)];
      job.world = world;
      job.node = d.node;
      job.output = palette;
      if (Status s = job.Run(); !s) return Prefixed(s, "nodes/" + std::to_string(d.node));
    } else {
      if (d.node >= world.size()) {
        return {Error::kSizeMismatch, "world has no matrix for the node",
                "nodes/" + std::to_string(d.node)};
      }
      palette[0] = ToFloat3x4(world[d.node]);
    }
    const Mesh& mesh = asset.meshes[d.mesh];
    if (!morphs(mesh) || weights.empty()) continue;  // no weights: those set before stay
    const std::vector<float> resolved = cpu::MorphWeightsFor(mesh, weights[d.node]);
    for (size_t k = 0; k < mesh.primitives.size(); ++k) {
      if (mesh.primitives[k].targets.empty() || instance.instances[i][k] == InstanceId{}) continue;
      if (Status s = cache.SetMorphWeights(instance.instances[i][k], resolved); !s) {
        return Prefixed(s, "nodes/" + std::to_string(d.node) + "/primitives/" + std::to_string(k));
      }
    }
  }
  return {};
}

}  // namespace sinew::vk
