#include "pose_arguments.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace sinew::tool {

bool ParseFloat(std::string_view text, float* out) {
  // Decimal only (std::strtof would also read "0x10" as 16), every character used.
  float value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value)) {
    return false;
  }
  *out = value;
  return true;
}

namespace {

// "MESH=w0,w1,..." into `o`; false after a message.
bool ParseWeights(const char* command, const std::string& spec, BakeOptions* o) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) {
    std::fprintf(stderr, "sinew %s: --weights MESH=w0,w1,...\n", command);
    return false;
  }
  std::vector<float> w;
  std::string_view rest = std::string_view(spec).substr(eq + 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    float f = 0;
    if (!ParseFloat(rest.substr(0, comma), &f)) {
      std::fprintf(stderr, "sinew %s: --weights values must be finite numbers\n", command);
      return false;
    }
    w.push_back(f);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  o->weights.emplace_back(spec.substr(0, eq), std::move(w));
  return true;
}

}  // namespace

Parsed ParsePoseArgument(const char* command, std::span<const std::string_view> args, size_t* i,
                         PoseArguments* o) {
  const std::string_view a = args[*i];
  if (a == "--loop") {
    o->bake.loop = true;
    return Parsed::kTaken;
  }
  if (a != "--anim" && a != "--time" && a != "--pose" && a != "--variant" && a != "--weights" &&
      a != "--skinning") {
    return ParseLoadArgument(command, args, i, &o->load);
  }
  if (*i + 1 >= args.size()) {
    std::fprintf(stderr, "sinew %s: %.*s needs a value\n", command, int(a.size()), a.data());
    return Parsed::kBad;
  }
  const std::string value(args[++*i]);
  if (a == "--anim") {
    if (value.empty()) {  // "" is no clip; an unnamed clip is taken by its index
      std::fprintf(stderr, "sinew %s: --anim needs a clip's name or index\n", command);
      return Parsed::kBad;
    }
    o->bake.anim = value;
  } else if (a == "--time") {
    o->time_given = true;
    if (!ParseFloat(value, &o->bake.time)) {
      std::fprintf(stderr, "sinew %s: --time needs a finite number\n", command);
      return Parsed::kBad;
    }
  } else if (a == "--pose") {
    o->bake.pose = value;
  } else if (a == "--variant") {
    o->bake.variant = value;
  } else if (a == "--skinning") {
    o->skinning = value;
  } else if (!ParseWeights(command, value, &o->bake)) {
    return Parsed::kBad;
  }
  return Parsed::kTaken;
}

bool ValidPoseArguments(const char* command, const PoseArguments& o) {
  if (!IsBakePose(o.bake.pose)) {
    std::fprintf(stderr, "sinew %s: --pose rest|bind|bind:TPose|APose|IPose|Custom\n", command);
    return false;
  }
  if (!o.skinning.empty() && o.skinning != "linear" && o.skinning != "dqs") {
    std::fprintf(stderr, "sinew %s: --skinning linear|dqs\n", command);
    return false;
  }
  // Not an error (the rest pose is a pose), but --time and --loop say a clip was meant.
  if (o.bake.anim.empty() && (o.time_given || o.bake.loop)) {
    std::fprintf(stderr,
                 "sinew %s: warning: %s without --anim: no clip is sampled, the %s pose is "
                 "used\n",
                 command, o.time_given ? "--time" : "--loop", o.bake.pose.c_str());
  }
  return true;
}

std::unique_ptr<loader::LoadedFile> LoadForCommand(const char* command, const std::string& file,
                                                   const PoseArguments& o) {
  auto loaded = loader::LoadAsset(file, o.load);
  if (!loaded) {
    std::fprintf(stderr, "sinew %s: %s: %s\n", command, file.c_str(),
                 loaded.error().ToString().c_str());
    return nullptr;
  }
  auto out = std::make_unique<loader::LoadedFile>(std::move(loaded.value()));
  PrintLoaderWarnings(command, out->loaded);
  ApplySkinningArgument(o, &out->loaded.asset);
  return out;
}

void PrintLoaderWarnings(const char* command, const loader::LoadedAsset& loaded) {
  for (const loader::Warning& w : loaded.warnings) {
    std::fprintf(stderr, "sinew %s: warning at %s: %s\n", command, w.where.c_str(),
                 w.message.c_str());
  }
}

void ApplySkinningArgument(const PoseArguments& o, Asset* asset) {
  if (o.skinning.empty()) return;
  const SkinningMethod method =
      o.skinning == "dqs" ? SkinningMethod::kDualQuaternion : SkinningMethod::kLinear;
  for (Mesh& mesh : asset->meshes) {
    for (Primitive& p : mesh.primitives) p.skinning = method;
  }
  for (RigidBinding& r : asset->rigid_bindings) r.skinning = method;
}

}  // namespace sinew::tool
