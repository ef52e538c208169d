// Plan keys (plan_key.h). Each writer names every field of its struct in a
// structured binding, so a field added to LogicalPlan, Expr, AggregateSpec
// or a window struct fails to compile here until the key covers it: a key
// that missed a field would let two different sub-plans share one stream.
#include "plan_key.h"

#include <cstring>

namespace freshet::sql {
namespace {

class KeyWriter {
 public:
  std::string take() { return std::move(text_); }

  void number(uint64_t value) {
    text_ += std::to_string(value);
    text_ += ',';
  }
  void signed_number(int64_t value) { number(static_cast<uint64_t>(value)); }
  void wide(int128 value) {
    number(static_cast<uint64_t>(static_cast<unsigned __int128>(value) >> 64));
    number(static_cast<uint64_t>(value));
  }
  void real(double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);  // exact, and -0.0 apart from 0.0
    number(bits);
  }
  //! Length-prefixed, so no text can run into the next field.
  void text(std::string_view value) {
    number(value.size());
    text_.append(value);
  }
  void type(const SqlType& type) { text(type.to_string()); }
  void open(char tag) { text_ += tag; }
  void close() { text_ += ';'; }

  void expression(const Expr* expr) {
    if (!expr) return open('-');
    const auto& [kind, type, op, column, literal, literal_text, function, field, negated, has_else, sorted, untyped,
                 children, regex] = *expr;
    (void)regex;    // compiled from the pattern among `children`
    (void)untyped;  // a NULL literal's value and type are all that count once bound
    open('e');
    number(static_cast<uint64_t>(kind));
    this->type(type);
    number(static_cast<uint64_t>(op));
    number(column);
    datum(literal, literal_text);
    number(static_cast<uint64_t>(function));
    number(static_cast<uint64_t>(field));
    number(negated);
    number(has_else);
    number(sorted);
    expressions(children);
    close();
  }
  void expressions(const std::vector<ExprPtr>& list) {
    open('[');
    for (const ExprPtr& expr : list) expression(expr.get());
    close();
  }
  void columns(const std::vector<size_t>& list) {
    open('c');
    for (size_t column : list) number(column);
    close();
  }
  void schema_types(const SchemaPtr& schema) {
    open('s');
    for (size_t c = 0; schema && c < schema->size(); ++c) type(schema->type(c));
    close();
  }
  void aggregate(const AggregateSpec& spec) {
    const auto& [kind, column, name, result_type, distinct, compared_column] = spec;
    (void)name;  // the output column's name: not part of what is computed
    number(static_cast<uint64_t>(kind));
    number(column);
    type(result_type);
    number(distinct);
    number(compared_column);
  }
  void sort_column(const SortColumn& sort) {
    const auto& [column, descending, nulls_first] = sort;
    number(column);
    number(descending);
    number(nulls_first);
  }
  void bound(const WindowBound& bound) {
    const auto& [kind, rows, exact, floating] = bound;
    number(static_cast<uint64_t>(kind));
    signed_number(rows);
    wide(exact);
    real(floating);
  }
  void window_function(const WindowFunction& function) {
    const auto& [kind, aggregate, column, compared_column, default_column, offset, rows_frame, start, end, name,
                 result_type] = function;
    (void)name;
    number(static_cast<uint64_t>(kind));
    number(static_cast<uint64_t>(aggregate));
    number(column);
    number(compared_column);
    number(default_column ? *default_column + 1 : 0);
    signed_number(offset);
    number(rows_frame);
    bound(start);
    bound(end);
    type(result_type);
  }
  void window(const WindowOptions& options) {
    const auto& [order_by, functions, rank_limit, rank_function] = options;
    open('w');
    for (const SortColumn& sort : order_by) sort_column(sort);
    close();
    for (const WindowFunction& function : functions) window_function(function);
    number(rank_limit ? 1 : 0);
    number(rank_limit ? *rank_limit : 0);
    number(rank_function);
  }
  void time_window(const LogicalPlan::TimeWindow& time_window) {
    const auto& [time_column, windows] = time_window;
    const auto& [size, slide, offset] = windows;
    number(time_column);
    signed_number(size);
    signed_number(slide);
    signed_number(offset);
  }

  void plan(const LogicalPlan& node) {
    const auto& [kind, schema, inputs, source, predicate, expressions, join_type, left_keys, right_keys, residual,
                 left_columns, right_columns, group_count, aggregates, global, order, limit, offset, rows, time_window,
                 partition_by, window, grouping_sets] = node;
    open('p');
    number(static_cast<uint64_t>(kind));
    schema_types(schema);
    text(source);
    expression(predicate.get());
    this->expressions(expressions);
    number(static_cast<uint64_t>(join_type));
    this->expressions(left_keys);
    this->expressions(right_keys);
    expression(residual.get());
    columns(left_columns);
    columns(right_columns);
    number(group_count);
    for (const AggregateSpec& spec : aggregates) aggregate(spec);
    number(global);
    for (const SortColumn& sort : order) sort_column(sort);
    number(limit);
    number(offset);
    open('r');
    for (const std::vector<ExprPtr>& row : rows) this->expressions(row);
    close();
    this->time_window(time_window);
    this->expressions(partition_by);
    this->window(window);
    open('g');
    for (const std::vector<size_t>& set : grouping_sets) columns(set);
    close();
    open('<');
    for (const PlanPtr& input : inputs) plan(*input);
    close();
    close();
  }

 private:
  void datum(const Datum& literal, const std::string& literal_text) {
    const auto& [null, integer, floating, decimal, string] = literal;
    (void)literal_text;  // a VARCHAR literal's `string` points into it
    number(null);
    signed_number(integer);
    real(floating);
    wide(decimal);
    text(string);
  }

  std::string text_;
};

}  // namespace

std::string plan_key(const LogicalPlan& plan) {
  KeyWriter writer;
  writer.plan(plan);
  return writer.take();
}

std::string expression_key(const Expr& expr) {
  KeyWriter writer;
  writer.expression(&expr);
  return writer.take();
}

std::string schema_key(const SchemaPtr& schema) {
  KeyWriter writer;
  writer.schema_types(schema);
  return writer.take();
}

}  // namespace freshet::sql
