#include "freshet/operators/join.h"

#include "freshet/zset/batch_builder.h"
#include "join_core.h"

namespace freshet {
namespace {

class JoinOperator : public Operator {
 public:
  JoinOperator(const Circuit& circuit, Arrangement left, Arrangement right, StreamSlot* output, JoinMapper mapper)
      : output_(output), join_(circuit, left, right, *output->key_schema, *output->value_schema, std::move(mapper)) {}
  const char* name() const override { return "join"; }

  Status evaluate() override {
    join_.step([this](RowRef key, RowRef value, Weight weight) { joined_.add(key, value, weight); });
    output_->batch = joined_.finish();
    return Status::OK();
  }

  // No state: the arrangements it reads hold both sides.
  std::string describe() const override { return join_.describe(); }

 private:
  StreamSlot* output_;
  JoinCore join_;
  BatchBuilder joined_;
};

}  // namespace

Stream join(Stream left, Stream right, SchemaPtr key_schema, SchemaPtr value_schema, JoinMapper mapper) {
  Circuit& circuit = *left.circuit();
  Arrangement left_arranged = arrange(left), right_arranged = arrange(right);
  Stream output = circuit.add_stream(std::move(key_schema), std::move(value_schema));
  circuit.add_operator(std::make_unique<JoinOperator>(circuit, left_arranged, right_arranged, &circuit.slot(output),
                                                      std::move(mapper)),
                       {left_arranged.stream, right_arranged.stream}, output);
  return output;
}

}  // namespace freshet
