// Window functions: `f(...) OVER (PARTITION BY p ORDER BY o [frame])`, each
// input row extended with one column per function, maintained incrementally.
//
// ## Semantics
// Within a partition rows are ordered by `order_by`, ties broken by the
// row's bytes (so ROW_NUMBER is deterministic). A row with integrated weight
// w occupies w consecutive positions; each position is one output row (with
// weight 1; equal output rows add up). Peers are rows with equal ORDER BY
// values.
//   ROW_NUMBER  position + 1
//   RANK        1 + positions before the row's first peer
//   DENSE_RANK  1 + distinct ORDER BY values before the row's
//   LAG/LEAD    the column at `offset` positions before/after, else the
//               current row's default column (or NULL)
//   aggregates  COUNT(*), COUNT, SUM, AVG, MIN, MAX, VAR_*/STDDEV_*,
//               BOOL_AND/OR, COUNTIF, BIT_AND/OR/XOR, ARG_MIN/MAX over the frame:
//               ROWS: positions [i - start, i + end];
//               RANGE: rows whose (single) ORDER BY value is within the
//               offsets of the current row's, CURRENT ROW meaning peers;
//               a NULL ORDER BY value's frame is its NULL peers.
//
// ## Design
// State: a trace keyed by partition whose values are sorted rows
// (encode_sorted_row: [sort key][row][u32 length]), as top_k keeps: a
// partition's walk yields its rows in SQL order.
//
// Per step, for each partition the delta touches:
//
//   old = walk of the partition (trace before the delta)
//   [lo, hi_old) = positions whose results the change can affect
//   out -= outputs(old, lo .. hi_old)
//   trace += delta
//   new = walk; [lo, hi_new) likewise
//   out += outputs(new, lo .. hi_new)            (unchanged rows cancel)
//
// lo is the first changed position moved back by how far any function
// looks forward (LEAD's offset, a frame's FOLLOWING end: positions for
// ROWS, ORDER BY values for RANGE, the whole partition for UNBOUNDED
// FOLLOWING); hi is the last changed position moved on by how far any
// function looks back (LAG's offset, a frame's PRECEDING start), or the
// partition's end for ROW_NUMBER, RANK, DENSE_RANK and frames starting
// UNBOUNDED PRECEDING (every later row's result moves). Rows outside
// [lo, hi) have the same results before and after, so they are not emitted.
//
// Cost per touched partition. When every function reads a bounded number
// of positions around its row (LAG, LEAD, ROWS frames with offsets: a
// "local" window), each cluster of changes (changes closer than that reach)
// is computed from the rows within reach of it, found by walking the trace
// from the change in both directions (window_walk.h): O((changes + reach)
// x log n), never the partition. Aggregates over RANGE frames bounded on
// both sides ("value local") do the same by ORDER BY value: a cluster's rows
// are those within the frames' reach of its values. Otherwise the walk reads the partition from
// its start up to hi (the trace has no positional index, so positions are
// counted from the start): O(partition) reading, O(affected rows) output.
// With a rank limit (the top-k rule: `WHERE rn <= k` over ROW_NUMBER/RANK/
// DENSE_RANK) the walk stops after the rows ranked <= k: O(k) like top_k.
// And like top_k, the operator keeps each partition's last ranked row across
// steps (partition_cache.h; rebuilt from the trace when missing) and reads
// nothing for a partition whose ranked rows reach the limit and whose change
// comes after that row (ROW_NUMBER: by sorted row; RANK and DENSE_RANK: by
// ORDER BY key, as a peer of it would still rank): every result the walk
// would compute depends only on the rows it reads, which stay the same.
//
//   ROW_NUMBER() OVER (ORDER BY x), one partition; rows written (x, rn)
//   step | 0          | 1                  | 2
//   in   | 10, 30     | 20                 | -10
//   out  | (10,1),    | -(30,2), (20,2),   | -(10,1), -(20,2), -(30,3),
//        | (30,2)     | (30,3)             | (20,1), (30,2)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/aggregate.h"
#include "freshet/types/decimal.h"
#include "freshet/types/sort_key.h"

