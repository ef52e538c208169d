// QueryBinder: a SELECT list with window function calls.
//
//   input ─► Project [input columns..., computed ORDER BY / argument columns...]
//         ─► Window (one per distinct PARTITION BY + ORDER BY)  rows: [..., one column per call]
//         ─► Project select list (each call becomes its window column)
//
// Calls with the same PARTITION BY and ORDER BY share one window operator,
// whatever their frames.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>

#include "aggregate_functions.h"
#include "binder.h"
#include "expression_binder.h"
#include "function_catalog.h"
#include "group_by_sets.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

//! A non-negative count of positions (LAG/LEAD, ROWS), capped at 2^62: more
//! rows than any partition holds, and far from overflow when added to a position.
int64_t position_offset(const std::string& digits) {
  constexpr uint64_t kCap = uint64_t{1} << 62;
  uint64_t value = std::strtoull(digits.c_str(), nullptr, 10);  // saturates at UINT64_MAX
  return static_cast<int64_t>(std::min(value, kCap));
}

void collect_calls(const AstExpr& ast, std::vector<const AstExpr*>& calls) {
  if (ast.kind == AstExprKind::kFunction && ast.over) {
    calls.push_back(&ast);
    return;
  }
  for (const AstExprPtr& child : ast.children) {
    if (child) collect_calls(*child, calls);
  }
  if (ast.case_operand) collect_calls(*ast.case_operand, calls);
  if (ast.else_result) collect_calls(*ast.else_result, calls);
}

//! A call's window after resolving `OVER name` / `OVER (name ...)`.
struct ResolvedSpec {
  const std::vector<AstExprPtr>* partition_by;
  const std::vector<OrderItem>* order_by;
  const WindowFrame* frame;
};

Result<ResolvedSpec> resolve_spec(const WindowSpec& spec, const Select& select) {
  ResolvedSpec resolved{&spec.partition_by, &spec.order_by, spec.frame ? &*spec.frame : nullptr};
  if (spec.base.empty()) return resolved;
  const NamedWindow* base = nullptr;
  for (const NamedWindow& window : select.windows) {
    if (window.name == spec.base) base = &window;
  }
  if (!base) return sql_error(spec.position, "unknown window '" + spec.base + "'");
  if (!base->spec.base.empty()) return sql_error(base->position, "a window cannot be defined from another window");
  if (!spec.partition_by.empty()) {
    return sql_error(spec.position, "cannot override PARTITION BY of window '" + spec.base + "'");
  }
  if (!spec.order_by.empty() && !base->spec.order_by.empty()) {
    return sql_error(spec.position, "cannot override ORDER BY of window '" + spec.base + "'");
  }
  if (base->spec.frame)
    return sql_error(spec.position, "cannot copy window '" + spec.base + "' because it has a frame");
  resolved.partition_by = &base->spec.partition_by;
  if (spec.order_by.empty()) resolved.order_by = &base->spec.order_by;
  return resolved;
}

//! The pre-projection: the input's columns, then computed expressions
//! (ORDER BY keys, arguments, LAG defaults) each once.
struct Columns {
  size_t width = 0;  //!< the input's columns come first
  std::vector<ExprPtr> expressions;
  std::vector<std::string> texts;

  //! The pre-projection column holding `expr`.
  size_t add(ExprPtr expr) {
    if (expr->kind == ExprKind::kColumn) return expr->column;
    std::string text = expr->to_string();
    for (size_t i = 0; i < texts.size(); ++i) {
      if (texts[i] == text) return width + i;
    }
    texts.push_back(text);
    expressions.push_back(std::move(expr));
    return width + texts.size() - 1;
  }
};

struct Group {
  std::string key;
  std::vector<ExprPtr> partition_by;
  std::vector<SortColumn> order_by;
  std::vector<SqlType> order_types;
  std::vector<WindowFunction> functions;
  std::vector<const AstExpr*> calls;
};

class WindowCallBinder {
 public:
  WindowCallBinder(const Scope& input, const Select& select, Columns& columns)
      : input_(input), select_(select), columns_(columns) {}

  //! Binds one call into its group (a new one for a new PARTITION BY + ORDER BY).
  Status bind(const AstExpr& call, std::vector<Group>& groups);

