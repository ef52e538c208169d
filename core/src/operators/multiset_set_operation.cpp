#include "freshet/operators/multiset_set_operation.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "freshet/operators/arrange.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

class MultisetSetOperator : public Operator {
 public:
  MultisetSetOperator(const Circuit& circuit, Arrangement left, Arrangement right, StreamSlot* output,
                      MultisetOperation operation)
      : left_(&circuit.slot(left.stream)),
        right_(&circuit.slot(right.stream)),
        output_(output),
        operation_(operation),
        left_integral_(left.trace),
        right_integral_(right.trace) {}
  const char* name() const override { return "multiset_set_operation"; }
  std::string describe() const override {
    switch (operation_) {
      case MultisetOperation::kIntersectAll:
        return "INTERSECT ALL";
      case MultisetOperation::kExceptAll:
        return "EXCEPT ALL";
      case MultisetOperation::kIntersect:
        return "INTERSECT";
      case MultisetOperation::kExcept:
        return "EXCEPT";
    }
    return "";
  }

  Status evaluate() override {
    // The entries either delta touches, with their two weight changes.
    std::map<std::pair<std::string, std::string>, std::pair<Weight, Weight>> touched;
    for (BatchCursor c(*left_->batch); c.valid(); c.next()) {
      touched[{c.key().to_bytes(), c.value().to_bytes()}].first += c.weight();
    }
    for (BatchCursor c(*right_->batch); c.valid(); c.next()) {
      touched[{c.key().to_bytes(), c.value().to_bytes()}].second += c.weight();
    }
    BatchBuilder changes;
    for (const auto& [entry, delta] : touched) {
      RowRef key(entry.first), value(entry.second);
      Weight left_before = left_integral_->weight_of(key, value);
      Weight right_before = right_integral_->weight_of(key, value);
      Weight change =
          combine(left_before + delta.first, right_before + delta.second) - combine(left_before, right_before);
      if (change != 0) changes.add(key, value, change);
    }
    output_->batch = changes.finish();
    return Status::OK();
  }

  // No state: the arrangements hold both integrals (and save them). A
  // checkpoint of an engine whose set operation kept a trace of each input
  // holds them here: read and dropped (the arrangements hold the same rows).
  void restore_state(ByteReader& in) override {
    if (in.remaining() == 0) return;
    Trace left, right;
    read_trace(in, rows_of(left_->key_schema), rows_of(left_->value_schema), &left);
    read_trace(in, rows_of(right_->key_schema), rows_of(right_->value_schema), &right);
  }

 private:
  //! The output weight of an entry held `m1` times on the left and `m2` on the right.
  Weight combine(Weight m1, Weight m2) const {
    m1 = std::max<Weight>(m1, 0);
    m2 = std::max<Weight>(m2, 0);
    switch (operation_) {
      case MultisetOperation::kIntersectAll:
        return std::min(m1, m2);
      case MultisetOperation::kExceptAll:
        return std::max<Weight>(m1 - m2, 0);
      case MultisetOperation::kIntersect:
        return m1 > 0 && m2 > 0 ? 1 : 0;
      case MultisetOperation::kExcept:
        return m1 > 0 && m2 == 0 ? 1 : 0;
    }
    return 0;
  }

  const StreamSlot* left_;
  const StreamSlot* right_;
  StreamSlot* output_;
  const MultisetOperation operation_;
  // The arrangements' traces: the sum of each input's batches of the steps
  // before this one (one trace when both sides are the same stream).
  const Trace* left_integral_;
  const Trace* right_integral_;
};

}  // namespace

Stream multiset_set_operation(Stream left, Stream right, MultisetOperation operation) {
  Circuit& circuit = *left.circuit();
  Arrangement left_arranged = arrange(left), right_arranged = arrange(right);
  Stream output = circuit.add_stream(left.key_schema_ptr(), left.value_schema_ptr());
  circuit.add_operator(std::make_unique<MultisetSetOperator>(circuit, left_arranged, right_arranged,
                                                             &circuit.slot(output), operation),
                       {left_arranged.stream, right_arranged.stream}, output);
  return output;
}

}  // namespace freshet
