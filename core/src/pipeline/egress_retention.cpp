#include "freshet/pipeline/egress_retention.h"

namespace freshet {

void EgressRetention::set_limits(RetentionLimits limits) {
  limits_ = limits;
  evict();
}

void EgressRetention::keep(const OutputChunk& chunk) {
  chunks_.push_back(chunk);  // shares the batch: no copy of the rows
  bytes_ += chunk.batch->memory_bytes();
  evict();
}

void EgressRetention::evict() {
  // The newest chunk stays even when it alone is over max_bytes, unless no
  // chunk may be kept at all: a resume right after it must still work.
  while (!chunks_.empty() &&
         (chunks_.size() > limits_.max_chunks || (bytes_ > limits_.max_bytes && chunks_.size() > 1))) {
    bytes_ -= chunks_.front().batch->memory_bytes();
    chunks_.pop_front();
  }
}

void EgressRetention::forget_through(uint64_t sequence_number) {
  while (!chunks_.empty() && chunks_.front().sequence_number <= sequence_number) {
    bytes_ -= chunks_.front().batch->memory_bytes();
    chunks_.pop_front();
  }
}

std::deque<OutputChunk> EgressRetention::take_after(uint64_t sequence_number) {
  std::deque<OutputChunk> taken;
  while (!chunks_.empty() && chunks_.back().sequence_number > sequence_number) {
    bytes_ -= chunks_.back().batch->memory_bytes();
    taken.push_front(std::move(chunks_.back()));
    chunks_.pop_back();
  }
  return taken;
}

std::optional<uint64_t> EgressRetention::first_sequence() const {
  if (chunks_.empty()) return std::nullopt;
  return chunks_.front().sequence_number;
}

void EgressRetention::clear() {
  chunks_.clear();
  bytes_ = 0;
}

}  // namespace freshet