 private:
  Result<ExprPtr> bind_operand(const AstExpr& ast) {
    if (contains_window(ast)) return sql_error(ast.position, "window functions cannot be nested");
    if (contains_aggregate(ast)) return sql_error(ast.position, "aggregates are not allowed inside a window function");
    return ExpressionBinder(input_).bind(ast);
  }
  Status bind_function(const AstExpr& call, const Group& group, const ResolvedSpec& spec, WindowFunction& out);
  Status bind_frame(const AstExpr& call, const Group& group, const WindowFrame& frame, WindowFunction& out);
  Status bind_frame_value(const AstExpr& call, const Group& group, const ResolvedSpec& spec, WindowFunction& out);
  Result<WindowBound> bind_bound(const FrameBound& bound, const Group& group, FrameUnit unit);
  //! A RANGE offset over TIMESTAMP, DATE or TIME: a constant day-time INTERVAL.
  Result<WindowBound> bind_interval_offset(const AstExpr& offset, const SqlType& order_type, WindowBound out);

  const Scope& input_;
  const Select& select_;
  Columns& columns_;
};

Status WindowCallBinder::bind(const AstExpr& call, std::vector<Group>& groups) {
  Result<ResolvedSpec> spec = resolve_spec(*call.over, select_);
  if (!spec.ok()) return spec.status();
  Group group;
  for (const AstExprPtr& key : *spec->partition_by) {
    Result<ExprPtr> bound = bind_operand(*key);
    if (!bound.ok()) return bound.status();
    group.key += (*bound)->to_string() + ",";
    group.partition_by.push_back(std::move(*bound));
  }
  group.key += "|";
  for (const OrderItem& item : *spec->order_by) {
    Result<ExprPtr> bound = bind_operand(*item.expr);
    if (!bound.ok()) return bound.status();
    bool nulls_first = item.nulls_first.value_or(item.descending);
    group.key += (*bound)->to_string() + (item.descending ? " DESC" : " ASC") + (nulls_first ? " NF," : " NL,");
    group.order_types.push_back((*bound)->type);
    group.order_by.push_back({columns_.add(std::move(*bound)), item.descending, nulls_first});
  }
  WindowFunction function;
  FRESHET_RETURN_IF_ERROR(bind_function(call, group, *spec, function));
  for (Group& existing : groups) {
    if (existing.key != group.key) continue;
    existing.functions.push_back(std::move(function));
    existing.calls.push_back(&call);
    return Status::OK();
  }
  group.functions.push_back(std::move(function));
  group.calls.push_back(&call);
  groups.push_back(std::move(group));
  return Status::OK();
}

