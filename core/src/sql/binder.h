// QueryBinder: turns a query's syntax tree into a logical plan, resolving
// every name against the catalog and the query's scopes, typing every
// expression, and rejecting wrong queries with a message that gives the
// line and column and says what was expected.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "logical_plan.h"
#include "scope.h"

namespace freshet::sql {

struct SubqueryValues;
struct KeyedSubquery;
class ExpressionBinder;

class QueryBinder {
 public:
  //! Finds a table or view by name; null when there is none.
  using Lookup = std::function<SchemaPtr(const std::string& name)>;

  explicit QueryBinder(Lookup lookup) : lookup_(std::move(lookup)) {}

  //! The plan of a whole query; its schema names the output columns.
  Result<PlanPtr> bind(const Query& query);
  //! The view being bound, for the messages of step errors (a scalar subquery's "more than one row").
  void set_view_name(std::string name) { view_name_ = std::move(name); }

 private:
  struct Bound {
    PlanPtr plan;
    Scope scope;
  };

  Result<Bound> bind_query(const Query& query);
  Result<Bound> bind_set_operation(const Query& query);
  //! `hidden`: ORDER BY expressions to compute after the SELECT list's
  //! columns (an ORDER BY ... LIMIT over columns not selected).
  Result<Bound> bind_select(const Select& select, const std::vector<const AstExpr*>* hidden = nullptr);
  //! A FROM item; its kind's binder is called through a pointer (bind_query.cpp says why).
  Result<Bound> bind_from(const TableRef& from);
  using FromBinder = Result<Bound> (QueryBinder::*)(const TableRef& from);
  //! A table, a view or a WITH item by name.
  Result<Bound> bind_table(const TableRef& from);
  //! A subquery in FROM.
  Result<Bound> bind_derived_table(const TableRef& from);
  Result<Bound> bind_join(const TableRef& join);
  //! TABLE(TUMBLE(...)) / TABLE(HOP(...)) (bind_time_window.cpp).
  Result<Bound> bind_time_window(const TableRef& table);
  //! The SELECT list and HAVING of a query with GROUP BY or aggregates.
  Result<Bound> bind_aggregate(const Select& select, Bound input);
  //! What binds a SELECT's body after WHERE (windows, aggregates): bind_select_body
  //! calls it through a pointer.
  using BodyBinder = Result<Bound> (QueryBinder::*)(const Select& select, Bound input);
  Result<Bound> bind_order_limit(const Query& query, Bound body);
  //! A SELECT list with window function calls (bind_window.cpp).
  Result<Bound> bind_window(const Select& select, Bound input);
  //! The select list over `input`'s columns, a Project over `plan` (which
  //! may add columns behind them): `*` and `t.*` stand for those columns,
  //! every other item is bound by `binder` (bind_select_list.cpp).
  static Result<Bound> project_select_list(const Select& select, const Scope& input, ExpressionBinder& binder,
                                           PlanPtr plan);
  // VALUES, the row of SELECT without FROM, and WITH items (bind_values_with.cpp).
  Result<Bound> bind_values(const Query& query);
  //! The one row of no columns that a SELECT without FROM reads.
  static Bound unit_row();
  //! A WITH item's query, its columns named by the item.
  Result<Bound> bind_common_table(const CommonTableExpression& item);
  //! The WITH item `table` names, bound for this use (each use is bound
  //! anew); none when no item in scope has that name.
  std::optional<Result<Bound>> bind_common_table_reference(const TableRef& table);
  //! New names for a bound relation's columns (`AS t (a, b)`, `WITH t (a, b)`).
  static Status rename_columns(Bound& bound, const std::vector<std::string>& names, SourcePosition position,
                               const std::string& what);

  // Subqueries in expressions (bind_subquery.cpp, bind_correlated.cpp).
  //! A SELECT after its FROM: WHERE, the select list, GROUP BY, HAVING.
  Result<Bound> bind_select_body(const Select& select, Bound input,
                                 const std::vector<const AstExpr*>* hidden = nullptr,
                                 const std::vector<OrderItem>* order_by = nullptr);
  //! WHERE conjuncts some of which hold subqueries: a top-level EXISTS or IN
  //! is a semi-join, every other subquery joins its facts to the input.
  Result<Bound> bind_where_subqueries(const std::vector<const AstExpr*>& conjuncts, Bound input);
  //! Joins to `input` the facts each subquery of `ast` needs and records in
  //! `values` the expression that stands for it. `semi`: `ast` is a WHERE
  //! conjunct whose rows pass only when it holds (an inner join suffices).
  Status attach_subqueries(const AstExpr& ast, Bound& input, SubqueryValues& values, bool semi = false);
  Status attach_subquery(const AstExpr& node, Bound& input, SubqueryValues& values, bool semi);
  // A WHERE conjunct `NOT EXISTS (q)` as an anti-join of the input with q's
  // keys; false (nothing attached) where q has a row for every key.
  Result<bool> attach_anti_join(const AstExpr& exists, Bound& input);
  //! A subquery's rows with its correlation keys first, decorrelated
  //! against `outer` (the scope and rows of the query it appears in).
  Result<KeyedSubquery> bind_keyed(const Query& query, const Bound& outer, bool keys_only);
  //! The select list, GROUP BY and HAVING of a correlated subquery over its
  //! keyed rows (`rows`: [keys..., the FROM's columns...]).
  Result<KeyedSubquery> bind_keyed_select(const Select& select, Bound rows, KeyedSubquery keyed, bool keys_only);
  //! A query with GROUP BY or aggregates whose select list or HAVING holds
  //! subqueries (bind_aggregate_subquery.cpp).
  Result<Bound> bind_aggregate_subqueries(const Select& select, Bound input);
  //! An INNER or CROSS join whose ON holds subqueries (bind_join_subquery.cpp).
  Result<Bound> bind_join_subqueries(const TableRef& join);
  //! A join whose right side is a LATERAL subquery that reads the FROM items
  //! on its left (bind_lateral.cpp); none when it reads none of them (a plain join).
  std::optional<Result<Bound>> bind_lateral_join(const TableRef& join);
  //! The scopes of the queries enclosing the one being bound, innermost last.
  std::vector<Scope> outer_scopes_;
  std::string view_name_;

  Lookup lookup_;
  //! The WITH items in scope, outermost first; a name is looked up from the
  //! back, so an inner item hides an outer one, and both hide a table.
  std::vector<const CommonTableExpression*> common_tables_;
  //! SELECT DISTINCT ON (...), first by the query's ORDER BY (bind_distinct_on.cpp).
  Result<Bound> bind_distinct_on(const Select& select, const std::vector<OrderItem>& order_by, Bound input);

  //! The ORDER BY of the query whose SELECT is bound next (DISTINCT ON reads it).
  const std::vector<OrderItem>* select_order_by_ = nullptr;
};

//! The schema a scope describes (column names and types).
SchemaPtr schema_of(const Scope& scope);
//! A plan node of the given kind over one input.
PlanPtr make_plan(LogicalPlan::Kind kind, SchemaPtr schema, PlanPtr input);
//! A plan node with the same schema as its input (filter, distinct, top-k).
PlanPtr wrap_plan(LogicalPlan::Kind kind, PlanPtr input);
//! A LATERAL subquery's unknown name, said with where such a subquery may
//! read the FROM items on its left (bind_lateral.cpp); other errors as they are.
Status lateral_reference_error(const TableRef& from, const Status& status);

}  // namespace freshet::sql
