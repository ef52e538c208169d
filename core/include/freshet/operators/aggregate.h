// Aggregate: GROUP BY with COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM, AVG,
// MIN and MAX, maintained incrementally.
//
// Input: an indexed stream, key = the group key row, value = an input row.
// Output: a Z-set of rows (group key columns, then one column per aggregate).
//
// With COUNT(*), SUM(x), MIN(x) grouped by g:
//
//   step | in (g -> x)               | out
//   0    | g1 -> 5, g1 -> 7, g2 -> 1 | +(g1, 2, 12, 5), +(g2, 1, 1, 1)
//   1    | -(g1 -> 5)                | -(g1, 2, 12, 5), +(g1, 1, 7, 7)   MIN moves to the next value
//   2    | -(g2 -> 1)                | -(g2, 1, 1, 1)                    g2 is gone
//   3    | g1 -> NULL, g2 -> 4       | -(g1, 1, 7, 7), +(g1, 2, 7, 7),   NULLs count only in COUNT(*)
//        |                           | +(g2, 1, 4, 4)                    g2 is back
//
// ## Design
// - Linear aggregates (COUNT, SUM, AVG) keep per-group accumulators in a hash
//   map keyed by the group key's bytes: a step folds each changed row into its
//   group's accumulator, O(1) per row. SUM over integers and DECIMAL is exact
//   (128-bit, at the input's scale); over REAL/DOUBLE it is a double that is
//   reset to exactly 0 whenever the group's non-null count returns to 0.
// - MIN/MAX keep a trace per aggregate: key = group, value = the column's
//   order-preserving sort entry (encode_sorted_row, DESC for MAX), so the
//   answer is the first live value of Trace::seek(group): O(log n) per touched
//   group, whatever the group's size. Deleting the current minimum just makes
//   the next value first.
// - COUNT(DISTINCT x) keeps a trace of (group, x) weights and a per-group
//   count of values whose total weight is positive, adjusted when a value's
//   weight crosses zero.
// - VAR_POP/VAR_SAMP/STDDEV_POP/STDDEV_SAMP over integers and DECIMAL keep
//   the count, the exact sum and the exact sum of squares (128-bit); BOOL_AND,
//   BOOL_OR and COUNTIF the counts of non-NULL and of TRUE values; BIT_XOR
//   the XOR of the values an odd number of times present. All O(1) per row,
//   and a group's result is a function of the totals alone, so it equals a
//   from-scratch computation after any deletes.
// - ARG_MIN/ARG_MAX are MIN/MAX over the sort entries of (compared, value)
//   rows, value breaking ties (smallest for ARG_MIN, largest for ARG_MAX).
// - BIT_AND, BIT_OR and VAR/STDDEV over REAL/DOUBLE keep a trace of (group,
//   value) weights and recompute a touched group from its distinct values in
//   the trace's order: O(distinct values of the group) per touched group, and
//   the same double arithmetic as a from-scratch computation in that order.
// - DISTINCT inside another aggregate: a trace of (group, value) weights,
//   and the value is folded in with weight +1 / -1 when its total weight
//   crosses zero, as COUNT(DISTINCT) does.
// - Each group remembers the output row it last emitted. Per step, for each
//   touched group, the operator emits -old (if any) and +new (if the group
//   still has rows), nothing when they are equal.
//
// ## Invariants
// - The integrated input is non-negative (weights may be negative inside one
//   step's batch). A group has an output row exactly while its total weight is
//   positive; NULL group keys form a group like any other.
// - The integral of the output equals the aggregates computed from scratch on
//   the integral of the input, after every successful step.
// - A step costs O(changed rows × log n); no group is ever rescanned.
// - On an error (kOverflow when a SUM/AVG/COUNT result does not fit its type)
//   the step emits nothing; the touched groups stay pending and are emitted
//   by the next successful step, so the output never drifts from what was sent.
//   The one unrecoverable error is a SUM whose 128-bit running total itself
//   overflows (|sum| > 1.7e38): that step fails with kOverflow and the state
//   is no longer exact.
// - With an AggregateErrorHandler that accepts the error (a view in 'null'
//   mode), a result that does not fit its type is NULL in that group's row
//   instead; the accumulators stay exact, so the group's row is right again
//   as soon as retractions bring the result back into range.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "freshet/circuit/circuit.h"

