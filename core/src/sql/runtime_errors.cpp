#include "runtime_errors.h"

#include "freshet/format/json_output.h"

namespace freshet::sql {

namespace {
constexpr size_t kMaxRowText = 1024;
}

void RuntimeErrors::after(Evaluator& evaluator, const Expr& expr, const RowReader& row, bool null) const {
  if (mode != RuntimeErrorMode::kNull || !evaluator.failed()) return;
  if (null && !expr.type.nullable) return;  // cannot be stored: the step fails
  Status error = evaluator.take_error();
  ErrorLog& log = circuit->error_log();
  if (!log.entry_inserted()) return;  // a retraction: logged when the row was inserted
  log.count_nulled(view);
  log.add({view, error.message(), runtime_error_metadata(circuit->step_count(), error, evaluator.describe(expr), row)});
}

bool RuntimeErrors::report(Evaluator& evaluator) const {
  if (!evaluator.failed()) return false;
  circuit->report_error(evaluator.take_error());
  return true;
}

AggregateErrorHandler RuntimeErrors::aggregate_handler() const {
  if (mode != RuntimeErrorMode::kNull) return nullptr;
  return [circuit = circuit, view = view](const Status& error, const AggregateSpec& spec, const RowReader& group) {
    ErrorLog& log = circuit->error_log();
    log.count_nulled(view);
    log.add({view, error.message(), aggregate_error_metadata(circuit->step_count(), error, spec, group)});
    return true;
  };
}

std::string runtime_error_metadata(uint64_t step, const Status& error, const std::string& expression,
                                   const RowReader& row) {
  std::string out = "{\"kind\":\"runtime_error\",\"step\":" + std::to_string(step) + ",\"error_code\":";
  format::append_json_string(error_code_name(error.code()), &out);
  out += ",\"expression\":";
  format::append_json_string(expression, &out);
  std::string row_text;
  format::append_json_row(row, &row_text);
  if (row_text.size() <= kMaxRowText) out += ",\"row\":" + row_text;
  return out + '}';
}

std::string aggregate_error_metadata(uint64_t step, const Status& error, const AggregateSpec& spec,
                                     const RowReader& group) {
  std::string out = "{\"kind\":\"runtime_error\",\"step\":" + std::to_string(step) + ",\"error_code\":";
  format::append_json_string(error_code_name(error.code()), &out);
  out += ",\"aggregate\":";
  format::append_json_string(aggregate_kind_name(spec.kind), &out);
  out += ",\"column\":";
  format::append_json_string(spec.name, &out);
  std::string group_text;
  format::append_json_row(group, &group_text);
  if (group_text.size() <= kMaxRowText) out += ",\"group\":" + group_text;
  return out + '}';
}

}  // namespace freshet::sql
