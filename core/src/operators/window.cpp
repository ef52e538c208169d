#include "freshet/operators/window.h"

#include <string>

#include "freshet/circuit/operator_description.h"
#include "freshet/common/assert.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/batch_codec.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"
#include "partition_cache.h"
#include "window_frame_text.h"
#include "window_partition.h"
#include "window_walk.h"

namespace freshet {
namespace {

using window_detail::PartitionRows;
using window_detail::WindowPlan;

class WindowOperator : public Operator {
 public:
  WindowOperator(const StreamSlot* input, StreamSlot* output, WindowPlan plan)
      : input_(input), output_(output), plan_(std::move(plan)) {}
  const char* name() const override { return "window"; }
  // "ROW_NUMBER, SUM partition by (acct) order by (ts DESC) limit 3"; a
  // frame other than SQL's default after its function
  // ("SUM (ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) partition by ...").
  std::string describe() const override {
    // By WindowFunctionKind; an aggregate is named by its AggregateKind instead.
    static constexpr const char* kFunctionNames[] = {"ROW_NUMBER", "RANK",      "DENSE_RANK",  "LAG",
                                                     "LEAD",       "aggregate", "FIRST_VALUE", "LAST_VALUE"};
    const WindowOptions& options = plan_.options;
    const SqlType* order_type =
        options.order_by.size() == 1 ? &plan_.row_schema->type(options.order_by[0].column) : nullptr;
    std::string text;
    for (const WindowFunction& function : options.functions) {
      if (!text.empty()) text += ", ";
      text += function.kind == WindowFunctionKind::kAggregate ? aggregate_kind_name(function.aggregate)
                                                               : kFunctionNames[static_cast<size_t>(function.kind)];
      text += window_detail::frame_text(function, !options.order_by.empty(), order_type);
    }
    text += " partition by " + describe_columns(*input_->key_schema);
    for (size_t i = 0; i < options.order_by.size(); ++i) {
      text += (i ? ", " : " order by (") + plan_.row_schema->column(options.order_by[i].column).name;
      if (options.order_by[i].descending) text += " DESC";
      if (i + 1 == options.order_by.size()) text += ")";
    }
    if (options.rank_limit) text += " limit " + std::to_string(*options.rank_limit);
    return text;
  }

  Status evaluate() override {
    ++stats_.steps;
    output_->batch = Batch::empty_batch();
    if (input_->batch->empty()) return Status::OK();
    BatchPtr delta = to_sorted_rows(*input_->batch);
    // `changes` copies the rows it is given, so the old results survive the
    // insert (which may merge away the batches they were read from).
    BatchBuilder changes;
    unchanged_.assign(delta->key_count(), false);
    Status status = add_results(*delta, -1, changes);
    sorted_rows_.insert(delta);
    if (status.ok()) status = add_results(*delta, +1, changes);
    if (!status.ok()) {
      // An aggregate overflowed: take the delta back out, so the state
      // still matches the output sent so far, and fail the step.
      sorted_rows_.insert(negated(*delta));
      ranked_.clear();
      return status;
    }
    stats_.partitions_touched += delta->key_count();
    output_->batch = changes.finish();
    return Status::OK();
  }

  size_t state_bytes() const override { return sorted_rows_.memory_bytes() + ranked_.bytes(); }
  size_t state_rows() const override { return sorted_rows_.entry_count(); }
  void save_state(ByteWriter& out) const override { write_trace(out, sorted_rows_); }
  void restore_state(ByteReader& in) override {
    ranked_.clear();
    read_trace(in, rows_of(input_->key_schema), sorted_rows_of(input_->value_schema), &sorted_rows_);
  }
  const WindowStats& stats() const { return stats_; }

 private:
  //! The input delta re-encoded as (partition, sorted row) entries.
  BatchPtr to_sorted_rows(const Batch& in) {
    BatchBuilder builder;
    for (BatchCursor c(in); c.valid(); c.next()) {
      encode_sorted_row(RowReader(*input_->value_schema, c.value()), plan_.options.order_by, &scratch_);
      builder.add(c.key(), RowRef(scratch_), c.weight());
    }
    return builder.finish();
  }

