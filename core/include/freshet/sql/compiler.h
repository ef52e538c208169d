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
#include "freshet/sql/ast.h"
#include "freshet/sql/runtime_error_mode.h"

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
  //! WITH ('materialized' = 'true'): its contents are kept, as a
  //! materialized view's (CompiledProgram::table_views).
  bool materialized = false;
  //! Its WITH (...) properties, as written (properties.cpp reads them).
  std::vector<Property> properties;
  //! The 'connectors' property's JSON array, checked; empty when none.
  std::string connectors;
};

struct CompiledView {
  std::string name;
  SchemaPtr schema;
  bool materialized = false;
  Stream stream;  //!< a Z-set of the view's rows
  std::vector<Property> properties;  //!< its WITH (...) properties, as written
  std::string connectors;            //!< the 'connectors' JSON array, checked; empty when none
  //! What a runtime error in its expressions does: the program's mode, or
  //! its WITH ('on_runtime_error' = ...) (runtime_error_mode.h).
  RuntimeErrorMode on_runtime_error = RuntimeErrorMode::kFail;
};

struct CompiledIndex {
  std::string name;
  std::string view;
  std::vector<size_t> columns;  //!< key columns, positions in the view
  SchemaPtr key_schema;
  Stream stream;  //!< indexed: key = the key columns, value = the view's row
};

//! Something the compiler accepted without honouring it (a WITH property
//! Freshet does not know or does not implement): the program runs, and
//! hosts show these beside it (the program description's `warnings`).
struct CompileWarning {
  SourcePosition position;
  std::string message;
};

struct CompiledProgram {
  std::unique_ptr<Circuit> circuit = std::make_unique<Circuit>();
  std::vector<CompiledTable> tables;
  std::vector<CompiledView> views;
  std::vector<CompiledIndex> indexes;
  //! Each materialized table seen as a materialized view of the same name,
  //! schema and stream: snapshots, egress and ad-hoc queries read it as
  //! they read a view. Not among `views` (a table is no view of the program).
  std::vector<CompiledView> table_views;
  //! The system views, read as materialized views and never among `views`:
  //! error_view (pipeline/error_view.h), whose stream no operator feeds
  //! (the pipeline sets it after each step), so the circuit and its
  //! checkpoints are the same as without it.
  std::vector<CompiledView> system_views;
  std::vector<CompileWarning> warnings;  //!< in program order
  //! The clock NOW() reads (operators/clock.h); null when no view reads NOW().
  ClockOperator* clock = nullptr;
  //! How many times a sub-plan planned before was read again instead of
  //! planned anew (0 without CompileOptions::share_subplans).
  size_t reused_subplans = 0;

  const CompiledTable* find_table(std::string_view name) const;
  const CompiledView* find_view(std::string_view name) const;
  //! A system view (error_view) by name.
  const CompiledView* find_system_view(std::string_view name) const;
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
  //! With share_subplans: joins that index one input by the same keys keep
  //! the union of their columns of it and read one arrangement of it
  //! (arrange.h), and aggregates grouping one input alike (top-k and window
  //! queries indexing it alike) read one map of it (plan_sharing.h). Off,
  //! each join arranges its own sides: the baseline of bench/arrange_bench.cpp.
  bool share_arrangements = true;
  //! Bounds on what one program may cost to compile and hold, so that a
  //! program sent to a server fails with LIMIT_EXCEEDED instead of taking
  //! its memory: the text's bytes, its statements (tables, views, indexes),
  //! and the circuit's operators (checked after each view is planned).
  size_t max_program_bytes = 1u << 20;
  size_t max_statements = 1000;
  size_t max_operators = 20000;
  //! What a runtime error does in a view without its own
  //! WITH ('on_runtime_error' = ...) (runtime_error_mode.h).
  RuntimeErrorMode on_runtime_error = RuntimeErrorMode::kFail;
};

//! The name of Feldera's ERROR_VIEW, which no table, view or index of a
//! program may take.
inline constexpr std::string_view kErrorViewName = "error_view";

//! Compiles a whole program.
Result<std::unique_ptr<CompiledProgram>> compile_program(std::string_view sql);
Result<std::unique_ptr<CompiledProgram>> compile_program(std::string_view sql, const CompileOptions& options);

}  // namespace freshet::sql
