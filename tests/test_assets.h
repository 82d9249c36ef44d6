// Where the tests find the shared real assets: SINEW_TEST_ASSETS (set by ctest), else
// ../shared/assets beside the checkout. They are used in place, never copied into the repo.
#pragma once

#include <cstdlib>
#include <filesystem>

namespace sinew::testing {

inline std::filesystem::path TestAssets() {
  const char* env = std::getenv("SINEW_TEST_ASSETS");
  return env ? env : "../shared/assets";
}

}  // namespace sinew::testing
