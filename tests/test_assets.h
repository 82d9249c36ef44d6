// Where the tests find the shared real files, used in place and never copied into the repo:
// * the assets: SINEW_TEST_ASSETS (set by ctest), else ../shared/assets beside the checkout;
// * the conformance data (Pixar's UsdSkel scenes and their baked baselines, under usdskel/): the
//   environment's SINEW_TEST_CONFORMANCE when set, else the directory the build was configured
//   with (CMake cache SINEW_TEST_CONFORMANCE, default ../shared/conformance beside the checkout,
//   compiled in as SINEW_TEST_CONFORMANCE_DIR), else ../shared/conformance.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace sinew::testing {

inline std::filesystem::path TestAssets() {
  const char* env = std::getenv("SINEW_TEST_ASSETS");
  return env ? env : "../shared/assets";
}

inline std::filesystem::path TestConformance() {
  if (const char* env = std::getenv("SINEW_TEST_CONFORMANCE")) return env;
#ifdef SINEW_TEST_CONFORMANCE_DIR
  return SINEW_TEST_CONFORMANCE_DIR;
#else
  return "../shared/conformance";
#endif
}

}  // namespace sinew::testing
