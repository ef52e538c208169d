#include "freshet/circuit/circuit_printer.h"

#include "freshet/format/json_output.h"

namespace freshet {

std::string operator_label(const Circuit& circuit, size_t index) { return circuit.operator_id(index); }

// A table's name is what its input is, not a reader of it; a view or an
// index is read (materialized, egress) besides the operators.
bool OperatorReport::shared() const {
  size_t readers = consumers;
  for (const std::string& output : outputs) readers += output.rfind("table ", 0) == 0 ? 0 : 1;
  return readers > 1;
}

std::vector<size_t> upstream_of(const Circuit& circuit, const std::vector<size_t>& roots) {
  std::vector<bool> seen(circuit.operator_count(), false);
  std::vector<size_t> pending;
  for (size_t root : roots) {
    if (!seen[root]) pending.push_back(root);
    seen[root] = true;
  }
  // A delay's back edge makes a cycle: the visited set ends the walk.
  while (!pending.empty()) {
    size_t at = pending.back();
    pending.pop_back();
    for (uint32_t stream : circuit.inputs_of(at)) {
      size_t producer = circuit.producer_of(Stream(nullptr, stream));
      if (producer < seen.size() && !seen[producer]) {
        seen[producer] = true;
        pending.push_back(producer);
      }
    }
  }
  std::vector<size_t> result;
  for (size_t i = 0; i < seen.size(); ++i) {
    if (seen[i]) result.push_back(i);
  }
  return result;
}

std::vector<OperatorReport> report_operators(const Circuit& circuit, const std::vector<size_t>& indexes) {
  std::vector<OperatorReport> reports;
  for (size_t i : indexes) {
    const Operator& op = circuit.operator_at(i);
    OperatorReport report;
    report.index = i;
    report.id = operator_label(circuit, i);
    report.kind = op.name();
    report.description = op.describe();
    for (uint32_t stream : circuit.inputs_of(i)) {
      size_t producer = circuit.producer_of(Stream(nullptr, stream));
      if (producer < circuit.operator_count()) report.inputs.push_back(operator_label(circuit, producer));
    }
    report.consumers = circuit.consumers_of(i).size();
    report.rows = op.state_rows();
    report.bytes = op.state_bytes();
    report.time = circuit.time_of(i);
    reports.push_back(std::move(report));
  }
  return reports;
}

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// "2 consumers", "1 consumer, 1 view", "2 views": who reads a shared output.
std::string readers_text(const OperatorReport& report) {
  auto count_of = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  size_t views = 0, indexes = 0;
  for (const std::string& output : report.outputs) {
    if (output.rfind("view ", 0) == 0) ++views;
    if (output.rfind("index ", 0) == 0) ++indexes;
  }
  std::vector<std::string> parts;
  if (report.consumers) parts.push_back(count_of(report.consumers, "consumer", "consumers"));
  if (views) parts.push_back(count_of(views, "view", "views"));
  if (indexes) parts.push_back(count_of(indexes, "index", "indexes"));
  return joined(parts);
}

void append_json_strings(const std::vector<std::string>& items, std::string* json) {
  *json += "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) *json += ",";
    format::append_json_string(items[i], json);
  }
  *json += "]";
}

}  // namespace

std::string circuit_text(const std::vector<OperatorReport>& reports, bool figures) {
  std::string text;
  for (const OperatorReport& r : reports) {
    text += r.id + " " + r.kind;
    if (!r.description.empty()) text += " " + r.description;
    if (!r.inputs.empty()) text += " <- " + joined(r.inputs);
    if (!r.outputs.empty()) text += " = " + joined(r.outputs);
    if (figures) {
      text += " | " + std::to_string(r.rows) + " rows, " + std::to_string(r.bytes) + " B, " +
              std::to_string(r.time.last_step_nanos / 1000) + " us last step";
    }
    if (r.shared()) text += " | shared: " + readers_text(r);
    if (!r.views.empty()) text += " | views: " + joined(r.views);
    text += "\n";
  }
  return text;
}

std::string circuit_json(const std::vector<OperatorReport>& reports) {
  std::string json = "[";
  for (const OperatorReport& r : reports) {
    if (json.size() > 1) json += ",";
    json += "{\"id\":";
    format::append_json_string(r.id, &json);
    json += ",\"kind\":";
    format::append_json_string(r.kind, &json);
    json += ",\"description\":";
    format::append_json_string(r.description, &json);
    json += ",\"inputs\":";
    append_json_strings(r.inputs, &json);
    json += ",\"outputs\":";
    append_json_strings(r.outputs, &json);
    json += ",\"views\":";
    append_json_strings(r.views, &json);
    json += ",\"consumers\":" + std::to_string(r.consumers) + ",\"shared\":" + (r.shared() ? "true" : "false") +
            ",\"rows\":" + std::to_string(r.rows) + ",\"bytes\":" + std::to_string(r.bytes) +
            ",\"last_step_nanos\":" + std::to_string(r.time.last_step_nanos) +
            ",\"total_nanos\":" + std::to_string(r.time.total_nanos) + "}";
  }
  return json + "]";
}

}  // namespace freshet
