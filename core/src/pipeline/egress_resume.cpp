// Resuming a named egress stream (OutputEndpoint's named-egress methods).
//
// Sequence numbers are the endpoint's chunk numbers: stable across
// connections and, through checkpoints, across restarts. A consumer that
// has chunks up to N resumes with N+1: the chunks it took and lost in
// flight come back from the retention, those not yet taken are still queued.
//
//   produced   | 0 1 2 3 4 5 6 |
//   retention  |     2 3 4     |   (taken by the consumer, kept)
//   queue      |           5 6 |   (not yet taken)
//   resume_after(2) → queue 3 4 5 6; resume_after(0) → RESUME_UNAVAILABLE
#include <iterator>

#include "freshet/pipeline/output_endpoint.h"

namespace freshet {

void OutputEndpoint::retain(RetentionLimits limits) {
  if (retention_) {
    retention_->set_limits(limits);
  } else {
    retention_.emplace(limits);
  }
}

Status OutputEndpoint::resume_after(uint64_t last_received) {
  uint64_t wanted = last_received + 1;
  if (wanted > next_sequence_) {
    return Status(ErrorCode::kResumeUnavailable,
                  "egress '" + name_ + "' cannot resume after chunk " + std::to_string(last_received) +
                      ": it has produced chunks up to " + std::to_string(next_sequence_) +
                      " (exclusive), so the pipeline went back to an older state; start again with a snapshot");
  }
  uint64_t first_available = next_sequence_;
  if (retention_ && retention_->first_sequence()) {
    first_available = *retention_->first_sequence();
  } else if (!queue_.empty()) {
    first_available = queue_.front().sequence_number;
  }
  if (wanted < first_available) {
    return Status(ErrorCode::kResumeUnavailable, "egress '" + name_ + "' cannot resume after chunk " +
                                                     std::to_string(last_received) + ": it retains chunks from " +
                                                     std::to_string(first_available) +
                                                     " on (retention exceeded); start again with a snapshot");
  }
  // Chunks the consumer has may still be queued (a checkpoint taken before
  // it took them): they go; chunks it took and lost come back, in order.
  while (!queue_.empty() && queue_.front().sequence_number <= last_received) queue_.pop_front();
  if (retention_) {
    std::deque<OutputChunk> lost = retention_->take_after(last_received);
    retention_->forget_through(last_received);
    queue_.insert(queue_.begin(), std::make_move_iterator(lost.begin()), std::make_move_iterator(lost.end()));
  }
  return Status::OK();
}

void OutputEndpoint::restart() {
  queue_.clear();
  if (retention_) retention_->clear();
  if (config_.send_snapshot) state_ = SnapshotState::kPending;
}

void OutputEndpoint::restore_retained(std::deque<OutputChunk> chunks) {
  if (!retention_) return;
  retention_->clear();
  for (const OutputChunk& chunk : chunks) retention_->keep(chunk);
}

}  // namespace freshet
