#include "usd_outline.h"

#include <utility>

#include "usd/layer.h"

namespace sinew::tool {

std::string UsdOutline::UpAxisOrFallback() const {
  return std::string(loader::usd::UpAxisOrFallback(up_axis));
}

double UsdOutline::MetersPerUnitOrFallback() const {
  return loader::usd::MetersPerUnitOrFallback(meters_per_unit);
}

UsdOutline OutlineOf(const loader::usd::Layer& stage) {
  UsdOutline out;
  out.up_axis = stage.up_axis;
  out.meters_per_unit = stage.meters_per_unit;
  out.time_codes_per_second = stage.TimeCodesPerSecond();
  // A prim is on the stage when it and every prim above it are defined and active.
  std::vector<bool> on_stage(stage.prims.size(), false);
  for (size_t i = 0; i < stage.prims.size(); ++i) {
    const loader::usd::Prim& p = stage.prims[i];
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