  static BatchPtr negated(const Batch& batch) {
    BatchBuilder builder;
    for (BatchCursor c(batch); c.valid(); c.next()) builder.add(c.key(), c.value(), -c.weight());
    return builder.finish();
  }

  //! For each partition of `delta`: its results at the positions the change
  //! can affect, times `sign`.
  Status add_results(const Batch& delta, Weight sign, BatchBuilder& out) {
    BatchCursor c(delta);
    std::vector<RowRef> changed;
    for (size_t index = 0; c.valid(); ++index) {
      RowRef partition = c.key();
      RowRef first = c.value(), last = c.value();
      changed.clear();
      for (; c.valid() && c.key() == partition; c.next()) {
        last = c.value();
        changed.push_back(last);
      }
      if (plan_.local) {
        FRESHET_RETURN_IF_ERROR(add_local_results(partition, changed, sign, out));
        continue;
      }
      if (plan_.value_local && add_value_local_results(partition, changed, sign, out, status_)) {
        FRESHET_RETURN_IF_ERROR(status_);
        continue;
      }
      const bool limited = plan_.options.rank_limit.has_value();
      if (limited && sign > 0 && unchanged_[index]) continue;
      if (limited && sign < 0 && ranked_passed_by(partition, first)) {
        unchanged_[index] = true;
        ++stats_.partitions_unchanged;
        continue;
      }
      PartitionRows rows(plan_);
      for (Trace::KeyCursor t = sorted_rows_.seek(partition); t.valid(); t.next()) {
        ++stats_.entries_visited;
        if (t.weight() > 0 && !rows.add(t.value(), t.weight())) break;
      }
      if (limited) {
        // Before the insert only a partition not kept gets here (or one the
        // change reaches); after it, every partition read is kept anew.
        RankedRows read{rows.entries() ? rows.entry(rows.entries() - 1).to_bytes() : std::string(),
                        rows.rank_limit_reached()};
        const bool passed = sign < 0 && read.passed_by(first, row_number_limit_);
        const size_t bytes = read.last.capacity();
        ranked_.put(partition, std::move(read), bytes);
        if (passed) {
          unchanged_[index] = true;
          ++stats_.partitions_unchanged;
          continue;
        }
      }
      auto [lo, hi] = rows.affected(first, last);
      FRESHET_RETURN_IF_ERROR(rows.emit(lo, hi, sign, out, stats_.rows_computed));
    }
    return Status::OK();
  }

  //! add_results for a local plan: around each cluster of changes, the rows
  //! within reach (LAG/LEAD offsets, ROWS offsets) on either side, read by
  //! walking the trace from the change, and the results of those near it.
  //! Clusters are changes closer than `reach` positions: their affected rows
  //! could overlap. The walks and clusters only depend on unchanged rows, so
  //! they are the same before and after the insert.
  Status add_local_results(RowRef partition, const std::vector<RowRef>& changed, Weight sign, BatchBuilder& out) {
    const uint64_t reach = plan_.rows_ahead + plan_.rows_behind;
    window_detail::PartitionWalk walk(sorted_rows_, partition);
    for (size_t i = 0; i < changed.size();) {
      std::vector<std::pair<RowRef, Weight>> before;
      uint64_t collected = 0;
      stats_.entries_visited += walk.backward(changed[i], [&](RowRef entry, Weight weight) {
        before.push_back({entry, weight});
        collected += static_cast<uint64_t>(weight);
        return collected < reach;
      });
      PartitionRows rows(plan_);
      for (size_t b = before.size(); b-- > 0;) rows.add(before[b].first, before[b].second);
      // A change joins the cluster while fewer than `reach` unchanged positions
      // separate it from the cluster's last change; the walk stops `reach`
      // positions past that.
      size_t last = i;
      uint64_t after_last = 0;  // unchanged positions read past changed[last]
      bool stopped = false;
      stats_.entries_visited += walk.forward(changed[i], [&](RowRef entry, Weight weight) {
        while (last + 1 < changed.size() && compare_rows(changed[last + 1], entry) <= 0) {
          if (after_last >= reach) return !(stopped = true);
          ++last;
          after_last = 0;
        }
        bool past = compare_rows(entry, changed[last]) > 0;
        if (past && after_last >= reach) return !(stopped = true);
        rows.add(entry, weight);
        if (past) after_last += static_cast<uint64_t>(weight);
        return true;
      });
      // Changes after the partition's last row: no rows between them.
      while (!stopped && last + 1 < changed.size() && after_last < reach) {
        ++last;
        after_last = 0;
      }
      auto [lo, hi] = rows.affected(changed[i], changed[last]);
      FRESHET_RETURN_IF_ERROR(rows.emit(lo, hi, sign, out, stats_.rows_computed));
      i = last + 1;
    }
    return Status::OK();
  }

