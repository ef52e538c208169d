#include "freshet/circuit/circuit.h"

#include <chrono>
#include <utility>

#include "freshet/circuit/step_memory.h"

namespace freshet {

const Schema& Stream::key_schema() const { return *circuit_->slot(*this).key_schema; }
const Schema& Stream::value_schema() const { return *circuit_->slot(*this).value_schema; }
const SchemaPtr& Stream::key_schema_ptr() const { return circuit_->slot(*this).key_schema; }
const SchemaPtr& Stream::value_schema_ptr() const { return circuit_->slot(*this).value_schema; }
const BatchPtr& Stream::current() const { return circuit_->slot(*this).batch; }

const SchemaPtr& empty_schema() {
  static const SchemaPtr kEmpty = std::make_shared<const Schema>();
  return kEmpty;
}

Stream Circuit::add_stream(SchemaPtr key_schema, SchemaPtr value_schema) {
  auto slot = std::make_unique<StreamSlot>();
  slot->key_schema = std::move(key_schema);
  slot->value_schema = std::move(value_schema);
  slots_.push_back(std::move(slot));
  return Stream(this, static_cast<uint32_t>(slots_.size() - 1));
}

// A failed operator is skipped and its stream carries an empty batch, so
// the operators after it see "no change" until they are skipped too (they
// are downstream: fail_operator failed them with it).
Status Circuit::step() {
  StepMemory memory(memory_budget_, held_bytes_);  // the budget's meter, active until the step ends
  Status source_failure;
  last_step_error_ = Status::OK();
  times_.resize(operators_.size());
  // One clock read per operator, each one's time from the read before it,
  // only once someone looks (set_timing): in wasm a read is a call out to
  // JS, a few percent of a one-row change over a dozen operators.
  using Clock = std::chrono::steady_clock;
  Clock::time_point previous = timing_ ? Clock::now() : Clock::time_point();
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (failures_.count(i)) {
      slots_[nodes_[i].output]->batch = Batch::empty_batch();
      times_[i].last_step_nanos = 0;
      continue;
    }
    StepMemory::Mark before = memory.mark();
    Status status = check_inputs_ ? evaluate_with_only_inputs(i) : evaluate_operator(i);
    if (timing_) {
      Clock::time_point now = Clock::now();
      uint64_t nanos = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now - previous).count());
      times_[i].last_step_nanos = nanos;
      times_[i].total_nanos += nanos;
      previous = now;
    }
    if (status.ok()) status = memory.check();
    if (status.ok()) continue;
    // Its output is dropped: what it built no longer counts against the step (the others go on).
    memory.rewind(before);
    // Anything that makes the operator fail (its error, a memory bound) comes here.
    Status error(status.code(), std::string(operators_[i]->name()) + ": " + status.message());
    if (nodes_[i].inputs.empty() && source_failure.ok()) source_failure = error;
    if (last_step_error_.ok()) last_step_error_ = error;
    fail_operator(i, std::move(error));
    slots_[nodes_[i].output]->batch = Batch::empty_batch();
  }
  if (!source_failure.ok()) return source_failure;
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (!failures_.count(i)) operators_[i]->end_step();
  }
  ++step_count_;
  return Status::OK();
}

Status Circuit::evaluate_operator(size_t index) {
  Status status = operators_[index]->evaluate();
  if (!reported_error_.ok()) {
    Status reported = std::exchange(reported_error_, Status::OK());
    if (status.ok()) status = std::move(reported);
  }
  return status;
}

size_t Circuit::state_bytes() const {
  size_t total = 0;
  for (const std::unique_ptr<Operator>& op : operators_) total += op->state_bytes();
  return total;
}

// Formats 4 to 6: each operator's state named and length-prefixed, by
// position (format 7, by id: circuit_ids.cpp). Read only into a circuit that
// builds the same operators; when the engine's operators changed since, the
// checkpoint cannot be placed and says so.
// Format 7 (circuit_ids.cpp), read whole into the same circuit.
bool circuit_section_has_ids(std::string_view bytes);
Status restore_every_operator(Circuit& circuit, std::string_view bytes);

Status Circuit::restore_state(std::string_view bytes) {
  if (circuit_section_has_ids(bytes)) return restore_every_operator(*this, bytes);
  ByteReader in(bytes, "circuit state");
  uint64_t steps = in.u64();
  size_t count = in.count(9);
  auto changed = [&](const std::string& what) {
    return Status(ErrorCode::kCheckpointVersion,
                  "the checkpoint is in an older format that stores operators by position, and this engine builds "
                  "other operators for the program (" + what + "): the engine's operators changed since that "
                  "checkpoint; start afresh (onIncompatibleCheckpoint: 'restart')");
  };
  if (in.ok() && count != operators_.size()) {
    return changed("it holds " + std::to_string(count) + " operators, the program has " + std::to_string(operators_.size()));
  }
  for (size_t i = 0; i < count && in.ok(); ++i) {
    std::string_view name = in.bytes();
    uint64_t length = in.u64();
    if (in.ok() && length > in.remaining()) in.fail("operator " + std::to_string(i) + "'s state runs past the end");
    std::string_view state = in.raw(static_cast<size_t>(length));
    if (!in.ok()) break;
    if (name != operators_[i]->name()) {
      return changed("operator " + std::to_string(i) + " is '" + std::string(name) + "', the program has '" +
                     operators_[i]->name() + "'");
    }
    ByteReader op_in(state, "state of operator " + std::to_string(i) + " (" + std::string(name) + ")");
    operators_[i]->restore_state(op_in);
    op_in.expect_end();
    if (!op_in.ok()) return op_in.status();
  }
  in.expect_end();
  if (!in.ok()) return in.status();
  step_count_ = steps;
  return Status::OK();
}

}  // namespace freshet
