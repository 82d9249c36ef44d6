#include "sinew/core/error.h"

#include <cstdio>
#include <cstdlib>

namespace sinew {

const char* ErrorName(Error error) noexcept {
  switch (error) {
    case Error::kNone:
      return "kNone";
    case Error::kInvalidArgument:
      return "kInvalidArgument";
    case Error::kSizeMismatch:
      return "kSizeMismatch";
    case Error::kJointIndexOutOfRange:
      return "kJointIndexOutOfRange";
    case Error::kEmptyPalette:
      return "kEmptyPalette";
    case Error::kInvalidInfluenceCount:
      return "kInvalidInfluenceCount";
    case Error::kInvalidHierarchy:
      return "kInvalidHierarchy";
    case Error::kNonFiniteValue:
      return "kNonFiniteValue";
    case Error::kNegativeWeight:
      return "kNegativeWeight";
    case Error::kFileNotFound:
      return "kFileNotFound";
    case Error::kFileReadFailed:
      return "kFileReadFailed";
    case Error::kJsonSyntax:
      return "kJsonSyntax";
    case Error::kUsdaSyntax:
      return "kUsdaSyntax";
    case Error::kMissingProperty:
      return "kMissingProperty";
    case Error::kWrongType:
      return "kWrongType";
    case Error::kInvalidValue:
      return "kInvalidValue";
    case Error::kInvalidReference:
      return "kInvalidReference";
    case Error::kOutOfBounds:
      return "kOutOfBounds";
    case Error::kInvalidGlb:
      return "kInvalidGlb";
    case Error::kInvalidG4b:
      return "kInvalidG4b";
    case Error::kInvalidUsdc:
      return "kInvalidUsdc";
    case Error::kInvalidUri:
      return "kInvalidUri";
    case Error::kInvalidBase64:
      return "kInvalidBase64";
    case Error::kUnsupportedExtension:
      return "kUnsupportedExtension";
    case Error::kUnsupportedFeature:
      return "kUnsupportedFeature";
    case Error::kVulkanLoaderMissing:
      return "kVulkanLoaderMissing";
    case Error::kNoVulkanDevice:
      return "kNoVulkanDevice";
    case Error::kNoComputeQueue:
      return "kNoComputeQueue";
    case Error::kVulkanCallFailed:
      return "kVulkanCallFailed";
    case Error::kMissingVulkanFunction:
      return "kMissingVulkanFunction";
    case Error::kNoSuitableMemoryType:
      return "kNoSuitableMemoryType";
    case Error::kNotAllowedInAdoptMode:
      return "kNotAllowedInAdoptMode";
    case Error::kValidationLayerMissing:
      return "kValidationLayerMissing";
    case Error::kFeatureNotEnabled:
      return "kFeatureNotEnabled";
    case Error::kInvalidHandle:
      return "kInvalidHandle";
    case Error::kCapacityExceeded:
      return "kCapacityExceeded";
    case Error::kInUse:
      return "kInUse";
  }
  return "kUnknown";
}

namespace detail {

ErrorInfo NoValueError() {
  return {Error::kInvalidArgument, "a Result was made from a success, which has no value", {}, 0};
}

void ValueOfFailedResult(const ErrorInfo& error) noexcept {
  std::fprintf(stderr, "sinew: value() of a failed Result: %s\n", error.ToString().c_str());
  std::abort();
}

const ErrorInfo& NoError() noexcept {
  static const ErrorInfo none;
  return none;
}

}  // namespace detail

Status Prefixed(const Status& status, const std::string& where) {
  if (status.ok()) return status;
  ErrorInfo e = status.error();
  e.where = e.where.empty() ? where : where + "/" + e.where;
  return Status(std::move(e));
}

std::string ErrorInfo::ToString() const {
  std::string out = ErrorName(code);
  if (!where.empty()) out += " at " + where;
  if (!message.empty()) out += ": " + message;
  if (vk_result != 0) out += " (VkResult " + std::to_string(vk_result) + ")";
  return out;
}

}  // namespace sinew
