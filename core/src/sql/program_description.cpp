// describe_program: the compiled program's tables, views and indexes as
// JSON (program_description.h has the shape). Everything here is read off
// CompiledProgram; nothing is derived from the SQL text.
#include "freshet/sql/program_description.h"

#include "freshet/format/json_output.h"
#include "freshet/types/temporal.h"

namespace freshet::sql {
namespace {

void append_name(std::string_view name, std::string* out) { format::append_json_string(name, out); }

//! ,"properties":{"key":"value",...},"connectors":[...] of a table or view.
void append_properties(const std::vector<Property>& properties, const std::string& connectors, std::string* out) {
  *out += ",\"properties\":{";
  for (size_t i = 0; i < properties.size(); ++i) {
    if (i) *out += ',';
    append_name(properties[i].key, out);
    *out += ':';
    append_name(properties[i].value, out);
  }
  // The compiler checked the connectors' JSON: it is embedded as written.
  *out += "},\"connectors\":";
  *out += connectors.empty() ? "[]" : connectors;
}

//! [{"message":...,"line":n,"column":n},...]: properties accepted but not honoured, unknown ones.
void append_warnings(const std::vector<CompileWarning>& warnings, std::string* out) {
  *out += '[';
  for (size_t i = 0; i < warnings.size(); ++i) {
    if (i) *out += ',';
    *out += "{\"message\":";
    append_name(warnings[i].message, out);
    *out += ",\"line\":" + std::to_string(warnings[i].position.line) +
            ",\"column\":" + std::to_string(warnings[i].position.column) + "}";
  }
  *out += ']';
}

//! {"name":"amount","type":"DECIMAL(10, 2)","nullable":true,"precision":10,"scale":2}
void append_column(const Column& column, std::string* out) {
  const SqlType& type = column.type;
  *out += "{\"name\":";
  append_name(column.name, out);
  *out += ",\"type\":";
  append_name(type.with_nullable(true).to_string(), out);
  *out += ",\"nullable\":";
  *out += type.nullable ? "true" : "false";
  if (type.id == TypeId::kDecimal) {
    *out += ",\"precision\":" + std::to_string(type.precision) + ",\"scale\":" + std::to_string(type.scale);
  } else if (type.id == TypeId::kVarchar && type.max_length != 0) {
    *out += ",\"length\":" + std::to_string(type.max_length);
  }
  *out += '}';
}

}  // namespace

void append_columns(const Schema& schema, std::string* out) {
  *out += '[';
  for (size_t c = 0; c < schema.size(); ++c) {
    if (c) *out += ',';
    append_column(schema.column(c), out);
  }
  *out += ']';
}

namespace {

void append_table(const CompiledTable& table, std::string* out) {
  *out += "{\"name\":";
  append_name(table.name, out);
  *out += ",\"columns\":";
  append_columns(*table.schema, out);
  *out += ",\"primaryKey\":[";
  for (size_t i = 0; i < table.primary_key.size(); ++i) {
    if (i) *out += ',';
    append_name(table.schema->column(table.primary_key[i]).name, out);
  }
  *out += "],\"materialized\":";
  *out += table.materialized ? "true" : "false";
  append_properties(table.properties, table.connectors, out);
  *out += ",\"lateness\":[";
  if (const Watermark* watermark = table.watermark) {
    const Column& column = table.schema->column(watermark->column());
    *out += "{\"column\":";
    append_name(column.name, out);
    *out += ",\"lateness\":";
    append_name(lateness_literal(column.type, watermark->lateness()), out);
    *out += '}';
  }
  *out += "]}";
}

void append_index(const CompiledIndex& index, const Schema& view_schema, std::string* out) {
  *out += "{\"name\":";
  append_name(index.name, out);
  *out += ",\"view\":";
  append_name(index.view, out);
  *out += ",\"key\":[";
  for (size_t i = 0; i < index.columns.size(); ++i) {
    if (i) *out += ',';
    append_name(view_schema.column(index.columns[i]).name, out);
  }
  *out += "]}";
}

void append_view(const CompiledProgram& program, const CompiledView& view, std::string* out) {
  *out += "{\"name\":";
  append_name(view.name, out);
  *out += ",\"columns\":";
  append_columns(*view.schema, out);
  *out += ",\"materialized\":";
  *out += program.is_materialized(view) ? "true" : "false";
  append_properties(view.properties, view.connectors, out);
  *out += ",\"indexes\":[";
  bool first = true;
  for (const CompiledIndex* index : program.indexes_of(view.name)) {
    if (!first) *out += ',';
    first = false;
    append_index(*index, *view.schema, out);
  }
  *out += "]}";
}

//! Microseconds as the widest single-field interval literal that holds
//! them exactly: INTERVAL '2' DAY, '90' MINUTE, '1.5' SECOND.
std::string interval_literal(int64_t micros) {
  static constexpr struct {
    int64_t size;
    const char* unit;
  } kUnits[] = {{kMicrosPerDay, "DAY"}, {kMicrosPerHour, "HOUR"}, {kMicrosPerMinute, "MINUTE"}};
  for (const auto& unit : kUnits) {
    if (micros % unit.size == 0) return "INTERVAL '" + std::to_string(micros / unit.size) + "' " + unit.unit;
  }
  std::string fraction = std::to_string(micros % kMicrosPerSecond);
  fraction.insert(0, 6 - fraction.size(), '0');
  fraction.erase(fraction.find_last_not_of('0') + 1);
  std::string seconds = std::to_string(micros / kMicrosPerSecond);
  return "INTERVAL '" + seconds + (fraction.empty() ? "" : "." + fraction) + "' SECOND";
}

}  // namespace

std::string lateness_literal(const SqlType& column_type, int64_t lateness) {
  switch (column_type.id) {
    case TypeId::kTimestamp: return interval_literal(lateness);
    case TypeId::kDate: return "INTERVAL '" + std::to_string(lateness) + "' DAY";
    default: return std::to_string(lateness);  // an integer column: the number itself
  }
}

std::string describe_program(const CompiledProgram& program) {
  std::string out = "{\"tables\":[";
  for (size_t t = 0; t < program.tables.size(); ++t) {
    if (t) out += ',';
    append_table(program.tables[t], &out);
  }
  out += "],\"views\":[";
  for (size_t v = 0; v < program.views.size(); ++v) {
    if (v) out += ',';
    append_view(program, program.views[v], &out);
  }
  // The system views (error_view) apart, so that code iterating over the
  // program's views meets only its own (Feldera lists error_view among a
  // program's outputs: the edge worker's program_info does too).
  out += "],\"systemViews\":[";
  for (size_t v = 0; v < program.system_views.size(); ++v) {
    if (v) out += ',';
    append_view(program, program.system_views[v], &out);
  }
  out += "],\"readsNow\":";
  out += program.clock ? "true" : "false";
  out += ",\"warnings\":";
  append_warnings(program.warnings, &out);
  return out + '}';
}

}  // namespace freshet::sql
