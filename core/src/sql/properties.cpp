#include "properties.h"

#include <simdjson.h>

#include <algorithm>

#include "freshet/common/ascii.h"
#include "scope.h"

namespace freshet::sql {
namespace {

// The transports Freshet has, by Feldera's names: the HTTP ingress route
// feeds every table and the HTTP egress route reads every view, so
// declaring them changes nothing; any other transport (kafka_input,
// delta_table_output, ...) has no implementation here.
constexpr std::string_view kTableTransports[] = {"http_input"};
constexpr std::string_view kViewTransports[] = {"http_output"};

//! 'true' or 'false', any case.
Result<bool> boolean_value(const Property& property, const std::string& owner) {
  std::string value = ascii_lower(property.value);
  if (value == "true") return true;
  if (value == "false") return false;
  return sql_error(property.value_position, "property '" + property.key + "' of " + owner +
                                                " must be 'true' or 'false', not '" + property.value + "'");
}

//! The transports of `allowed`, for a message: "http_input".
template <size_t N>
std::string transport_list(const std::string_view (&allowed)[N]) {
  std::string list;
  for (std::string_view name : allowed) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

//! Checks a 'connectors' value: a JSON array of objects, each with
//! `transport.name` among `allowed`. Returns the array as written.
template <size_t N>
Result<std::string> connectors_value(const Property& property, const std::string& owner,
                                     const std::string_view (&allowed)[N]) {
  const std::string prefix = "property 'connectors' of " + owner + ": ";
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  if (parser.parse(property.value).get(document) != simdjson::SUCCESS) {
    return sql_error(property.value_position, prefix + "not valid JSON (a JSON array of connectors is expected)");
  }
  simdjson::dom::array connectors;
  if (document.get_array().get(connectors) != simdjson::SUCCESS) {
    return sql_error(property.value_position, prefix + "a JSON array of connectors is expected");
  }
  size_t number = 0;
  for (simdjson::dom::element connector : connectors) {
    const std::string which = "connector " + std::to_string(number++);
    std::string_view transport;
    if (connector["transport"]["name"].get_string().get(transport) != simdjson::SUCCESS) {
      return sql_error(property.value_position, prefix + which + " has no \"transport\": {\"name\": ...}");
    }
    if (std::find(std::begin(allowed), std::end(allowed), transport) == std::end(allowed)) {
      return sql_error(property.value_position,
                       prefix + which + " uses transport '" + std::string(transport) +
                           "', which Freshet does not have; Freshet's transports here: " + transport_list(allowed));
    }
  }
  return property.value;
}

void warn(std::vector<CompileWarning>& warnings, const Property& property, const std::string& message) {
  warnings.push_back({property.key_position, message});
}

}  // namespace

Status apply_table_properties(const CreateTable& statement, CompiledTable& table,
                              std::vector<CompileWarning>& warnings) {
  const std::string owner = "table '" + statement.name + "'";
  for (const Property& property : statement.properties) {
    const std::string& key = property.key;
    if (key == "materialized") {
      Result<bool> materialized = boolean_value(property, owner);
      if (!materialized.ok()) return materialized.status();
      table.materialized = *materialized;
    } else if (key == "connectors") {
      Result<std::string> connectors = connectors_value(property, owner, kTableTransports);
      if (!connectors.ok()) return connectors.status();
      table.connectors = *connectors;
    } else if (key == "append_only") {
      Result<bool> append_only = boolean_value(property, owner);
      if (!append_only.ok()) return append_only.status();
      if (*append_only) {
        warn(warnings, property,
             "property 'append_only' of " + owner + " is accepted but not enforced: deletes are applied");
      }
    } else if (key == "skip_unused_columns") {
      warn(
          warnings, property,
          "property 'skip_unused_columns' of " + owner + " has no effect: Freshet's inputs read every declared column");
    } else if (key != "expected_size") {  // a size hint: nothing to do with it
      warn(warnings, property, "unknown property '" + key + "' of " + owner + " is ignored");
    }
  }
  table.properties = statement.properties;
  return Status::OK();
}

Status apply_view_properties(const CreateView& statement, CompiledView& view, std::vector<CompileWarning>& warnings) {
  const std::string owner = "view '" + statement.name + "'";
  for (const Property& property : statement.properties) {
    if (property.key == "connectors") {
      Result<std::string> connectors = connectors_value(property, owner, kViewTransports);
      if (!connectors.ok()) return connectors.status();
      view.connectors = *connectors;
    } else if (property.key == "on_runtime_error") {
      // read before the view is bound (view_runtime_error_mode): it types the view
    } else if (property.key == "emit_final") {
      warn(warnings, property, "property 'emit_final' of " + owner + " is not supported: the view emits every change");
    } else {
      warn(warnings, property, "unknown property '" + property.key + "' of " + owner + " is ignored");
    }
  }
  view.properties = statement.properties;
  return Status::OK();
}

Result<std::optional<RuntimeErrorMode>> view_runtime_error_mode(const CreateView& statement) {
  std::optional<RuntimeErrorMode> mode;
  for (const Property& property : statement.properties) {
    if (property.key != "on_runtime_error") continue;
    mode = parse_runtime_error_mode(property.value);
    if (!mode) {
      return sql_error(property.value_position, "property 'on_runtime_error' of view '" + statement.name +
                                                    "' must be 'fail' or 'null', not '" + property.value + "'");
    }
  }
  return mode;
}

}  // namespace freshet::sql