  //! add_results for a value-local plan (RANGE frames bounded on both sides):
  //! changes closer than the reach in ORDER BY value form a cluster; its
  //! rows are those within the reach of its first and last values, read by
  //! walking the trace from its first change. Clusters depend only on the
  //! changes' values, so they are the same before and after the insert.
  //! False (nothing added) when a change has a NULL value: its frame is its
  //! NULL peers, which the partition walk handles.
  bool add_value_local_results(RowRef partition, const std::vector<RowRef>& changed, Weight sign, BatchBuilder& out,
                               Status& status) {
    using window_detail::RangeValue;
    std::vector<RangeValue> values;
    for (RowRef entry : changed) {
      values.push_back(window_detail::range_value_of(plan_, entry));
      if (values.back().null) return false;
    }
    WindowBound back, ahead;
    back.kind = WindowBound::Kind::kPreceding;
    ahead.kind = WindowBound::Kind::kFollowing;
    back.exact = ahead.exact = plan_.value_reach.exact;
    back.floating = ahead.floating = plan_.value_reach.floating;
    window_detail::PartitionWalk walk(sorted_rows_, partition);
    status = Status::OK();
    for (size_t i = 0; i < changed.size();) {
      size_t last = i;
      while (last + 1 < changed.size() &&
             window_detail::compare_in_order(plan_, values[last + 1], shifted(plan_, values[last], ahead)) <= 0) {
        ++last;
      }
      const RangeValue low = shifted(plan_, values[i], back), high = shifted(plan_, values[last], ahead);
      auto within = [&](RowRef entry, const RangeValue& limit, int side) {
        RangeValue value = window_detail::range_value_of(plan_, entry);
        return !value.null && window_detail::compare_in_order(plan_, value, limit) * side <= 0;
      };
      std::vector<std::pair<RowRef, Weight>> before;
      stats_.entries_visited += walk.backward(changed[i], [&](RowRef entry, Weight weight) {
        if (!within(entry, low, -1)) return false;
        before.push_back({entry, weight});
        return true;
      });
      PartitionRows rows(plan_);
      for (size_t b = before.size(); b-- > 0;) rows.add(before[b].first, before[b].second);
      stats_.entries_visited += walk.forward(changed[i], [&](RowRef entry, Weight weight) {
        if (!within(entry, high, 1)) return false;
        rows.add(entry, weight);
        return true;
      });
      auto [lo, hi] = rows.affected(changed[i], changed[last]);
      status = rows.emit(lo, hi, sign, out, stats_.rows_computed);
      if (!status.ok()) return true;
      i = last + 1;
    }
    return true;
  }

  //! With a rank limit, what a walk of a partition read: its last row, and
  //! whether the rows read reach the limit.
  struct RankedRows {
    std::string last;  //!< the last sorted row read (empty: none)
    bool limit_reached = false;

    //! Whether a change whose smallest sorted row is `first` leaves the rows
    //! read as they are: it comes after `last` and, unless ranks are row
    //! numbers, is no peer of it (add() takes a peer of the last row).
    bool passed_by(RowRef first, bool row_number) const {
      if (!limit_reached) return false;
      if (last.empty()) return true;
      RowRef row(last);
      if (compare_rows(first, row) <= 0) return false;
      return row_number || sort_key_of(first) != sort_key_of(row);
    }
    static std::string_view sort_key_of(RowRef entry) {
      return {reinterpret_cast<const char*>(entry.data),
              static_cast<size_t>(sorted_row_payload(entry).data - entry.data)};
    }
  };

