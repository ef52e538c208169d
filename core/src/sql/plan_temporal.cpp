// NOW() in plans. A WHERE/HAVING/ON conjunct comparing a row expression with
// an expression of NOW() and constants (`ts > NOW() - INTERVAL '1' HOUR`)
// becomes a temporal filter (operators/temporal_filter.h): O(changes) per
// step, rows leave and enter as the clock passes them. Conjuncts on the same
// row expression share one operator (`ts BETWEEN NOW() - ... AND NOW()` is a
// window with two ends). Every other use of NOW() (in SELECT, in a
// condition the temporal filter cannot take) joins the rows with the
// clock's one-row stream, as Feldera does: correct, but each tick of the
// clock redoes every row of the input (O(rows) per tick).
//
//   input ──► filter(plain conjuncts) ──► temporal_filter(ts) ──► ...
//         ──► join(rows, clock) ──► filter/map with NOW() = the last column
#include "expression_tools.h"
#include "freshet/circuit/operator_description.h"
#include "freshet/operators/filter.h"
#include "freshet/operators/join.h"
#include "freshet/operators/map.h"
#include "freshet/operators/temporal_filter.h"
#include "planner.h"

namespace freshet::sql {
namespace {

// Keys a temporal filter can order: types held as one integer.
bool integer_backed(const SqlType& type) {
  switch (type.id) {
    case TypeId::kTinyInt:
    case TypeId::kSmallInt:
    case TypeId::kInt:
    case TypeId::kBigInt:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTime:
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return true;
    default: return false;
  }
}

// Whether `expr` (no columns) is non-decreasing in NOW(): a constant, NOW()
// plus or minus constants, a CAST between DATE and TIMESTAMP of one.
bool monotone_in_now(const Expr& expr) {
  if (!contains_now(expr) || expr.kind == ExprKind::kNow) return true;
  if (expr.kind == ExprKind::kArithmetic && expr.op == AstOperator::kAdd) {
    return monotone_in_now(*expr.children[0]) && monotone_in_now(*expr.children[1]);
  }
  if (expr.kind == ExprKind::kArithmetic && expr.op == AstOperator::kSubtract) {
    return monotone_in_now(*expr.children[0]) && !contains_now(*expr.children[1]);
  }
  if (expr.kind == ExprKind::kCast) {
    auto temporal = [](TypeId id) { return id == TypeId::kDate || id == TypeId::kTimestamp; };
    return temporal(expr.type.id) && temporal(expr.children[0]->type.id) && monotone_in_now(*expr.children[0]);
  }
  return false;
}

// The comparison with its operands swapped: a < b is b > a.
AstOperator mirrored(AstOperator op) {
  switch (op) {
    case AstOperator::kLess: return AstOperator::kGreater;
    case AstOperator::kLessEqual: return AstOperator::kGreaterEqual;
    case AstOperator::kGreater: return AstOperator::kLess;
    case AstOperator::kGreaterEqual: return AstOperator::kLessEqual;
    default: return op;
  }
}

// One temporal filter: a row expression and the bounds it is compared with.
struct TemporalGroup {
  ExprPtr row;
  std::vector<ExprPtr> bounds;                       // expressions of NOW() (column 0 of a one-column row)
  std::vector<std::pair<size_t, bool>> lows, highs;  // (index in bounds, inclusive)
};

// Adds `conjunct` to the group of its row expression when it is a temporal
// filter's comparison; false (and `conjunct` untouched) otherwise.
bool add_temporal_conjunct(ExprPtr& conjunct, std::vector<TemporalGroup>& groups) {
  if (conjunct->kind != ExprKind::kCompare) return false;
  AstOperator op = conjunct->op;
  if (op != AstOperator::kLess && op != AstOperator::kLessEqual && op != AstOperator::kGreater &&
      op != AstOperator::kGreaterEqual && op != AstOperator::kEqual) {
    return false;
  }
  if (!integer_backed(conjunct->children[0]->type)) return false;
  int now_side = -1;
  for (int i = 0; i < 2; ++i) {
    const Expr& side = *conjunct->children[i];
    if (contains_now(side) && referenced_columns(side).empty() && monotone_in_now(side)) now_side = i;
  }
  if (now_side < 0) return false;
  const Expr& row_side = *conjunct->children[1 - now_side];
  if (contains_now(row_side) || referenced_columns(row_side).empty()) return false;
  if (now_side == 0) op = mirrored(op);  // NOW() op row  =>  row op' NOW()
  ExprPtr bound = std::move(conjunct->children[now_side]);
  ExprPtr row = std::move(conjunct->children[1 - now_side]);
  TemporalGroup* group = nullptr;
  for (TemporalGroup& g : groups) {
    if (g.row->to_string() == row->to_string()) group = &g;
  }
  if (!group) {
    groups.push_back({std::move(row), {}, {}, {}});
    group = &groups.back();
  }
  replace_now(*bound, 0);
  const size_t index = group->bounds.size();
  group->bounds.push_back(std::move(bound));
  const bool inclusive = op == AstOperator::kGreaterEqual || op == AstOperator::kLessEqual || op == AstOperator::kEqual;
  if (op != AstOperator::kLess && op != AstOperator::kLessEqual) group->lows.emplace_back(index, inclusive);
  if (op != AstOperator::kGreater && op != AstOperator::kGreaterEqual) group->highs.emplace_back(index, inclusive);
  return true;
}

// The row's key and the window, evaluated for one temporal filter.
struct TemporalEvaluation {
  TemporalGroup group;
  Evaluator row_evaluator, window_evaluator;
  SchemaPtr now_schema = make_schema({{"now", SqlType::timestamp(false)}});
  RuntimeErrors errors;  // in 'null' mode a key or bound that fails is NULL (logged)

