#include "freshet/circuit/circuit.h"

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

Status Circuit::step() {
  StepMemory memory(memory_budget_, held_bytes_);  // the budget's meter, active until the step ends
  for (const std::unique_ptr<Operator>& op : operators_) {
    Status status = op->evaluate();
    if (status.ok() && !reported_error_.ok()) status = std::exchange(reported_error_, Status::OK());
    if (status.ok()) status = memory.check();
    if (!status.ok()) {
      return Status(status.code(), std::string(op->name()) + ": " + status.message());
    }
  }
  for (const std::unique_ptr<Operator>& op : operators_) op->end_step();
  ++step_count_;
  return Status::OK();
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
