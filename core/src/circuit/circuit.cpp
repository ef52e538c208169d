#include "freshet/circuit/circuit.h"

#include <utility>

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
  for (const std::unique_ptr<Operator>& op : operators_) {
    Status status = op->evaluate();
    if (status.ok() && !reported_error_.ok()) status = std::exchange(reported_error_, Status::OK());
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

}  // namespace freshet
