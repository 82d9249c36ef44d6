// What `sinew info` says of a .usda beyond the asset it loads: the UsdSkel prims that structure
// it (SkelRoots, Skeletons, SkelAnimations, by path) and the stage metadata that decides units and
// time, read from the stage the loader composed (loader/src/usd, the loader's own reader).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "usd/layer.h"

namespace sinew::tool {

struct UsdOutline {
  std::vector<std::string> skel_roots;  // prim paths, in file order
  struct Skeleton {
    std::string path;
    size_t joints = 0;
  };
  std::vector<Skeleton> skeletons;
  std::vector<std::string> animations;  // SkelAnimation prim paths
  std::string up_axis;                  // "" when unauthored (USD's fallback: Y)
  std::optional<double> meters_per_unit;
  std::optional<double> time_codes_per_second;  // or framesPerSecond, where only that is authored

  // What USD reads where they are unauthored, or authored as something it does not take (an
  // upAxis other than Y or Z, a metersPerUnit that is not a positive finite number): Y up, 0.01 m
  // a unit (UsdGeom's fallbacks; loader/src/usd/layer.h).
  std::string UpAxisOrFallback() const;
  double MetersPerUnitOrFallback() const;
};

// The outline of a composed USD stage, as the loader composed it for the asset
// (loader/src/load_asset_stage.h): defined, active prims only.
UsdOutline OutlineOf(const loader::usd::Layer& stage);

}  // namespace sinew::tool
