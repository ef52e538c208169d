// Accumulators of the linear aggregates (COUNT, SUM, AVG) and their exact
// arithmetic: folding a weighted value in, and turning the totals into a
// result of the aggregate's type.
//
//   SUM over integers/DECIMAL  128-bit unscaled sum at the input's scale; the
//                              result is rescaled to the result type and
//                              range-checked (kOverflow when it does not fit)
//   SUM over REAL/DOUBLE       a double, reset to exactly 0 with the count
//   AVG                        SUM / COUNT(x): integer results truncate toward
//                              zero, DECIMAL rounds half away from zero
#pragma once

#include <cstdint>

#include "aggregate_plan.h"
#include "freshet/types/decimal.h"
#include "freshet/types/row.h"
#include "freshet/zset/batch.h"

namespace freshet::aggregate_detail {

//! Running totals of one aggregate over one group. Which fields are used
//! depends on the kind; the others stay zero.
struct Accumulator {
  Weight non_null = 0;   //!< total weight of rows whose column is not NULL (COUNT(x), SUM, AVG)
  int128 exact_sum = 0;  //!< SUM/AVG over integers and DECIMAL, at the input's scale
  double float_sum = 0;  //!< SUM/AVG over REAL/DOUBLE; exactly 0 whenever non_null is 0
  int64_t distinct = 0;  //!< COUNT(DISTINCT x): values with positive total weight

  bool zero() const { return non_null == 0 && exact_sum == 0 && distinct == 0; }
};

//! Folds `weight` copies of the (non-NULL) value in `row`'s column into a
//! COUNT/SUM/AVG accumulator. Fails with kOverflow when the 128-bit sum
//! overflows (the accumulator is then no longer exact).
Status fold_value(const AggregatePlan& plan, const RowReader& row, Weight weight, Accumulator& accumulator);

//! Writes the result of a COUNT(*), COUNT, COUNT DISTINCT, SUM or AVG for a
//! group of total weight `group_count` into column plan.output_column.
//! Fails with kOverflow, naming the aggregate, when it does not fit its type.
Status write_linear_result(const AggregatePlan& plan, Weight group_count, const Accumulator& accumulator,
                           RowBuilder& out);

}  // namespace freshet::aggregate_detail
