// The UsdSkel loader: one USD layer (.usda text, docs/usda.md; a .usdc crate file or a .usdz
// package, docs/usdc.md), its sublayers and its prims' references, payloads and variant sets
// composed in (docs/usda.md, "Sublayers, references and payloads" and "Variant sets"), into a
// validated sinew::Asset —
// each Skeleton's joints as nodes, each skinned or blend-shaped Mesh as a mesh of one Primitive
// with its Skin, each bound SkelAnimation as an Animation. The mapping, rule by rule, and what it
// refuses: docs/usda.md, "The UsdSkel loader".
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "sinew/asset/influence_layout.h"
#include "sinew/core/error.h"
#include "sinew/loader/file.h"
#include "sinew/loader/loaded_asset.h"

namespace sinew::loader {

// A variant chosen for one variant set of one prim, stronger than any selection the stage writes:
// what a UsdStage's session layer selecting it chooses. `prim` is the prim's path on the composed
// stage ("/World/Hero"); the set may be the prim's own or one a layer it references declares; ""
// chooses none. Of two for one prim and set, the later counts.
struct UsdVariantSelection {
  std::string prim, set, variant;
};

// The variants to choose, in order of preference, in every variant set named `set` for which no
// opinion selects a variant (or the strongest selects ""): each such set takes the first of them
// it holds, as USD applies its variant fallbacks (UsdStage::SetGlobalVariantFallbacks). Two
// entries for one set are tried in turn.
struct UsdVariantFallback {
  std::string set;
  std::vector<std::string> variants;
};

struct UsdOptions {
  // Layout of each skinned primitive's influences (sinew/asset/influence_layout.h): dense, K the
  // influences' elementSize rounded up to a multiple of 4 (the default), sparse, or kAuto:
  // whichever moves fewer bytes.
  InfluenceLayout influences = InfluenceLayout::kDense;
  uint32_t dense_k = 0;  // dense slots per vertex after conversion (0: enough for every influence)
  // How many times the memory of the layers read the stage composed from their references may
  // take, the root layer counted as 32 MiB at least (docs/usda.md, "Sublayers, references and
  // payloads"): a stage that
  // references one character N times holds about N times its prims and values. The bound keeps a
  // few hostile lines from expanding into billions of prims; raise it for a large stage that
  // instances a large asset more often.
  uint32_t reference_expansion = 8;
  // Which variants the stage's variant sets take beyond what it selects itself (docs/usda.md,
  // "Variant sets"): selections, each stronger than the stage's own (one that no set on the
  // composed stage takes, or that names a variant the set lacks, is a warning at its prim), and
  // fallbacks for the sets nothing selects in. LoadedAsset::variant_sets lists what each set
  // holds and took.
  std::vector<UsdVariantSelection> variant_selections;
  std::vector<UsdVariantFallback> variant_fallbacks;
  // Reads the file LoadUsd or LoadUsda is given and the layers its sublayers, references and
  // payloads name (sinew/loader/file.h); empty: the file system (ReadFile).
  FileReader read_file;
};

// Loads a .usda file; the layer files it references are found beside it. Errors carry a code, a
// message and where: "line L, column C" for the text (ReadUsdaFile's), else the path of the prim or
// property at fault ("/Root/Mesh.points"); the path itself for a file that cannot be read
// (kFileNotFound, kFileReadFailed). Warnings name prims.
Result<LoadedAsset> LoadUsda(const std::filesystem::path& path, const UsdOptions& options = {});

// Loads .usda text from memory (no padding needed). It can follow references within itself only:
// one to another file is kFileNotFound (load such a layer from its path, or give the path).
Result<LoadedAsset> LoadUsdaFromMemory(std::span<const uint8_t> bytes,
                                       const UsdOptions& options = {});
// The same for `bytes` read from the file at `path`: the files it references are found beside it.
Result<LoadedAsset> LoadUsdaFromMemory(std::span<const uint8_t> bytes,
                                       const std::filesystem::path& path,
                                       const UsdOptions& options = {});

// Loads a layer in any of USD's encodings, told apart by content: a .usdz package (a zip archive:
// its root layer, the layers it references found in the package), a .usdc crate file
// ("PXR-USDC"), else .usda text (the files it references found beside `path`). Crate and package
// errors name the section or spec and the byte offset ("Robot.usdc: SPECS at byte 812",
// docs/usdc.md).
Result<LoadedAsset> LoadUsd(const std::filesystem::path& path, const UsdOptions& options = {});
// From memory: a package's references are followed in the package; a layer's only within itself,
// unless `path` names the file `bytes` were read from.
Result<LoadedAsset> LoadUsdFromMemory(std::span<const uint8_t> bytes,
                                      const UsdOptions& options = {});
Result<LoadedAsset> LoadUsdFromMemory(std::span<const uint8_t> bytes,
                                      const std::filesystem::path& path,
                                      const UsdOptions& options = {});

}  // namespace sinew::loader
