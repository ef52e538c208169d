#include "freshet/operators/flat_map.h"

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {
namespace {

class FlatMapOperator : public Operator {
 public:
  FlatMapOperator(const StreamSlot* input, StreamSlot* output, RowFlatMapper mapper, std::string description)
      : input_(input),
        output_(output),
        mapper_(std::move(mapper)),
        description_(std::move(description)),
        key_builder_(*output->key_schema),
        value_builder_(*output->value_schema) {}
  const char* name() const override { return "flat map"; }
  std::string describe() const override { return description_; }

  Status evaluate() override {
    for (BatchCursor c(*input_->batch); c.valid(); c.next()) {
      RowReader key(*input_->key_schema, c.key()), value(*input_->value_schema, c.value());
      for (size_t index = 0;; ++index) {
        bool more = mapper_(key, value, index, key_builder_, value_builder_);
        RowRef out_key = key_builder_.finish();
        RowRef out_value = value_builder_.finish();  // finished either way: the next output starts clean
        if (!more) break;
        mapped_.add(out_key, out_value, c.weight());
      }
    }
    output_->batch = mapped_.finish();
    return Status::OK();
  }

 private:
  const StreamSlot* input_;
  StreamSlot* output_;
  RowFlatMapper mapper_;
  std::string description_;  // for explain
  RowBuilder key_builder_, value_builder_;
  BatchBuilder mapped_;
};

}  // namespace

Stream flat_map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowFlatMapper mapper,
                std::string description) {
  Circuit& circuit = *input.circuit();
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  circuit.add_operator(std::make_unique<FlatMapOperator>(&circuit.slot(input), &circuit.slot(output), std::move(mapper),
                                                         std::move(description)),
                       {input}, output);
  return output;
}

}  // namespace freshet
