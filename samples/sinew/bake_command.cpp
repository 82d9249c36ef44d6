// `sinew bake FILE ... --out PREFIX`: the deformed vertices of every mesh instance of the scene at
// a time of a clip (or a rest / bind pose), in scene space, as PREFIX.json (manifest, docs/bake.md)
// + PREFIX.bin (little-endian float32), or as .ply / .obj for people (DESIGN.md §8).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "json_text.h"
#include "sinew/asset/scene_pose.h"
#include "sinew/cpu/deform_primitive.h"
#include "sinew/cpu/evaluate_scene.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"
#include "sinew/vk/context.h"
#include "sinew/vk/deform_once.h"

namespace sinew::tool {
namespace {

struct BakeOptions {
  std::string file, out, anim, pose = "rest", variant, device = "cpu", format = "bin";
  float time = 0;
  bool loop = false;
  std::vector<std::pair<std::string, std::vector<float>>> weights;  // mesh name/index -> weights
};

void Usage() {
  std::fputs(
      "usage: sinew bake FILE --out PREFIX [--anim NAME|INDEX] [--time T] [--loop]\n"
      "                  [--weights MESH=w0,w1,...] [--pose rest|bind|bind:TYPE]\n"
      "                  [--variant NAME] [--device cpu|gpu] [--format bin|ply|obj]\n"
      "  writes every mesh instance of the scene deformed, in scene space:\n"
      "  bin: PREFIX.json (manifest) + PREFIX.bin (float32); ply/obj: PREFIX.ply / PREFIX.obj\n"
      "  --pose bind puts every joint at its inverse bind matrix's inverse (the mesh as bound);\n"
      "  bind:TPose|APose|IPose|Custom uses the skin's KHR_character_skeleton_bindpose pose\n",
      stderr);
}

bool ParseFloat(std::string_view text, float* out) {
  const std::string s(text);
  char* end = nullptr;
  *out = std::strtof(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && std::isfinite(*out);
}

// Returns 0 on success, else the exit code (2: usage).
int Parse(std::span<const std::string_view> args, BakeOptions* o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const bool has_value = i + 1 < args.size();
    const auto value = [&]() { return std::string(args[++i]); };
    if (a == "--help" || a == "-h") {
      return 2;
    } else if (a == "--loop") {
      o->loop = true;
    } else if (!has_value && a.starts_with("--")) {
      std::fprintf(stderr, "sinew bake: %.*s needs a value\n", int(a.size()), a.data());
      return 2;
    } else if (a == "--out") {
      o->out = value();
    } else if (a == "--anim") {
      o->anim = value();
    } else if (a == "--time") {
      if (!ParseFloat(args[++i], &o->time)) {
        std::fputs("sinew bake: --time needs a finite number\n", stderr);
        return 2;
      }
    } else if (a == "--pose") {
      o->pose = value();
    } else if (a == "--variant") {
      o->variant = value();
    } else if (a == "--device") {
      o->device = value();
    } else if (a == "--format") {
      o->format = value();
    } else if (a == "--weights") {
      const std::string spec = value();
      const size_t eq = spec.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fputs("sinew bake: --weights MESH=w0,w1,...\n", stderr);
        return 2;
      }
      std::vector<float> w;
      std::string_view rest = std::string_view(spec).substr(eq + 1);
      while (!rest.empty()) {
        const size_t comma = rest.find(',');
        float f = 0;
        if (!ParseFloat(rest.substr(0, comma), &f)) {
          std::fputs("sinew bake: --weights values must be finite numbers\n", stderr);
          return 2;
        }
        w.push_back(f);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
      o->weights.emplace_back(spec.substr(0, eq), std::move(w));
    } else if (o->file.empty() && !a.starts_with("--")) {
      o->file = std::string(a);
    } else {
      std::fprintf(stderr, "sinew bake: unexpected argument '%.*s'\n", int(a.size()), a.data());
      return 2;
    }
  }
  if (o->file.empty() || o->out.empty()) return 2;
  if (o->device != "cpu" && o->device != "gpu") {
    std::fputs("sinew bake: --device cpu|gpu\n", stderr);
    return 2;
  }
  if (o->format != "bin" && o->format != "ply" && o->format != "obj") {
    std::fputs("sinew bake: --format bin|ply|obj\n", stderr);
    return 2;
  }
  return 0;
}

// An index given as a number, or the position of the object named `key`.
template <typename T>
int32_t Find(const std::vector<T>& items, const std::string& key) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == key) return int32_t(i);
  }
  char* end = nullptr;
  const long index = std::strtol(key.c_str(), &end, 10);
  if (!key.empty() && end == key.c_str() + key.size() && index >= 0 &&
      size_t(index) < items.size()) {
    return int32_t(index);
  }
  return -1;
}

