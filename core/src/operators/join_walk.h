// One side's change of an inner equi-join against the other side's
// integral: every key of the delta is sought in every batch of the other
// trace (galloping on from the previous key), every pair of matching values
// is mapped, and each mapped entry goes to the caller. Shared by the join,
// which builds its output batch of the entries, and the join fused with an
// aggregate, which folds them into their groups.
#pragma once

#include "freshet/operators/row_functions.h"
#include "freshet/zset/trace.h"

namespace freshet {

class JoinWalk {
 public:
  //! Inputs keyed by rows of `key_schema` with values of `left_values` and
  //! `right_values`; the mapper writes entries of `out_key` and `out_value`.
  JoinWalk(SchemaPtr key_schema, SchemaPtr left_values, SchemaPtr right_values, const Schema& out_key,
           const Schema& out_value, JoinMapper mapper)
      : key_schema_(std::move(key_schema)),
        left_values_(std::move(left_values)),
        right_values_(std::move(right_values)),
        mapper_(std::move(mapper)),
        key_builder_(out_key),
        value_builder_(out_value) {}

  //! Calls emit(key, value, weight) for each mapped pair of `delta` and
  //! `other`; the bytes are valid until emit returns.
  template <typename Emit>
  void walk(const Batch& delta, const Trace& other, bool delta_is_left, Emit&& emit) {
    if (delta.empty()) return;
    const Schema& delta_schema = delta_is_left ? *left_values_ : *right_values_;
    const Schema& other_schema = delta_is_left ? *right_values_ : *left_values_;
    for (const BatchPtr& batch : other.batches()) {
      size_t position = 0;
      for (size_t k = 0; k < delta.key_count() && position < batch->key_count(); ++k) {
        RowRef key = delta.key(k);
        // The first key searches the whole batch, later ones gallop on.
        position = k == 0 ? batch->lower_bound(key) : batch->seek_forward(key, position);
        if (position == batch->key_count() || batch->key(position) != key) continue;
        RowReader key_reader(*key_schema_, key);
        for (size_t d = delta.values_begin(k); d < delta.values_end(k); ++d) {
          RowReader delta_value(delta_schema, delta.value(d));
          for (size_t o = batch->values_begin(position); o < batch->values_end(position); ++o) {
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

 private:
  const SchemaPtr key_schema_, left_values_, right_values_;
  JoinMapper mapper_;
  RowBuilder key_builder_, value_builder_;
};

}  // namespace freshet
