#include "planner.h"

#include "expression_tools.h"
#include "freshet/circuit/operator_description.h"
#include "freshet/circuit/operator_ids.h"
#include "freshet/common/out_of_line.h"
#include "freshet/operators/aggregate.h"
#include "freshet/operators/distinct.h"
#include "freshet/operators/filter.h"
#include "freshet/operators/join.h"
#include "freshet/operators/join_aggregate.h"
#include "freshet/operators/lateness_filter.h"
#include "freshet/operators/left_join.h"
#include "freshet/operators/map.h"
#include "freshet/operators/multiset_set_operation.h"
#include "freshet/operators/negate.h"
#include "freshet/operators/plus.h"
#include "freshet/operators/top_k.h"
#include "freshet/operators/window.h"
#include "freshet/zset/batch_builder.h"
#include "plan_expand.h"
#include "plan_key.h"
#include "plan_time_window.h"

namespace freshet::sql {
namespace {

// Expressions and the evaluator that runs them, shared by an operator's function.
struct Evaluation {
  std::vector<ExprPtr> expressions;
  Evaluator evaluator;
  RuntimeErrors errors;

  // `input`: the schema of the rows evaluated, whose names the errors use.
  Evaluation(const Schema& input, std::vector<ExprPtr> expressions, const RuntimeErrors& errors)
      : expressions(std::move(expressions)), errors(errors) {
    evaluator.set_column_names(column_names(input));
  }

