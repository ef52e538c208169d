// WITH (...) properties of tables and views, as Feldera's grammar has them
// (docs.feldera.com/docs/sql/grammar.md): what Freshet honours changes the
// compiled table or view; what it accepts without honouring, and every key
// it does not know, is a warning (CompiledProgram::warnings), never fatal.
// A value Freshet cannot read ('materialized' = 'maybe', connectors that are
// not JSON or name a transport Freshet lacks) is an SQL error at the value.
#pragma once

#include <optional>
#include <vector>

#include "freshet/sql/ast.h"
#include "freshet/sql/compiler.h"

namespace freshet::sql {

//! Reads a table's properties into `table`: 'materialized', 'connectors';
//! 'append_only', 'expected_size', 'skip_unused_columns' accepted.
Status apply_table_properties(const CreateTable& statement, CompiledTable& table,
                              std::vector<CompileWarning>& warnings);

//! Reads a view's properties into `view`: 'connectors', 'on_runtime_error'
//! (view_runtime_error_mode); 'emit_final' accepted.
Status apply_view_properties(const CreateView& statement, CompiledView& view, std::vector<CompileWarning>& warnings);

//! A view's WITH ('on_runtime_error' = 'null' | 'fail'); none without one.
//! Any other value is an SQL error naming the property and its values.
Result<std::optional<RuntimeErrorMode>> view_runtime_error_mode(const CreateView& statement);

}  // namespace freshet::sql
