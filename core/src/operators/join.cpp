#include "freshet/operators/join.h"

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

class JoinOperator : public Operator {
 public:
  JoinOperator(const StreamSlot* left, const StreamSlot* right, StreamSlot* output, JoinMapper mapper)
      : left_(left),
        right_(right),
        output_(output),
        mapper_(std::move(mapper)),
        key_builder_(*output->key_schema),
        value_builder_(*output->value_schema) {}
  const char* name() const override { return "join"; }

  Status evaluate() override {
    join_delta(*left_->batch, right_trace_, /*delta_is_left=*/true);
    left_trace_.insert(left_->batch);
    join_delta(*right_->batch, left_trace_, /*delta_is_left=*/false);
    right_trace_.insert(right_->batch);
    output_->batch = joined_.finish();
    return Status::OK();
  }

  size_t state_bytes() const override { return left_trace_.memory_bytes() + right_trace_.memory_bytes(); }
  void save_state(ByteWriter& out) const override {
    write_trace(out, left_trace_);
    write_trace(out, right_trace_);
  }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(left_->key_schema), rows_of(left_->value_schema), &left_trace_);
    read_trace(in, rows_of(right_->key_schema), rows_of(right_->value_schema), &right_trace_);
  }

 private:
  // Joins every key of `delta` with the matching values in each batch of `other`.
  void join_delta(const Batch& delta, const Trace& other, bool delta_is_left) {
    if (delta.empty()) return;
    const Schema& key_schema = *left_->key_schema;
    const Schema& delta_schema = delta_is_left ? *left_->value_schema : *right_->value_schema;
    const Schema& other_schema = delta_is_left ? *right_->value_schema : *left_->value_schema;
    for (const BatchPtr& batch : other.batches()) {
      size_t position = 0;
      for (size_t k = 0; k < delta.key_count() && position < batch->key_count(); ++k) {
        RowRef key = delta.key(k);
        // The first key searches the whole batch, later ones gallop on.
        position = k == 0 ? batch->lower_bound(key) : batch->seek_forward(key, position);
        if (position == batch->key_count() || batch->key(position) != key) continue;
        RowReader key_reader(key_schema, key);
        for (size_t d = delta.values_begin(k); d < delta.values_end(k); ++d) {
          RowReader delta_value(delta_schema, delta.value(d));
          for (size_t o = batch->values_begin(position); o < batch->values_end(position); ++o) {
            RowReader other_value(other_schema, batch->value(o));
            const RowReader& left = delta_is_left ? delta_value : other_value;
            const RowReader& right = delta_is_left ? other_value : delta_value;
            mapper_(key_reader, left, &right, key_builder_, value_builder_);
            RowRef out_key = key_builder_.finish();
            joined_.add(out_key, value_builder_.finish(), delta.weight(d) * batch->weight(o));
          }
        }
      }
    }
  }

  const StreamSlot* left_;
  const StreamSlot* right_;
  StreamSlot* output_;
  JoinMapper mapper_;
  RowBuilder key_builder_, value_builder_;
  BatchBuilder joined_;
  // State: the integrals of both inputs.
  Trace left_trace_, right_trace_;
};

}  // namespace

Stream join(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper) {
  Circuit& circuit = *left.circuit();
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  circuit.add_operator(std::make_unique<JoinOperator>(&circuit.slot(left), &circuit.slot(right),
                                                      &circuit.slot(output), std::move(mapper)));
  return output;
}

}  // namespace freshet
