// The program's description: what the compiler knows of a compiled program
// that a user (or a client speaking for one) needs, as JSON. It is the one
// source of what a program holds: the package's `p.program`, the edge
// worker and the web demo read it, nothing parses the SQL text again.
//
//   {"tables":[{"name":"orders",
//               "columns":[{"name":"id","type":"BIGINT","nullable":false},
//                          {"name":"amount","type":"DECIMAL(10, 2)","nullable":true,"precision":10,"scale":2},
//                          {"name":"ts","type":"TIMESTAMP","nullable":false}],
//               "primaryKey":["id"],"materialized":false,"properties":{},"connectors":[],
//               "lateness":[{"column":"ts","lateness":"INTERVAL '1' HOUR"}]}],
//    "views":[{"name":"totals","columns":[...],"materialized":true,"properties":{},"connectors":[],
//              "indexes":[{"name":"totals_by_region","view":"totals","key":["region"]}]}],
//    "systemViews":[{"name":"error_view","columns":[...],"materialized":true,...}],
//    "readsNow":false,
//    "warnings":[{"message":"...","line":3,"column":20}]}
//
// Tables and views are in program order (a table's position is its number
// for the engine's ingest calls); a view's indexes in program order.
// - `type` is the SQL type as Feldera writes it, without NOT NULL
//   (`nullable` says that): "BIGINT", "DECIMAL(10, 2)", "VARCHAR(20)",
//   "INTERVAL HOUR TO MINUTE". DECIMAL columns also give `precision` and
//   `scale`, bounded VARCHAR columns `length`.
// - A table is `materialized` with WITH ('materialized' = 'true') (its rows
//   are kept and answer snapshots, as a materialized view's). A view is
//   materialized when declared MATERIALIZED or when it has an index (its
//   index's trace holds the rows).
// - `properties`: the WITH (...) properties as written, key to value;
//   `connectors`: the 'connectors' property's JSON array ([] without one).
// - `systemViews` holds the system view error_view, described as a view
//   (materialized: snapshots, egress and queries read it; pipeline/error_view.h).
// - `warnings`: properties accepted but not honoured, and unknown ones.
// - `lateness` lists the table's LATENESS column (at most one) with its
//   bound as a SQL literal in the column's unit: an interval for TIMESTAMP
//   ("INTERVAL '90' MINUTE") and DATE ("INTERVAL '2' DAY"), a number for
//   integer columns ("60").
// - `readsNow`: some view reads NOW(), so the engine steps by itself as
//   time passes.
#pragma once

#include <cstdint>
#include <string>

#include "freshet/sql/compiler.h"

namespace freshet::sql {

//! The description of `program` as JSON text (the shape above).
std::string describe_program(const CompiledProgram& program);

//! A schema's columns as the description writes them: [{"name":..,"type":..,"nullable":..},...].
void append_columns(const Schema& schema, std::string* out);

//! LATENESS `lateness` (in `column_type`'s unit, as Watermark holds it) as
//! a SQL literal that binds back to the same value on such a column.
std::string lateness_literal(const SqlType& column_type, int64_t lateness);

}  // namespace freshet::sql
