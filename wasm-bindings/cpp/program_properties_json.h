// The parts of describe_program's JSON that come from WITH (...) properties:
// each table's and view's properties and connectors, and the program's
// warnings (properties accepted without being honoured, unknown ones).
#pragma once

#include <string>
#include <vector>

#include "freshet/sql/compiler.h"

namespace freshet::wasm {

//! `,"properties":{"key":"value",...},"connectors":[...]` for a table or view.
std::string properties_fields_json(const std::vector<sql::Property>& properties, const std::string& connectors);

//! `[{"message":...,"line":n,"column":n},...]`
std::string warnings_json(const std::vector<sql::CompileWarning>& warnings);

}  // namespace freshet::wasm
