// The loaders' status for their hot paths (LoadStatus), and SINEW_TRY / SINEW_TRY_ASSIGN, which
// hand a failure up to the caller: one line instead of `if (Status s = ...; !s) return s;`.
#pragma once

#include <string>
#include <utility>

#include "sinew/core/error.h"

namespace sinew::loader {

// One pointer, null on success, so that returning and testing a success costs what a bool does (a
// Status holds two strings, constructed, tested and destroyed on every call). The ErrorInfo is
// built only on failure. Converts to and from Status, and to any Result<T> (a failure).
class [[nodiscard]] LoadStatus {
 public:
  LoadStatus() noexcept = default;
  LoadStatus(Error code, std::string message, std::string where)
      : error_(new ErrorInfo{code, std::move(message), std::move(where), 0}) {}
  // Implicit, as Status's own conversions are: `return {code, message, where}`, `return status;`.
  LoadStatus(ErrorInfo error) : error_(new ErrorInfo(std::move(error))) {}
  LoadStatus(const Status& status)
      : error_(status.ok() ? nullptr : new ErrorInfo(status.error())) {}
  LoadStatus(LoadStatus&& other) noexcept : error_(std::exchange(other.error_, nullptr)) {}
  LoadStatus& operator=(LoadStatus&& other) noexcept {
    std::swap(error_, other.error_);
    return *this;
  }
  // Inline, so that destroying a success is one test (the delete is out of line).
  ~LoadStatus() {
    if (error_) Free();
  }

  bool ok() const noexcept { return !error_; }
  explicit operator bool() const noexcept { return ok(); }
  // The error (only when !ok()).
  const ErrorInfo& error() const noexcept { return *error_; }
  operator Status() const { return error_ ? Status(*error_) : Status(); }
  // A failure as the Result of a function that returns one (SINEW_TRY in such a function). Only
  // for a failure: a Result made from a success fails with kInvalidArgument (sinew/core/error.h).
  template <typename T>
  operator Result<T>() const {
    return Status(*this);
  }

 private:
  void Free() noexcept;

  ErrorInfo* error_ = nullptr;  // Owned; null on success.
};

}  // namespace sinew::loader

// SINEW_TRY(expr) evaluates `expr` (a LoadStatus or a Status) once; when it failed, returns it from
// the enclosing function, which returns a LoadStatus, a Status or a Result<T>. A success costs the
// test of ok() alone: the status is a local, moved out only on the failure path (for a LoadStatus,
// one pointer). (Each expansion declares a name of its own, __COUNTER__, so that SINEW_TRY inside a
// lambda inside SINEW_TRY shadows nothing.)
#define SINEW_TRY(...) \
  SINEW_TRY_IMPL_(SINEW_TRY_CONCAT_(sinew_try_status_, __COUNTER__), __VA_ARGS__)
#define SINEW_TRY_IMPL_(status, ...)                              \
  do {                                                            \
    if (auto status = (__VA_ARGS__); !status.ok()) [[unlikely]] { \
      return status;                                              \
    }                                                             \
  } while (false)

// SINEW_TRY_ASSIGN(lhs, expr) evaluates `expr` (a Result<T>) once; when it failed, returns its
// status from the enclosing function (as SINEW_TRY does), else assigns the value, moved, to `lhs`:
// a variable, or a declaration (`SINEW_TRY_ASSIGN(auto file, ReadFile(path));`). A statement of its
// own: not the body of an unbraced if or loop.
#define SINEW_TRY_ASSIGN(lhs, ...) \
  SINEW_TRY_ASSIGN_IMPL_(SINEW_TRY_CONCAT_(sinew_try_result_, __COUNTER__), lhs, __VA_ARGS__)
#define SINEW_TRY_ASSIGN_IMPL_(result, lhs, ...) \
  auto result = (__VA_ARGS__);                   \
  if (!result.ok()) [[unlikely]]                 \
    return result.status();                      \
  lhs = std::move(result).value()
#define SINEW_TRY_CONCAT_(a, b) SINEW_TRY_CONCAT_INNER_(a, b)
#define SINEW_TRY_CONCAT_INNER_(a, b) a##b
