// QueryBinder: turns a query's syntax tree into a logical plan, resolving
// every name against the catalog and the query's scopes, typing every
// expression, and rejecting wrong queries with a message that gives the
// line and column and says what was expected.
#pragma once

#include <functional>
#include <string>

#include "logical_plan.h"
#include "scope.h"

namespace freshet::sql {

class QueryBinder {
 public:
  //! Finds a table or view by name; null when there is none.
  using Lookup = std::function<SchemaPtr(const std::string& name)>;

  explicit QueryBinder(Lookup lookup) : lookup_(std::move(lookup)) {}

  //! The plan of a whole query; its schema names the output columns.
  Result<PlanPtr> bind(const Query& query);

 private:
  struct Bound {
    PlanPtr plan;
    Scope scope;
  };

  Result<Bound> bind_query(const Query& query);
  Result<Bound> bind_set_operation(const Query& query);
  Result<Bound> bind_select(const Select& select);
  Result<Bound> bind_from(const TableRef& from);
  Result<Bound> bind_join(const TableRef& join);
  //! TABLE(TUMBLE(...)) / TABLE(HOP(...)) (bind_time_window.cpp).
  Result<Bound> bind_time_window(const TableRef& table);
  Result<Bound> bind_aggregate(const Select& select, Bound input);
  Result<Bound> bind_order_limit(const Query& query, Bound body);
  //! A SELECT list with window function calls (bind_window.cpp).
  Result<Bound> bind_window(const Select& select, Bound input);
  //! SELECT DISTINCT ON (...), first by the query's ORDER BY (bind_distinct_on.cpp).
  Result<Bound> bind_distinct_on(const Select& select, const std::vector<OrderItem>& order_by, Bound input);

  Lookup lookup_;
  //! The ORDER BY of the query whose SELECT is bound next (DISTINCT ON reads it).
  const std::vector<OrderItem>* select_order_by_ = nullptr;
};

//! The schema a scope describes (column names and types).
SchemaPtr schema_of(const Scope& scope);
//! A plan node of the given kind over one input.
PlanPtr make_plan(LogicalPlan::Kind kind, SchemaPtr schema, PlanPtr input);
//! A plan node with the same schema as its input (filter, distinct, top-k).
PlanPtr wrap_plan(LogicalPlan::Kind kind, PlanPtr input);

}  // namespace freshet::sql
