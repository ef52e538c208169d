#include "aggregate_accumulator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "freshet/common/assert.h"

namespace freshet::aggregate_detail {
namespace {

Status overflow(const AggregatePlan& plan, const std::string& problem) {
  return Status(ErrorCode::kOverflow, std::string("aggregate '") + plan.spec.name + "' (" +
                                          aggregate_kind_name(plan.spec.kind) + "): " + problem);
}

Status does_not_fit(const AggregatePlan& plan, int128 unscaled, uint8_t scale) {
  return overflow(plan, "the result " + decimal_to_string(unscaled, scale) + " does not fit " +
                            plan.spec.result_type.to_string());
}

//! The largest value of an integer type.
int128 integer_max(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt: return INT8_MAX;
    case TypeId::kSmallInt: return INT16_MAX;
    case TypeId::kInt: return INT32_MAX;
    default: return INT64_MAX;
  }
}

//! unscaled * 10^(to - from) or rounded down to a smaller scale; false on overflow.
bool rescale_checked(int128 unscaled, uint8_t from_scale, uint8_t to_scale, int128* out) {
  if (to_scale < from_scale) {
    *out = rescale_decimal(unscaled, from_scale, to_scale);
    return true;
  }
  return !__builtin_mul_overflow(unscaled, pow10_int128(to_scale - from_scale), out);
}

//! numerator / denominator (denominator > 0), truncated toward zero or rounded half away from zero.
int128 divide(int128 numerator, int128 denominator, bool round_half_away) {
  int128 quotient = numerator / denominator;
  int128 remainder = numerator % denominator;
  if (round_half_away && remainder != 0) {
    int128 magnitude = remainder < 0 ? -remainder : remainder;
    if (magnitude >= denominator - magnitude) quotient += numerator < 0 ? -1 : 1;
  }
  return quotient;
}

//! Writes an exact value (unscaled, at `scale`) as the result type, range-checked.
Status write_exact(const AggregatePlan& plan, int128 unscaled, uint8_t scale, RowBuilder& out) {
  const SqlType& type = plan.spec.result_type;
  size_t column = plan.output_column;
  if (type.is_floating()) {
    out.set_double(column, static_cast<double>(unscaled) / static_cast<double>(pow10_int128(scale)));
    return Status::OK();
  }
  if (type.id == TypeId::kDecimal) {
    int128 rescaled;
    if (!rescale_checked(unscaled, scale, type.scale, &rescaled) || !decimal_fits(rescaled, type.precision)) {
      return does_not_fit(plan, unscaled, scale);
    }
    out.set_decimal(column, rescaled);
    return Status::OK();
  }
  int128 whole = scale == 0 ? unscaled : rescale_decimal(unscaled, scale, 0);
  int128 max = integer_max(type.id);
  if (whole > max || whole < -max - 1) return does_not_fit(plan, unscaled, scale);
  out.set_int(column, static_cast<int64_t>(whole));
  return Status::OK();
}

Status write_average(const AggregatePlan& plan, const Accumulator& accumulator, RowBuilder& out) {
  const SqlType& type = plan.spec.result_type;
  if (plan.floating) {
    out.set_double(plan.output_column, accumulator.float_sum / static_cast<double>(accumulator.non_null));
    return Status::OK();
  }
  if (type.is_floating()) {
    double sum = static_cast<double>(accumulator.exact_sum) / static_cast<double>(pow10_int128(plan.input_scale));
    out.set_double(plan.output_column, sum / static_cast<double>(accumulator.non_null));
    return Status::OK();
  }
  // Divide at the result's scale: DECIMAL rounds half away from zero, integers truncate.
  bool decimal = type.id == TypeId::kDecimal;
  uint8_t target_scale = decimal ? type.scale : 0;
  int128 numerator = accumulator.exact_sum;
  int128 denominator = accumulator.non_null;
  bool overflowed =
      target_scale >= plan.input_scale
          ? __builtin_mul_overflow(numerator, pow10_int128(target_scale - plan.input_scale), &numerator)
          : __builtin_mul_overflow(denominator, pow10_int128(plan.input_scale - target_scale), &denominator);
  if (overflowed) return overflow(plan, "the average cannot be computed at scale " + std::to_string(target_scale));
  return write_exact(plan, divide(numerator, denominator, decimal), target_scale, out);
}

// VAR/STDDEV: Σx and Σx² (at twice the input's scale), exactly or in doubles.
Status fold_squares(const AggregatePlan& plan, const RowReader& row, size_t column, Weight weight,
                    Accumulator& accumulator) {
  accumulator.non_null += weight;
  if (plan.floating) {
    const double value = row.get_double(column);
    accumulator.float_sum += static_cast<double>(weight) * value;
    accumulator.float_squares += static_cast<double>(weight) * value * value;
    return Status::OK();
  }
  int128 value = plan.input_type.id == TypeId::kDecimal ? row.get_decimal(column) : int128{row.get_int(column)};
  int128 product, square, squares;
  if (__builtin_mul_overflow(value, int128{weight}, &product) ||
      __builtin_add_overflow(accumulator.exact_sum, product, &accumulator.exact_sum) ||
      __builtin_mul_overflow(value, product, &squares) ||
      __builtin_add_overflow(accumulator.exact_squares, squares, &square)) {
    return overflow(plan, "its 128-bit running sum of squares overflowed");
  }
  accumulator.exact_squares = square;
  return Status::OK();
}

//! The variance at `scale` (Feldera's formula, truncating divisions), or
//! nullopt when its denominator is 0 (VAR_SAMP of one value); false on overflow.
bool exact_variance(const AggregatePlan& plan, const Accumulator& accumulator, uint8_t scale,
                    std::optional<int128>* variance) {
  const bool sample = plan.spec.kind == AggregateKind::kVarSamp || plan.spec.kind == AggregateKind::kStddevSamp;
  const int128 count = accumulator.non_null;
  const int128 denominator = sample ? count - 1 : count;
  if (denominator == 0) {
    variance->reset();
    return true;
  }
  if (2 * plan.input_scale > scale) return false;
  // Σx² and (Σx)² are at twice the input's scale; bring both to `scale`.
  const int128 factor = pow10_int128(scale - 2 * plan.input_scale);
  int128 squares, sum_squared;
  if (__builtin_mul_overflow(accumulator.exact_squares, factor, &squares) ||
      __builtin_mul_overflow(accumulator.exact_sum, accumulator.exact_sum, &sum_squared) ||
      __builtin_mul_overflow(sum_squared, factor, &sum_squared)) {
    return false;
  }
  *variance = (squares - sum_squared / count) / denominator;
  return true;
}

Status write_variance(const AggregatePlan& plan, const Accumulator& accumulator, RowBuilder& out) {
  const bool root = plan.spec.kind == AggregateKind::kStddevPop || plan.spec.kind == AggregateKind::kStddevSamp;
  const SqlType& type = plan.spec.result_type;
  if (plan.floating) {
    const bool sample = plan.spec.kind == AggregateKind::kVarSamp || plan.spec.kind == AggregateKind::kStddevSamp;
    const double count = static_cast<double>(accumulator.non_null);
    const double denominator = sample ? count - 1 : count;
    if (denominator == 0) {
      out.set_null(plan.output_column);
      return Status::OK();
    }
    double variance = (accumulator.float_squares - accumulator.float_sum * accumulator.float_sum / count) / denominator;
    out.set_double(plan.output_column, root ? std::sqrt(std::max(0.0, variance)) : variance);
    return Status::OK();
  }
  // Feldera's intermediate type: a wider integer, or DECIMAL at scale min(3s, 38).
  const uint8_t scale = static_cast<uint8_t>(std::min<int>(3 * plan.input_scale, kMaxDecimalPrecision));
  std::optional<int128> variance;
  if (!exact_variance(plan, accumulator, scale, &variance)) {
    return overflow(plan, "the variance does not fit 128 bits");
  }
  if (!variance) {
    out.set_null(plan.output_column);
    return Status::OK();
  }
  const uint8_t result_scale = type.id == TypeId::kDecimal ? type.scale : 0;
  if (!root) {
    // Truncated to the result's scale (Feldera's casts round toward zero).
    int128 truncated = scale > result_scale ? *variance / pow10_int128(scale - result_scale) : *variance;
    return write_exact(plan, truncated, std::min(scale, result_scale), out);
  }
  const double root_value =
      std::sqrt(std::max(0.0, static_cast<double>(*variance) / static_cast<double>(pow10_int128(scale))));
  if (type.is_floating()) {
    out.set_double(plan.output_column, root_value);
    return Status::OK();
  }
  const double scaled = std::trunc(root_value * static_cast<double>(pow10_int128(result_scale)));
  if (!(scaled < 1.7e38 && scaled > -1.7e38)) return overflow(plan, "the standard deviation does not fit 128 bits");
  return write_exact(plan, static_cast<int128>(scaled), result_scale, out);
}

}  // namespace

