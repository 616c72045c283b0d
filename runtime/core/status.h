// Status and Expected<T>: how errors cross edgemt's boundaries (no exceptions in the
// runtime). Messages say what failed and why, e.g.
//   "tensor decoder/layer_1/fc1/weight has shape [512, 2048], expected [2048, 512]".
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace edgemt {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad input from the caller (options, token ids, text)
  kNotFound,         // a file or tensor that should exist does not
  kIoError,          // reading or writing failed
  kInvalidModel,     // the model file is corrupt or inconsistent
  kUnsupported,      // valid, but not something edgemt implements
  kOutOfRange,       // a limit was exceeded
  kInternal,         // a bug in edgemt
  kCancelled,        // the caller cancelled the call (CancelFlag)
};

const char* status_code_name(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return Status(); }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return is_ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid model: <message>"
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalid_argument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status not_found(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status io_error(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
inline Status invalid_model(std::string m) { return {StatusCode::kInvalidModel, std::move(m)}; }
inline Status unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
inline Status out_of_range(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
inline Status internal_error(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
inline Status cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }

// A value or the Status that explains why there is none.
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Expected(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.is_ok()) status_ = internal_error("Expected built from an ok Status");
  }

  bool has_value() const { return value_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

#define EDGEMT_RETURN_IF_ERROR(expr)          \
  do {                                        \
    ::edgemt::Status _edgemt_s = (expr);      \
    if (!_edgemt_s.is_ok()) return _edgemt_s; \
  } while (0)

}  // namespace edgemt
