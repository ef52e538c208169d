#include "freshet/operators/multiset_set_operation.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"

namespace freshet {
namespace {

class MultisetSetOperator : public Operator {
 public:
  MultisetSetOperator(const StreamSlot* left, const StreamSlot* right, StreamSlot* output, MultisetOperation operation)
      : left_(left), right_(right), output_(output), operation_(operation) {}
  const char* name() const override { return "multiset_set_operation"; }

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
      Weight left_before = left_integral_.weight_of(key, value);
      Weight right_before = right_integral_.weight_of(key, value);
      Weight change =
          combine(left_before + delta.first, right_before + delta.second) - combine(left_before, right_before);
      if (change != 0) changes.add(key, value, change);
    }
    output_->batch = changes.finish();
    left_integral_.insert(left_->batch);
    right_integral_.insert(right_->batch);
    return Status::OK();
  }

  size_t state_bytes() const override { return left_integral_.memory_bytes() + right_integral_.memory_bytes(); }
  size_t state_rows() const override { return left_integral_.entry_count() + right_integral_.entry_count(); }
  void save_state(ByteWriter& out) const override {
    write_trace(out, left_integral_);
    write_trace(out, right_integral_);
  }
  void restore_state(ByteReader& in) override {
    read_trace(in, rows_of(left_->key_schema), rows_of(left_->value_schema), &left_integral_);
    read_trace(in, rows_of(right_->key_schema), rows_of(right_->value_schema), &right_integral_);
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
    }
    return 0;
  }

  const StreamSlot* left_;
  const StreamSlot* right_;
  StreamSlot* output_;
  const MultisetOperation operation_;
  Trace left_integral_, right_integral_;  // the sum of every batch of each input so far
};

}  // namespace

Stream multiset_set_operation(Stream left, Stream right, MultisetOperation operation) {
  Circuit& circuit = *left.circuit();
  Stream output = circuit.add_stream(left.key_schema_ptr(), left.value_schema_ptr());
  circuit.add_operator(std::make_unique<MultisetSetOperator>(&circuit.slot(left), &circuit.slot(right),
                                                             &circuit.slot(output), operation), {left, right}, output);
  return output;
}

}  // namespace freshet
