// Failed views: a view whose stream (or one of its indexes') comes from an
// operator the circuit failed (an SQL runtime error: Circuit::step) is
// failed with that operator's error, named for the view and step:
//   view 'ratio' failed at step 3: map: division by zero
// A failed view keeps its contents of the step before but answers this
// error to snapshots, lookups, queries and its egress streams (once their
// queued chunks are taken); its endpoints get no more chunks and hold no
// step back. Nothing un-fails it: the circuit's failed operators stay
// failed, so only a re-created pipeline starts it again. The circuit's
// failures are in checkpoints (section 'failures'), so a restored pipeline
// marks the same views again.
#include <map>

#include "freshet/format/json_output.h"
#include "freshet/pipeline/pipeline.h"

namespace freshet {

namespace {

//! The first failure among the operators writing the view's streams.
const OperatorFailure* failure_of_view(const sql::CompiledProgram& program, const MaterializedView& view) {
  const Circuit& circuit = *program.circuit;
  const OperatorFailure* failure = circuit.stream_failure(view.view().stream);
  for (const sql::CompiledIndex* index : view.indexes()) {
    const OperatorFailure* of_index = circuit.stream_failure(index->stream);
    if (of_index && (!failure || of_index->step < failure->step)) failure = of_index;
  }
  return failure;
}

}  // namespace

void Pipeline::mark_failed_views() {
  if (!program_->circuit->any_failed()) return;
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    if (!view->failure().ok()) continue;
    const OperatorFailure* failure = failure_of_view(*program_, *view);
    if (!failure) continue;
    view->fail(Status(failure->error.code(), "view '" + view->view().name + "' failed at step " +
                                                 std::to_string(failure->step) + ": " + failure->error.message()),
               failure->step);
  }
}

std::vector<ViewFailure> Pipeline::failed_views() const {
  std::vector<ViewFailure> failed;
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    if (!view->failure().ok()) failed.push_back({view->view().name, view->failure(), view->failed_step()});
  }
  return failed;
}

Status Pipeline::view_failure(std::string_view name) const {
  const MaterializedView* view = find_view(name);
  return view ? view->failure() : Status::OK();
}

void Pipeline::append_view_stats(std::string* json) const {
  // Runtime errors turned into NULL ('null' mode: error_view.h), by view.
  const std::map<std::string, uint64_t>& nulled = program_->circuit->error_log().nulled();
  *json += "\"views\":{";
  bool first = true;
  for (const sql::CompiledView& compiled : program_->views) {
    const MaterializedView* view = find_view(compiled.name);
    if (!first) *json += ",";
    first = false;
    format::append_json_string(compiled.name, json);
    *json += ":{\"failed\":";
    if (view->failure().ok()) {
      *json += "null";
    } else {
      *json += "{\"code\":\"" + std::string(error_code_name(view->failure().code())) + "\",\"message\":";
      format::append_json_string(view->failure().message(), json);
      *json += ",\"step\":" + std::to_string(view->failed_step()) + "}";
    }
    auto count = nulled.find(compiled.name);
    *json += ",\"nulled_errors\":" + std::to_string(count == nulled.end() ? 0 : count->second) + "}";
  }
  *json += "}";
}

}  // namespace freshet
