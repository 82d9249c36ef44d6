// Composing .usda text in the loader tests: a stage read from text, with the layers it names
// taken from a map of texts, and the float a composed attribute holds.
#pragma once

#include <cmath>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/load_status.h"
#include "sinew/loader/usd.h"
#include "usd/compose_stage.h"
#include "usd/usda_parser.h"

namespace sinew::loader {

// The float at `property` ("/prim.name") of `layer`; NaN where there is none.
inline float FloatAt(const usd::Layer& layer, const std::string& property) {
  const usd::Attribute* a = layer.FindAttribute(property);
  if (a == nullptr || a->UnblockedDefault() == nullptr) return std::nanf("");
  const std::span<const float> floats = a->UnblockedDefault()->floats();
  return floats.empty() ? std::nanf("") : floats[0];
}

// The specs that compose the prim at `prim`, strongest first, by the names they give themselves:
// each spec of a stage written for it names itself in `append rel stack = </Prim/name>`, so the
// composed targets list the prim's specs, weakest first. "(no stack at /Prim)" where no spec of
// the prim names itself.
inline std::vector<std::string> StackOf(const usd::Layer& composed, const std::string& prim) {
  const usd::Relationship* r = composed.FindRelationship(prim + ".stack");
  if (r == nullptr) return {"(no stack at " + prim + ")"};
  const std::vector<std::string> targets = r->targets.Resolved();
  std::vector<std::string> names;
  for (auto t = targets.rbegin(); t != targets.rend(); ++t) {
    if (!t->starts_with(prim + "/")) return {"(" + *t + " lies outside " + prim + ")"};
    names.push_back(t->substr(prim.size() + 1));
  }
  return names;
}

// `text` read and its references composed (within itself).
inline Result<usd::Layer> Composed(std::string_view text, const UsdOptions& options = {}) {
  auto layer = usd::ReadUsda(text);
  if (!layer.ok()) return layer.status();
  return usd::ComposeStage(std::move(*layer), "", {}, options);
}

// `text` read as the layer "shot.usda" and composed, the files it names taken from `files`.
inline Result<usd::Layer> ComposedWith(std::string_view text,
                                       const std::map<std::string, std::string>& files,
                                       const UsdOptions& options = {}) {
  auto layer = usd::ReadUsda(text);
  if (!layer.ok()) return layer.status();
  const usd::LayerOpener open = [&](const std::string& name) -> Result<usd::OpenedLayer> {
    const auto it = files.find(name);
    if (it == files.end()) return Status(Error::kFileNotFound, "no such file", name);
    SINEW_TRY_ASSIGN(usd::Layer read, usd::ReadUsda(it->second));
    return usd::OpenedLayer{std::move(read), name};
  };
  return usd::ComposeStage(std::move(*layer), "shot.usda", open, options);
}

}  // namespace sinew::loader