namespace freshet {

enum class WindowFunctionKind : uint8_t {
  kRowNumber,
  kRank,
  kDenseRank,
  kLag,
  kLead,
  kAggregate,
  kFirstValue,
  kLastValue
};

//! Functions of a frame (aggregates, FIRST_VALUE, LAST_VALUE): they read the
//! rows between `start` and `end`; the others read positions (ranks, LAG, LEAD).
inline bool reads_frame(WindowFunctionKind kind) {
  return kind == WindowFunctionKind::kAggregate || kind == WindowFunctionKind::kFirstValue ||
         kind == WindowFunctionKind::kLastValue;
}

//! One end of a frame. Offsets: ROWS counts positions (`rows`); RANGE
//! measures the single ORDER BY column in its own representation: integers,
//! DATE days, TIMESTAMP microseconds (`exact`), DECIMAL unscaled at the
//! column's scale (`exact`), REAL/DOUBLE (`floating`).
struct WindowBound {
  enum class Kind : uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  int64_t rows = 0;
  int128 exact = 0;
  double floating = 0;
};

//! One window function of a window operator.
struct WindowFunction {
  WindowFunctionKind kind = WindowFunctionKind::kRowNumber;
  AggregateKind aggregate = AggregateKind::kCountStar;  //!< kAggregate
  size_t column = 0;  //!< LAG/LEAD/FIRST_VALUE/LAST_VALUE value, aggregate argument: a column of the input row
  size_t compared_column = 0;            //!< ARG_MIN/ARG_MAX: the compared argument's column
  std::optional<size_t> default_column;  //!< LAG/LEAD: the current row's column used past the partition's ends
  int64_t offset = 1;                    //!< LAG/LEAD: positions back/forward (>= 0)
  bool rows_frame = false;               //!< functions of a frame (reads_frame): ROWS (else RANGE)
  WindowBound start{WindowBound::Kind::kUnboundedPreceding}, end{WindowBound::Kind::kUnboundedFollowing};
  std::string name;     //!< output column name
  SqlType result_type;  //!< output column type
};

//! SQL's frame for a function of a frame whose window names none: the whole
//! partition, or with an ORDER BY every row up to the current one's last
//! peer (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).
inline void set_default_frame(WindowFunction& f, bool ordered) {
  f.rows_frame = false;
  f.start.kind = WindowBound::Kind::kUnboundedPreceding;
  f.end.kind = ordered ? WindowBound::Kind::kCurrentRow : WindowBound::Kind::kUnboundedFollowing;
}
//! Whether `f`'s frame is the one set_default_frame gives.
inline bool has_default_frame(const WindowFunction& f, bool ordered) {
  return !f.rows_frame && f.start.kind == WindowBound::Kind::kUnboundedPreceding &&
         f.end.kind == (ordered ? WindowBound::Kind::kCurrentRow : WindowBound::Kind::kUnboundedFollowing);
}
//! Whether a frame bound has an offset (n PRECEDING, n FOLLOWING).
inline bool has_offset(const WindowBound& bound) {
  return bound.kind == WindowBound::Kind::kPreceding || bound.kind == WindowBound::Kind::kFollowing;
}

//! The window of one operator: its order, its functions and the top-k limit.
struct WindowOptions {
  std::vector<SortColumn> order_by;  //!< columns of the input row
  std::vector<WindowFunction> functions;
  //! Top-k: only rows whose rank (functions[rank_function], a ROW_NUMBER,
  //! RANK or DENSE_RANK) is <= rank_limit are output, and a walk stops there.
  //! Valid only when no function looks forward (LEAD, FOLLOWING frames).
  std::optional<uint64_t> rank_limit;
  size_t rank_function = 0;
};

//! Cumulative work counters of one window operator (tests, diagnostics).
struct WindowStats {
  uint64_t steps = 0;
  uint64_t partitions_touched = 0;
  //! With a rank limit: partitions whose change landed past the ranked rows, not read.
  uint64_t partitions_unchanged = 0;
  //! Trace entries read by the walks (both walks of each touched partition).
  uint64_t entries_visited = 0;
  //! Output rows computed (before consolidation), old and new.
  uint64_t rows_computed = 0;
};

//! Checks the options against the input row schema (columns exist, offsets
//! non-negative, RANGE offsets over one numeric or temporal ORDER BY column,
//! the rank limit's conditions). window() requires this.
Status validate_window(const Schema& row_schema, const WindowOptions& options);

//! input: indexed stream, key = partition key row (the empty schema: one
//! partition), value = the row. output: a Z-set of the rows, each extended
//! with one column per function (see above).
Stream window(Stream input, WindowOptions options, const WindowStats** stats = nullptr);

}  // namespace freshet
