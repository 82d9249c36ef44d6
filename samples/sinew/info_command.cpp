// `sinew info FILE`: validates an asset and describes it; exit code 0 when valid, 1 when not.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/load_asset.h"

namespace sinew::tool {
namespace {

const char* PathName(AnimationPath path) {
  switch (path) {
    case AnimationPath::kTranslation:
      return "translation";
    case AnimationPath::kRotation:
      return "rotation";
    case AnimationPath::kScale:
      return "scale";
    case AnimationPath::kWeights:
      return "weights";
  }
  return "?";
}

const char* InterpolationName(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kLinear:
      return "LINEAR";
    case Interpolation::kStep:
      return "STEP";
    case Interpolation::kCubicSpline:
      return "CUBICSPLINE";
  }
  return "?";
}

// " 'NAME'" for a named morph target, else nothing.
std::string TargetName(const Mesh& mesh, uint32_t target) {
  if (target >= mesh.target_names.size() || mesh.target_names[target].empty()) return "";
  return " '" + mesh.target_names[target] + "'";
}

// One line per blend shape: every morph target that is not an in-between of another, with its name
// and its in-betweens (target, name, weight), e.g.
//   shape on target 0 'Smile': in-betweens target 1 'Smile_half' at 0.5, target 2 at 1.5
//   shape on target 3 'Angry'
void DescribeShapes(const Mesh& mesh) {
  const size_t targets = mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
  std::vector<const InbetweenShape*> shape_of(targets, nullptr);
  std::vector<bool> inbetween(targets, false);
  for (const InbetweenShape& shape : mesh.inbetween_shapes) {
    if (shape.primary < targets) shape_of[shape.primary] = &shape;
    for (const auto& ib : shape.inbetweens) {
      if (ib.target < targets) inbetween[ib.target] = true;
    }
  }
  for (uint32_t t = 0; t < targets; ++t) {
    if (inbetween[t]) continue;  // listed under its primary
    std::printf("  shape on target %u%s", t, TargetName(mesh, t).c_str());
    const InbetweenShape* shape = shape_of[t];
    if (shape != nullptr) {
      std::printf(": in-betweens");
      const char* separator = " ";
      for (const auto& ib : shape->inbetweens) {
        std::printf("%starget %u%s at %g", separator, ib.target,
                    TargetName(mesh, ib.target).c_str(), ib.weight);
        separator = ", ";
      }
      if (shape->inbetweens.empty()) std::printf(" none");
    }
    std::printf("\n");
  }
}

void Describe(const Asset& a) {
  size_t primitives = 0, vertices = 0, targets = 0;
  for (const Mesh& m : a.meshes) {
    for (const Primitive& p : m.primitives) {
      ++primitives;
      vertices += p.vertex_count();
      targets += p.targets.size();
    }
  }
  std::printf("nodes %zu, scenes %zu (default %d), meshes %zu, primitives %zu, vertices %zu\n",
              a.nodes.size(), a.scenes.size(), a.scene, a.meshes.size(), primitives, vertices);
  static const char* const kPoseNames[] = {"TPose", "APose", "IPose", "Custom"};
  for (size_t s = 0; s < a.skins.size(); ++s) {
    const Skin& skin = a.skins[s];
    std::printf("skin %zu '%s': %zu joints", s, skin.name.c_str(), skin.joints.size());
    if (!skin.group_joints.empty()) {
      const auto untransformed = std::count(skin.group_joints.begin(), skin.group_joints.end(), -1);
      std::printf(" for %zu groups (%td untransformed)", skin.group_joints.size(), untransformed);
    }
    if (!skin.bind_poses.empty()) {
      std::printf(", bind poses:");
      for (const BindPose& pose : skin.bind_poses) {
        std::printf(" %s", kPoseNames[static_cast<size_t>(pose.type)]);
      }
    }
    std::printf("\n");
  }
  if (!a.variants.empty()) {
    std::printf("material variants:");
    for (size_t v = 0; v < a.variants.size(); ++v)
      std::printf(" %zu '%s'", v, a.variants[v].c_str());
    std::printf("\n");
  }
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    const Mesh& mesh = a.meshes[m];
    std::printf("mesh %zu '%s':", m, mesh.name.c_str());
    if (!mesh.primitives.empty() && !mesh.primitives[0].targets.empty()) {
      std::printf(" %zu morph targets", mesh.primitives[0].targets.size());
    }
    std::printf("\n");
    DescribeShapes(mesh);
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& prim = mesh.primitives[p];
      std::printf("  primitive %zu: %zu vertices, %zu indices%s%s", p, prim.vertex_count(),
                  prim.indices.size(), prim.normals.empty() ? "" : ", normals",
                  prim.tangents.empty() ? "" : ", tangents");
      if (!prim.sparse_influences.offsets.empty()) {
        // Sparse: entries per vertex, as a histogram.
        const SparseInfluences& si = prim.sparse_influences;
        std::map<uint32_t, size_t> used;
        for (size_t v = 0; v + 1 < si.offsets.size(); ++v)
          ++used[si.offsets[v + 1] - si.offsets[v]];
        std::printf(", skinned sparse, %u groups (vertices by entries:", si.group_count);
        for (const auto& [n, count] : used) std::printf(" %u:%zu", n, count);
        std::printf(")");
      } else if (prim.skinned()) {
        // Influences actually used per vertex (nonzero weights), as a histogram.
        const uint32_t k = prim.influences.influences_per_vertex;
        std::map<uint32_t, size_t> used;
        for (size_t v = 0; v < prim.vertex_count(); ++v) {
          uint32_t n = 0;
          for (uint32_t s = 0; s < k; ++s) n += prim.influences.weights[v * k + s] != 0.0f;
          ++used[n];
        }
        std::printf(", skinned K=%u (vertices by nonzero influences:", k);
        for (const auto& [n, count] : used) std::printf(" %u:%zu", n, count);
        std::printf(")");
      }
      std::printf("\n");
    }
  }
  for (size_t i = 0; i < a.animations.size(); ++i) {
    const Animation& anim = a.animations[i];
    std::map<std::string, size_t> paths;
    for (const AnimationChannel& c : anim.channels) {
      if (c.node >= 0) ++paths[PathName(c.path)];
    }
    std::map<std::string, size_t> interpolations;
    for (const AnimationSampler& s : anim.samplers) {
      ++interpolations[InterpolationName(s.interpolation)];
    }
    const cpu::ClipRange range = cpu::RangeOf(anim);
    std::printf("clip %zu '%s': %.3f..%.3f s, %zu channels (", i, anim.name.c_str(), range.start,
                range.end, anim.channels.size());
    bool comma = false;
    for (const auto& [path, n] : paths) {
      std::printf("%s%s %zu", comma ? ", " : "", path.c_str(), n);
      comma = true;
    }
    std::printf(";");
    for (const auto& [name, n] : interpolations) std::printf(" %s %zu", name.c_str(), n);
    std::printf(")\n");
  }
  if (!a.extensions_used.empty()) {
    std::printf("extensions used:");
    for (const std::string& e : a.extensions_used) std::printf(" %s", e.c_str());
    std::printf("\n");
  }
}

}  // namespace

int InfoCommand(std::span<const std::string_view> args) {
  if (args.size() != 1 || args[0] == "--help" || args[0] == "-h") {
    std::fputs("usage: sinew info FILE   (.gltf, .glb, .g4tf or .g4b)\n",
               args.size() == 1 ? stdout : stderr);
    return args.size() == 1 ? 0 : 2;
  }
  const std::string path(args[0]);
  auto file = loader::LoadAsset(path);
  if (!file) {
    std::printf("%s: invalid\nerror: %s\n", path.c_str(), file.error().ToString().c_str());
    return 1;
  }
  std::printf("%s: valid %s\n", path.c_str(), loader::ToString(file->format));
  Describe(file->loaded.asset);
  for (const loader::Warning& w : file->loaded.warnings) {
    std::printf("warning at %s: %s\n", w.where.c_str(), w.message.c_str());
  }
  return 0;
}

}  // namespace sinew::tool
