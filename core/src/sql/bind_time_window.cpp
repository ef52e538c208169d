// QueryBinder: the window table functions TUMBLE and HOP. Their rows are the
// data's columns, then window_start and window_end (TIMESTAMP NOT NULL: a
// row whose time is NULL is in no window and produces no row, as Feldera).
#include "binder.h"
#include "window_interval.h"

namespace freshet::sql {

Result<QueryBinder::Bound> QueryBinder::bind_time_window(const TableRef& table) {
  const TimeWindowCall& call = *table.time_window;
  const bool tumble = call.function == TimeWindowCall::Function::kTumble;
  const std::string function = tumble ? "TUMBLE" : "HOP";
  Result<Bound> data = bind_from(*call.data);
  if (!data.ok()) return data.status();

  LogicalPlan::TimeWindow window;
  Result<size_t> time_column = data->scope.resolve({call.time_column}, call.time_position);
  if (!time_column.ok()) return time_column.status();
  window.time_column = *time_column;
  const SqlType& time_type = data->scope.columns[window.time_column].type;
  if (time_type.id != TypeId::kTimestamp) {
    return sql_error(call.time_position, function + "'s time column '" + call.time_column + "' is " +
                                             time_type.with_nullable(true).to_string() + "; it must be a TIMESTAMP");
  }
  // In the order of the arguments: HOP's slide comes before its size.
  if (!tumble) {
    Result<int64_t> slide = constant_interval_micros(*call.slide, "HOP's SLIDE");
    if (!slide.ok()) return slide.status();
    if (*slide <= 0) return sql_error(call.slide->position, "HOP's SLIDE must be positive");
    window.windows.slide = *slide;
  }
  Result<int64_t> size = constant_interval_micros(*call.size, function + "'s SIZE");
  if (!size.ok()) return size.status();
  if (*size <= 0) return sql_error(call.size->position, function + "'s SIZE must be positive");
  window.windows.size = *size;
  if (tumble) window.windows.slide = *size;
  if (call.offset) {
    Result<int64_t> offset = constant_interval_micros(*call.offset, function + "'s OFFSET");
    if (!offset.ok()) return offset.status();
    window.windows.offset = *offset;
  }

  Scope scope = data->scope;
  if (!table.alias.empty()) {
    for (ScopeColumn& column : scope.columns) column.table = table.alias;
  }
  const std::string& qualifier = table.alias;
  scope.columns.push_back({qualifier, "window_start", SqlType::timestamp(false)});
  scope.columns.push_back({qualifier, "window_end", SqlType::timestamp(false)});
  PlanPtr plan = make_plan(LogicalPlan::Kind::kTimeWindow, schema_of(scope), std::move(data->plan));
  plan->time_window = window;
  return Bound{std::move(plan), std::move(scope)};
}

}  // namespace freshet::sql
