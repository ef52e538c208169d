#include "aggregate_plan.h"

namespace freshet {

const char* aggregate_kind_name(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCountStar: return "COUNT(*)";
    case AggregateKind::kCount: return "COUNT";
    case AggregateKind::kCountDistinct: return "COUNT(DISTINCT)";
    case AggregateKind::kSum: return "SUM";
    case AggregateKind::kAvg: return "AVG";
    case AggregateKind::kMin: return "MIN";
    case AggregateKind::kMax: return "MAX";
    case AggregateKind::kVarPop:
      return "VAR_POP";
    case AggregateKind::kVarSamp:
      return "VAR_SAMP";
    case AggregateKind::kStddevPop:
      return "STDDEV_POP";
    case AggregateKind::kStddevSamp:
      return "STDDEV_SAMP";
    case AggregateKind::kBoolAnd:
      return "BOOL_AND";
    case AggregateKind::kBoolOr:
      return "BOOL_OR";
    case AggregateKind::kCountIf:
      return "COUNTIF";
    case AggregateKind::kBitAnd:
      return "BIT_AND";
    case AggregateKind::kBitOr:
      return "BIT_OR";
    case AggregateKind::kBitXor:
      return "BIT_XOR";
    case AggregateKind::kArgMin:
      return "ARG_MIN";
    case AggregateKind::kArgMax:
      return "ARG_MAX";
  }
  return "?";
}

bool is_count(AggregateKind kind) {
  return kind == AggregateKind::kCountStar || kind == AggregateKind::kCount || kind == AggregateKind::kCountDistinct ||
         kind == AggregateKind::kCountIf;
}

SqlType default_aggregate_type(AggregateKind kind, const SqlType& input) {
  if (is_count(kind)) return SqlType::bigint(false);
  switch (kind) {
    case AggregateKind::kSum:
      if (input.id == TypeId::kDecimal) return SqlType::decimal(kMaxDecimalPrecision, input.scale);
      return input.with_nullable(true);
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      return SqlType::boolean().with_nullable(true);
    default:
      return input.with_nullable(true);
  }
}

namespace {

bool is_variance(AggregateKind kind) {
  return kind == AggregateKind::kVarPop || kind == AggregateKind::kVarSamp || kind == AggregateKind::kStddevPop ||
         kind == AggregateKind::kStddevSamp;
}

}  // namespace

bool is_accumulated_aggregate(const AggregateSpec& spec, const SqlType& input) {
  switch (spec.kind) {
    case AggregateKind::kCountStar:
      return true;
    case AggregateKind::kCount:
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
    case AggregateKind::kCountIf:
    case AggregateKind::kBitXor:
      return !spec.distinct;
    case AggregateKind::kVarPop:
    case AggregateKind::kVarSamp:
    case AggregateKind::kStddevPop:
    case AggregateKind::kStddevSamp:
      return !spec.distinct && !input.is_floating();
    default:
      return false;
  }
}

namespace {

Status invalid(const AggregateSpec& spec, const std::string& problem) {
  return Status(ErrorCode::kInvalidArgument,
                std::string("aggregate '") + spec.name + "' (" + aggregate_kind_name(spec.kind) + "): " + problem);
}

Status validate_one(const Schema& value_schema, const AggregateSpec& spec) {
  const SqlType& result = spec.result_type;
  if (spec.kind == AggregateKind::kCountStar) {
    return result.is_integer() ? Status::OK() : invalid(spec, "the result type must be an integer type");
  }
  if (spec.column >= value_schema.size()) {
    return invalid(spec, "column " + std::to_string(spec.column) + " does not exist in " + value_schema.to_string());
  }
  const SqlType& input = value_schema.type(spec.column);
  auto same_type = [&]() {
    if (result.id == input.id && (input.id != TypeId::kDecimal || result.scale == input.scale)) return Status::OK();
    return invalid(spec, "the result type " + result.to_string() + " differs from the column's " + input.to_string());
  };
  switch (spec.kind) {
    case AggregateKind::kCount:
    case AggregateKind::kCountDistinct:
      return result.is_integer() ? Status::OK() : invalid(spec, "the result type must be an integer type");
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
      if (!input.is_numeric()) return invalid(spec, "cannot sum a " + input.to_string() + " column");
      if (!result.is_numeric()) return invalid(spec, "the result type must be numeric, not " + result.to_string());
      if (input.is_floating() && !result.is_floating()) {
        return invalid(spec, "a sum of floating-point values must have a floating-point type");
      }
      return Status::OK();
    case AggregateKind::kVarPop:
    case AggregateKind::kVarSamp:
    case AggregateKind::kStddevPop:
    case AggregateKind::kStddevSamp:
      if (!input.is_numeric()) return invalid(spec, "needs a numeric column, not " + input.to_string());
      return same_type();
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
    case AggregateKind::kCountIf:
      if (input.id != TypeId::kBoolean) return invalid(spec, "needs a BOOLEAN column, not " + input.to_string());
      if (spec.kind == AggregateKind::kCountIf) {
        return result.is_integer() ? Status::OK() : invalid(spec, "the result type must be an integer type");
      }
      return result.id == TypeId::kBoolean ? Status::OK() : invalid(spec, "the result type must be BOOLEAN");
    case AggregateKind::kBitAnd:
    case AggregateKind::kBitOr:
    case AggregateKind::kBitXor:
      if (!input.is_integer()) return invalid(spec, "needs an integer column, not " + input.to_string());
      return same_type();
    case AggregateKind::kArgMin:
    case AggregateKind::kArgMax:
      if (spec.compared_column >= value_schema.size()) {
        return invalid(
            spec, "column " + std::to_string(spec.compared_column) + " does not exist in " + value_schema.to_string());
      }
      return same_type();
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      return same_type();
    case AggregateKind::kCountStar: break;
  }
  return Status::OK();
}

}  // namespace