Status fold_value(const AggregatePlan& plan, const RowReader& row, size_t column, Weight weight,
                  Accumulator& accumulator) {
  switch (plan.spec.kind) {
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      break;
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
    case AggregateKind::kCountIf:
      accumulator.non_null += weight;
      if (row.get_bool(column)) accumulator.exact_sum += weight;
      return Status::OK();
    case AggregateKind::kBitXor:
      accumulator.non_null += weight;
      if ((weight & 1) != 0) accumulator.exact_sum ^= int128{row.get_int(column)};
      return Status::OK();
    case AggregateKind::kBitAnd:
    case AggregateKind::kBitOr: {
      const int128 bits = row.get_int(column);
      if (accumulator.non_null == 0) {
        accumulator.exact_sum = bits;
      } else {
        accumulator.exact_sum =
            plan.spec.kind == AggregateKind::kBitAnd ? (accumulator.exact_sum & bits) : (accumulator.exact_sum | bits);
      }
      accumulator.non_null += weight;
      return Status::OK();
    }
    case AggregateKind::kVarPop:
    case AggregateKind::kVarSamp:
    case AggregateKind::kStddevPop:
    case AggregateKind::kStddevSamp:
      return fold_squares(plan, row, column, weight, accumulator);
    default:
      accumulator.non_null += weight;
      return Status::OK();
  }
  accumulator.non_null += weight;
  if (plan.floating) {
    accumulator.float_sum += static_cast<double>(weight) * row.get_double(column);
    return Status::OK();
  }
  int128 value = plan.input_type.id == TypeId::kDecimal ? row.get_decimal(column) : int128{row.get_int(column)};
  int128 product;
  if (__builtin_mul_overflow(value, int128{weight}, &product) ||
      __builtin_add_overflow(accumulator.exact_sum, product, &accumulator.exact_sum)) {
    return overflow(plan, "its 128-bit running sum overflowed");
  }
  return Status::OK();
}

