// The `influences` load option every loader offers (sinew/asset/influence_layout.h; docs/G4MF.md):
// after loading, each skinned primitive is put in the layout asked for (dense, sparse, or the
// cheaper by bytes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sinew/asset/asset.h"
#include "sinew/asset/influence_layout.h"
#include "sinew/core/error.h"

namespace sinew::loader {

// Converts every primitive; an error names "/meshes/<m>/<parts>/<p>" (parts: "primitives" in
// glTF, "surfaces" in G4MF).
inline Status UseLayout(Asset& asset, InfluenceLayout layout, uint32_t dense_k,
                        std::string_view parts) {
  for (size_t m = 0; m < asset.meshes.size(); ++m) {
    for (size_t p = 0; p < asset.meshes[m].primitives.size(); ++p) {
      if (Status s = UseInfluenceLayout(asset.meshes[m].primitives[p], layout, dense_k); !s) {
        ErrorInfo err = s.error();
        err.where = "/meshes/" + std::to_string(m) + "/" + std::string(parts) + "/" +
                    std::to_string(p) + (err.where.empty() ? "" : " (" + err.where + ")");
        return err;
      }
    }
  }
  return {};
}

}  // namespace sinew::loader
