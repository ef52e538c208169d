#include "freshet/operators/join.h"

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/trace.h"
#include "join_walk.h"

namespace freshet {
namespace {

class JoinOperator : public Operator {
 public:
  JoinOperator(const StreamSlot* left, const StreamSlot* right, StreamSlot* output, JoinMapper mapper)
      : left_(left),
        right_(right),
        output_(output),
        walk_(left->key_schema, left->value_schema, right->value_schema, *output->key_schema, *output->value_schema,
              std::move(mapper)) {}
  const char* name() const override { return "join"; }

  Status evaluate() override {
    auto add = [this](RowRef key, RowRef value, Weight weight) { joined_.add(key, value, weight); };
    walk_.walk(*left_->batch, right_trace_, /*delta_is_left=*/true, add);
    left_trace_.insert(left_->batch);
    walk_.walk(*right_->batch, left_trace_, /*delta_is_left=*/false, add);
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
  const StreamSlot* left_;
  const StreamSlot* right_;
  StreamSlot* output_;
  JoinWalk walk_;
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
