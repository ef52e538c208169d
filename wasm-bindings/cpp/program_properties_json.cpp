#include "program_properties_json.h"

#include "freshet/format/json_output.h"

namespace freshet::wasm {
namespace {

std::string quoted(const std::string& text) {
  std::string out;
  format::append_json_string(text, &out);
  return out;
}

}  // namespace

std::string properties_fields_json(const std::vector<sql::Property>& properties, const std::string& connectors) {
  std::string json = ",\"properties\":{";
  for (size_t i = 0; i < properties.size(); ++i) {
    if (i) json += ',';
    json += quoted(properties[i].key) + ":" + quoted(properties[i].value);
  }
  // The compiler checked the connectors' JSON: it is embedded as written.
  return json + "},\"connectors\":" + (connectors.empty() ? "[]" : connectors);
}

std::string warnings_json(const std::vector<sql::CompileWarning>& warnings) {
  std::string json = "[";
  for (size_t i = 0; i < warnings.size(); ++i) {
    if (i) json += ',';
    json += "{\"message\":" + quoted(warnings[i].message) + ",\"line\":" + std::to_string(warnings[i].position.line) +
            ",\"column\":" + std::to_string(warnings[i].position.column) + "}";
  }
  return json + "]";
}

}  // namespace freshet::wasm