  std::optional<int64_t> key(const RowReader& row) {
    row_evaluator.start_row();
    Datum key = row_evaluator.evaluate(*group.row, row);
    errors.after(row_evaluator, *group.row, row, key.null);
    if (errors.report(row_evaluator) || key.null) return std::nullopt;
    return key.integer;
  }

  // A bound over the clock's row; an error left (in 'fail' mode) fails the filter.
  Result<Datum> bound(size_t index, const RowReader& clock_row) {
    Datum value = window_evaluator.evaluate(*group.bounds[index], clock_row);
    errors.after(window_evaluator, *group.bounds[index], clock_row, value.null);
    if (window_evaluator.failed()) return window_evaluator.take_error();
    return value;
  }

  Result<TemporalWindow> window(int64_t now) {
    RowBuilder builder(*now_schema);
    builder.set_int(0, now);
    RowReader clock_row(*now_schema, builder.finish());
    window_evaluator.start_row();
    TemporalWindow window;
    // A NULL bound (in 'null' mode, one that failed too) lets nothing through.
    for (const auto& [index, inclusive] : group.lows) {
      Result<Datum> bound = this->bound(index, clock_row);
      if (!bound.ok()) return bound.status();
      if (bound->null || (!inclusive && bound->integer == INT64_MAX)) return TemporalWindow{1, 0};
      window.low = std::max(window.low, inclusive ? bound->integer : bound->integer + 1);
    }
    for (const auto& [index, inclusive] : group.highs) {
      Result<Datum> bound = this->bound(index, clock_row);
      if (!bound.ok()) return bound.status();
      if (bound->null || (!inclusive && bound->integer == INT64_MIN)) return TemporalWindow{1, 0};
      window.high = std::min(window.high, inclusive ? bound->integer : bound->integer - 1);
    }
    return window;
  }
};

// `input`: the filtered rows' schema, whose names the key's errors use.
TemporalBounds make_bounds(TemporalGroup group, const RuntimeErrors& errors, const Schema& input) {
  auto state = std::make_shared<TemporalEvaluation>();
  state->group = std::move(group);
  state->errors = errors;
  state->row_evaluator.set_column_names(column_names(input));
  state->window_evaluator.set_column_names({"NOW()"});  // a bound reads the clock's row
  return {[state](const RowReader& row) { return state->key(row); },
          [state](int64_t now) { return state->window(now); }, true};
}

}  // namespace

Stream Planner::plan_clock_filter(Stream input, ExprPtr predicate) {
  std::vector<ExprPtr> plain, clocked;
  std::vector<TemporalGroup> groups;
  for (ExprPtr& conjunct : split_conjuncts(std::move(predicate))) {
    if (!contains_now(*conjunct)) {
      plain.push_back(std::move(conjunct));
    } else if (!add_temporal_conjunct(conjunct, groups)) {
      clocked.push_back(std::move(conjunct));
    }
  }
  Stream stream = input;
  // Plain conjuncts first: the temporal filters then keep fewer rows.
  if (!plain.empty()) stream = plan_filter(stream, conjoin(std::move(plain)));
  for (TemporalGroup& group : groups)
    stream = temporal_filter(stream, *clock_(), make_bounds(std::move(group), runtime_errors_, input.key_schema()));
  if (clocked.empty()) return stream;
  const size_t width = input.key_schema().size();
  ExprPtr condition = conjoin(std::move(clocked));
  replace_now(*condition, width);
  Stream kept = plan_filter(with_clock(stream), std::move(condition));
  return map(
      kept, input.key_schema_ptr(), empty_schema(),
      [width](const RowReader& row, const RowReader&, RowBuilder& out, RowBuilder&) {
        for (size_t c = 0; c < width; ++c) out.copy_field(c, row, c);
      },
      describe_columns(input.key_schema()));
}

Stream Planner::plan_clock_project(Stream input, const SchemaPtr& schema, std::vector<ExprPtr> expressions) {
  const size_t width = input.key_schema().size();
  for (ExprPtr& expr : expressions) replace_now(*expr, width);
  return plan_project(with_clock(input), schema, std::move(expressions));
}

Stream Planner::with_clock(Stream input) {
  ClockOperator* clock = clock_();
  clock->set_continuous();  // these rows change at every tick of the clock
  const size_t width = input.key_schema().size();
  std::vector<Column> columns = input.key_schema().columns();
  columns.push_back({"now", SqlType::timestamp(false)});
  // One operand per statement, in a fixed order (the clock's first, as g++
  // builds had it): an operator's id counts its place in its scope
  // (operator_ids.h; scripts/check_operand_order.sh).
  Stream clock_keys = index_by(clock->stream(), {});
  Stream row_keys = index_by(input, {});
  return freshet::join(
      row_keys, clock_keys, make_schema(std::move(columns)), empty_schema(),
      [width](const RowReader&, const RowReader& row, const RowReader* now, RowBuilder& out, RowBuilder&) {
        for (size_t c = 0; c < width; ++c) out.copy_field(c, row, c);
        out.copy_field(width, *now, 0);
      });
}

}  // namespace freshet::sql