Status WindowCallBinder::bind_function(const AstExpr& call, const Group& group, const ResolvedSpec& spec,
                                       WindowFunction& out) {
  const std::string& name = call.name;
  const size_t arguments = call.children.size();
  if (call.distinct) return sql_error(call.position, name + "(DISTINCT ...) OVER is not supported");
  // The catalog says what the name is; aggregates are in their own table.
  const FunctionEntry* entry = find_function(name);
  FunctionBinder binder = entry ? entry->binder : FunctionBinder::kNone;
  if (binder == FunctionBinder::kRank) {
    if (arguments != 0) return sql_error(call.position, name + "() takes no arguments");
    if (spec.frame) return sql_error(spec.frame->position, name + "() does not take a window frame");
    if (name != "row_number" && group.order_by.empty()) {
      return sql_error(call.position, name + "() needs ORDER BY in its window");
    }
    out.kind = name == "row_number" ? WindowFunctionKind::kRowNumber
               : name == "rank"     ? WindowFunctionKind::kRank
                                    : WindowFunctionKind::kDenseRank;
    out.result_type = SqlType::bigint(false);
    return Status::OK();
  }
  if (binder == FunctionBinder::kOffset) {
    if (arguments < 1 || arguments > 3) return sql_error(call.position, name + "() takes 1 to 3 arguments");
    if (spec.frame) return sql_error(spec.frame->position, name + "() does not take a window frame");
    out.kind = name == "lag" ? WindowFunctionKind::kLag : WindowFunctionKind::kLead;
    Result<ExprPtr> value = bind_operand(*call.children[0]);
    if (!value.ok()) return value.status();
    if (is_null_literal(**value)) *value = null_literal(SqlType::integer());
    SqlType type = (*value)->type.with_nullable(true);
    if (arguments >= 2) {
      const AstExpr& offset = *call.children[1];
      if (offset.kind != AstExprKind::kLiteral || offset.literal_kind != LiteralKind::kInteger ||
          offset.text[0] == '-') {
        return sql_error(offset.position, name + "() offset must be a non-negative integer constant");
      }
      out.offset = position_offset(offset.text);
    }
    if (arguments == 3) {
      Result<ExprPtr> fallback = bind_operand(*call.children[2]);
      if (!fallback.ok()) return fallback.status();
      if (!is_null_literal(**fallback)) {
        std::optional<SqlType> common = common_type((*value)->type, (*fallback)->type);
        if (!common) {
          return sql_error(call.children[2]->position, name + "() default must have the type of its value (" +
                                                           describe((*value)->type) + "), not " +
                                                           describe((*fallback)->type));
        }
        type = common->with_nullable(true);
        out.default_column = columns_.add(cast_to(std::move(*fallback), type));
      }
    }
    out.column = columns_.add(cast_to(std::move(*value), type));
    out.result_type = type;
    return Status::OK();
  }
  if (binder == FunctionBinder::kFrameValue) return bind_frame_value(call, group, spec, out);
  if (entry && entry->kind == SqlFunctionKind::kUnsupported) {
    return sql_error(call.position, unsupported_message(*entry));
  }
  const AggregateFunction* function = find_aggregate_function(name);
  if (!function) {
    return sql_error(call.position, name + "() is not a window function");
  }
  out.kind = WindowFunctionKind::kAggregate;
  SqlType argument_type = SqlType::bigint(false);
  ExprPtr filter;
  if (call.filter) {
    if (contains_window(*call.filter) || contains_aggregate(*call.filter)) {
      return sql_error(call.filter->position, "FILTER (WHERE ...) cannot hold aggregates or window functions");
    }
    Result<ExprPtr> bound = ExpressionBinder(input_).bind_condition(*call.filter, "FILTER");
    if (!bound.ok()) return bound.status();
    filter = std::move(*bound);
  }
  if (call.star && filter) {
    // COUNT(*) FILTER (WHERE c) is COUNTIF(c).
    out.aggregate = AggregateKind::kCountIf;
    out.column = columns_.add(std::move(filter));
  } else if (call.star) {
    out.aggregate = AggregateKind::kCountStar;
  } else {
    if (arguments != function->arguments) {
      const char* noun = function->arguments == 1 ? " argument" : " arguments";
      return sql_error(call.position, name + "() takes " + std::to_string(function->arguments) + noun + ", not " +
                                          std::to_string(arguments));
    }
    out.aggregate = function->kind;
    for (size_t i = 0; i < arguments; ++i) {
      Result<ExprPtr> argument = bind_operand(*call.children[i]);
      if (!argument.ok()) return argument.status();
      if (is_null_literal(**argument)) {
        *argument =
            null_literal(function->argument == AggregateArgument::kBoolean ? SqlType::boolean() : SqlType::integer());
      }
      if (!argument_fits(function->argument, (*argument)->type)) {
        return sql_error(call.position, name + "() needs " + describe_argument(function->argument) + " argument, not " +
                                            (*argument)->type.to_string());
      }
      if (filter && i + 1 == arguments) {
        // FILTER: the (last, for ARG_*: compared) argument is NULL in the rows it drops.
        SqlType type = (*argument)->type.with_nullable(true);
        std::vector<ExprPtr> children;
        children.push_back(std::move(filter));
        children.push_back(std::move(*argument));
        *argument = make_expr(ExprKind::kCase, type, std::move(children));
      }
      if (i == 0) argument_type = (*argument)->type;
      (i == 0 ? out.column : out.compared_column) = columns_.add(std::move(*argument));
    }
  }
  out.result_type = default_aggregate_type(out.aggregate, argument_type);
  set_default_frame(out, !group.order_by.empty());
  if (spec.frame) FRESHET_RETURN_IF_ERROR(bind_frame(call, group, *spec.frame, out));
  return Status::OK();
}

