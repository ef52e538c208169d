// OutputEndpoint: one consumer of a view's changes — a persistent connector
// writing to a Sink, or an egress stream read by one consumer.
//
// ## Snapshot state
//   none ──────────────────────────────► deltas only
//   pending ─(end of the next step)─► sent: the view's whole state as one
//            consistent batch (split into chunks, the last marked complete)
//            instead of that step's delta, then deltas.
// Snapshot at step N plus the deltas of steps N+1... is the view's state:
// no gap, no overlap. Reset puts a connector back to pending.
//
// ## Queues
// Chunks wait in a queue until the consumer takes them (egress) or the sink
// accepts them (connectors). When an egress queue holds max_queued_chunks:
//   block     automatic steps wait (blocking() is true); explicit steps go on
//   coalesce  new deltas merge into the last queued delta, so memory stays
//             bounded by the view's size however far behind the consumer is
//   drop      the oldest chunk goes; the gap shows in sequence numbers
// Connectors always block.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "freshet/format/json_output.h"
#include "freshet/pipeline/egress_retention.h"
#include "freshet/pipeline/materialized_view.h"
#include "freshet/pipeline/output_chunk.h"

namespace freshet {

enum class SnapshotState : uint8_t { kNone, kPending, kSent };
enum class LagPolicy : uint8_t { kBlock, kCoalesce, kDrop };

struct EndpointConfig {
  std::string view;
  std::string index;            //!< empty: the view itself
  bool send_snapshot = false;
  size_t max_queued_chunks = 1000;
  LagPolicy on_lag = LagPolicy::kBlock;
  //! Records per snapshot chunk; 0: the pipeline's setting. Named egress
  //! streams set it so that each wire line of a snapshot is one chunk, with
  //! a sequence number a consumer can resume after.
  size_t snapshot_chunk_records = 0;
};

struct EndpointStats {
  uint64_t transmitted_records = 0;
  uint64_t transmitted_batches = 0;
  uint64_t snapshot_records = 0;  //!< records of the current snapshot delivered so far
  uint64_t snapshot_total = 0;    //!< records of the current snapshot
  uint64_t resets = 0;
  uint64_t errors = 0;
  uint64_t dropped_chunks = 0;
  std::string last_error;
};

//! What a checkpoint keeps of a connector: enough to go on as if nothing
//! happened (its snapshot state, sequence numbers, statistics and the chunks
//! its sink had not yet accepted).
struct EndpointCheckpoint {
  uint64_t fingerprint = 0;  //!< of the configuration and sink (OutputEndpoint::fingerprint)
  SnapshotState state = SnapshotState::kNone;
  bool reset_in_progress = false;
  uint64_t next_sequence = 0;
  EndpointStats stats;
  std::deque<OutputChunk> queue;
};

class OutputEndpoint {
 public:
  //! `sink` is null for an egress stream.
  OutputEndpoint(std::string name, EndpointConfig config, const MaterializedView& view,
                 std::optional<size_t> index_ordinal, std::shared_ptr<Sink> sink);

  const std::string& name() const { return name_; }
  const EndpointConfig& config() const { return config_; }
  bool is_connector() const { return sink_ != nullptr; }
  const std::shared_ptr<Sink>& sink() const { return sink_; }
  SnapshotState snapshot_state() const { return state_; }
  const EndpointStats& stats() const { return stats_; }
  //! Its view's error once the view failed (an endpoint of a failed view
  //! gets no more chunks), else OK.
  const Status& view_failure() const;
  bool reset_in_progress() const { return reset_in_progress_; }

  //! After a step: queues the snapshot (when pending) or the step's delta.
  void on_step(uint64_t step, size_t snapshot_chunk_records);
  //! Egress: takes the next chunk.
  std::optional<OutputChunk> pop();
  //! Connectors: writes queued chunks to the sink, in order, until one is
  //! pending or fails (it stays queued and is retried next time).
  void deliver();
  //! Connectors: the sink finished a pending write.
  Status acknowledge(uint64_t sequence_number);
  //! Connectors: wipes the destination and goes back to pending.
  Status start_reset();
  //! Goes back to pending (a fresh snapshot at the next step).
  void request_snapshot() { state_ = SnapshotState::kPending; }