Status write_linear_result(const AggregatePlan& plan, Weight group_count, const Accumulator& accumulator,
                           RowBuilder& out) {
  switch (plan.spec.kind) {
    case AggregateKind::kCountStar: return write_exact(plan, group_count, 0, out);
    case AggregateKind::kCount: return write_exact(plan, accumulator.non_null, 0, out);
    case AggregateKind::kCountDistinct: return write_exact(plan, accumulator.distinct, 0, out);
    case AggregateKind::kSum:
      if (accumulator.non_null == 0) break;
      if (plan.floating) {
        out.set_double(plan.output_column, accumulator.float_sum);
        return Status::OK();
      }
      return write_exact(plan, accumulator.exact_sum, plan.input_scale, out);
    case AggregateKind::kAvg:
      if (accumulator.non_null == 0) break;
      return write_average(plan, accumulator, out);
    case AggregateKind::kCountIf:
      return write_exact(plan, accumulator.exact_sum, 0, out);
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      if (accumulator.non_null == 0) break;
      out.set_bool(plan.output_column, plan.spec.kind == AggregateKind::kBoolAnd
                                           ? accumulator.exact_sum == accumulator.non_null
                                           : accumulator.exact_sum > 0);
      return Status::OK();
    case AggregateKind::kBitAnd:
    case AggregateKind::kBitOr:
    case AggregateKind::kBitXor:
      if (accumulator.non_null == 0) break;
      return write_exact(plan, accumulator.exact_sum, 0, out);
    case AggregateKind::kVarPop:
    case AggregateKind::kVarSamp:
    case AggregateKind::kStddevPop:
    case AggregateKind::kStddevSamp:
      if (accumulator.non_null == 0) break;
      return write_variance(plan, accumulator, out);
    case AggregateKind::kMin:
    case AggregateKind::kMax:
    case AggregateKind::kArgMin:
    case AggregateKind::kArgMax:
      FRESHET_ASSERT(false && "MIN/MAX/ARG_MIN/ARG_MAX read their traces");
  }
  out.set_null(plan.output_column);
  return Status::OK();
}

}  // namespace freshet::aggregate_detail