// FIRST_VALUE(x) / LAST_VALUE(x): x at the first / last row of the frame
// (NULL for an empty one). As in Feldera, the frame's bounds are UNBOUNDED
// PRECEDING, CURRENT ROW or UNBOUNDED FOLLOWING, FIRST_VALUE's starting at
// UNBOUNDED PRECEDING and LAST_VALUE's ending at UNBOUNDED FOLLOWING: one is
// the partition's first row, the other its last.
Status WindowCallBinder::bind_frame_value(const AstExpr& call, const Group& group, const ResolvedSpec& spec,
                                          WindowFunction& out) {
  const std::string& name = call.name;
  const bool first = name == "first_value";
  if (call.children.size() != 1) return sql_error(call.position, name + "() takes 1 argument");
  Result<ExprPtr> value = bind_operand(*call.children[0]);
  if (!value.ok()) return value.status();
  if (is_null_literal(**value)) *value = null_literal(SqlType::integer());
  SqlType type = (*value)->type.with_nullable(true);
  out.kind = first ? WindowFunctionKind::kFirstValue : WindowFunctionKind::kLastValue;
  out.column = columns_.add(cast_to(std::move(*value), type));
  out.result_type = type;
  set_default_frame(out, !group.order_by.empty());  // as an aggregate's, when the window names no frame
  if (spec.frame) FRESHET_RETURN_IF_ERROR(bind_frame(call, group, *spec.frame, out));
  const SourcePosition position = spec.frame ? spec.frame->position : call.position;
  if (has_offset(out.start) || has_offset(out.end)) {
    return sql_error(position, name +
                                   "() over a frame with an offset is not supported (as in Feldera: its bounds "
                                   "are UNBOUNDED PRECEDING, CURRENT ROW or UNBOUNDED FOLLOWING)");
  }
  if (first && out.start.kind != WindowBound::Kind::kUnboundedPreceding) {
    return sql_error(position, "first_value() needs a frame that starts at UNBOUNDED PRECEDING (as in Feldera)");
  }
  if (!first && out.end.kind != WindowBound::Kind::kUnboundedFollowing) {
    return sql_error(position,
                     "last_value() needs a frame that ends at UNBOUNDED FOLLOWING (as in Feldera): with "
                     "ORDER BY, write ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING");
  }
  return Status::OK();
}

Status WindowCallBinder::bind_frame(const AstExpr& call, const Group& group, const WindowFrame& frame,
                                    WindowFunction& out) {
  using Kind = FrameBoundKind;
  if (frame.start.kind == Kind::kUnboundedFollowing) {
    return sql_error(frame.start.position, "a window frame cannot start at UNBOUNDED FOLLOWING");
  }
  if (frame.end.kind == Kind::kUnboundedPreceding) {
    return sql_error(frame.end.position, "a window frame cannot end at UNBOUNDED PRECEDING");
  }
  auto rank = [](Kind kind) {
    return kind == Kind::kPreceding            ? 1
           : kind == Kind::kCurrentRow         ? 2
           : kind == Kind::kFollowing          ? 3
           : kind == Kind::kUnboundedPreceding ? 0
                                               : 4;
  };
  if (rank(frame.start.kind) > rank(frame.end.kind) ||
      (frame.start.kind == Kind::kFollowing && frame.end.kind != Kind::kFollowing &&
       frame.end.kind != Kind::kUnboundedFollowing)) {
    return sql_error(frame.position, "the window frame starts after it ends");
  }
  out.rows_frame = frame.unit == FrameUnit::kRows;
  Result<WindowBound> start = bind_bound(frame.start, group, frame.unit);
  if (!start.ok()) return start.status();
  Result<WindowBound> end = bind_bound(frame.end, group, frame.unit);
  if (!end.ok()) return end.status();
  out.start = *start;
  out.end = *end;
  (void)call;
  return Status::OK();
}