Status validate_aggregates(const Schema& value_schema, const std::vector<AggregateSpec>& aggregates) {
  for (const AggregateSpec& spec : aggregates) FRESHET_RETURN_IF_ERROR(validate_one(value_schema, spec));
  return Status::OK();
}

namespace aggregate_detail {

std::vector<AggregatePlan> make_plans(const Schema& value_schema, const std::vector<AggregateSpec>& aggregates,
                                      size_t first_output_column) {
  std::vector<AggregatePlan> plans;
  for (size_t i = 0; i < aggregates.size(); ++i) {
    AggregatePlan plan;
    plan.spec = aggregates[i];
    plan.output_column = first_output_column + i;
    const AggregateKind kind = plan.spec.kind;
    if (kind != AggregateKind::kCountStar) {
      plan.input_type = value_schema.type(plan.spec.column);
      plan.floating = plan.input_type.is_floating();
      plan.input_scale = plan.input_type.id == TypeId::kDecimal ? plan.input_type.scale : 0;
    }
    const bool distinct_sensitive = kind == AggregateKind::kSum || kind == AggregateKind::kAvg ||
                                    kind == AggregateKind::kCount || kind == AggregateKind::kCountIf ||
                                    kind == AggregateKind::kBitXor || is_variance(kind);
    plan.recomputed = kind == AggregateKind::kBitAnd || kind == AggregateKind::kBitOr ||
                      (plan.floating && (is_variance(kind) || (plan.spec.distinct && distinct_sensitive)));
    plan.folds_distinct = !plan.recomputed && plan.spec.distinct && distinct_sensitive;
    if (plan.arg()) {
      plan.value_schema =
          make_schema({{"compared", value_schema.type(plan.spec.compared_column)}, {"value", plan.input_type}});
      // Feldera's ARG_MAX is the MAX of (compared, value) pairs, NULL values lowest; ARG_MIN the MIN.
      const bool max = kind == AggregateKind::kArgMax;
      plan.order = {SortColumn{0, max, false}, SortColumn{1, max, !max}};
    } else if (plan.keeps_trace()) {
      plan.value_schema = make_schema({{"value", plan.input_type}});
      if (plan.ordered()) plan.order = {SortColumn{0, kind == AggregateKind::kMax, false}};
    }
    plan.trace_owner = i;
    if (plan.extreme_of_value()) {
      // NULLs never enter these traces, and a value's sort key is as
      // distinct as its bytes (canonical doubles), so MAX is the last entry
      // in MIN's order exactly as it is the first in its own.
      for (size_t owner = 0; owner < i; ++owner) {
        const AggregatePlan& earlier = plans[owner];
        if (earlier.extreme_of_value() && earlier.trace_owner == owner && earlier.spec.column == plan.spec.column) {
          plan.trace_owner = owner;
          plan.reads_last = earlier.spec.kind != kind;
          break;
        }
      }
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace aggregate_detail
}  // namespace freshet
