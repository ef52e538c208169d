// Ad-hoc queries: one SELECT, run once over the current contents of a
// pipeline's materialized views and tables (Feldera's ad-hoc queries,
// docs.feldera.com/docs/sql/ad-hoc.md), compiled by the same parser, binder
// and planner as a program's views.
//
// ## Design
// The query gets a circuit of its own with one input per relation it
// reads. The host pushes each relation's contents into its input and steps
// the circuit once; the output stream's batch is then the whole answer (an
// incremental circuit's first step over everything is the full result).
// A view's ORDER BY without LIMIT is dropped, as a set has no order; here
// the order is the point, so it is planned as a top-k keeping every row,
// and the rows are sorted by it afterwards (sorted_rows).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/clock.h"
#include "freshet/operators/input.h"
#include "freshet/types/sort_key.h"

namespace freshet::sql {

//! What a query may read, by name: the schema of a materialized view or
//! table; null for a name that is no relation; an error (NOT_MATERIALIZED)
//! for one the query cannot read.
using AdhocRelationLookup = std::function<Result<SchemaPtr>(const std::string& name)>;

struct AdhocQuery {
  struct Source {
    std::string name;
    InputOperator* input;  //!< the host pushes the relation's rows here
  };

  std::unique_ptr<Circuit> circuit = std::make_unique<Circuit>();
  std::vector<Source> sources;
  //! The answer's columns. The stream's rows may have more: hidden ORDER BY
  //! columns after these, dropped by sorted_rows.
  SchemaPtr schema;
  Stream stream;
  std::vector<SortColumn> order;   //!< over the stream's rows; empty: any order
  ClockOperator* clock = nullptr;  //!< set its time before the step when the query reads NOW()

  //! The answer after the step: rows of `schema` in ORDER BY order, each
  //! repeated by its weight.
  std::vector<std::string> sorted_rows() const;
};

//! Compiles one query (an optional trailing ';'). Errors are SQL_ERROR with
//! line and column, or NOT_MATERIALIZED from `lookup` with the position of
//! the name.
Result<std::unique_ptr<AdhocQuery>> compile_adhoc_query(std::string_view sql, const AdhocRelationLookup& lookup);

}  // namespace freshet::sql
