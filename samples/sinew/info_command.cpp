// `sinew info FILE [--json] [--usd-variant ...] [--usd-fallback ...]`: validates an asset and
// describes it; exit code 0 when valid, 1 when not. The description is text, or with --json one
// object (the same facts). The USD options choose which variants the stage's sets take
// (load_arguments.h).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "commands.h"
#include "counted.h"
#include "json_writer.h"
#include "load_arguments.h"
#include "load_asset_stage.h"
#include "sinew/cpu/sample_animation_job.h"
#include "sinew/loader/file.h"
#include "sinew/loader/load_asset.h"
#include "usd_outline.h"

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

const char* PoseName(PoseType type) {
  static const char* const kPoseNames[] = {"TPose", "APose", "IPose", "Custom"};
  return kPoseNames[static_cast<size_t>(type)];
}

// A morph target's name; empty when it has none.
std::string TargetName(const Mesh& mesh, uint32_t target) {
  return target < mesh.target_names.size() ? mesh.target_names[target] : std::string();
}

// " 'NAME'" for a named morph target, else nothing.
std::string QuotedTargetName(const Mesh& mesh, uint32_t target) {
  const std::string name = TargetName(mesh, target);
  return name.empty() ? "" : " '" + name + "'";
}

size_t MorphTargetCount(const Mesh& mesh) {
  return mesh.primitives.empty() ? 0 : mesh.primitives[0].targets.size();
}

// A blend shape: a morph target that is not an in-between of another, and its in-betweens (null
// when the mesh declares none for it).
struct Shape {
  uint32_t target = 0;
  const InbetweenShape* inbetweens = nullptr;
};

std::vector<Shape> ShapesOf(const Mesh& mesh) {
  const size_t targets = MorphTargetCount(mesh);
  std::vector<const InbetweenShape*> shape_of(targets, nullptr);
  std::vector<bool> inbetween(targets, false);
  for (const InbetweenShape& shape : mesh.inbetween_shapes) {
    if (shape.primary < targets) shape_of[shape.primary] = &shape;
    for (const auto& ib : shape.inbetweens) {
      if (ib.target < targets) inbetween[ib.target] = true;
    }
  }
  std::vector<Shape> shapes;
  for (uint32_t t = 0; t < targets; ++t) {
    if (!inbetween[t]) shapes.push_back({t, shape_of[t]});  // an in-between: under its primary
  }
  return shapes;
}

// A skinned primitive's vertices by influence count: sparse, by entries; dense, by nonzero
// weights. Empty for an unskinned primitive.
std::map<uint32_t, size_t> InfluenceHistogram(const Primitive& prim) {
  std::map<uint32_t, size_t> used;
  if (!prim.sparse_influences.offsets.empty()) {
    const SparseInfluences& si = prim.sparse_influences;
    for (size_t v = 0; v + 1 < si.offsets.size(); ++v) ++used[si.offsets[v + 1] - si.offsets[v]];
  } else if (prim.skinned()) {
    const uint32_t k = prim.influences.influences_per_vertex;
    for (size_t v = 0; v < prim.vertex_count(); ++v) {
      uint32_t n = 0;
      for (uint32_t s = 0; s < k; ++s) n += prim.influences.weights[v * k + s] != 0.0f;
      ++used[n];
    }
  }
  return used;
}

// A clip's channels by target path (node channels only) and its samplers by interpolation.
struct ClipCounts {
  std::map<std::string, size_t> paths, interpolations;
};

ClipCounts CountClip(const Animation& anim) {
  ClipCounts counts;
  for (const AnimationChannel& c : anim.channels) {
    if (c.node >= 0) ++counts.paths[PathName(c.path)];
  }
  for (const AnimationSampler& s : anim.samplers) {
    ++counts.interpolations[InterpolationName(s.interpolation)];
  }
  return counts;
}

struct Totals {
  size_t primitives = 0, vertices = 0;
};

