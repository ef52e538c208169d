#include "aggregate_accumulator.h"

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

}  // namespace

Status fold_value(const AggregatePlan& plan, const RowReader& row, Weight weight, Accumulator& accumulator) {
  accumulator.non_null += weight;
  if (plan.spec.kind != AggregateKind::kSum && plan.spec.kind != AggregateKind::kAvg) return Status::OK();
  size_t column = plan.spec.column;
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
    case AggregateKind::kMin:
    case AggregateKind::kMax: FRESHET_ASSERT(false && "MIN/MAX read their traces");
  }
  out.set_null(plan.output_column);
  return Status::OK();
}

}  // namespace freshet::aggregate_detail
