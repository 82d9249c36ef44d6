// Composing .usda text in the loader tests: a stage read from text, with the layers it names
// taken from a map of texts, and the float a composed attribute holds.
#pragma once

#include <cmath>
#include <map>
#include <span>
#include <string>
#include <string_view>

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
