// Status and Result<T>: errors are values in Freshet. The wasm build runs
// without exception support, so every fallible call returns one of these and
// every ErrorCode has a JS twin (FreshetError.code, same spelling as
// error_code_name()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace freshet {

//! Stable error codes. Never renumber: checkpoints and the JS layer name them.
enum class ErrorCode : uint8_t {
  kOk = 0,
  kInvalidArgument,   //!< a caller passed something malformed
  kSqlError,          //!< a program failed to compile (names line and column)
  kParseError,        //!< input data (JSON, CSV) could not be parsed
  kTypeError,         //!< a value does not fit the column's type
  kUnknownTable,
  kUnknownView,
  kUnknownIndex,
  kUnknownOutput,
  kDuplicateOutput,
  kUnknownToken,
  kNotMaterialized,
  kNotResettable,
  kProgramMismatch,
  kCheckpointCorrupt,
  kStorageError,
  kClosed,
  kOverflow,          //!< arithmetic overflow while evaluating
  kInternal,          //!< a bug: an invariant did not hold
  kResumeUnavailable, //!< a named egress cannot resume there: start again with a snapshot
  kLimitExceeded,     //!< a bound on work, size or count was reached (program, query); nothing was applied
  kOutOfMemory,       //!< a step would pass the pipeline's memory budget (Pipeline::set_memory_budget)
  kCheckpointVersion, //!< a checkpoint this engine cannot place (its format, or operators changed since)
};

//! The stable, upper-case name of a code ("SQL_ERROR"), as JS sees it.
const char* error_code_name(ErrorCode code);

//! Status is the outcome of a fallible call: OK, or a code with a message a
//! person can act on.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  //! "SQL_ERROR: line 2, column 7: expected ..."
  std::string to_string() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

//! Result<T> holds a T or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace freshet

//! Returns early from the enclosing function when a Status-valued expression fails.
#define FRESHET_RETURN_IF_ERROR(expr)        \
  do {                                       \
    ::freshet::Status _status = (expr);      \
    if (!_status.ok()) return _status;       \
  } while (0)