  bool ranked_passed_by(RowRef partition, RowRef first) {
    const RankedRows* known = ranked_.find(partition);
    return known && known->passed_by(first, row_number_limit_);
  }

  const StreamSlot* input_;
  StreamSlot* output_;
  const WindowPlan plan_;
  const bool row_number_limit_ =
      plan_.options.rank_limit &&
      plan_.options.functions[plan_.options.rank_function].kind == WindowFunctionKind::kRowNumber;
  Status status_;
  Trace sorted_rows_;  // partition -> encode_sorted_row(row): the integral of the input
  // With a rank limit: partitions' RankedRows between steps (a row each).
  rank_limit_detail::PartitionCache<RankedRows> ranked_{size_t{1} << 20};
  std::vector<bool> unchanged_;  // per partition of the step's delta: its ranked rows cannot move
  std::string scratch_;
  WindowStats stats_;
};

bool looks_forward(const WindowFunction& f) {
  if (f.kind == WindowFunctionKind::kLead) return true;
  if (!reads_frame(f.kind)) return false;
  return f.end.kind == WindowBound::Kind::kFollowing || f.end.kind == WindowBound::Kind::kUnboundedFollowing ||
         (!f.rows_frame && f.end.kind == WindowBound::Kind::kCurrentRow);
}

}  // namespace

Status validate_window(const Schema& row_schema, const WindowOptions& options) {
  auto invalid = [](std::string message) { return Status(ErrorCode::kInvalidArgument, std::move(message)); };
  for (const SortColumn& column : options.order_by) {
    if (column.column >= row_schema.size()) return invalid("window ORDER BY column out of range");
  }
  for (const WindowFunction& f : options.functions) {
    if (f.column >= row_schema.size() || (f.default_column && *f.default_column >= row_schema.size())) {
      return invalid("window function column out of range");
    }
    if (f.offset < 0 || f.start.rows < 0 || f.end.rows < 0) return invalid("window offsets must be non-negative");
    bool range_offset = !f.rows_frame && reads_frame(f.kind) && (has_offset(f.start) || has_offset(f.end));
    if (range_offset && options.order_by.size() != 1) return invalid("RANGE offsets need exactly one ORDER BY column");
    if (range_offset) {
      TypeId id = row_schema.type(options.order_by[0].column).id;
      if (id == TypeId::kVarchar || id == TypeId::kBoolean)
        return invalid("RANGE offsets need a numeric or temporal ORDER BY column");
    }
  }
  if (options.rank_limit) {
    if (options.rank_function >= options.functions.size()) return invalid("rank function out of range");
    WindowFunctionKind kind = options.functions[options.rank_function].kind;
    if (kind != WindowFunctionKind::kRowNumber && kind != WindowFunctionKind::kRank &&
        kind != WindowFunctionKind::kDenseRank) {
      return invalid("a rank limit needs ROW_NUMBER, RANK or DENSE_RANK");
    }
    for (const WindowFunction& f : options.functions) {
      if (looks_forward(f)) return invalid("a rank limit cannot go with functions that look forward");
    }
  }
  return Status::OK();
}

Stream window(Stream input, WindowOptions options, const WindowStats** stats) {
  FRESHET_ASSERT(validate_window(input.value_schema(), options).ok());
  Circuit& circuit = *input.circuit();
  WindowPlan plan = window_detail::make_window_plan(input.value_schema(), std::move(options));
  plan.row_schema = input.value_schema_ptr();
  Stream output = circuit.add_stream(plan.output_schema, empty_schema());
  WindowOperator* op = circuit.add_operator(
      std::make_unique<WindowOperator>(&circuit.slot(input), &circuit.slot(output), std::move(plan)), {input}, output);
  if (stats) *stats = &op->stats();
  return output;
}

}  // namespace freshet
