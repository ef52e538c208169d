// Pipeline::replace_program: a program change in place, without a storage
// round trip: the state is saved in memory, restored by id into a pipeline
// of the new program (failed operators rebuilt: program_change.cpp), and
// the new pipeline takes over every connector and egress stream, each
// with its queue, sequence numbers and statistics, so that a consumer of a
// view that did not change sees no gap and no duplicate.
//
// A rebuilt view's stream gets one chunk: the new contents minus the old
// (both known when the view is materialized). Where they cannot be known,
// or the view's columns changed, the stream ends with RESUME_UNAVAILABLE
// (open it again); a removed view's ends with UNKNOWN_VIEW.
#include "freshet/pipeline/pipeline.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {
namespace {

//! a - b, consolidated.
BatchPtr difference(const Batch& a, const Batch& b) {
  BatchBuilder out;
  for (BatchCursor c(a); c.valid(); c.next()) out.add(c.key(), c.value(), c.weight());
  for (BatchCursor c(b); c.valid(); c.next()) out.add(c.key(), c.value(), -c.weight());
  return out.finish();
}

}  // namespace

Result<std::unique_ptr<Pipeline>> Pipeline::replace_program(std::string_view sql, const sql::CompileOptions& options) {
  Result<SavedState> state = save_state();
  if (!state.ok()) return state.status();
  Result<std::unique_ptr<Pipeline>> created = create(sql, options);
  if (!created.ok()) return created.status();
  Pipeline& next = **created;
  next.snapshot_chunk_records_ = snapshot_chunk_records_;
  next.memory_budget_ = memory_budget_;
  next.set_error_view_retention(error_view_->retention());
  next.clock_micros_ = clock_micros_;
  next.paused_ = paused_;
  FRESHET_RETURN_IF_ERROR(next.replace_from(*state));
  next.restored_connectors_.clear();  // taken over below, sinks and all
  next.checkpoint_status_ = checkpoint_status_;
  next.adopt_endpoints(*this);
  return created;
}

void Pipeline::adopt_endpoints(Pipeline& old) {
  const uint64_t step = steps_ ? steps_ - 1 : 0;
  // The endpoint of the new pipeline that goes on where `from` was; null
  // with `why` when it cannot.
  auto take_over = [&](const OutputEndpoint& from, Status* why) -> std::unique_ptr<OutputEndpoint> {
    const EndpointConfig& config = from.config();
    const MaterializedView* view = find_view(config.view);
    if (!view || (!config.index.empty() && !view->index_ordinal(config.index))) {
      *why = Status(ErrorCode::kUnknownView, "view '" + config.view + "' (or its index) was removed by a program change");
      return nullptr;
    }
    Result<std::unique_ptr<OutputEndpoint>> made = make_endpoint(from.name(), config, from.sink());
    const bool rebuilt = rebuilt_views_.count(config.view) > 0;
    if (!made.ok() || (*made)->fingerprint() != from.fingerprint() || (rebuilt && !view->materialized())) {
      *why = Status(ErrorCode::kResumeUnavailable,
                    "view '" + config.view + "' was replaced by a program change and what changed in it cannot be "
                    "told (its columns changed, or it keeps no contents: not materialized): open the stream again");
      return nullptr;
    }
    std::unique_ptr<OutputEndpoint> endpoint = std::move(*made);
    const EgressRetention* retention = from.retention();
    if (retention) endpoint->retain(retention->limits());
    endpoint->resume_from(from.checkpoint());
    if (retention) endpoint->restore_retained(retention->chunks());
    if (rebuilt && endpoint->snapshot_state() == SnapshotState::kSent) {
      const MaterializedView* before = old.find_view(config.view);
      std::optional<size_t> index = config.index.empty() ? std::nullopt : view->index_ordinal(config.index);
      BatchPtr now = index ? view->index_snapshot(*index) : view->snapshot();
      BatchPtr then = !before ? Batch::empty_batch()
                      : index ? before->index_snapshot(*before->index_ordinal(config.index))
                              : before->snapshot();
      // The difference goes out as the delta of the stream it reads.
      Stream stream = index ? view->indexes()[*index]->stream : view->view().stream;
      program_->circuit->slot(stream).batch = difference(*now, *then);
      endpoint->on_step(step, snapshot_chunk_records_);
      program_->circuit->slot(stream).batch = Batch::empty_batch();
    }
    return endpoint;
  };
  for (auto& [name, from] : old.connectors_) {
    Status why;
    if (std::unique_ptr<OutputEndpoint> endpoint = take_over(*from, &why)) connectors_[name] = std::move(endpoint);
  }
  for (auto& [id, from] : old.egress_) {
    Status why;
    if (std::unique_ptr<OutputEndpoint> endpoint = take_over(*from, &why)) {
      egress_[id] = std::move(endpoint);
    } else {
      ended_egress_[id] = why;
    }
  }
  for (const auto& [id, why] : old.ended_egress_) ended_egress_.emplace(id, why);
  for (const auto& [name, id] : old.named_egress_) {
    if (egress_.count(id)) named_egress_[name] = id;
  }
  next_egress_ = old.next_egress_;
}

}  // namespace freshet
