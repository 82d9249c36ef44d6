#include "usd_outline.h"

#include <utility>

#include "sinew/loader/file.h"
#include "sinew/loader/usd.h"
#include "usd/layer.h"
#include "usd/read_layer.h"

namespace sinew::tool {

std::string UsdOutline::UpAxisOrFallback() const {
  return std::string(loader::usd::UpAxisOrFallback(up_axis));
}

double UsdOutline::MetersPerUnitOrFallback() const {
  return loader::usd::MetersPerUnitOrFallback(meters_per_unit);
}

Result<UsdOutline> ReadUsdOutline(std::span<const uint8_t> bytes, const std::string& path) {
  auto layer =
      loader::usd::ReadComposedLayer(bytes, path, loader::UsdOptions{}.reference_expansion);
  if (!layer) return layer.status();
  UsdOutline out;
  out.up_axis = layer->up_axis;
  out.meters_per_unit = layer->meters_per_unit;
  out.time_codes_per_second = layer->TimeCodesPerSecond();
  // A prim is on the stage when it and every prim above it are defined and active.
  std::vector<bool> on_stage(layer->prims.size(), false);
  for (size_t i = 0; i < layer->prims.size(); ++i) {
    const loader::usd::Prim& p = layer->prims[i];
    on_stage[i] = p.specifier == loader::usd::Specifier::kDef && p.active != false &&
                  (p.parent < 0 || on_stage[size_t(p.parent)]);
    if (!on_stage[i]) continue;
    if (p.type_name == "SkelRoot") out.skel_roots.push_back(p.path);
    if (p.type_name == "SkelAnimation") out.animations.push_back(p.path);
    if (p.type_name == "Skeleton") {
      const loader::usd::Attribute* joints = p.FindAttribute("joints");
      const size_t count =
          joints && joints->default_value ? joints->default_value->strings().size() : 0;
      out.skeletons.push_back({p.path, count});
    }
  }
  return out;
}

}  // namespace sinew::tool
