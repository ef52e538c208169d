// Failed views: a view whose stream (or one of its indexes') comes from an
// operator the circuit failed (an SQL runtime error: Circuit::step) is
// failed with that operator's error, named for the view and step:
//   view 'ratio' failed at step 3: map: division by zero in (total / n)
// and a view failed through a view it reads says which:
//   view 'doubled' failed at step 3: map: ... (in view 'ratio', which it reads)
// A failed view keeps its contents of the step before but answers this
// error to snapshots, lookups, queries and its egress streams (once their
// queued chunks are taken); its endpoints get no more chunks and hold no
// step back. Nothing un-fails it: the circuit's failed operators stay
// failed, so only a re-created pipeline starts it again. The circuit's
// failures are in checkpoints (section 'failures'), so a restored pipeline
// marks the same views again.
#include <algorithm>
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

//! Another view whose failure `view`'s came through: one it reads (its
//! stream upstream of `view`'s), failed by the same error at the same step.
//! Null when the error arose in `view`'s own operators (or in a sub-plan
//! views share, where no one view is the place).
const MaterializedView* failed_upstream(const sql::CompiledProgram& program, const MaterializedView& view,
                                        const OperatorFailure& failure,
                                        const std::vector<std::unique_ptr<MaterializedView>>& views) {
  const Circuit& circuit = *program.circuit;
  const size_t producer = circuit.producer_of(view.view().stream);
  const MaterializedView* upstream = nullptr;
  size_t upstream_producer = 0;
  for (const std::unique_ptr<MaterializedView>& other : views) {
    if (other.get() == &view) continue;
    const OperatorFailure* of_other = failure_of_view(program, *other);
    if (!of_other || of_other->step != failure.step || of_other->error.message() != failure.error.message()) continue;
    const size_t other_producer = circuit.producer_of(other->view().stream);
    if (other_producer == producer) continue;
    const std::vector<size_t> downstream = circuit.downstream_of(other_producer);
    if (std::find(downstream.begin(), downstream.end(), producer) == downstream.end()) continue;
    // Of several failed views upstream, the first in the chain (operators are in evaluation order).
    if (!upstream || other_producer < upstream_producer) {
      upstream = other.get();
      upstream_producer = other_producer;
    }
  }
  return upstream;
}

}  // namespace

void Pipeline::mark_failed_views() {
  if (!program_->circuit->any_failed()) return;
  for (const std::unique_ptr<MaterializedView>& view : views_) {
    if (!view->failure().ok()) continue;
    const OperatorFailure* failure = failure_of_view(*program_, *view);
    if (!failure) continue;
    std::string message = "view '" + view->view().name + "' failed at step " + std::to_string(failure->step) + ": " +
                          failure->error.message();
    // The expression that failed is in a view it reads: say which (after the
    // error, so that the message starts as every view failure's does).
    if (const MaterializedView* upstream = failed_upstream(*program_, *view, *failure, views_)) {
      message += " (in view '" + upstream->view().name + "', which it reads)";
    }
    view->fail(Status(failure->error.code(), std::move(message)), failure->step);
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
