// What a compiled program's circuit serves: the circuit printer's reports
// (circuit_printer.h) with, for each operator, the tables, views and indexes
// its output stream is and the views that depend on it.
#pragma once

#include <string_view>
#include <vector>

#include "freshet/circuit/circuit_printer.h"
#include "freshet/common/status.h"
#include "freshet/sql/compiler.h"

namespace freshet {

//! Every operator of the program, or (with a non-empty `view`) those the view
//! depends on; UNKNOWN_VIEW when the program has no such view. A view is
//! also served by a materialized table it reads (a table is its own view).
Result<std::vector<OperatorReport>> explain_program(const sql::CompiledProgram& program, std::string_view view);

}  // namespace freshet
