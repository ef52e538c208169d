#include "freshet/operators/plus.h"

#include "freshet/common/assert.h"
#include "freshet/operators/negate.h"
#include "freshet/zset/merge.h"

namespace freshet {
namespace {

class PlusOperator : public Operator {
 public:
  PlusOperator(std::vector<const StreamSlot*> inputs, StreamSlot* output)
      : inputs_(std::move(inputs)), output_(output) {}
  const char* name() const override { return "plus"; }

  Status evaluate() override {
    std::vector<BatchPtr> nonempty;
    for (const StreamSlot* input : inputs_) {
      if (!input->batch->empty()) nonempty.push_back(input->batch);
    }
    output_->batch = merge_all(std::move(nonempty));
    return Status::OK();
  }

 private:
  std::vector<const StreamSlot*> inputs_;
  StreamSlot* output_;
};

}  // namespace

Stream plus_all(const std::vector<Stream>& inputs) {
  FRESHET_ASSERT(!inputs.empty());
  Circuit& circuit = *inputs.front().circuit();
  std::vector<const StreamSlot*> slots;
  for (const Stream& input : inputs) {
    FRESHET_ASSERT(input.key_schema().size() == inputs.front().key_schema().size());
    slots.push_back(&circuit.slot(input));
  }
  Stream output = circuit.add_stream(inputs.front().key_schema_ptr(), inputs.front().value_schema_ptr());
  circuit.add_operator(std::make_unique<PlusOperator>(std::move(slots), &circuit.slot(output)), inputs, output);
  return output;
}

Stream plus(Stream a, Stream b) { return plus_all({a, b}); }

Stream minus(Stream a, Stream b) { return plus(a, negate(b)); }

}  // namespace freshet
