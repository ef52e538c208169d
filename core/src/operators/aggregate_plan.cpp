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
  }
  return "?";
}

SqlType default_aggregate_type(AggregateKind kind, const SqlType& input) {
  switch (kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
    case AggregateKind::kCountDistinct: return SqlType::bigint(false);
    case AggregateKind::kSum:
      if (input.id == TypeId::kDecimal) return SqlType::decimal(kMaxDecimalPrecision, input.scale);
      return input.with_nullable(true);
    case AggregateKind::kAvg:
    case AggregateKind::kMin:
    case AggregateKind::kMax: return input.with_nullable(true);
  }
  return input;
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
    case AggregateKind::kMin:
    case AggregateKind::kMax:
      if (result.id != input.id || (input.id == TypeId::kDecimal && result.scale != input.scale)) {
        return invalid(spec,
                       "the result type " + result.to_string() + " differs from the column's " + input.to_string());
      }
      return Status::OK();
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
    if (plan.spec.kind != AggregateKind::kCountStar) {
      plan.input_type = value_schema.type(plan.spec.column);
      plan.floating = plan.input_type.is_floating();
      plan.input_scale = plan.input_type.id == TypeId::kDecimal ? plan.input_type.scale : 0;
    }
    if (plan.keeps_trace()) plan.value_schema = make_schema({{"value", plan.input_type}});
    if (plan.ordered()) plan.order = {SortColumn{0, plan.spec.kind == AggregateKind::kMax, false}};
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace aggregate_detail
}  // namespace freshet
