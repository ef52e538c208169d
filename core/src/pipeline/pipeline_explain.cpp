// Pipeline::explain_json: the circuit printer's reports (program_explain.h)
// with the pipeline's own state beside them: the materialized views' traces,
// which live outside the circuit.
#include "freshet/format/json_output.h"
#include "freshet/pipeline/materialized_view.h"
#include "freshet/pipeline/pipeline.h"
#include "freshet/pipeline/program_explain.h"

namespace freshet {

Result<std::string> Pipeline::explain_json(std::string_view view) const {
  // Operators are timed from the first look on (Circuit::set_timing).
  program_->circuit->set_timing(true);
  Result<std::vector<OperatorReport>> explained = explain_program(*program_, view);
  if (!explained.ok()) return explained.status();
  const std::vector<OperatorReport>& reports = *explained;
  std::string text = circuit_text(reports, /*figures=*/true);
  std::string views = "[";
  size_t view_bytes = 0;
  for (const std::unique_ptr<MaterializedView>& each : views_) {
    const sql::CompiledView& compiled = each->view();
    if (!view.empty() && compiled.name != view) continue;
    size_t bytes = each->memory_bytes();
    view_bytes += bytes;
    std::string id = operator_label(*program_->circuit, program_->circuit->producer_of(compiled.stream));
    if (views.size() > 1) views += ",";
    views += "{\"name\":";
    format::append_json_string(compiled.name, &views);
    views += ",\"operator\":";
    format::append_json_string(id, &views);
    views += std::string(",\"materialized\":") + (each->materialized() ? "true" : "false") +
             ",\"bytes\":" + std::to_string(bytes) + "}";
    if (each->materialized()) text += compiled.name + " materialized <- " + id + " | " + std::to_string(bytes) + " B\n";
  }
  views += "]";
  size_t rows = 0, bytes = 0;
  uint64_t last_nanos = 0, total_nanos = 0;
  for (const OperatorReport& r : reports) {
    rows += r.rows;
    bytes += r.bytes;
    last_nanos += r.time.last_step_nanos;
    total_nanos += r.time.total_nanos;
  }
  std::string json = "{\"text\":";
  format::append_json_string(text, &json);
  json += ",\"operators\":" + circuit_json(reports) + ",\"views\":" + views + ",\"totals\":{\"operators\":" +
          std::to_string(reports.size()) + ",\"rows\":" + std::to_string(rows) + ",\"bytes\":" +
          std::to_string(bytes) + ",\"view_bytes\":" + std::to_string(view_bytes) + ",\"last_step_nanos\":" +
          std::to_string(last_nanos) + ",\"total_nanos\":" + std::to_string(total_nanos) +
          ",\"steps\":" + std::to_string(steps_) + "}}";
  return json;
}

}  // namespace freshet
