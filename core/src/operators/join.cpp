#include "freshet/operators/join.h"

#include "freshet/zset/batch_builder.h"
#include "join_core.h"

namespace freshet {
namespace {

class JoinOperator : public Operator {
 public:
  JoinOperator(const StreamSlot* left, const StreamSlot* right, StreamSlot* output, JoinMapper mapper)
      : output_(output), join_(left, right, *output->key_schema, *output->value_schema, std::move(mapper)) {}
  const char* name() const override { return "join"; }

  Status evaluate() override {
    join_.step([this](RowRef key, RowRef value, Weight weight) { joined_.add(key, value, weight); });
    output_->batch = joined_.finish();
    return Status::OK();
  }

  size_t state_bytes() const override { return join_.state_bytes(); }
  size_t state_rows() const override { return join_.state_rows(); }
  std::string describe() const override { return join_.describe(); }
  void save_state(ByteWriter& out) const override { join_.save_state(out); }
  void restore_state(ByteReader& in) override { join_.restore_state(in); }

 private:
  StreamSlot* output_;
  JoinCore join_;
  BatchBuilder joined_;
};

}  // namespace

Stream join(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper) {
  Circuit& circuit = *left.circuit();
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  circuit.add_operator(std::make_unique<JoinOperator>(&circuit.slot(left), &circuit.slot(right),
                                                      &circuit.slot(output), std::move(mapper)), {left, right}, output);
  return output;
}

}  // namespace freshet
