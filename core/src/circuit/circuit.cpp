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
  // One clock read per operator: each one's time is from the read before it.
  auto previous = std::chrono::steady_clock::now();
  for (size_t i = 0; i < operators_.size(); ++i) {
    if (failures_.count(i)) {
      slots_[nodes_[i].output]->batch = Batch::empty_batch();
      times_[i].last_step_nanos = 0;
      continue;
    }
    StepMemory::Mark before = memory.mark();
    Status status = check_inputs_ ? evaluate_with_only_inputs(i) : evaluate_operator(i);
    auto now = std::chrono::steady_clock::now();
    uint64_t nanos = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now - previous).count());
    times_[i].last_step_nanos = nanos;
    times_[i].total_nanos += nanos;
    previous = now;
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

// Each operator's state is named and length-prefixed, so a reader can tell
// "this is not the circuit that wrote it" from "this state is damaged". States
// are written in place (the length patched in after), never copied.
void Circuit::save_state(ByteWriter& out) const {
  out.u64(step_count_);
  out.varint(operators_.size());
  for (const std::unique_ptr<Operator>& op : operators_) {
    out.bytes(op->name());
    size_t length_at = out.size();
    out.u64(0);
    op->save_state(out);
    out.patch_u64(length_at, out.size() - length_at - 8);
  }
}

Status Circuit::restore_state(std::string_view bytes) {
  ByteReader in(bytes, "circuit state");
  uint64_t steps = in.u64();
  size_t count = in.count(9);
  if (in.ok() && count != operators_.size()) {
    in.fail("it holds " + std::to_string(count) + " operators, the program has " + std::to_string(operators_.size()));
  }
  for (size_t i = 0; i < count && in.ok(); ++i) {
    std::string_view name = in.bytes();
    uint64_t length = in.u64();
    if (in.ok() && length > in.remaining()) in.fail("operator " + std::to_string(i) + "'s state runs past the end");
    std::string_view state = in.raw(static_cast<size_t>(length));
    if (!in.ok()) break;
    if (name != operators_[i]->name()) {
      in.fail("operator " + std::to_string(i) + " is '" + std::string(name) + "', the program has '" +
              operators_[i]->name() + "'");
      break;
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
