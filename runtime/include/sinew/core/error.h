// Errors are values: every fallible sinew function returns a Status or a Result<T>.
// No exceptions cross the public API.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace sinew {

// Every failure sinew can report. Tests assert the exact value.
enum class Error : uint32_t {
  kNone = 0,
  // Argument and data validation.
  kInvalidArgument,        // A required argument is missing or meaningless.
  kSizeMismatch,           // Two spans or streams that must agree in length do not.
  kJointIndexOutOfRange,   // An influence names a joint past the end of the palette.
  kEmptyPalette,           // A skinning job was given no joint matrices.
  kInvalidInfluenceCount,  // Influences per vertex is 0 or not a multiple of 4.
  kInvalidHierarchy,       // A joint's parent is not listed before it.
  kNonFiniteValue,         // NaN or infinity where a finite number is required.
  kNegativeWeight,         // A skin weight below zero.
  // Files and formats (where = JSON pointer, file offset, path, or "line L, column C").
  kFileNotFound,
  kFileReadFailed,
  kJsonSyntax,            // Not valid JSON (simdjson's message says why).
  kUsdaSyntax,            // Not valid .usda text (the message says what was expected and found).
  kMissingProperty,       // A required property is absent.
  kWrongType,             // A property has the wrong JSON type, or a .usda value its declared one.
  kInvalidValue,          // A property's value is outside what the spec allows.
  kInvalidReference,      // An index names an object that does not exist.
  kOutOfBounds,           // A byte range reaches past its buffer or view.
  kInvalidGlb,            // A malformed GLB header or chunk.
  kInvalidG4b,            // A malformed G4MF binary (.g4b) header or chunk, or a bad Zstd stream.
  kInvalidUsdc,           // A malformed .usdc crate file, LZ4 stream or .usdz package.
  kInvalidUri,            // A malformed URI or data: URI.
  kInvalidBase64,         // Bad base64 payload.
  kUnsupportedExtension,  // An extension in extensionsRequired that sinew does not implement.
  kUnsupportedFeature,    // Valid input that sinew does not support (says what).
  // Vulkan.
  kVulkanLoaderMissing,     // libvulkan.so.1 could not be opened.
  kNoVulkanDevice,          // No physical device matches (or none exists).
  kNoComputeQueue,          // The device has no queue family with compute.
  kVulkanCallFailed,        // A Vulkan call returned an error; see ErrorInfo::vk_result.
  kMissingVulkanFunction,   // A required entry point could not be loaded.
  kNoSuitableMemoryType,    // No memory type satisfies a buffer's requirements.
  kNotAllowedInAdoptMode,   // sinew never submits to a host's queue.
  kValidationLayerMissing,  // Validation was required but VK_LAYER_KHRONOS_validation is absent.
  kFeatureNotEnabled,       // A Vulkan feature the call needs is not enabled on the device.
  kInvalidHandle,           // A SkinCache id that was removed or never given out.
  kCapacityExceeded,        // A SkinCache pool is full (SkinCacheOptions sizes it).
  kInUse                    // A SkinCache mesh or palette still used by an instance.
};

// The enum value's name, e.g. "kSizeMismatch". Never null.
const char* ErrorName(Error error) noexcept;

// A failure: what (code + message), where (a JSON pointer, file offset, object path, or "line L,
// column C" in a .usda text; may be empty), and for Vulkan failures the VkResult (as int32_t, 0
// otherwise).
struct ErrorInfo {
  Error code = Error::kNone;
  std::string message{};
  std::string where{};
  int32_t vk_result = 0;

  // "kSizeMismatch at /x: message" — for logs and the command-line tool.
  std::string ToString() const;
};

// The outcome of an operation that produces no value.
class [[nodiscard]] Status {
 public:
  Status() noexcept = default;  // Success.
  Status(ErrorInfo error) noexcept : error_(std::move(error)) {}
  Status(Error code, std::string message, std::string where = {}) noexcept
      : error_{code, std::move(message), std::move(where), 0} {}

  bool ok() const noexcept { return error_.code == Error::kNone; }
  explicit operator bool() const noexcept { return ok(); }
  Error code() const noexcept { return error_.code; }
  const ErrorInfo& error() const noexcept { return error_; }

 private:
  ErrorInfo error_;
};

// `status` with `where` in front of its location ("where/old where"), for an error found inside
// one part of something larger. A success stays a success.
Status Prefixed(const Status& status, const std::string& where);

namespace detail {
// What a Result made from a success without a value holds (kInvalidArgument, saying so).
ErrorInfo NoValueError();
// Reports reading the value of a failed Result (a programming error, as reading past a span) on
// stderr with the error, then aborts: sinew throws no exception.
[[noreturn]] void ValueOfFailedResult(const ErrorInfo& error) noexcept;
// The ErrorInfo of a success (code kNone).
const ErrorInfo& NoError() noexcept;
}  // namespace detail

// A value or the reason there is none. Never throws: error() of a success is an ErrorInfo with
// code kNone; value() of a failure aborts with the error on stderr (check ok() first).
template <typename T>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<T, ErrorInfo>, "Result<ErrorInfo> is ambiguous");

 public:
  Result(T value) noexcept(std::is_nothrow_move_constructible_v<T>) : data_(std::move(value)) {}
  // A failure. A success (code kNone) carries no value to hold: the Result then fails with
  // kInvalidArgument instead of holding nothing.
  Result(ErrorInfo error) noexcept
      : data_(error.code == Error::kNone ? detail::NoValueError() : std::move(error)) {}
  Result(Status status) noexcept : Result(status.error()) {}

  bool ok() const noexcept { return data_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  Error code() const noexcept { return ok() ? Error::kNone : std::get<1>(data_).code; }
  const ErrorInfo& error() const noexcept {
    return ok() ? detail::NoError() : *std::get_if<1>(&data_);
  }
  Status status() const { return ok() ? Status() : Status(error()); }

  T& value() & noexcept { return *Checked(); }
  const T& value() const& noexcept { return *Checked(); }
  T&& value() && noexcept { return std::move(*Checked()); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  // `*Create(...)` moves the value out of a temporary Result, as value() && does: a move-only
  // value is taken straight from the call, and binding a non-const `auto&` to it does not
  // compile. (`const auto&` or `auto&&` still dangle, as with std::optional.)
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() noexcept { return &value(); }
  const T* operator->() const noexcept { return &value(); }

 private:
  T* Checked() noexcept {
    if (!ok()) detail::ValueOfFailedResult(*std::get_if<1>(&data_));
    return std::get_if<0>(&data_);
  }
  const T* Checked() const noexcept {
    if (!ok()) detail::ValueOfFailedResult(*std::get_if<1>(&data_));
    return std::get_if<0>(&data_);
  }

  std::variant<T, ErrorInfo> data_;
};

}  // namespace sinew
