// Top-k per group: per partition, the first k rows in an ORDER BY order.
// This is what `ORDER BY ... LIMIT n` in a view compiles to (with the empty
// key schema: one global partition).
//
// ## Semantics
// A row with integrated weight w occupies w consecutive positions, so it is
// output with weight min(w, positions left). With an offset, the first
// `offset` positions are skipped: a row straddling the offset is output with
// the weight of its positions past it. Rows with weight <= 0 occupy no
// position. Rows that tie on `order_by` are ordered by their bytes, so the
// result is deterministic.
//
// ## Design
// State: a trace keyed by partition whose values are sorted rows
// (encode_sorted_row: [sort key][row][u32 length]). Byte order of those
// values is the ORDER BY order with the byte tie-break, so
// Trace::seek(partition) yields a partition's rows in SQL order and the top k
// are the first entries of that walk.
//
// Per step, for each partition the delta touches:
//
//   old = first k positions of the partition     (trace before the delta)
//   trace += delta
//   new = first k positions of the partition     (trace after the delta)
//   Δout = new - old                             (consolidated: unchanged rows cancel)
//
// A step costs O(touched partitions × (k + cancelled entries) × log n): each
// walk stops once k positions are filled, and never reads the rest of a
// partition. Cancelled entries are (row) pairs whose weights over the
// spine's batches sum to zero and that merging has not yet removed.
//
// Most changes land past the first k positions (a new order among 200k,
// LIMIT 10): they cannot move them, and Δout is empty. So the operator keeps
// each partition's `old` list across steps (partition_cache.h, bounded in
// bytes, rebuilt from the trace when missing: checkpoints hold only the
// trace), and skips a partition when it fills all offset + k positions and
// the delta's smallest sorted row comes after the one at position
// offset + k. Sorted rows are unique per row (the row bytes follow the sort
// key), so a tie on ORDER BY is after or before, never equal, and a change of
// that row itself (any weight) is recomputed. Rows past it, inserted or
// deleted with any weight, leave every earlier row's weight and so the first
// offset + k positions as they were. The list kept holds every row of
// non-zero weight up to that row (top_k_positions.h), so a change before it
// that leaves the positions filled (an insert, a weight moved) is applied to
// the list alone; one that empties positions rows after it would fill
// (deletes inside the top k) reads `new` from the trace.
//
//   k = 2, ORDER BY x, one partition p; rows written by x
//   step | 0             | 1       | 2      | 3
//   in   | p:1, p:3, p:5 | p:2     | -p:1   | p:9
//   out  | 1, 3          | 2, -3   | -1, 3  | 0
#pragma once

#include <cstdint>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "freshet/types/sort_key.h"

namespace freshet {

//! Cumulative work counters of one top-k operator (tests, diagnostics).
struct TopKStats {
  uint64_t steps = 0;
  //! Partitions the input changed.
  uint64_t partitions_touched = 0;
  //! Of those, the ones whose change landed past the first offset + k positions: not recomputed.
  uint64_t partitions_unchanged = 0;
  //! Of those, the ones whose new first positions came from the kept ones and the change alone (no trace read).
  uint64_t partitions_merged = 0;
  //! Trace entries (row, total weight) read while computing top-k lists.
  uint64_t entries_visited = 0;
};

//! input: indexed stream, key = partition key row (may be the empty schema for one global top-k), value = the row.
//! output: a Z-set (key = value row, value empty) holding, per partition, the first k rows in `order_by` order
//! (columns of the value row; ties broken by row byte order so the result is deterministic).
Stream top_k(Stream input, std::vector<SortColumn> order_by, uint64_t k);

//! As above; `*stats` is pointed at the operator's counters (owned by the circuit).
Stream top_k(Stream input, std::vector<SortColumn> order_by, uint64_t k, const TopKStats** stats);

//! Per partition, the rows at positions [offset, offset + k) in `order_by`
//! order (`LIMIT k OFFSET offset`): the operator walks the first offset + k
//! positions and outputs those past the offset. `stats` may be null.
Stream top_k(Stream input, std::vector<SortColumn> order_by, uint64_t k, uint64_t offset, const TopKStats** stats);

}  // namespace freshet
