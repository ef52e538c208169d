#include "freshet/operators/distinct.h"

#include "freshet/operators/arrange.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

class DistinctOperator : public Operator {
 public:
  DistinctOperator(Arrangement input, const StreamSlot* input_slot, StreamSlot* output)
      : integral_(input.trace), input_(input_slot), output_(output) {}
  const char* name() const override { return "distinct"; }

  Status evaluate() override {
    // The delta is sorted by (key, value) and yields at most one output per
    // entry, so the output comes out sorted too. The arrangement's trace
    // holds the steps before this one: `before` is old(p).
    SortedBatchBuilder changes;
    for (BatchCursor c(*input_->batch); c.valid(); c.next()) {
      Weight before = integral_->weight_of(c.key(), c.value());
      Weight after = before + c.weight();
      if (before <= 0 && after > 0) {
        changes.push(c.key(), c.value(), 1);
      } else if (after <= 0 && before > 0) {
        changes.push(c.key(), c.value(), -1);
      }
    }
    output_->batch = changes.finish();
    return Status::OK();
  }

  // No state: the arrangement holds the input's integral (and saves it).
  // The output's integral is each pair of positive integrated weight, once,
  // read there: between steps the trace holds every step's delta.
  bool holds_output() const override { return true; }
  bool integral_reads_input() const override { return true; }
  // Nothing to save. A checkpoint of an engine whose DISTINCT kept its own
  // trace of the input holds it here: read and dropped (the arrangement
  // holds the same rows, restored or rebuilt: circuit_bootstrap.cpp).
  void restore_state(ByteReader& in) override {
    if (in.remaining() == 0) return;
    Trace older;
    read_trace(in, rows_of(input_->key_schema), rows_of(input_->value_schema), &older);
  }
  BatchPtr output_integral() const override {
    BatchPtr all = integral_->consolidated();
    SortedBatchBuilder present;
    for (BatchCursor c(*all); c.valid(); c.next()) {
      if (c.weight() > 0) present.push(c.key(), c.value(), 1);
    }
    return present.finish();
  }

 private:
  const Trace* integral_;  // the arrangement's: the sum of the input's batches of the steps before
  const StreamSlot* input_;
  StreamSlot* output_;
};

}  // namespace

Stream distinct(Stream input) {
  Circuit& circuit = *input.circuit();
  Arrangement arranged = arrange(input);
  Stream output = circuit.add_stream(input.key_schema_ptr(), input.value_schema_ptr());
  circuit.add_operator(
      std::make_unique<DistinctOperator>(arranged, &circuit.slot(arranged.stream), &circuit.slot(output)),
      {arranged.stream}, output);
  return output;
}

}  // namespace freshet