struct Baked {
  uint32_t node = 0, primitive = 0;
  int32_t mesh = -1, material = -1;
  cpu::DeformedPrimitive data;
  const std::vector<uint32_t>* indices = nullptr;
  uint32_t mode = 4;
};

bool WriteBin(const BakeOptions& o, const Asset& a, const std::string& animation,
              const std::vector<Baked>& baked) {
  std::ofstream bin(o.out + ".bin", std::ios::binary);
  std::string json = "{\n  \"format\": \"sinew-bake\",\n  \"version\": 1,\n";
  json += "  \"source\": \"" + JsonEscape(o.file) + "\",\n";
  json += "  \"bin\": \"" + JsonEscape(std::filesystem::path(o.out + ".bin").filename().string()) +
          "\",\n";
  json += "  \"space\": \"scene\",\n  \"device\": \"" + o.device + "\",\n";
  json += "  \"animation\": " + animation + ",\n";
  char time[64];
  std::snprintf(time, sizeof(time), "%.9g", double(o.time));
  json += "  \"time\": " + std::string(time) + ",\n  \"pose\": \"" + JsonEscape(o.pose) + "\",\n";
  json += "  \"primitives\": [";
  uint64_t offset = 0;
  const auto stream = [&](const std::vector<float>& v, const char* name) {
    if (v.empty()) return std::string();
    const std::string entry =
        ", \"" + std::string(name) + "ByteOffset\": " + std::to_string(offset);
    bin.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * 4));
    offset += v.size() * 4;
    return entry;
  };
  for (size_t i = 0; i < baked.size(); ++i) {
    const Baked& b = baked[i];
    json += i ? ",\n    " : "\n    ";
    json += "{\"node\": " + std::to_string(b.node) + ", \"nodeName\": \"" +
            JsonEscape(a.nodes[b.node].name) + "\", \"mesh\": " + std::to_string(b.mesh) +
            ", \"primitive\": " + std::to_string(b.primitive) +
            ", \"vertexCount\": " + std::to_string(b.data.positions.size() / 3) +
            ", \"material\": " + std::to_string(b.material);
    json += stream(b.data.positions, "positions");
    json += stream(b.data.normals, "normals");
    json += stream(b.data.tangents, "tangents");
    json += "}";
  }
  json += baked.empty() ? "],\n" : "\n  ],\n";
  json += "  \"byteLength\": " + std::to_string(offset) + "\n}\n";
  std::ofstream manifest(o.out + ".json");
  manifest << json;
  return bool(bin) && bool(manifest);
}

// Triangles of a baked primitive (indexed or not); other topologies contribute points only.
std::vector<uint32_t> Triangles(const Baked& b) {
  std::vector<uint32_t> tris;
  if (b.mode != 4) return tris;
  if (b.indices && !b.indices->empty()) return *b.indices;
  for (uint32_t v = 0; v < b.data.positions.size() / 3; ++v) tris.push_back(v);
  return tris;
}