  // Reports an evaluation error to the circuit; true when there was one.
  bool check() { return errors.report(evaluator); }
  // After expression `expr` gave a value (`null` or not) over `row`: in 'null' mode, logs its error.
  void after(const Expr& expr, const RowReader& row, bool null) { errors.after(evaluator, expr, row, null); }
};

// Writes `expr` over `row` into column `column` of `out`. A plain column
// reference (most keys and projections) is a byte copy, no Datum.
bool write_expression(Evaluator& evaluator, const Expr& expr, const RowReader& row, size_t column, RowBuilder& out) {
  if (expr.kind == ExprKind::kColumn) {
    out.copy_field(column, row, expr.column);
    return row.is_null(expr.column);
  }
  Datum datum = evaluator.evaluate(expr, row);
  Evaluator::write(datum, expr.type, column, out);
  return datum.null;
}

void copy_row(const RowReader& from, RowBuilder& to, size_t offset) {
  for (size_t c = 0; c < from.schema().size(); ++c) to.copy_field(offset + c, from, c);
}

MultisetOperation set_operation_of(LogicalPlan::Kind kind) {
  switch (kind) {
    case LogicalPlan::Kind::kExcept:
      return MultisetOperation::kExcept;
    case LogicalPlan::Kind::kExceptAll:
      return MultisetOperation::kExceptAll;
    case LogicalPlan::Kind::kIntersect:
      return MultisetOperation::kIntersect;
    default:
      return MultisetOperation::kIntersectAll;
  }
}

}  // namespace

Result<Stream> Planner::plan_node(LogicalPlan& plan) {
  // The planners of the kinds of nodes are called out of line (out_of_line.h says why).
  if (plan.kind == LogicalPlan::Kind::kAggregate) return call_out_of_line<&Planner::plan_grouped_aggregate>(this, plan);
  if (plan.kind == LogicalPlan::Kind::kFilter) call_out_of_line<&Planner::apply_rank_limit>(plan);
  std::vector<Stream> inputs;
  for (PlanPtr& input : plan.inputs) {
    Result<Stream> stream = this->plan(*input);
    if (!stream.ok()) return stream.status();
    inputs.push_back(*stream);
  }
  switch (plan.kind) {
    case LogicalPlan::Kind::kScan: {
      std::optional<Stream> stream = lookup_(plan.source);
      if (!stream) return Status(ErrorCode::kInternal, "no stream for '" + plan.source + "'");
      return *stream;
    }
    case LogicalPlan::Kind::kFilter: return plan_filter(inputs[0], std::move(plan.predicate));
    case LogicalPlan::Kind::kProject: return plan_project(inputs[0], plan.schema, std::move(plan.expressions));
    case LogicalPlan::Kind::kJoin: return call_out_of_line<&Planner::plan_join>(this, inputs[0], inputs[1], plan);
    case LogicalPlan::Kind::kAggregate: break;  // above
    case LogicalPlan::Kind::kDistinct: return distinct(arranged_rows(inputs[0]));
    case LogicalPlan::Kind::kUnionAll:
      return plus(inputs[0], inputs[1]);
    case LogicalPlan::Kind::kTopK: {
      Stream indexed = index_by(inputs[0], {});
      if (plan.limit == UINT64_MAX && plan.offset > 0) {
        // OFFSET alone: every row but the first `offset`, so the top-k
        // holds only those (as Feldera plans it).
        return plus(inputs[0], negate(top_k(indexed, plan.order, plan.offset)));
      }
      return top_k(indexed, plan.order, plan.limit, plan.offset, nullptr);
    }
    case LogicalPlan::Kind::kExcept:
    case LogicalPlan::Kind::kExceptAll:
    case LogicalPlan::Kind::kIntersect:
    case LogicalPlan::Kind::kIntersectAll: {
      // Both sides arranged by the whole row, left first (operator ids
      // count their order: operator_ids.h). EXCEPT reads the left's
      // arrangement for its distinct rows: no DISTINCT, and no second
      // arrangement of its rows for an anti-join.
      Stream left = arranged_rows(inputs[0]);
      Stream right = arranged_rows(inputs[1]);
      return multiset_set_operation(left, right, set_operation_of(plan.kind));
    }
    case LogicalPlan::Kind::kValues:
      return call_out_of_line<&Planner::plan_values>(this, plan);
    case LogicalPlan::Kind::kTimeWindow:
      return call_out_of_line<&time_window_rows>(circuit_, inputs[0], plan.time_window, plan.schema);
    case LogicalPlan::Kind::kExpand: return call_out_of_line<&expand_grouping_sets>(inputs[0], plan);
    case LogicalPlan::Kind::kWindow: {
      Status valid = validate_window(*plan.inputs[0]->schema, plan.window);
      if (!valid.ok()) return Status(ErrorCode::kInternal, "window plan: " + valid.message());
      return window(index_by(inputs[0], std::move(plan.partition_by)), plan.window);
    }
  }
  return Status(ErrorCode::kInternal, "unknown plan node");
}

Stream Planner::plan_filter(Stream input, ExprPtr predicate) {
  if (contains_now(*predicate)) return plan_clock_filter(input, std::move(predicate));
  const ColumnNames names = column_names(input.key_schema());
  std::string description = predicate->to_string(&names);
  std::vector<ExprPtr> expressions;
  expressions.push_back(std::move(predicate));
  auto state = std::make_shared<Evaluation>(input.key_schema(), std::move(expressions), runtime_errors_);
  return filter(
      input,
      [state](const RowReader& row, const RowReader&) {
        state->evaluator.start_row();
        Datum keep = state->evaluator.evaluate(*state->expressions[0], row);
        state->after(*state->expressions[0], row, keep.null);
        return !state->check() && !keep.null && keep.integer != 0;
      },
      std::move(description));
}

Stream Planner::plan_project(Stream input, const SchemaPtr& schema, std::vector<ExprPtr> expressions) {
  // SELECT of every input column in order (as after GROUP BY) changes nothing.
  bool identity = expressions.size() == input.key_schema().size();
  for (size_t i = 0; identity && i < expressions.size(); ++i) {
    identity = expressions[i]->kind == ExprKind::kColumn && expressions[i]->column == i &&
               expressions[i]->type.id == input.key_schema().type(i).id;
  }
  if (identity) return input;
  for (const ExprPtr& expr : expressions) {
    if (contains_now(*expr)) return plan_clock_project(input, schema, std::move(expressions));
  }
  std::string description = describe_expressions(expressions, input.key_schema(), *schema);
  auto state = std::make_shared<Evaluation>(input.key_schema(), std::move(expressions), runtime_errors_);
  return map(
      input, schema, empty_schema(),
      [state](const RowReader& row, const RowReader&, RowBuilder& out, RowBuilder&) {
        state->evaluator.start_row();
        for (size_t i = 0; i < state->expressions.size(); ++i) {
          const Expr& expr = *state->expressions[i];
          state->after(expr, row, write_expression(state->evaluator, expr, row, i, out));
        }
        state->check();
      },
      std::move(description));
}

Stream Planner::index_by(Stream input, std::vector<ExprPtr> keys, bool drop_null_keys,
                         std::optional<std::vector<size_t>> value_columns) {
  // Two views indexing one stream alike (a top-k of each over one table)
  // read one index.
  std::string what = "index " + index_key(input, keys, drop_null_keys, value_columns);
  return shared_operator(std::move(what), [&] {
    // Key columns are named by their expressions: "join on (customer_id)".
    const ColumnNames names = column_names(input.key_schema());
    std::vector<Column> key_columns;
    for (size_t i = 0; i < keys.size(); ++i) {
      key_columns.push_back({keys[i]->to_string(&names), keys[i]->type.with_nullable(true)});
    }
    auto state = std::make_shared<Evaluation>(input.key_schema(), std::move(keys), runtime_errors_);
    SchemaPtr value_schema = input.key_schema_ptr();
    if (value_columns) {
      std::vector<Column> columns;
      for (size_t c : *value_columns) columns.push_back(input.key_schema().column(c));
      value_schema = make_schema(std::move(columns));
    }
    SchemaPtr key_schema = make_schema(std::move(key_columns));
    std::string description = "key " + describe_columns(*key_schema);
    if (value_columns) description += " value " + describe_columns(*value_schema);
    if (drop_null_keys) description += " without NULL keys";
    // Keys that are columns (as most joins' and groupings' are): the map
    // may copy their slots instead of calling the mapper (map.h).
    std::optional<ColumnProjection> projection = ColumnProjection{};
    for (const ExprPtr& key : state->expressions) {
      if (key->kind != ExprKind::kColumn) {
        projection.reset();
        break;
      }
      projection->key_columns.push_back(key->column);
    }
    if (projection) {
      if (value_columns) projection->value_columns = *value_columns;
      projection->whole_value = !value_columns;
      projection->drop_null_keys = drop_null_keys;
    }
    return filter_map(
        input, key_schema, value_schema,
        [state, drop_null_keys, value_columns](const RowReader& row, const RowReader&, RowBuilder& key,
                                               RowBuilder& value) {
          state->evaluator.start_row();
          bool any_null = false;
          for (size_t i = 0; i < state->expressions.size(); ++i) {
            const Expr& expr = *state->expressions[i];
            const bool null = write_expression(state->evaluator, expr, row, i, key);
            state->after(expr, row, null);
            any_null = null || any_null;
          }
          state->check();
          if (value_columns) {
            for (size_t i = 0; i < value_columns->size(); ++i) value.copy_field(i, row, (*value_columns)[i]);
          } else {
            copy_row(row, value, 0);
          }
          return !(drop_null_keys && any_null);
        },
        std::move(description), std::move(projection));
  });
}

namespace {

// Without GROUP BY there is always one row: the aggregates of nothing
// (COUNT 0, the others NULL) while the input is empty. The aggregate emits
// it itself (one operator, no arrangement of its output and a constant's).
EmptyInput empty_input_of(const LogicalPlan& aggregate) {
  return aggregate.global ? EmptyInput::kDefaultRow : EmptyInput::kNoRow;
}

// The joined row: the left side's columns, then the right side's (NULLs
// for an unmatched left row).
JoinMapper concat_mapper(size_t left_width) {
  return [left_width](const RowReader&, const RowReader& l, const RowReader* r, RowBuilder& out, RowBuilder&) {
    copy_row(l, out, 0);
    if (r) {
      copy_row(*r, out, left_width);
    } else {
      for (size_t c = left_width; c < out.schema().size(); ++c) out.set_null(c);
    }
  };
}

}  // namespace

std::pair<Stream, Stream> Planner::index_join_inputs(Stream left, Stream right, LogicalPlan& node) {
  // In SQL a NULL key matches nothing: a side whose unmatched rows do not
  // come out drops such rows here; a kept side of an outer join keeps them,
  // padded (outer_join.h).
  // Each side keeps only the columns used above the join (prune_columns.h).
  const JoinType type = node.join_type;
  const bool keep_left = type == JoinType::kLeft || type == JoinType::kFull || type == JoinType::kAnti;
  const bool keep_right = type == JoinType::kRight || type == JoinType::kFull;
  // Each side is arranged, shared with the joins that index it alike.
  return {arranged_index(left, std::move(node.left_keys), !keep_left, node.left_columns),
          arranged_index(right, std::move(node.right_keys), !keep_right, node.right_columns)};
}

Stream Planner::plan_join(Stream left, Stream right, LogicalPlan& node) {
  auto [left_indexed, right_indexed] = index_join_inputs(left, right, node);
  return join_rows(left_indexed, right_indexed, node, concat_mapper(node.left_columns.size()));
}

Stream Planner::plan_join_aggregate(Stream left, Stream right, LogicalPlan& join, const RowMap& grouping,
                                    const std::optional<std::vector<size_t>>& columns, LogicalPlan& aggregate) {
  auto [left_indexed, right_indexed] = index_join_inputs(left, right, join);
  const size_t left_width = join.left_columns.size();
  if (columns) {
    // Each column of the grouped row is a column of one side: read from
    // there, with no joined or grouped row in between.
    std::vector<JoinedColumn> picked;
    for (size_t column : *columns) {
      const bool from_left = column < left_width;
      picked.push_back({from_left, from_left ? column : column - left_width});
    }
    return join_aggregate(left_indexed, right_indexed, grouping.key_schema, grouping.value_schema, std::move(picked),
                          aggregate.aggregates, runtime_errors_.aggregate_handler(), empty_input_of(aggregate));
  }
  // Each joined row is built in a scratch row and grouped from there.
  auto joined = std::make_shared<RowBuilder>(*join.schema);
  JoinMapper group_joined = [concat = concat_mapper(left_width), joined, joined_schema = join.schema,
                             group = grouping.mapper](const RowReader& key, const RowReader& l, const RowReader* r,
                                                      RowBuilder& out_key, RowBuilder& out_value) {
    concat(key, l, r, *joined, *joined);
    static const RowReader kNoValue(*empty_schema(), RowRef());
    group(RowReader(*joined_schema, joined->finish()), kNoValue, out_key, out_value);
  };
  return join_aggregate(left_indexed, right_indexed, grouping.key_schema, grouping.value_schema,
                        std::move(group_joined), aggregate.aggregates, runtime_errors_.aggregate_handler(),
                        empty_input_of(aggregate));
}

Stream Planner::join_rows(Stream left_indexed, Stream right_indexed, LogicalPlan& node, const JoinMapper& concat) {
  if (node.join_type == JoinType::kAnti) {
    // The left rows whose key has no right row (the right side's index has
    // no value: the anti-join reads its arrangement as it is).
    return left_unmatched(left_indexed, right_indexed, node.schema, empty_schema(), concat, "rows without a match");
  }
  if (node.join_type != JoinType::kInner && node.join_type != JoinType::kCross) {
    return plan_outer_join(left_indexed, right_indexed, node, concat);
  }
  Stream matches = freshet::join(left_indexed, right_indexed, node.schema, empty_schema(), concat);
  if (node.residual) matches = plan_filter(matches, std::move(node.residual));
  return matches;
}

Result<Stream> Planner::plan_grouped_aggregate(LogicalPlan& plan) {
  // The row the aggregate reads: a projection of keys and arguments, which
  // feeds the grouping map directly, or the input as it is.
  LogicalPlan* source = plan.inputs[0].get();
  const bool shared_source = shared(*source);  // before the projection is taken apart
  SchemaPtr row_schema = source->schema;
  std::vector<ExprPtr> row;
  bool reads_now = false;  // a projection reading NOW() is planned on its own (plan_clock_project)
  for (const ExprPtr& expr : source->expressions) reads_now = reads_now || contains_now(*expr);
  if (source->kind == LogicalPlan::Kind::kProject && !reads_now) {
    row = std::move(source->expressions);
    source = source->inputs[0].get();
  } else {
    for (size_t c = 0; c < row_schema->size(); ++c) row.push_back(column_expr(c, row_schema->type(c)));
  }
  // Group keys and arguments that are all plain columns (GROUP BY c.region
  // ... SUM(o.amount)) can be copied from the join's two sides directly.
  std::optional<std::vector<size_t>> columns = std::vector<size_t>();
  for (const ExprPtr& expr : row) {
    if (expr->kind != ExprKind::kColumn) columns.reset();
    if (columns) columns->push_back(expr->column);
  }
  // What eviction needs of the row, before the grouping map takes it.
  std::vector<ExprPtr> row_for_eviction;
  for (size_t i = 0; i < plan.group_count && i < row.size(); ++i) {
    row_for_eviction.push_back(row[i]->kind == ExprKind::kColumn ? column_expr(row[i]->column, row[i]->type)
                                                                 : null_literal(row[i]->type));
  }
  // A join another node reads too is planned on its own (once), and the
  // aggregate reads its stream: fused, its traces would be kept twice.
  const bool shared_join = source->kind == LogicalPlan::Kind::kJoin && (shared_source || shared(*source));
  RowMap grouping = grouping_map(*source->schema, row_schema, std::move(row), plan.group_count);
  if (shared_join) {
    Result<Stream> joined = this->plan(*source);
    if (!joined.ok()) return joined.status();
    return plan_aggregate(grouped_rows(*joined, grouping), plan);
  }
  if (source->kind == LogicalPlan::Kind::kJoin) {
    Result<Stream> left = this->plan(*source->inputs[0]);
    if (!left.ok()) return left.status();
    Result<Stream> right = this->plan(*source->inputs[1]);
    if (!right.ok()) return right.status();
    if (source->join_type == JoinType::kInner && !source->residual) {
      return plan_join_aggregate(*left, *right, *source, grouping, columns, plan);
    }
    Stream joined = plan_join(*left, *right, *source);
    return plan_aggregate(grouped_rows(joined, grouping), plan);
  }
  std::optional<GroupEvictionSpec> eviction = closing_groups(*source, row_for_eviction, plan);
  Result<Stream> rows = this->plan(*source);
  if (!rows.ok()) return rows.status();
  return plan_aggregate(grouped_rows(*rows, grouping), plan, eviction);
}

std::optional<GroupEvictionSpec> Planner::closing_groups(const LogicalPlan& source, const std::vector<ExprPtr>& row,
                                                         const LogicalPlan& aggregate) const {
  if (!watermarks_) return std::nullopt;
  for (const AggregateSpec& spec : aggregate.aggregates) {
    const SqlType input =
        spec.kind == AggregateKind::kCountStar ? SqlType::bigint() : aggregate.inputs[0]->schema->type(spec.column);
    if (!is_accumulated_aggregate(spec, input)) return std::nullopt;
  }
  for (size_t i = 0; i < aggregate.group_count && i < row.size(); ++i) {
    if (row[i]->kind != ExprKind::kColumn) continue;
    std::optional<GroupEvictionSpec> time = column_time(source, row[i]->column, watermarks_);
    if (!time) continue;
    time->key_column = i;
    return time;
  }
  return std::nullopt;
}

Planner::RowMap Planner::grouping_map(const Schema& input, const SchemaPtr& row_schema, std::vector<ExprPtr> row,
                                      size_t group_count) {
  // One map computes the aggregate's input row and indexes it by the group key.
  std::vector<Column> key_columns(row_schema->columns().begin(), row_schema->columns().begin() + group_count);
  std::string description = "key " + describe_columns(Schema(key_columns)) + " value " +
                            describe_expressions(row, input, *row_schema);
  std::string key = "by " + std::to_string(group_count) + " of " + schema_key(row_schema);
  if (runtime_errors_.mode == RuntimeErrorMode::kNull) key += " on_runtime_error=null";
  for (const ExprPtr& expr : row) key += " " + expression_key(*expr);
  auto state = std::make_shared<Evaluation>(input, std::move(row), runtime_errors_);
  return {make_schema(std::move(key_columns)), row_schema,
          [state, group_count](const RowReader& in, const RowReader&, RowBuilder& key, RowBuilder& value) {
            state->evaluator.start_row();
            for (size_t i = 0; i < state->expressions.size(); ++i) {
              const Expr& expr = *state->expressions[i];
              // A group key goes in both rows (evaluated twice; expressions have no side effects).
              if (i < group_count) write_expression(state->evaluator, expr, in, i, key);
              state->after(expr, in, write_expression(state->evaluator, expr, in, i, value));
            }
            state->check();
          },
          std::move(description), std::move(key)};
}

Stream Planner::grouped_rows(Stream input, const RowMap& grouping) {
  // Aggregates grouping one stream alike (SUM and MAX of amount by
  // customer, in two views) read one grouping map.
  return shared_operator("grouping of stream " + std::to_string(input.id()) + " " + grouping.key, [&] {
    return map(input, grouping.key_schema, grouping.value_schema, grouping.mapper, grouping.description);
  });
}

Stream Planner::plan_aggregate(Stream grouped, LogicalPlan& plan, std::optional<GroupEvictionSpec> eviction) {
  // A global aggregate's one group never closes.
  if (plan.global) eviction.reset();
  if (eviction) {
    // Its state was cut by the watermark of its table's LATENESS: named from
    // the lateness too, a program change that changes it (or adds or removes
    // it) rebuilds the aggregate from its input's contents instead of
    // keeping groups closed under the old one (checkpoints-and-resets.md).
    OperatorIdScope ids(circuit_, id_key_ + " evicting groups at lateness " +
                                      std::to_string(eviction->watermark->lateness()));
    return aggregate(grouped, plan.aggregates, nullptr, eviction, runtime_errors_.aggregate_handler());
  }
  return aggregate(grouped, plan.aggregates, nullptr, eviction, runtime_errors_.aggregate_handler(),
                   empty_input_of(plan));
}

}  // namespace freshet::sql