Result<WindowBound> WindowCallBinder::bind_bound(const FrameBound& bound, const Group& group, FrameUnit unit) {
  WindowBound out;
  switch (bound.kind) {
    case FrameBoundKind::kUnboundedPreceding:
      out.kind = WindowBound::Kind::kUnboundedPreceding;
      return out;
    case FrameBoundKind::kUnboundedFollowing:
      out.kind = WindowBound::Kind::kUnboundedFollowing;
      return out;
    case FrameBoundKind::kCurrentRow:
      out.kind = WindowBound::Kind::kCurrentRow;
      return out;
    case FrameBoundKind::kPreceding:
      out.kind = WindowBound::Kind::kPreceding;
      break;
    case FrameBoundKind::kFollowing:
      out.kind = WindowBound::Kind::kFollowing;
      break;
  }
  const AstExpr& offset = *bound.offset;
  if (unit == FrameUnit::kRows) {
    if (offset.kind != AstExprKind::kLiteral || offset.literal_kind != LiteralKind::kInteger || offset.text[0] == '-') {
      return sql_error(offset.position, "a ROWS frame offset must be a non-negative integer constant");
    }
    out.rows = position_offset(offset.text);
    return out;
  }
  if (group.order_by.size() != 1) {
    return sql_error(offset.position, "a RANGE frame with an offset needs exactly one ORDER BY column");
  }
  const SqlType& order_type = group.order_types[0];
  if (order_type.is_datetime()) return bind_interval_offset(offset, order_type, out);
  bool numeric_literal = offset.kind == AstExprKind::kLiteral &&
                         (offset.literal_kind == LiteralKind::kInteger ||
                          offset.literal_kind == LiteralKind::kDecimal || offset.literal_kind == LiteralKind::kFloat);
  if (!order_type.is_numeric()) {
    return sql_error(offset.position, "a RANGE frame offset over " + describe(order_type) + " is not supported");
  }
  if (!numeric_literal || offset.text[0] == '-') {
    return sql_error(offset.position, "a RANGE frame offset must be a non-negative numeric constant");
  }
  Scope no_columns;
  Result<ExprPtr> literal = ExpressionBinder(no_columns).bind(offset);
  if (!literal.ok()) return literal.status();
  ExprPtr value = cast_to(std::move(*literal), order_type.with_nullable(false));
  Evaluator evaluator;
  static const Schema& empty = *empty_schema();
  RowBuilder nothing(empty);
  Datum datum = evaluator.evaluate(*value, RowReader(empty, nothing.finish()));
  if (evaluator.failed())
    return sql_error(offset.position, "the RANGE frame offset does not fit " + describe(order_type));
  out.exact = order_type.id == TypeId::kDecimal ? datum.decimal : int128{datum.integer};
  out.floating = datum.floating;
  return out;
}

Result<WindowBound> WindowCallBinder::bind_interval_offset(const AstExpr& offset, const SqlType& order_type,
                                                           WindowBound out) {
  constexpr int64_t kMicrosPerDay = 86'400'000'000;
  std::string what = "a RANGE frame offset over " + describe(order_type);
  Scope no_columns;
  Result<ExprPtr> literal = ExpressionBinder(no_columns).bind(offset);
  if (!literal.ok() || (*literal)->kind != ExprKind::kLiteral || !(*literal)->type.is_interval() ||
      (*literal)->literal.null) {
    return sql_error(offset.position, what + " must be a constant INTERVAL");
  }
  if ((*literal)->type.id == TypeId::kIntervalYearMonth) {
    return sql_error(offset.position, what +
                                          " cannot be a YEAR or MONTH interval (months differ in length); "
                                          "use days, such as INTERVAL '30' DAY");
  }
  int64_t micros = (*literal)->literal.integer;
  if (micros < 0) return sql_error(offset.position, what + " must not be negative");
  if (order_type.id == TypeId::kDate) {
    if (micros % kMicrosPerDay != 0) return sql_error(offset.position, what + " must be a whole number of days");
    out.exact = micros / kMicrosPerDay;
  } else {
    out.exact = micros;
  }
  return out;
}

