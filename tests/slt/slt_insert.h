//! The runner's one translation: an `INSERT INTO t [(columns)] VALUES (...)`
//! statement of literals becomes JSON records for Pipeline::ingest, as a
//! user feeds a table (Freshet, as Feldera, takes data through its input
//! connectors, not INSERT statements).
#pragma once

#include <string>
#include <string_view>

#include "freshet/common/status.h"
#include "freshet/types/schema.h"

namespace freshet::slt {

struct InsertStatement {
  std::string table;  //!< as written
  std::string json;   //!< an array of {"insert": {column: value}} records
};

//! Whether `sql` is an INSERT statement (its first word).
bool is_insert(std::string_view sql);
//! The table an INSERT names (lowercased), or "" when `sql` is not one.
std::string insert_table(std::string_view sql);

//! Translates an INSERT over a table of `schema`. Values must be literals:
//! integers, decimals, 'strings' ('' for a quote), NULL, with an optional sign.
Result<InsertStatement> translate_insert(std::string_view sql, const Schema& schema);

}  // namespace freshet::slt
