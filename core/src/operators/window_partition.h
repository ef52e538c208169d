// One partition of a window operator during a step: its rows in ORDER BY
// order as the trace's walk yields them, and the window functions' results
// at chosen positions. Private to the window operator (window.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aggregate_accumulator.h"
#include "aggregate_plan.h"
#include "freshet/operators/window.h"
#include "freshet/zset/batch_builder.h"

namespace freshet::window_detail {

//! A RANGE offset frame's measure of a row: its single ORDER BY value.
struct RangeValue {
  bool null = true;
  int128 exact = 0;
  double floating = 0;
};

//! What the operator derives from its options and input schema once.
struct WindowPlan {
  WindowOptions options;
  SchemaPtr row_schema, output_schema;
  std::vector<aggregate_detail::AggregatePlan> aggregates;  //!< per function (unused for non-aggregates)
  bool floating_order = false;                              //!< RANGE offsets over REAL/DOUBLE
  bool uses_range_values = false;                           //!< some RANGE frame has an offset
  //! Positions before a change whose results may move (SIZE_MAX: all).
  size_t rows_ahead = 0;
  //! Positions after a change whose results may move (SIZE_MAX: all).
  size_t rows_behind = 0;
  //! Some function's result moves for the change's peers before it (RANGE ... CURRENT ROW end)
  //! or after it (RANGE CURRENT ROW ... start), or by ORDER BY distance (RANGE offsets).
  bool peers_ahead = false, peers_behind = false;
  std::vector<const WindowFunction*> range_ahead, range_behind;  //!< RANGE frames with an offset end / start
  //! Every function reads a bounded number of positions around the row
  //! (LAG, LEAD, ROWS frames with offsets): a change's results are computed
  //! from the rows around it alone, never from the partition's start.
  bool local = false;
  //! Every function is an aggregate over a RANGE frame bounded on both sides
  //! (offsets or CURRENT ROW) of one numeric ORDER BY column: a change at
  //! value c moves only rows within `value_reach` of c, whose frames lie
  //! within twice that, so each cluster of changes is computed from those rows.
  bool value_local = false;
  //! The largest PRECEDING start plus the largest FOLLOWING end.
  RangeValue value_reach;
};

WindowPlan make_window_plan(const Schema& row_schema, WindowOptions options);

//! The RANGE value (the single ORDER BY column) of a sorted-row entry.
RangeValue range_value_of(const WindowPlan& plan, RowRef entry);
//! -1/0/1: a before, equal to, after b in ORDER BY direction.
int compare_in_order(const WindowPlan& plan, const RangeValue& a, const RangeValue& b);
//! `value` moved by `bound` (PRECEDING: against the ORDER BY direction), saturating.
RangeValue shifted(const WindowPlan& plan, const RangeValue& value, const WindowBound& bound);

//! A partition's live rows (weight > 0) in order, and where each position's row is.
class PartitionRows {
 public:
  explicit PartitionRows(const WindowPlan& plan) : plan_(plan) {}

  //! Appends the next entry of the walk; false when a rank limit is reached and the walk should stop.
  bool add(RowRef entry, Weight weight);
  size_t positions() const { return position_entry_.size(); }
  //! With a rank limit: the rows added reach it, so add() refuses every
  //! further row that is not a peer of the last one (whatever follows).
  bool rank_limit_reached() const;
  size_t entries() const { return entries_.size(); }
  RowRef entry(size_t e) const { return entries_[e]; }
  //! Index of the first position whose entry is >= `entry` (> when `after`), in the walk's order.
  size_t position_of(RowRef entry, bool after) const;

  //! The positions whose results a change between the entries `first` and
  //! `last` (inclusive, in entry order) can affect: [lo, hi).
  std::pair<size_t, size_t> affected(RowRef first, RowRef last);
  //! Adds each position's output row in [lo, hi), times `sign`, to `out`.
  Status emit(size_t lo, size_t hi, Weight sign, BatchBuilder& out, uint64_t& rows_computed);

 private:
  void prepare();
  std::string_view sort_key(size_t e) const;
  RangeValue range_value(size_t e) const;
  //! First position of the peer group of position p / one past its last.
  size_t peer_start(size_t p) const { return entry_first_[peer_first_entry_[position_entry_[p]]]; }
  size_t peer_end(size_t p) const;
  //! The frame of `function` at position p: [start, end).
  std::pair<size_t, size_t> frame(const WindowFunction& function, size_t p) const;
  std::pair<size_t, size_t> non_null_segment() const;
  //! First position (in the non-null segment) whose value is not before `limit` in ORDER BY order (> when `after`).
  size_t value_position(const RangeValue& limit, bool after) const;
  RangeValue shifted(const RangeValue& value, const WindowBound& bound) const {
    return window_detail::shifted(plan_, value, bound);
  }
  int compare_in_order(const RangeValue& a, const RangeValue& b) const {
    return window_detail::compare_in_order(plan_, a, b);
  }
  Status write_aggregate(size_t f, const WindowFunction& function, size_t p, RowBuilder& out);

  const WindowPlan& plan_;
  std::vector<RowRef> entries_;
  std::vector<Weight> weights_;
  std::vector<uint32_t> position_entry_;    //!< position -> entry index
  std::vector<uint32_t> entry_first_;       //!< entry -> its first position
  std::vector<uint32_t> peer_first_entry_;  //!< entry -> the first entry of its peer group
  std::vector<uint32_t> dense_rank_;        //!< entry -> DENSE_RANK
  std::vector<RangeValue> values_;          //!< entry -> RANGE value (when RANGE offsets are used)
  size_t distinct_keys_ = 0;
  bool prepared_ = false;
  //! Running aggregates (frames starting UNBOUNDED PRECEDING): state per function.
  struct Running {
    size_t end = 0;  //!< positions folded so far
    aggregate_detail::Accumulator accumulator;
    Weight count = 0;
    int64_t best = -1;  //!< MIN/MAX: position of the best value so far
  };
  std::vector<Running> running_;
};

}  // namespace freshet::window_detail
