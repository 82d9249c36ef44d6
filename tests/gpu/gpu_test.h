// Fixture for tests that need a Vulkan device (lavapipe in CI).
// * No device: the test is skipped on a developer's machine, and FAILS when CI=true.
// * The validation layer is enabled when installed (and required when CI=true); any validation
//   warning or error fails the test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sinew/vk/context.h"

namespace sinew::testing {

bool RunningInCi();

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  std::unique_ptr<vk::Context> context_;
};

// A Context beside the fixture's, with `options`. When none can be created: null, after a test
// failure under CI=true (the caller then returns with GTEST_SKIP(), which keeps the failure).
std::unique_ptr<vk::Context> CreateContextOrReport(const vk::ContextOptions& options);

// Fails the current test with every message the validation layer reported on `context`.
void ExpectNoValidationMessages(const vk::Context& context);

}  // namespace sinew::testing