bool WriteMeshFile(const BakeOptions& o, const std::vector<Baked>& baked) {
  const std::string path = o.out + "." + o.format;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  size_t vertices = 0, faces = 0;
  bool all_normals = true;  // OBJ: vn lines only when every vertex has one (f v//vn)
  for (const Baked& b : baked) {
    vertices += b.data.positions.size() / 3;
    faces += Triangles(b).size() / 3;
    all_normals &= !b.data.normals.empty();
  }
  if (o.format == "ply") {
    std::fprintf(f,
                 "ply\nformat ascii 1.0\ncomment sinew bake %s\nelement vertex %zu\n"
                 "property float x\nproperty float y\nproperty float z\n"
                 "property float nx\nproperty float ny\nproperty float nz\n"
                 "element face %zu\nproperty list uchar uint vertex_indices\nend_header\n",
                 o.file.c_str(), vertices, faces);
  } else {
    std::fprintf(f, "# sinew bake %s\n", o.file.c_str());
  }
  for (const Baked& b : baked) {
    const size_t n = b.data.positions.size() / 3;
    for (size_t v = 0; v < n; ++v) {
      const float* p = &b.data.positions[v * 3];
      const float* nrm = b.data.normals.empty() ? nullptr : &b.data.normals[v * 3];
      if (o.format == "ply") {
        std::fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2], nrm ? nrm[0] : 0.0,
                     nrm ? nrm[1] : 0.0, nrm ? nrm[2] : 0.0);
      } else {
        std::fprintf(f, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
        if (all_normals) std::fprintf(f, "vn %.9g %.9g %.9g\n", nrm[0], nrm[1], nrm[2]);
      }
    }
  }
  size_t base = 0;
  for (const Baked& b : baked) {
    const std::vector<uint32_t> tris = Triangles(b);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
      const size_t i0 = base + tris[t], i1 = base + tris[t + 1], i2 = base + tris[t + 2];
      if (o.format == "ply") {
        std::fprintf(f, "3 %zu %zu %zu\n", i0, i1, i2);
      } else if (all_normals) {  // OBJ indices are 1-based; v and vn share them here
        std::fprintf(f, "f %zu//%zu %zu//%zu %zu//%zu\n", i0 + 1, i0 + 1, i1 + 1, i1 + 1, i2 + 1,
                     i2 + 1);
      } else {
        std::fprintf(f, "f %zu %zu %zu\n", i0 + 1, i1 + 1, i2 + 1);
      }
    }
    base += b.data.positions.size() / 3;
  }
  return std::fclose(f) == 0;
}

}  // namespace

