// Failed operators: an operator whose evaluate failed, and everything
// downstream of it, are skipped from then on (Circuit::step), each with the
// error and step of the first failure that reached it. Nothing recovers a
// failed operator: its state stopped mid-step. Only a new circuit (a
// re-created pipeline) starts it again.
//
// Section 'failures' of a checkpoint: count, then per failed operator its
// id (its index in formats 6 and before), step, error code (by its stable
// name) and message.
#include <string>

#include "freshet/circuit/circuit.h"

namespace freshet {

namespace {

//! The code named `name` (error_code_name), or kOk when none is.
ErrorCode code_named(std::string_view name) {
  for (int code = 1; code < 256; ++code) {
    if (error_code_name(static_cast<ErrorCode>(code)) == name && name != "INTERNAL") return static_cast<ErrorCode>(code);
  }
  return name == "INTERNAL" ? ErrorCode::kInternal : ErrorCode::kOk;
}

}  // namespace

const OperatorFailure* Circuit::failure_of(size_t index) const {
  auto it = failures_.find(index);
  return it == failures_.end() ? nullptr : &it->second;
}

void Circuit::fail_operator(size_t index, Status error) {
  for (size_t failed : downstream_of(index)) {
    if (!failures_.count(failed)) failures_.emplace(failed, OperatorFailure{error, step_count_});
  }
}

void Circuit::save_failures(ByteWriter& out) const {
  out.varint(failures_.size());
  for (const auto& [index, failure] : failures_) {
    out.bytes(ids_[index]);
    out.u64(failure.step);
    out.bytes(error_code_name(failure.error.code()));
    out.bytes(failure.error.message());
  }
}

Status Circuit::restore_failures(std::string_view bytes, bool by_id, const std::vector<bool>* restored) {
  ByteReader in(bytes, "section 'failures'");
  size_t count = in.count(11);
  for (size_t i = 0; i < count && in.ok(); ++i) {
    uint64_t index = 0;
    if (by_id) {
      std::optional<size_t> found = operator_with_id(in.bytes());
      // An operator the program no longer has, or one rebuilt (bootstrapped): not failed.
      if (!found || (restored && !(*restored)[*found])) {
        in.u64();
        in.bytes();
        in.bytes();
        continue;
      }
      index = *found;
    } else {
      index = in.varint();
    }
    uint64_t step = in.u64();
    std::string_view code_name = in.bytes();
    std::string message(in.bytes());
    if (!in.ok()) break;
    ErrorCode code = code_named(code_name);
    if (index >= operators_.size() || code == ErrorCode::kOk || step >= step_count_) {
      in.fail("failed operator " + std::to_string(i) + " does not fit the circuit");
      break;
    }
    failures_[static_cast<size_t>(index)] = OperatorFailure{Status(code, std::move(message)), step};
  }
  in.expect_end();
  return in.status();
}

}  // namespace freshet
