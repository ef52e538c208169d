#include "freshet/operators/anti_join.h"

#include <optional>

#include "freshet/circuit/operator_description.h"
#include "freshet/operators/arrange.h"
#include "freshet/operators/map.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

// The total weight of `key`'s entries in a batch sorted by key.
Weight weight_of_key(const Batch& batch, RowRef key) {
  std::optional<size_t> k = batch.find(key);
  if (!k) return 0;
  Weight total = 0;
  for (size_t v = batch.values_begin(*k); v < batch.values_end(*k); ++v) total += batch.weight(v);
  return total;
}

Weight weight_of_key(const Trace& trace, RowRef key) {
  Weight total = 0;
  for (Trace::KeyCursor c = trace.seek(key); c.valid(); c.next()) total += c.weight();
  return total;
}

class AntiJoinOperator : public Operator {
 public:
  AntiJoinOperator(const Circuit& circuit, Arrangement left, Arrangement right_keys, StreamSlot* output)
      : left_(&circuit.slot(left.stream)),
        right_(&circuit.slot(right_keys.stream)),
        left_trace_(left.trace),
        right_trace_(right_keys.trace),
        output_(output) {}
  const char* name() const override { return "anti_join"; }

  Status evaluate() override {
    const Batch& left = *left_->batch;
    const Batch& right = *right_->batch;
    BatchBuilder changes;
    // The left delta: kept where the key is absent after the step, and
    // where it just became absent (then with the key's older entries below).
    for (size_t k = 0; k < left.key_count(); ++k) {
      RowRef key = left.key(k);
      if (weight_of_key(*right_trace_, key) + weight_of_key(right, key) > 0) continue;
      for (size_t v = left.values_begin(k); v < left.values_end(k); ++v) changes.add(key, left.value(v), left.weight(v));
    }
    // Keys whose presence flips: the left's older entries come back or go.
    for (size_t k = 0; k < right.key_count(); ++k) {
      RowRef key = right.key(k);
      Weight delta = 0;
      for (size_t v = right.values_begin(k); v < right.values_end(k); ++v) delta += right.weight(v);
      if (delta == 0) continue;
      const Weight before = weight_of_key(*right_trace_, key);
      const bool present_before = before > 0, present_after = before + delta > 0;
      if (present_before == present_after) continue;
      const Weight sign = present_before ? 1 : -1;
      for (Trace::KeyCursor c = left_trace_->seek(key); c.valid(); c.next()) changes.add(key, c.value(), sign * c.weight());
    }
    output_->batch = changes.finish();
    return Status::OK();
  }

  // No state: the arrangements hold the left's entries and the right's keys.
  std::string describe() const override { return "on " + describe_columns(*left_->key_schema); }

 private:
  const StreamSlot* left_;
  const StreamSlot* right_;
  const Trace* left_trace_;
  const Trace* right_trace_;
  StreamSlot* output_;
};

}  // namespace

Stream anti_join(Stream left, Stream right) {
  Circuit& circuit = *left.circuit();
  // The keys of `right`, each weighted by its number of entries: `right`
  // itself when its value is empty (a Z-set of rows, keyed by the row).
  Stream right_keys = right;
  if (right.value_schema().size() > 0) {
    right_keys = map(right, right.key_schema_ptr(), empty_schema(),
                     [](const RowReader& key, const RowReader&, RowBuilder& out_key, RowBuilder&) {
                       for (size_t c = 0; c < key.schema().size(); ++c) out_key.copy_field(c, key, c);
                     },
                     "keys " + describe_columns(right.key_schema()));
  }
  // The right's arrangement first: an operator's id counts its place in
  // its scope (operator_ids.h), and so the left's arrangement keeps the id
  // the left's had when anti-joins were a join with a DISTINCT of the keys
  // (map, distinct, arrange(left), ...): a checkpoint of then restores it
  // into the same rows, where the other order would give that id to the
  // right's keys.
  Arrangement right_arranged = arrange(right_keys);
  Arrangement left_arranged = arrange(left);
  Stream output = circuit.add_stream(left.key_schema_ptr(), left.value_schema_ptr());
  circuit.add_operator(std::make_unique<AntiJoinOperator>(circuit, left_arranged, right_arranged, &circuit.slot(output)),
                       {left_arranged.stream, right_arranged.stream}, output);
  return output;
}

}  // namespace freshet
