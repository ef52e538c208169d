// EgressRetention: the chunks a named egress stream's consumer already took,
// kept so that a consumer that lost its connection can resume with the chunk
// after the last one it has (OutputEndpoint::resume_after).
//
// ## Invariants
// Chunks are in sequence-number order. The retention never holds more than
// `max_chunks` chunks nor (beyond one chunk) more than `max_bytes` bytes of
// batches: keeping a chunk evicts the oldest ones until both bounds hold. A
// chunk the consumer says it has (forget_through) is never needed again.
//
//   taken      | 0 | 1 | 2 | 3 |        max_chunks = 3
//   retained   | 0 | 0 1 | 0 1 2 | 1 2 3 |
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

#include "freshet/pipeline/output_chunk.h"

namespace freshet {

//! How much a named egress keeps of what its consumer took. The defaults fit
//! a 128 MiB Workers isolate: at most kMaxNamedEgress × 2 MiB = 32 MiB.
struct RetentionLimits {
  size_t max_chunks = 1000;
  size_t max_bytes = size_t{2} << 20;
};

//! Named egress streams per pipeline: opening one more closes the one whose
//! consumer connected least recently (a page that never came back).
constexpr size_t kMaxNamedEgress = 16;

class EgressRetention {
 public:
  explicit EgressRetention(RetentionLimits limits) : limits_(limits) {}

  const RetentionLimits& limits() const { return limits_; }
  void set_limits(RetentionLimits limits);
  //! Keeps a chunk the consumer took (chunks come in sequence order).
  void keep(const OutputChunk& chunk);
  //! Forgets the chunks up to and including `sequence_number`.
  void forget_through(uint64_t sequence_number);
  //! Removes and returns the chunks after `sequence_number`, in order.
  std::deque<OutputChunk> take_after(uint64_t sequence_number);
  //! The oldest chunk's sequence number, when any is kept.
  std::optional<uint64_t> first_sequence() const;
  const std::deque<OutputChunk>& chunks() const { return chunks_; }
  size_t bytes() const { return bytes_; }
  void clear();

 private:
  void evict();

  RetentionLimits limits_;
  std::deque<OutputChunk> chunks_;
  size_t bytes_ = 0;
};

}  // namespace freshet