  //! Identifies what this connector delivers and where: view, index,
  //! send_snapshot and the sink's describe() when it was added. A
  //! checkpointed connector whose fingerprint differs from its new
  //! configuration is a new connector.
  uint64_t fingerprint() const { return fingerprint_; }
  EndpointCheckpoint checkpoint() const;
  //! Takes over a checkpointed connector of the same name. With the same
  //! fingerprint everything carries on (a snapshot already sent is not sent
  //! again); otherwise only the statistics and sequence numbers do.
  //! Returns whether the fingerprint matched.
  bool resume_from(EndpointCheckpoint saved);

  //! The chunk as a JSON array of insert_delete (or upsert/delete) records.
  std::string encode(const OutputChunk& chunk) const;
  //! The chunk's records as two comma-separated lists of JSON objects (no
  //! brackets): rows inserted and rows deleted, or through an index upserts
  //! `{"key":{...},"row":{...}}` and deletes `{"key":{...}}`.
  void encode_split(const OutputChunk& chunk, std::string* additions, std::string* removals) const;
  // ------------------------------------------- named egress (egress_resume.cpp)
  //! Keeps what the consumer takes, within `limits`, so it can resume.
  void retain(RetentionLimits limits);
  const EgressRetention* retention() const { return retention_ ? &*retention_ : nullptr; }
  //! The consumer has every chunk up to and including `last_received`: the
  //! next pop() gives the chunk after it. RESUME_UNAVAILABLE when that chunk
  //! is no longer retained, or was never produced here (the pipeline went
  //! back to an older checkpoint): the consumer must start over (restart()).
  Status resume_after(uint64_t last_received);
  //! Starts over: forgets the queue and the retention; with send_snapshot a
  //! fresh snapshot comes at the next step. Sequence numbers go on counting.
  void restart();
  //! The sequence number the next chunk will get.
  uint64_t next_sequence() const { return next_sequence_; }
  //! Restores the retained chunks of a checkpoint (after resume_from()).
  void restore_retained(std::deque<OutputChunk> chunks);

  //! Whether chunks go through an index (upserts and deletes by key).
  bool through_index() const { return index_.has_value(); }
  //! The schema of the rows it carries (the view's).
  const Schema& row_schema() const { return row_encoder_.schema(); }

  size_t queued_chunks() const { return queue_.size(); }
  size_t queued_records() const;
  //! Whether a full queue holds automatic steps.
  bool blocking() const;
  //! The step of the oldest chunk not yet accepted; none when all are.
  std::optional<uint64_t> oldest_unaccepted_step() const;

 private:
  void enqueue(OutputChunk chunk);
  void queue_snapshot(uint64_t step, size_t chunk_records);
  void accepted(const OutputChunk& chunk);
  BatchPtr current_delta() const;

  std::string name_;
  EndpointConfig config_;
  const MaterializedView* view_;
  std::optional<size_t> index_;
  std::shared_ptr<Sink> sink_;
  format::JsonRowEncoder row_encoder_;                // the view's rows
  std::optional<format::JsonRowEncoder> key_encoder_;  // the index's keys, through an index
  SnapshotState state_;
  std::deque<OutputChunk> queue_;
  bool awaiting_ack_ = false;   // the front chunk's write is pending
  bool reset_in_progress_ = false;
  uint64_t next_sequence_ = 0;
  EndpointStats stats_;
  uint64_t fingerprint_;
  std::optional<EgressRetention> retention_;  // named egress only
};

//! Records in a batch: the sum of |weight|.
size_t record_count(const Batch& batch);

}  // namespace freshet
