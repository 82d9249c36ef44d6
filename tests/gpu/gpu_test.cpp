#include "gpu/gpu_test.h"

#include <cstdlib>
#include <cstring>

namespace sinew::testing {

bool RunningInCi() {
  const char* ci = std::getenv("CI");
  return ci && (std::strcmp(ci, "true") == 0 || std::strcmp(ci, "1") == 0);
}

void ExpectNoValidationMessages(const vk::Context& context) {
  for (const std::string& message : context.validation_messages()) {
    ADD_FAILURE() << "Vulkan validation: " << message;
  }
}

std::unique_ptr<vk::Context> CreateContextOrReport(const vk::ContextOptions& options) {
  auto created = vk::Context::Create(options);
  if (created) return std::move(created.value());
  if (RunningInCi()) ADD_FAILURE() << "CI=true: " << created.error().ToString();
  return nullptr;
}

void GpuTest::SetUp() {
  vk::ContextOptions options;
  // The library reads no environment variable; the tests map SINEW_DEVICE onto the option.
  if (const char* device = std::getenv("SINEW_DEVICE")) options.device = device;
  options.validation = RunningInCi() ? vk::Validation::kOn : vk::Validation::kAuto;
  options.synchronization_validation = true;  // A missing barrier fails a test like any misuse.
  auto created = vk::Context::Create(options);
  if (!created) {
    if (RunningInCi()) {
      FAIL() << "CI=true and no usable Vulkan device: " << created.error().ToString();
    }
    GTEST_SKIP() << "no Vulkan device: " << created.error().ToString();
  }
  context_ = std::move(created.value());
}

void GpuTest::TearDown() {
  if (context_) ExpectNoValidationMessages(*context_);
  context_.reset();
}

}  // namespace sinew::testing
