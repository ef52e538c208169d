// The inner equi-join's work apart from where its output goes: both inputs'
// integrals as traces, and each step's change (join.h's ΔA ⋈ z⁻¹(B) + A ⋈
// ΔB): every key of one side's delta is sought in every batch of the other
// side's trace (galloping on from the previous key), every pair of matching
// values is mapped, and each mapped entry goes to the caller. Shared by the
// join, which builds its output batch of the entries, and the join fused
// with an aggregate, which folds them into their groups.
#pragma once

#include "freshet/circuit/circuit.h"
#include "freshet/circuit/operator_description.h"
#include "freshet/circuit/work_meter.h"
#include "freshet/operators/row_functions.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/trace.h"

namespace freshet {

class JoinCore {
 public:
  //! The join of the streams in `left` and `right` (keyed alike); the mapper
  //! writes entries of `out_key` and `out_value`.
  JoinCore(const StreamSlot* left, const StreamSlot* right, const Schema& out_key, const Schema& out_value,
           JoinMapper mapper)
      : left_(left), right_(right), mapper_(std::move(mapper)), key_builder_(out_key), value_builder_(out_value) {}

  //! One step: calls emit(key, value, weight) for each mapped entry of this
  //! step's change (the bytes are valid until emit returns); the traces
  //! then hold this step's inputs too.
  template <typename Emit>
  void step(Emit&& emit) {
    walk(*left_->batch, right_trace_, /*delta_is_left=*/true, emit);
    left_trace_.insert(left_->batch);
    walk(*right_->batch, left_trace_, /*delta_is_left=*/false, emit);
    right_trace_.insert(right_->batch);
  }

  size_t state_bytes() const { return left_trace_.memory_bytes() + right_trace_.memory_bytes(); }
  size_t state_rows() const { return left_trace_.entry_count() + right_trace_.entry_count(); }
  std::string describe() const { return "on " + describe_columns(*left_->key_schema); }
  void save_state(ByteWriter& out) const {
    write_trace(out, left_trace_);
    write_trace(out, right_trace_);
  }
  void restore_state(ByteReader& in) {
    read_trace(in, rows_of(left_->key_schema), rows_of(left_->value_schema), &left_trace_);
    read_trace(in, rows_of(right_->key_schema), rows_of(right_->value_schema), &right_trace_);
  }

 private:
  // Joins every key of `delta` with the matching values in each batch of `other`.
  template <typename Emit>
  void walk(const Batch& delta, const Trace& other, bool delta_is_left, Emit& emit) {
    if (delta.empty()) return;
    WorkMeter* meter = active_work_meter();
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
            // Under an ad-hoc query's meter each matched pair is work (a join
            // fused with an aggregate builds no entries for them): past its
            // bound the walk stops, and the query throws its result away.
            if (meter && !meter->charge(0)) return;
            RowReader other_value(other_schema, batch->value(o));
            const RowReader& left = delta_is_left ? delta_value : other_value;
            const RowReader& right = delta_is_left ? other_value : delta_value;
            mapper_(key_reader, left, &right, key_builder_, value_builder_);
            RowRef out_key = key_builder_.finish();
            emit(out_key, value_builder_.finish(), delta.weight(d) * batch->weight(o));
          }
        }
      }
    }
  }

  const StreamSlot* left_;
  const StreamSlot* right_;
  JoinMapper mapper_;
  RowBuilder key_builder_, value_builder_;
  // State: the integrals of both inputs.
  Trace left_trace_, right_trace_;
};

}  // namespace freshet
