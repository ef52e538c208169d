// The inner equi-join's work apart from where its output goes: each step's
// change of the join of two arranged inputs (arrange.h), every key of one
// side's delta sought in every batch of the other side's trace (galloping on
// from the previous key), every pair of matching values mapped, and each
// mapped entry handed to the caller. Shared by the join, which builds its
// output batch of the entries, and the join fused with an aggregate, which
// folds them into their groups (or, with step_pairs(), takes the pairs as
// they are and maps nothing).
//
// The traces are the arrangements', which hold the steps before this one
// while it runs (z⁻¹(A), z⁻¹(B)), so the change is computed as
//
//   Δ(A ⋈ B) = ΔA ⋈ z⁻¹(B) + ΔA ⋈ ΔB + z⁻¹(A) ⋈ ΔB
//
// each pair met once, as before arrangements. The join keeps no state.
#pragma once

#include <type_traits>

#include "freshet/circuit/circuit.h"
#include "freshet/circuit/operator_description.h"
#include "freshet/circuit/work_meter.h"
#include "freshet/operators/arrange.h"
#include "freshet/operators/row_functions.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/trace.h"

namespace freshet {

class JoinCore {
 public:
  //! The join of the arranged streams `left` and `right` (keyed alike); the
  //! mapper writes entries of `out_key` and `out_value`.
  JoinCore(const Circuit& circuit, Arrangement left, Arrangement right, const Schema& out_key,
           const Schema& out_value, JoinMapper mapper)
      : left_(&circuit.slot(left.stream)),
        right_(&circuit.slot(right.stream)),
        left_trace_(left.trace),
        right_trace_(right.trace),
        mapper_(std::move(mapper)),
        key_builder_(out_key),
        value_builder_(out_value) {}
  //! A join whose pairs are taken by step_pairs(), unmapped.
  JoinCore(const Circuit& circuit, Arrangement left, Arrangement right)
      : JoinCore(circuit, left, right, *empty_schema(), *empty_schema(), nullptr) {}

  //! One step: calls emit(key, value, weight) for each mapped entry of this
  //! step's change (the bytes are valid until emit returns).
  template <typename Emit>
  void step(Emit&& emit) {
    step_pairs([this, &emit](const RowReader& key, const RowReader& left, const RowReader& right, Weight weight) {
      mapper_(key, left, &right, key_builder_, value_builder_);
      RowRef out_key = key_builder_.finish();
      emit(out_key, value_builder_.finish(), weight);
    });
  }

  //! One step: calls visit(key, left value, right value, weight) for each
  //! matched pair of this step's change, in the order step() maps them (the
  //! rows are the batches', valid for the whole step).
  template <typename Visit>
  void step_pairs(Visit&& visit) {
    NoRuns no_runs;
    step_runs(visit, no_runs);
  }

  //! The pairs of one key whose other side's batch holds one value for it:
  //! the delta's values [begin, end) (rows of `delta_schema`), each with
  //! `other`, in step_pairs()'s order. Pair weights: the delta value's
  //! weight times `other_weight`.
  struct Run {
    const RowReader& key;
    const Batch& delta;
    const Schema& delta_schema;
    size_t begin, end;
    const RowReader& other;
    Weight other_weight;
    bool delta_is_left;
  };
  //! As step_pairs(), but the pairs of such a key are handed over in one
  //! call, visit_run(run): a bulk load's pairs mostly come so (every order of
  //! a customer against the customer's one row), and a run skips the walk's
  //! work per pair.
  template <typename Visit, typename VisitRun>
  void step_runs(Visit&& visit, VisitRun&& visit_run) {
    const BatchPtr& left = left_->batch;
    const BatchPtr& right = right_->batch;
    // A side without change leaves the other side's trace unread: a trace
    // collects its batches when first read after an insert (trace.h).
    if (!left->empty()) walk(*left, right_trace_->batches(), /*delta_is_left=*/true, visit, visit_run);
    if (!left->empty() && !right->empty()) walk(*left, {right}, /*delta_is_left=*/true, visit, visit_run);
    if (!right->empty()) walk(*right, left_trace_->batches(), /*delta_is_left=*/false, visit, visit_run);
  }

  std::string describe() const {
    return "on " + describe_columns(*left_->key_schema);
  }

 private:
  struct NoRuns {};  // step_pairs(): every pair visited alone

  // Joins every key of `delta` with the matching values in each of `batches`
  // (the other side's).
  template <typename Visit, typename VisitRun>
  void walk(const Batch& delta, const std::vector<BatchPtr>& batches, bool delta_is_left, Visit& visit,
            VisitRun& visit_run) {
    if (delta.empty()) return;
    WorkMeter* meter = active_work_meter();
    const Schema& key_schema = *left_->key_schema;
    const Schema& delta_schema = delta_is_left ? *left_->value_schema : *right_->value_schema;
    const Schema& other_schema = delta_is_left ? *right_->value_schema : *left_->value_schema;
    for (const BatchPtr& batch : batches) {
      size_t position = 0;
      for (size_t k = 0; k < delta.key_count() && position < batch->key_count(); ++k) {
        RowRef key = delta.key(k);
        // The first key searches the whole batch, later ones gallop on.
        position = k == 0 ? batch->lower_bound(key) : batch->seek_forward(key, position);
        if (position == batch->key_count() || batch->key(position) != key) continue;
        RowReader key_reader(key_schema, key);
        if constexpr (!std::is_same_v<VisitRun, NoRuns>) {
          const size_t other = batch->values_begin(position);
          if (batch->values_end(position) == other + 1) {
            // Its pairs are charged before any is visited, up to the first
            // past the bound (where the walk below stops). What the visitor
            // charges for them (a fused aggregate's trace entries) comes
            // after them, not between: the same charges in another order,
            // so whether the step passes the bound does not change.
            size_t end = delta.values_end(k);
            bool stopped = false;
            for (size_t d = delta.values_begin(k); meter && d < end; ++d) {
              if (meter->charge(0)) continue;
              end = d;
              stopped = true;
            }
            const RowReader other_value(other_schema, batch->value(other));
            if (end > delta.values_begin(k)) {
              visit_run(Run{key_reader, delta, delta_schema, delta.values_begin(k), end, other_value,
                            batch->weight(other), delta_is_left});
            }
            if (stopped) return;
            continue;
          }
        }
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
            visit(key_reader, left, right, delta.weight(d) * batch->weight(o));
          }
        }
      }
    }
  }

  const StreamSlot* left_;
  const StreamSlot* right_;
  // The arrangements' traces (the steps before this one while step() runs).
  const Trace* left_trace_;
  const Trace* right_trace_;
  JoinMapper mapper_;  // step()'s; none for step_pairs() alone
  RowBuilder key_builder_, value_builder_;
};

}  // namespace freshet
