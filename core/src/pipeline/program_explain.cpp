#include "freshet/pipeline/program_explain.h"

#include <map>
#include <string>

namespace freshet {
namespace {

size_t producer(const sql::CompiledProgram& program, Stream stream) { return program.circuit->producer_of(stream); }

//! "table t", "view v", "index i" by operator: what each operator's output stream is.
std::map<size_t, std::vector<std::string>> outputs_by_operator(const sql::CompiledProgram& program) {
  std::map<size_t, std::vector<std::string>> outputs;
  for (const sql::CompiledTable& table : program.tables) outputs[producer(program, table.stream)].push_back("table " + table.name);
  for (const sql::CompiledView& view : program.views) outputs[producer(program, view.stream)].push_back("view " + view.name);
  for (const sql::CompiledIndex& index : program.indexes) {
    outputs[producer(program, index.stream)].push_back("index " + index.name);
  }
  return outputs;
}

}  // namespace

Result<std::vector<OperatorReport>> explain_program(const sql::CompiledProgram& program, std::string_view view) {
  const Circuit& circuit = *program.circuit;
  std::vector<size_t> indexes;
  if (view.empty()) {
    for (size_t i = 0; i < circuit.operator_count(); ++i) indexes.push_back(i);
  } else {
    const sql::CompiledView* found = program.find_view(view);
    if (!found) return Status(ErrorCode::kUnknownView, "explain: unknown view '" + std::string(view) + "'");
    indexes = upstream_of(circuit, {producer(program, found->stream)});
  }
  std::vector<OperatorReport> reports = report_operators(circuit, indexes);
  std::map<size_t, std::vector<std::string>> outputs = outputs_by_operator(program);
  // Which views each operator serves: every operator upstream of the view's stream.
  std::map<size_t, std::vector<std::string>> served;
  for (const sql::CompiledView& each : program.views) {
    for (size_t i : upstream_of(circuit, {producer(program, each.stream)})) served[i].push_back(each.name);
  }
  for (OperatorReport& report : reports) {
    report.outputs = outputs[report.index];
    report.views = served[report.index];
  }
  return reports;
}

}  // namespace freshet
