// Accumulators of the linear aggregates (COUNT, SUM, AVG, VAR_*/STDDEV_*,
// BOOL_AND/OR, COUNTIF, BIT_XOR; BIT_AND/OR folded forward only) and their
// exact arithmetic: folding a weighted value in, and turning the totals into
// a result of the aggregate's type.
//
//   SUM over integers/DECIMAL  128-bit unscaled sum at the input's scale; the
//                              result is rescaled to the result type and
//                              range-checked (kOverflow when it does not fit)
//   SUM over REAL/DOUBLE       a double, reset to exactly 0 with the count
//   AVG                        SUM / COUNT(x): integer results truncate toward
//                              zero, DECIMAL rounds half away from zero
//   VAR/STDDEV                 Feldera's formula over the exact count, sum and
//                              sum of squares: (Σx² − (Σx)²/n) / (n or n − 1),
//                              each division truncating at the intermediate
//                              scale (integers: 0, DECIMAL(p,s): min(3s, 38));
//                              STDDEV is √ of that as a double, truncated to
//                              the result type. REAL/DOUBLE: the same in doubles
//   BOOL_AND/BOOL_OR/COUNTIF   non_null and exact_sum (the count of TRUE)
//   BIT_XOR                    exact_sum: the XOR of values of odd weight
//   BIT_AND/BIT_OR             exact_sum: the bits so far (weights > 0 only)
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
  int128 exact_squares = 0;  //!< VAR/STDDEV over integers and DECIMAL: Σx² at twice the input's scale
  double float_squares = 0;  //!< VAR/STDDEV over REAL/DOUBLE; exactly 0 whenever non_null is 0

  bool zero() const { return non_null == 0 && exact_sum == 0 && distinct == 0 && exact_squares == 0; }
};

//! Folds `weight` copies of the (non-NULL) value in `row`'s `column` into an
//! accumulator (BIT_AND/BIT_OR: weight > 0 only). Fails with kOverflow when
//! a 128-bit sum overflows (the accumulator is then no longer exact).
Status fold_value(const AggregatePlan& plan, const RowReader& row, size_t column, Weight weight,
                  Accumulator& accumulator);
//! fold_value() of the aggregate's own column.
inline Status fold_value(const AggregatePlan& plan, const RowReader& row, Weight weight, Accumulator& accumulator) {
  return fold_value(plan, row, plan.spec.column, weight, accumulator);
}

//! Writes the result of an accumulated aggregate (not MIN/MAX/ARG_*) for a
//! group of total weight `group_count` into column plan.output_column.
//! Fails with kOverflow, naming the aggregate, when it does not fit its type.
Status write_linear_result(const AggregatePlan& plan, Weight group_count, const Accumulator& accumulator,
                           RowBuilder& out);

}  // namespace freshet::aggregate_detail
