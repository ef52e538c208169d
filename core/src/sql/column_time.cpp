#include "column_time.h"

namespace freshet::sql {

std::optional<GroupEvictionSpec> column_time(const LogicalPlan& plan, size_t column, const WatermarkLookup& lookup) {
  switch (plan.kind) {
    case LogicalPlan::Kind::kScan: {
      if (!lookup) return std::nullopt;
      std::optional<GroupEvictionSpec> time = lookup(plan.source, column);
      if (time) time->key_column = column;
      return time;
    }
    case LogicalPlan::Kind::kFilter:
      return column_time(*plan.inputs[0], column, lookup);
    case LogicalPlan::Kind::kProject: {
      const Expr& expr = *plan.expressions[column];
      if (expr.kind != ExprKind::kColumn) return std::nullopt;
      return column_time(*plan.inputs[0], expr.column, lookup);
    }
    case LogicalPlan::Kind::kTimeWindow: {
      const size_t width = plan.inputs[0]->schema->size();
      if (column < width) return column_time(*plan.inputs[0], column, lookup);
      std::optional<GroupEvictionSpec> time = column_time(*plan.inputs[0], plan.time_window.time_column, lookup);
      if (!time || time->span != 1) return std::nullopt;  // windows over the LATENESS column itself only
      time->span = column == width ? plan.time_window.windows.size : 0;
      time->key_column = column;
      return time;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace freshet::sql
