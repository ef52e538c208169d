// The SQL compiler: from the text of a program (CREATE TABLE / VIEW / INDEX)
// to a circuit with one input per table and one output stream per view and
// index. Errors are SQL_ERROR with the line and column of the offending
// token and what was expected.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/clock.h"
#include "freshet/operators/input.h"
#include "freshet/operators/lateness_filter.h"
#include "freshet/operators/upsert_input.h"

namespace freshet::sql {

struct CompiledTable {
  std::string name;
  SchemaPtr schema;
  //! Positions of the PRIMARY KEY columns; empty when there is none.
  std::vector<size_t> primary_key;
  //! Exactly one of these feeds the table: upserts for a table with a
  //! PRIMARY KEY, plain Z-set updates otherwise.
  UpsertInputOperator* upsert_input = nullptr;
  InputOperator* input = nullptr;
  //! The table's rows as a stream (a Z-set), whichever input feeds it.
  Stream stream;
  //! With a LATENESS column: its watermark and count of late updates.
  const Watermark* watermark = nullptr;
};

struct CompiledView {
  std::string name;
  SchemaPtr schema;
  bool materialized = false;
  Stream stream;  //!< a Z-set of the view's rows
};

struct CompiledIndex {
  std::string name;
  std::string view;
  std::vector<size_t> columns;  //!< key columns, positions in the view
  SchemaPtr key_schema;
  Stream stream;  //!< indexed: key = the key columns, value = the view's row
};

struct CompiledProgram {
  std::unique_ptr<Circuit> circuit = std::make_unique<Circuit>();
  std::vector<CompiledTable> tables;
  std::vector<CompiledView> views;
  std::vector<CompiledIndex> indexes;
  //! The clock NOW() reads (operators/clock.h); null when no view reads NOW().
  ClockOperator* clock = nullptr;
  //! How many times a sub-plan planned before was read again instead of
  //! planned anew (0 without CompileOptions::share_subplans).
  size_t reused_subplans = 0;

  const CompiledTable* find_table(std::string_view name) const;
  const CompiledView* find_view(std::string_view name) const;
  const CompiledIndex* find_index(std::string_view name) const;
  //! The indexes on view `view`, in program order.
  std::vector<const CompiledIndex*> indexes_of(std::string_view view) const;
  //! Whether `view`'s rows are kept (snapshots, lookups): declared
  //! MATERIALIZED, or indexed (the index's trace holds the rows anyway).
  bool is_materialized(const CompiledView& view) const;
};

//! How compile_program builds the circuit.
struct CompileOptions {
  //! Computes and stores once each sub-plan that views, or parts of one
  //! view, compute alike (the same join, DISTINCT, aggregate...). Off, every
  //! occurrence is planned on its own: the oracle of the sharing tests and
  //! the baseline of its benchmark.
  bool share_subplans = true;
};

//! Compiles a whole program.
Result<std::unique_ptr<CompiledProgram>> compile_program(std::string_view sql);
Result<std::unique_ptr<CompiledProgram>> compile_program(std::string_view sql, const CompileOptions& options);

}  // namespace freshet::sql