namespace freshet {

enum class AggregateKind {
  kCountStar,
  kCount,
  kCountDistinct,
  kSum,
  kAvg,
  kMin,
  kMax,
  // aggregate_functions.md: the statistical, boolean and bitwise aggregates
  kVarPop,      //!< VAR_POP
  kVarSamp,     //!< VAR_SAMP, VARIANCE
  kStddevPop,   //!< STDDEV_POP
  kStddevSamp,  //!< STDDEV_SAMP, STDDEV
  kBoolAnd,     //!< BOOL_AND, LOGICAL_AND, EVERY
  kBoolOr,      //!< BOOL_OR, LOGICAL_OR, SOME
  kCountIf,     //!< COUNTIF: rows whose BOOLEAN is TRUE
  kBitAnd,
  kBitOr,
  kBitXor,
  kArgMin,  //!< ARG_MIN(value, compared): `column` is the value, `compared_column` the compared one
  kArgMax,
};

//! One aggregate of a GROUP BY: which function, over which value column.
struct AggregateSpec {
  AggregateKind kind;
  size_t column = 0;    //!< column of the input VALUE row; ignored for kCountStar
  std::string name;     //!< output column name
  SqlType result_type;  //!< type of the output column
  //! SUM(DISTINCT x), VAR_POP(DISTINCT x), ...: each distinct non-NULL value
  //! counts once (COUNT(DISTINCT x) is kCountDistinct). A no-op for the
  //! kinds whose result does not depend on multiplicities (MIN, BOOL_AND, ...).
  bool distinct = false;
  size_t compared_column = 0;  //!< ARG_MIN/ARG_MAX: the column compared
};

//! "COUNT(*)", "SUM", ...: the SQL name of an aggregate function.
const char* aggregate_kind_name(AggregateKind kind);

//! COUNT(*), COUNT, COUNT(DISTINCT) and COUNTIF: a BIGINT NOT NULL, 0 over
//! no rows (where every other aggregate of no rows is NULL).
bool is_count(AggregateKind kind);

//! SQL's/Feldera's result type for an aggregate over `input`: COUNT, COUNTIF
//! -> BIGINT NOT NULL; SUM/AVG/MIN/MAX/VAR_*/STDDEV_*/BIT_* -> the input type
//! made nullable; SUM of DECIMAL(p,s) -> DECIMAL(38,s); BOOL_AND/BOOL_OR ->
//! BOOLEAN; ARG_MIN/ARG_MAX -> the type of their value made nullable.
SqlType default_aggregate_type(AggregateKind kind, const SqlType& input);

//! Checks specs against the input's value schema: columns exist, SUM/AVG are
//! over numbers, result types can hold the results. aggregate() requires this.
Status validate_aggregates(const Schema& value_schema, const std::vector<AggregateSpec>& aggregates);

//! Work an aggregate operator has done since it was created: structural cost
//! counters for tests and profiling (they grow with the changes, not the data).
struct AggregateWork {
  uint64_t rows_folded = 0;       //!< input entries folded into accumulators
  uint64_t groups_evaluated = 0;  //!< output rows recomputed (one per touched group)
  uint64_t trace_seeks = 0;       //!< MIN/MAX trace seeks and COUNT DISTINCT weight lookups
};

//! Whether an aggregate's whole state is a group's accumulators (COUNT,
//! SUM, AVG, VAR_*/STDDEV_* over exact numbers, BOOL_AND/OR, COUNTIF,
//! BIT_XOR, none of them DISTINCT): O(1) per changed row, and what LATENESS
//! may evict. `input` is the aggregated column's type.
bool is_accumulated_aggregate(const AggregateSpec& spec, const SqlType& input);

//! Called when the result of `spec` for the group `group` does not fit its
//! (nullable) type, with the kOverflow error: true writes NULL there (the
//! handler has logged it), false fails the step as without a handler.
using AggregateErrorHandler =
    std::function<bool(const Status& error, const AggregateSpec& spec, const RowReader& group)>;

class Watermark;

//! Bounded state under LATENESS (operators/group_eviction.h): groups whose
//! key column `key_column` (an integer-encoded time) plus `span` is at or
//! below the table's watermark are forgotten after each step, their output
//! rows left as they are. Only for aggregates whose whole state is their
//! accumulators (is_accumulated_aggregate).
struct GroupEvictionSpec {
  size_t key_column = 0;
  const Watermark* watermark = nullptr;
  int64_t span = 0;
};

//! What an aggregate with no group key columns (SQL's aggregate without
//! GROUP BY) gives while its input is empty: no row, or SQL's one row of the
//! aggregates of nothing (COUNT 0, the others NULL), emitted at the first
//! step and replaced by the group's row while the input has rows.
enum class EmptyInput { kNoRow, kDefaultRow };

//! The GROUP BY aggregate of an indexed stream (see the header comment).
//! The specs must pass validate_aggregates(). When `work` is given, it
//! receives a pointer to the operator's counters (owned by the circuit).
//! `on_error` decides what a result out of its type's range does.
//! `empty_input` kDefaultRow needs an input without key columns.
Stream aggregate(Stream input, std::vector<AggregateSpec> aggregates, const AggregateWork** work = nullptr,
                 std::optional<GroupEvictionSpec> eviction = std::nullopt, AggregateErrorHandler on_error = nullptr,
                 EmptyInput empty_input = EmptyInput::kNoRow);

}  // namespace freshet