//! QUALIFY's condition over the window rows: its calls and those of the
//! select items it names by alias (when no input column has the name) read
//! their window columns; a filter on a rank there becomes the top-k rule's.
Result<ExprPtr> bind_qualify(const Select& select, const Scope& input, const std::map<const AstExpr*, size_t>& call_columns,
                             const std::vector<Column>& row_columns) {
  std::vector<std::string> expanding;  // aliases being bound: `x AS x` reads the input column
  ExpressionBinder* self = nullptr;
  std::function<Result<ExprPtr>(const AstExpr&)> intercept;
  intercept = [&](const AstExpr& ast) -> Result<ExprPtr> {
    auto found = call_columns.find(&ast);
    if (found != call_columns.end()) return column_expr(found->second, row_columns[found->second].type);
    if (ast.kind != AstExprKind::kColumnRef || ast.names.size() != 1 || input.resolve(ast.names, ast.position).ok() ||
        std::find(expanding.begin(), expanding.end(), ast.names[0]) != expanding.end()) {
      return ExprPtr();
    }
    Result<const SelectItem*> item = find_alias(select, ast.names[0], ast.position);
    if (!item.ok()) return item.status();
    if (!*item) return ExprPtr();
    expanding.push_back(ast.names[0]);
    Result<ExprPtr> bound = self->bind(*(*item)->expr);
    expanding.pop_back();
    return bound;
  };
  ExpressionBinder binder(input, intercept);
  self = &binder;
  return binder.bind_condition(*select.qualify, "QUALIFY");
}

}  // namespace

Result<QueryBinder::Bound> QueryBinder::bind_window(const Select& select, Bound input) {
  Columns columns;
  columns.width = input.scope.columns.size();
  std::vector<const AstExpr*> calls;
  for (const SelectItem& item : select.items) {
    if (item.expr) collect_calls(*item.expr, calls);
  }
  if (select.qualify) collect_calls(*select.qualify, calls);
  std::vector<Group> groups;
  WindowCallBinder call_binder(input.scope, select, columns);
  for (const AstExpr* call : calls) FRESHET_RETURN_IF_ERROR(call_binder.bind(*call, groups));

  // input -> [input columns..., computed columns...]
  std::vector<Column> row_columns;
  for (const ScopeColumn& column : input.scope.columns) row_columns.push_back({column.name, column.type});
  for (size_t i = 0; i < columns.expressions.size(); ++i) {
    row_columns.push_back({"window_operand" + std::to_string(i), columns.expressions[i]->type});
  }
  PlanPtr plan = std::move(input.plan);
  if (!columns.expressions.empty()) {
    PlanPtr project = make_plan(LogicalPlan::Kind::kProject, make_schema(row_columns), std::move(plan));
    for (size_t c = 0; c < columns.width; ++c) project->expressions.push_back(column_expr(c, row_columns[c].type));
    for (ExprPtr& expr : columns.expressions) project->expressions.push_back(std::move(expr));
    plan = std::move(project);
  }
  // -> one window node per group, each appending its functions' columns.
  std::map<const AstExpr*, size_t> call_columns;
  for (Group& group : groups) {
    for (size_t f = 0; f < group.functions.size(); ++f) {
      group.functions[f].name = "window" + std::to_string(row_columns.size());
      call_columns[group.calls[f]] = row_columns.size();
      row_columns.push_back({group.functions[f].name, group.functions[f].result_type});
    }
    PlanPtr node = make_plan(LogicalPlan::Kind::kWindow, make_schema(row_columns), std::move(plan));
    node->partition_by = std::move(group.partition_by);
    node->window.order_by = std::move(group.order_by);
    node->window.functions = std::move(group.functions);
    plan = std::move(node);
  }
  // -> the select list, each call read from its column.
  auto intercept = [&](const AstExpr& ast) -> Result<ExprPtr> {
    auto found = call_columns.find(&ast);
    if (found == call_columns.end()) return ExprPtr();
    return column_expr(found->second, row_columns[found->second].type);
  };
  ExpressionBinder binder(input.scope, intercept);
  if (select.qualify) {
    Result<ExprPtr> condition = bind_qualify(select, input.scope, call_columns, row_columns);
    if (!condition.ok()) return condition.status();
    PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(plan));
    filter->predicate = std::move(*condition);
    plan = std::move(filter);
  }
  return project_select_list(select, input.scope, binder, std::move(plan));
}

}  // namespace freshet::sql