int BakeCommand(std::span<const std::string_view> args) {
  BakeOptions o;
  if (int rc = Parse(args, &o); rc != 0) {
    Usage();
    return rc;
  }
  auto file = loader::LoadAsset(o.file);
  if (!file) {
    std::fprintf(stderr, "sinew bake: %s: %s\n", o.file.c_str(), file.error().ToString().c_str());
    return 1;
  }
  const Asset& a = file->loaded.asset;
  ScenePose pose = RestPose(a);

  // The clip.
  std::string animation = "null";
  if (!o.anim.empty()) {
    const int32_t index = Find(a.animations, o.anim);
    if (index < 0) {
      std::fprintf(stderr, "sinew bake: no animation '%s' (the file has %zu)\n", o.anim.c_str(),
                   a.animations.size());
      return 1;
    }
    cpu::SampleAnimationJob job;
    job.animation = &a.animations[size_t(index)];
    job.time = o.time;
    job.loop = o.loop;
    job.pose = &pose;
    if (Status s = job.Run(); !s) {
      std::fprintf(stderr, "sinew bake: %s\n", s.error().ToString().c_str());
      return 1;
    }
    animation = "{\"index\": " + std::to_string(index) + ", \"name\": \"" +
                JsonEscape(a.animations[size_t(index)].name) + "\"}";
  }
  // Explicit morph weights.
  for (const auto& [key, w] : o.weights) {
    const int32_t mesh = Find(a.meshes, key);
    if (mesh < 0) {
      std::fprintf(stderr, "sinew bake: --weights: no mesh '%s'\n", key.c_str());
      return 1;
    }
    for (size_t n = 0; n < a.nodes.size(); ++n) {
      if (a.nodes[n].mesh != mesh) continue;
      if (w.size() != pose.weights[n].size()) {
        std::fprintf(stderr, "sinew bake: --weights: mesh '%s' has %zu targets, got %zu weights\n",
                     key.c_str(), pose.weights[n].size(), w.size());
        return 1;
      }
      pose.weights[n] = w;
    }
  }
  int32_t variant = -1;
  if (!o.variant.empty()) {
    const auto it = std::find(a.variants.begin(), a.variants.end(), o.variant);
    if (it == a.variants.end()) {
      std::fprintf(stderr, "sinew bake: no material variant '%s'\n", o.variant.c_str());
      return 1;
    }
    variant = int32_t(it - a.variants.begin());
  }

  auto transforms = cpu::SceneTransforms(a, pose);
  if (!transforms) {
    std::fprintf(stderr, "sinew bake: %s\n", transforms.error().ToString().c_str());
    return 1;
  }
  std::vector<Float4x4>& world = transforms.value();
  // Bind poses replace the joints' scene matrices.
  if (o.pose != "rest") {
    const bool inverse_binds = o.pose == "bind";
    static const char* const kTypes[] = {"TPose", "APose", "IPose", "Custom"};
    int type = -1;
    for (int t = 0; t < 4; ++t) {
      if (o.pose == std::string("bind:") + kTypes[t]) type = t;
    }
    if (!inverse_binds && type < 0) {
      std::fputs("sinew bake: --pose rest|bind|bind:TPose|APose|IPose|Custom\n", stderr);
      return 2;
    }
    bool found = inverse_binds;
    for (const Skin& skin : a.skins) {
      for (size_t j = 0; j < skin.joints.size(); ++j) {
        if (inverse_binds) {
          Float4x4 bind;
          if (Invert(skin.inverse_binds[j], &bind)) world[skin.joints[j]] = bind;
          continue;
        }
        for (const BindPose& bp : skin.bind_poses) {
          if (int(bp.type) == type && j < bp.matrices.size()) {
            world[skin.joints[j]] = bp.matrices[j];
            found = true;
          }
        }
      }
    }
    if (!found) {
      std::fprintf(stderr, "sinew bake: no skin has a %s bind pose\n", o.pose.c_str() + 5);
      return 1;
    }
  }

  std::unique_ptr<vk::Context> context;
  if (o.device == "gpu") {
    auto ctx = vk::Context::Create();
    if (!ctx) {
      std::fprintf(stderr, "sinew bake: --device gpu: %s\n", ctx.error().ToString().c_str());
      return 1;
    }
    context = std::move(ctx.value());
  }
  std::vector<Baked> baked;
  for (uint32_t n : cpu::DrawnNodes(a)) {
    const Node& node = a.nodes[n];
    if (node.mesh < 0) continue;
    const Mesh& mesh = a.meshes[size_t(node.mesh)];
    std::vector<Float3x4> palette;
    if (node.skin >= 0) {
      auto p = cpu::NodePalette(a, n, world);
      if (!p) {
        std::fprintf(stderr, "sinew bake: node %u: %s\n", n, p.error().ToString().c_str());
        return 1;
      }
      palette = std::move(p.value());
    }
    for (uint32_t k = 0; k < mesh.primitives.size(); ++k) {
      const Primitive& prim = mesh.primitives[k];
      Baked b;
      b.node = n, b.primitive = k, b.mesh = node.mesh, b.mode = prim.mode;
      b.material = prim.MaterialFor(variant);
      b.indices = &prim.indices;
      Status s;
      if (context) {
        // GPU: morph targets and skinning (or the node's transform, as one rigid joint) in the
        // fused kernel.
        auto gpu_palette = cpu::InstancePalette(a, n, world);
        if (!gpu_palette) {
          s = gpu_palette.status();
        } else {
          const std::vector<float> weights = cpu::MorphWeightsFor(mesh, pose.weights[n]);
          auto out = vk::DeformOnce(
              *context, cpu::SkinnedMeshOf(prim, gpu_palette->size()), *gpu_palette,
              prim.targets.empty() ? std::span<const float>() : std::span<const float>(weights));
          if (out) {
            b.data = std::move(out.value());
          } else {
            s = out.status();
          }
        }
      } else {
        s = cpu::DeformPrimitive(a, n, k, world, pose.weights[n], palette, &b.data);
      }
      if (!s) {
        std::fprintf(stderr, "sinew bake: node %u primitive %u: %s\n", n, k,
                     s.error().ToString().c_str());
        return 1;
      }
      baked.push_back(std::move(b));
    }
  }
  const bool ok = o.format == "bin" ? WriteBin(o, a, animation, baked) : WriteMeshFile(o, baked);
  if (!ok) {
    std::fprintf(stderr, "sinew bake: cannot write %s.*\n", o.out.c_str());
    return 1;
  }
  size_t vertices = 0;
  for (const Baked& b : baked) vertices += b.data.positions.size() / 3;
  std::printf("sinew bake: %zu primitives, %zu vertices -> %s.%s%s\n", baked.size(), vertices,
              o.out.c_str(), o.format == "bin" ? "json + " : "",
              o.format == "bin" ? (o.out + ".bin").c_str() : o.format.c_str());
  return 0;
}

}  // namespace sinew::tool