Totals CountPrimitives(const Asset& a) {
  Totals t;
  for (const Mesh& m : a.meshes) {
    for (const Primitive& p : m.primitives) {
      ++t.primitives;
      t.vertices += p.vertex_count();
    }
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// Text

// One line per blend shape, with its name and its in-betweens (target, name, weight), e.g.
//   shape on target 0 'Smile': in-betweens target 1 'Smile_half' at 0.5, target 2 at 1.5
//   shape on target 3 'Angry'
void PrintShapes(const Mesh& mesh) {
  for (const Shape& shape : ShapesOf(mesh)) {
    std::printf("  shape on target %u%s", shape.target,
                QuotedTargetName(mesh, shape.target).c_str());
    if (shape.inbetweens != nullptr) {
      std::printf(": in-betweens");
      const char* separator = " ";
      for (const auto& ib : shape.inbetweens->inbetweens) {
        std::printf("%starget %u%s at %g", separator, ib.target,
                    QuotedTargetName(mesh, ib.target).c_str(), ib.weight);
        separator = ", ";
      }
      if (shape.inbetweens->inbetweens.empty()) std::printf(" none");
    }
    std::printf("\n");
  }
}

void PrintSkins(const Asset& a) {
  for (size_t s = 0; s < a.skins.size(); ++s) {
    const Skin& skin = a.skins[s];
    std::printf("skin %zu '%s': %s", s, skin.name.c_str(),
                Counted(skin.joints.size(), "joint").c_str());
    if (skin.skeleton >= 0 && size_t(skin.skeleton) < a.nodes.size()) {
      std::printf(" of skeleton '%s'", a.nodes[size_t(skin.skeleton)].name.c_str());
    }
    if (!skin.group_joints.empty()) {
      const auto untransformed = std::count(skin.group_joints.begin(), skin.group_joints.end(), -1);
      std::printf(" for %s (%td untransformed)", Counted(skin.group_joints.size(), "group").c_str(),
                  untransformed);
    }
    if (!skin.bind_poses.empty()) {
      std::printf(", bind poses:");
      for (const BindPose& pose : skin.bind_poses) std::printf(" %s", PoseName(pose.type));
    }
    std::printf("\n");
  }
}

const char* MethodName(SkinningMethod method) {
  return method == SkinningMethod::kDualQuaternion ? "dual quaternion" : "linear";
}

// Rigid bindings: "rigid 0 '/Root/Cube' Cube: skin 5, linear, joints 0:0.5 1:0.5".
void PrintRigidBindings(const Asset& a) {
  for (size_t r = 0; r < a.rigid_bindings.size(); ++r) {
    const RigidBinding& b = a.rigid_bindings[r];
    std::printf("rigid %zu '%s' %s: skin %u, %s, joints", r, b.name.c_str(), b.type.c_str(), b.skin,
                MethodName(b.skinning));
    for (size_t i = 0; i < b.joints.size() && i < b.weights.size(); ++i) {
      std::printf(" %u:%g", b.joints[i], double(b.weights[i]));
    }
    std::printf("\n");
  }
}

void PrintPrimitive(size_t p, const Primitive& prim) {
  std::printf("  primitive %zu: %s, %s%s%s", p,
              Counted(prim.vertex_count(), "vertex", "vertices").c_str(),
              Counted(prim.indices.size(), "index", "indices").c_str(),
              prim.normals.empty() ? "" : ", normals", prim.tangents.empty() ? "" : ", tangents");
  if (!prim.sparse_influences.offsets.empty()) {
    std::printf(", skinned sparse, %s (vertices by entries:",
                Counted(prim.sparse_influences.group_count, "group").c_str());
  } else if (prim.skinned()) {
    std::printf(", skinned K=%u (vertices by nonzero influences:",
                prim.influences.influences_per_vertex);
  }
  if (prim.skinned()) {
    for (const auto& [n, count] : InfluenceHistogram(prim)) std::printf(" %u:%zu", n, count);
    std::printf(")");
  }
  std::printf("\n");
}

void PrintMeshes(const Asset& a) {
  for (size_t m = 0; m < a.meshes.size(); ++m) {
    const Mesh& mesh = a.meshes[m];
    std::printf("mesh %zu '%s':", m, mesh.name.c_str());
    if (MorphTargetCount(mesh) > 0) {
      std::printf(" %s", Counted(MorphTargetCount(mesh), "morph target").c_str());
    }
    std::printf("\n");
    PrintShapes(mesh);
    for (size_t p = 0; p < mesh.primitives.size(); ++p) PrintPrimitive(p, mesh.primitives[p]);
  }
}

void PrintClips(const Asset& a) {
  for (size_t i = 0; i < a.animations.size(); ++i) {
    const Animation& anim = a.animations[i];
    const ClipCounts counts = CountClip(anim);
    const cpu::ClipRange range = cpu::RangeOf(anim);
    std::printf("clip %zu '%s': %.3f..%.3f s, %s", i, anim.name.c_str(), range.start, range.end,
                Counted(anim.channels.size(), "channel").c_str());
    if (counts.paths.empty() && counts.interpolations.empty()) {  // nothing to break down
      std::printf("\n");
      continue;
    }
    std::printf(" (");
    bool comma = false;
    for (const auto& [path, n] : counts.paths) {
      std::printf("%s%s %zu", comma ? ", " : "", path.c_str(), n);
      comma = true;
    }
    std::printf(";");
    for (const auto& [name, n] : counts.interpolations) std::printf(" %s %zu", name.c_str(), n);
    std::printf(")\n");
  }
}

// "usd: SkelRoot /Root; Skeleton /Root/Skeleton (3 joints); SkelAnimation ...; up axis Y, ...".
void PrintUsdOutline(const UsdOutline& outline) {
  std::printf("usd:");
  for (const std::string& p : outline.skel_roots) std::printf(" SkelRoot %s;", p.c_str());
  for (const UsdOutline::Skeleton& s : outline.skeletons) {
    std::printf(" Skeleton %s (%s);", s.path.c_str(), Counted(s.joints, "joint").c_str());
  }
  for (const std::string& p : outline.animations) std::printf(" SkelAnimation %s;", p.c_str());
  // As authored, and what is read in its place where UsdGeom does not take it (the loader warns).
  const std::string axis = outline.UpAxisOrFallback();
  std::printf(" up axis %s", outline.up_axis.empty() ? "Y (fallback)" : outline.up_axis.c_str());
  if (!outline.up_axis.empty() && outline.up_axis != axis) {
    std::printf(" (read as %s)", axis.c_str());
  }
  if (outline.meters_per_unit) {
    const double meters = outline.MetersPerUnitOrFallback();
    std::printf(", %g m a unit", *outline.meters_per_unit);
    if (!(meters == *outline.meters_per_unit)) std::printf(" (read as %g)", meters);
  }
  if (outline.time_codes_per_second) {
    std::printf(", %g time codes a second", *outline.time_codes_per_second);
  }
  std::printf("\n");
}

void WriteUsdOutline(JsonWriter& json, const UsdOutline& outline) {
  json.Key("usd").BeginObject();
  json.Key("skel_roots").BeginArray(JsonWriter::kInline);
  for (const std::string& p : outline.skel_roots) json.String(p);
  json.EndArray().Key("skeletons").BeginArray();
  for (const UsdOutline::Skeleton& s : outline.skeletons) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("path").String(s.path).Key("joints").Int(int64_t(s.joints));
    json.EndObject();
  }
  json.EndArray().Key("animations").BeginArray(JsonWriter::kInline);
  for (const std::string& p : outline.animations) json.String(p);
  json.EndArray();
  json.Key("up_axis").String(outline.up_axis.empty() ? "Y" : outline.up_axis);
  for (const auto& [key, value] :
       {std::pair{"meters_per_unit", outline.meters_per_unit},
        std::pair{"time_codes_per_second", outline.time_codes_per_second}}) {
    json.Key(key);
    if (value) {
      json.Number(*value);
    } else {
      json.Null();
    }
  }
  json.EndObject();
}

// `stage`: a USD file's composed stage, as the loader composed it for the asset.
void PrintDescription(const std::string& path, const loader::usd::Layer& stage,
                      const loader::LoadedFile& file) {
  const Asset& a = file.loaded.asset;
  std::printf("%s: valid %s\n", path.c_str(), loader::ToString(file.format));
  const Totals totals = CountPrimitives(a);
  std::printf("nodes %zu, scenes %zu (default %d), meshes %zu, primitives %zu, vertices %zu\n",
              a.nodes.size(), a.scenes.size(), a.scene, a.meshes.size(), totals.primitives,
              totals.vertices);
  if (loader::IsUsd(file.format)) PrintUsdOutline(OutlineOf(stage));
  // The files beside it the loader read (LoadedAsset::external_files): what the asset depends on.
  if (!file.loaded.external_files.empty()) {
    std::printf("files read:");
    for (const std::filesystem::path& f : file.loaded.external_files) {
      std::printf(" %s", f.string().c_str());
    }
    std::printf("\n");
  }
  // A USD stage's variant sets as --usd-variant names them: /PRIM{SET=CHOSEN}.
  if (!file.loaded.variant_sets.empty()) std::printf("variant sets:\n");
  for (const loader::UsdVariantSet& s : file.loaded.variant_sets) {
    std::printf("  %s{%s=%s} (variants:", s.prim.c_str(), s.set.c_str(), s.selected.c_str());
    for (size_t v = 0; v < s.variants.size(); ++v) {
      std::printf("%s %s", v == 0 ? "" : ",", s.variants[v].c_str());
    }
    std::printf("%s)\n", s.variants.empty() ? " none" : "");
  }
  PrintSkins(a);
  if (!a.variants.empty()) {
    std::printf("material variants:");
    for (size_t v = 0; v < a.variants.size(); ++v)
      std::printf(" %zu '%s'", v, a.variants[v].c_str());
    std::printf("\n");
  }
  PrintMeshes(a);
  PrintRigidBindings(a);
  PrintClips(a);
  if (!a.extensions_used.empty()) {
    std::printf("extensions used:");
    for (const std::string& e : a.extensions_used) std::printf(" %s", e.c_str());
    std::printf("\n");
  }
  for (const loader::Warning& w : file.loaded.warnings) {
    std::printf("warning at %s: %s\n", w.where.c_str(), w.message.c_str());
  }
}

// ---------------------------------------------------------------------------------------------
// JSON

// A map of counts as an object: {"1": 5, "2": 7}.
template <typename K>
void WriteCounts(JsonWriter& json, const std::map<K, size_t>& counts) {
  json.BeginObject(JsonWriter::kInline);
  for (const auto& [key, n] : counts) {
    if constexpr (std::is_same_v<K, std::string>) {
      json.Key(key).Int(int64_t(n));
    } else {
      json.Key(std::to_string(key)).Int(int64_t(n));
    }
  }
  json.EndObject();
}

// A morph target's name, or null.
void WriteTargetName(JsonWriter& json, const Mesh& mesh, uint32_t target) {
  const std::string name = TargetName(mesh, target);
  json.Key("name");
  if (name.empty()) {
    json.Null();
  } else {
    json.String(name);
  }
}

void WriteSkins(JsonWriter& json, const Asset& a) {
  json.Key("skins").BeginArray();
  for (const Skin& skin : a.skins) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String(skin.name);
    json.Key("joints").Int(int64_t(skin.joints.size()));
    json.Key("skeleton");
    if (skin.skeleton >= 0 && size_t(skin.skeleton) < a.nodes.size()) {
      json.String(a.nodes[size_t(skin.skeleton)].name);
    } else {
      json.Null();
    }
    if (!skin.group_joints.empty()) {
      json.Key("groups").Int(int64_t(skin.group_joints.size()));
      json.Key("untransformed_groups")
          .Int(std::count(skin.group_joints.begin(), skin.group_joints.end(), -1));
    }
    json.Key("bind_poses").BeginArray();
    for (const BindPose& pose : skin.bind_poses) json.String(PoseName(pose.type));
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
}

void WriteRigidBindings(JsonWriter& json, const Asset& a) {
  json.Key("rigid_bindings").BeginArray();
  for (const RigidBinding& b : a.rigid_bindings) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String(b.name).Key("type").String(b.type);
    json.Key("skin").Int(b.skin).Key("skinning").String(MethodName(b.skinning));
    json.Key("joints").BeginArray();
    for (const uint16_t j : b.joints) json.Int(j);
    json.EndArray().Key("weights").BeginArray();
    for (const float w : b.weights) json.Number(w);
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
}

void WriteShapes(JsonWriter& json, const Mesh& mesh) {
  json.Key("shapes").BeginArray();
  for (const Shape& shape : ShapesOf(mesh)) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("target").Int(shape.target);
    WriteTargetName(json, mesh, shape.target);
    json.Key("inbetweens").BeginArray();
    if (shape.inbetweens != nullptr) {
      for (const auto& ib : shape.inbetweens->inbetweens) {
        json.BeginObject();
        json.Key("target").Int(ib.target);
        WriteTargetName(json, mesh, ib.target);
        json.Key("weight").Number(ib.weight);
        json.EndObject();
      }
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
}

// "skin": null, or the layout ("dense" with its K, or "sparse" with its group count) and the
// vertices by influence count (InfluenceHistogram).
void WritePrimitiveSkin(JsonWriter& json, const Primitive& prim) {
  json.Key("skin");
  if (!prim.skinned()) {
    json.Null();
    return;
  }
  json.BeginObject(JsonWriter::kInline);
  if (!prim.sparse_influences.offsets.empty()) {
    json.Key("layout").String("sparse");
    json.Key("groups").Int(prim.sparse_influences.group_count);
    json.Key("vertices_by_entries");
  } else {
    json.Key("layout").String("dense");
    json.Key("influences_per_vertex").Int(prim.influences.influences_per_vertex);
    json.Key("vertices_by_nonzero_influences");
  }
  WriteCounts(json, InfluenceHistogram(prim));
  json.EndObject();
}

void WriteMeshes(JsonWriter& json, const Asset& a) {
  json.Key("meshes").BeginArray();
  for (const Mesh& mesh : a.meshes) {
    json.BeginObject();
    json.Key("name").String(mesh.name);
    json.Key("morph_targets").Int(int64_t(MorphTargetCount(mesh)));
    WriteShapes(json, mesh);
    json.Key("primitives").BeginArray();
    for (const Primitive& prim : mesh.primitives) {
      json.BeginObject(JsonWriter::kInline);
      json.Key("vertices").Int(int64_t(prim.vertex_count()));
      json.Key("indices").Int(int64_t(prim.indices.size()));
      json.Key("normals").Bool(!prim.normals.empty());
      json.Key("tangents").Bool(!prim.tangents.empty());
      WritePrimitiveSkin(json, prim);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
}

void WriteClips(JsonWriter& json, const Asset& a) {
  json.Key("animations").BeginArray();
  for (const Animation& anim : a.animations) {
    const ClipCounts counts = CountClip(anim);
    const cpu::ClipRange range = cpu::RangeOf(anim);
    json.BeginObject(JsonWriter::kInline);
    json.Key("name").String(anim.name);
    json.Key("start").Number(range.start);
    json.Key("end").Number(range.end);
    json.Key("channels").Int(int64_t(anim.channels.size()));
    json.Key("channels_by_path");
    WriteCounts(json, counts.paths);
    json.Key("samplers_by_interpolation");
    WriteCounts(json, counts.interpolations);
    json.EndObject();
  }
  json.EndArray();
}

void WriteStrings(JsonWriter& json, const char* key, const std::vector<std::string>& strings) {
  json.Key(key).BeginArray(JsonWriter::kInline);
  for (const std::string& s : strings) json.String(s);
  json.EndArray();
}

void WriteDescription(const std::string& path, const loader::usd::Layer& stage,
                      const loader::LoadedFile& file) {
  const Asset& a = file.loaded.asset;
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("file").String(path);
  json.Key("valid").Bool(true);
  json.Key("format").String(loader::ToString(file.format));
  const Totals totals = CountPrimitives(a);
  json.Key("nodes").Int(int64_t(a.nodes.size()));
  json.Key("scenes").Int(int64_t(a.scenes.size()));
  json.Key("default_scene").Int(a.scene);
  json.Key("primitives").Int(int64_t(totals.primitives));
  json.Key("vertices").Int(int64_t(totals.vertices));
  if (loader::IsUsd(file.format)) WriteUsdOutline(json, OutlineOf(stage));
  json.Key("external_files").BeginArray(JsonWriter::kInline);
  for (const std::filesystem::path& f : file.loaded.external_files) json.String(f.string());
  json.EndArray();
  json.Key("variant_sets").BeginArray();
  for (const loader::UsdVariantSet& s : file.loaded.variant_sets) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("prim").String(s.prim).Key("set").String(s.set);
    WriteStrings(json, "variants", s.variants);
    json.Key("selected").String(s.selected);
    json.EndObject();
  }
  json.EndArray();
  WriteSkins(json, a);
  WriteStrings(json, "material_variants", a.variants);
  WriteMeshes(json, a);
  WriteRigidBindings(json, a);
  WriteClips(json, a);
  WriteStrings(json, "extensions_used", a.extensions_used);
  json.Key("warnings").BeginArray();
  for (const loader::Warning& w : file.loaded.warnings) {
    json.BeginObject(JsonWriter::kInline);
    json.Key("where").String(w.where).Key("message").String(w.message);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

// An invalid file: {"file", "valid": false, "error": {"code", "where", "message"}}.
void WriteInvalid(const std::string& path, const ErrorInfo& error) {
  JsonWriter json(stdout);
  json.BeginObject();
  json.Key("file").String(path);
  json.Key("valid").Bool(false);
  json.Key("error").BeginObject(JsonWriter::kInline);
  json.Key("code").String(ErrorName(error.code));
  json.Key("where").String(error.where);
  json.Key("message").String(error.message);
  json.EndObject();
  json.EndObject();
}

}  // namespace

int InfoCommand(std::span<const std::string_view> args) {
  std::string path;
  bool json = false, help = false, usage = false;
  loader::AssetOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const Parsed parsed = ParseLoadArgument("info", args, &i, &options);
    if (parsed == Parsed::kBad) {
      usage = true;
    } else if (parsed == Parsed::kTaken) {
      continue;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--help" || a == "-h") {
      help = true;
    } else if (a.starts_with("--")) {
      UnknownOption("info", a);
      usage = true;
    } else if (path.empty()) {
      path = a;
    } else {
      std::fprintf(stderr, "sinew info: unexpected argument '%.*s' (one FILE)\n", int(a.size()),
                   a.data());
      usage = true;
    }
  }
  if (help || usage || path.empty()) {
    // --help among the arguments asks for the usage (on stdout, AsksForHelp); anything else
    // malformed gets it on stderr.
    const bool asked = help;
    std::fputs(
        "usage: sinew info FILE [--json] [--usd-variant /PRIM{SET=VARIANT}]...\n"
        "                  [--usd-fallback SET=VARIANT,...]...\n"
        "  (.gltf, .glb, .g4tf, .g4b, .usda, .usdc or .usdz); --usd-variant chooses a USD\n"
        "  prim's variant over the stage's selection, --usd-fallback the variant of a set\n"
        "  nothing selects in\n",
        asked ? stdout : stderr);
    return asked ? 0 : 2;
  }
  // Composed once: the loader and the USD outline both take the stage.
  loader::usd::Layer stage;
  auto bytes = loader::ReadFile(path);
  Result<loader::LoadedFile> file =
      bytes ? loader::LoadAssetAndStage(path, std::span<const uint8_t>(bytes->data(), bytes->size),
                                        options, &stage)
            : Result<loader::LoadedFile>(bytes.status());
  if (!file) {
    if (json) {
      WriteInvalid(path, file.error());
    } else {
      std::printf("%s: invalid\nerror: %s\n", path.c_str(), file.error().ToString().c_str());
    }
    return 1;
  }
  if (json) {
    WriteDescription(path, stage, *file);
  } else {
    PrintDescription(path, stage, *file);
  }
  return 0;
}

}  // namespace sinew::tool
