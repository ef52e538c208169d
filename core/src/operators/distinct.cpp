#include "freshet/operators/distinct.h"

#include "freshet/operators/held_output.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

class DistinctOperator : public Operator {
 public:
  DistinctOperator(const StreamSlot* input, StreamSlot* output) : input_(input), output_(output) {}
  const char* name() const override { return "distinct"; }

  Status evaluate() override {
    // The delta is sorted by (key, value) and yields at most one output per
    // entry, so the output comes out sorted too.
    SortedBatchBuilder changes;
    for (BatchCursor c(*input_->batch); c.valid(); c.next()) {
      Weight before = integral_.weight_of(c.key(), c.value());
      Weight after = before + c.weight();
      if (before <= 0 && after > 0) {
        changes.push(c.key(), c.value(), 1);
      } else if (after <= 0 && before > 0) {
        changes.push(c.key(), c.value(), -1);
      }
    }
    output_->batch = changes.finish();
    integral_.insert(input_->batch);
    return Status::OK();
  }

  size_t state_bytes() const override { return integral_.memory_bytes(); }
  // The output's integral: each pair of positive integrated weight, once.
  bool holds_output() const override { return true; }
  BatchPtr output_integral() const override {
    BatchPtr all = integral_.consolidated();
    SortedBatchBuilder present;
    for (BatchCursor c(*all); c.valid(); c.next()) {
      if (c.weight() > 0) present.push(c.key(), c.value(), 1);
    }
    return present.finish();
  }
  size_t state_rows() const override { return integral_.entry_count(); }
  void save_state(ByteWriter& out) const override { write_trace(out, integral_); }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(input_->key_schema), rows_of(input_->value_schema), &integral_);
  }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  Trace integral_;  // the sum of every input batch so far
};

}  // namespace

Stream distinct(Stream input) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  circuit.add_operator(std::make_unique<DistinctOperator>(&circuit.slot(input), &circuit.slot(output)), {input}, output);
  return output;
}

}  // namespace freshet
