#include "freshet/pipeline/output_endpoint.h"

#include "freshet/format/json_output.h"
#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/merge.h"

namespace freshet {

namespace {

uint64_t fingerprint_of(const EndpointConfig& config, const Sink* sink) {
  // Length-prefixed fields, so ("ab","c") and ("a","bc") differ.
  std::string identity;
  for (const std::string& field : {config.view, config.index, std::string(config.send_snapshot ? "1" : "0"),
                                   sink ? sink->describe() : std::string()}) {
    identity += std::to_string(field.size()) + ":" + field;
  }
  return hash_bytes(reinterpret_cast<const uint8_t*>(identity.data()), identity.size());
}

}  // namespace

size_t record_count(const Batch& batch) {
  size_t records = 0;
  for (size_t i = 0; i < batch.size(); ++i) records += static_cast<size_t>(batch.weight(i) < 0 ? -batch.weight(i) : batch.weight(i));
  return records;
}

OutputEndpoint::OutputEndpoint(std::string name, EndpointConfig config, const MaterializedView& view,
                               std::optional<size_t> index_ordinal, std::shared_ptr<Sink> sink)
    : name_(std::move(name)),
      config_(std::move(config)),
      view_(&view),
      index_(index_ordinal),
      sink_(std::move(sink)),
      row_encoder_(*view.view().schema),
      state_(config_.send_snapshot ? SnapshotState::kPending : SnapshotState::kNone),
      fingerprint_(fingerprint_of(config_, sink_.get())) {
  if (index_) key_encoder_.emplace(*view_->indexes()[*index_]->key_schema);
}

BatchPtr OutputEndpoint::current_delta() const {
  return index_ ? view_->indexes()[*index_]->stream.current() : view_->view().stream.current();
}

const Status& OutputEndpoint::view_failure() const { return view_->failure(); }

void OutputEndpoint::on_step(uint64_t step, size_t snapshot_chunk_records) {
  if (state_ == SnapshotState::kPending) {
    queue_snapshot(step, config_.snapshot_chunk_records ? config_.snapshot_chunk_records : snapshot_chunk_records);
    state_ = SnapshotState::kSent;
    return;
  }
  BatchPtr delta = current_delta();
  if (delta->empty()) return;
  OutputChunk chunk;
  chunk.step = step;
  chunk.batch = std::move(delta);
  chunk.records = record_count(*chunk.batch);
  enqueue(std::move(chunk));
}

void OutputEndpoint::queue_snapshot(uint64_t step, size_t chunk_records) {
  BatchPtr contents = index_ ? view_->index_snapshot(*index_) : view_->snapshot();
  stats_.snapshot_total = record_count(*contents);
  stats_.snapshot_records = 0;
  // Split into chunks of about chunk_records records; keys stay whole, so an
  // index's upserts for one key never straddle two chunks.
  BatchCursor cursor(*contents);
  do {
    SortedBatchBuilder part;
    size_t records = 0;
    while (cursor.valid() && (records < chunk_records || records == 0)) {
      RowRef key = cursor.key();
      size_t key_index = cursor.key_index();
      while (cursor.valid() && cursor.key_index() == key_index) {
        part.push(key, cursor.value(), cursor.weight());
        records += static_cast<size_t>(cursor.weight() < 0 ? -cursor.weight() : cursor.weight());
        cursor.next();
      }
    }
    OutputChunk chunk;
    chunk.step = step;
    chunk.snapshot = true;
    chunk.snapshot_complete = !cursor.valid();
    chunk.batch = part.finish();
    chunk.records = records;
    // Snapshot chunks are never dropped or merged: they go in whole.
    chunk.sequence_number = next_sequence_++;
    queue_.push_back(std::move(chunk));
  } while (cursor.valid());
}

void OutputEndpoint::enqueue(OutputChunk chunk) {
  if (!is_connector() && queue_.size() >= config_.max_queued_chunks) {
    if (config_.on_lag == LagPolicy::kCoalesce && !queue_.back().snapshot) {
      OutputChunk& last = queue_.back();
      last.batch = merge_batches(*last.batch, *chunk.batch);
      last.records = record_count(*last.batch);
      last.step = chunk.step;
      if (last.batch->empty()) queue_.pop_back();  // the changes cancelled out
      return;
    }
    if (config_.on_lag == LagPolicy::kDrop) {
      queue_.pop_front();
      ++stats_.dropped_chunks;
    }
  }
  chunk.sequence_number = next_sequence_++;
  queue_.push_back(std::move(chunk));
}

std::optional<OutputChunk> OutputEndpoint::pop() {
  if (queue_.empty()) return std::nullopt;
  OutputChunk chunk = std::move(queue_.front());
  queue_.pop_front();
  accepted(chunk);
  if (retention_) retention_->keep(chunk);
  return chunk;
}

void OutputEndpoint::accepted(const OutputChunk& chunk) {
  stats_.transmitted_records += chunk.records;
  ++stats_.transmitted_batches;
  if (chunk.snapshot) stats_.snapshot_records += chunk.records;
  if (chunk.snapshot_complete) reset_in_progress_ = false;
}

void OutputEndpoint::deliver() {
  while (sink_ && !awaiting_ack_ && !queue_.empty()) {
    const OutputChunk& chunk = queue_.front();
    Result<SinkWrite> written = sink_->write(chunk, *this);
    if (!written.ok()) {
      ++stats_.errors;
      stats_.last_error = written.status().to_string();
      return;  // stays queued; retried at the next delivery
    }
    if (*written == SinkWrite::kPending) {
      awaiting_ack_ = true;
      return;
    }
    accepted(chunk);
    queue_.pop_front();
  }
}

Status OutputEndpoint::acknowledge(uint64_t sequence_number) {
  if (!awaiting_ack_ || queue_.empty() || queue_.front().sequence_number != sequence_number) {
    return Status(ErrorCode::kInvalidArgument, "output '" + name_ + "' is not waiting for chunk " +
                                                   std::to_string(sequence_number));
  }
  awaiting_ack_ = false;
  accepted(queue_.front());
  queue_.pop_front();
  deliver();
  return Status::OK();
}

Status OutputEndpoint::start_reset() {
  if (!sink_ || !sink_->resettable()) {
    return Status(ErrorCode::kNotResettable, "output '" + name_ + "' has a sink that cannot be reset");
  }
  FRESHET_RETURN_IF_ERROR(sink_->reset());
  // What was queued for the old destination is moot: the snapshot replaces it.
  queue_.clear();
  awaiting_ack_ = false;
  ++stats_.resets;
  reset_in_progress_ = true;
  state_ = SnapshotState::kPending;
  return Status::OK();
}

EndpointCheckpoint OutputEndpoint::checkpoint() const {
  return EndpointCheckpoint{fingerprint(), state_, reset_in_progress_, next_sequence_, stats_, queue_};
}

bool OutputEndpoint::resume_from(EndpointCheckpoint saved) {
  stats_ = std::move(saved.stats);
  next_sequence_ = saved.next_sequence;
  if (saved.fingerprint != fingerprint()) {
    reset_in_progress_ = false;
    return false;
  }
  state_ = saved.state;
  reset_in_progress_ = saved.reset_in_progress;
  // A write that was pending when the checkpoint was taken is written again.
  queue_ = std::move(saved.queue);
  awaiting_ack_ = false;
  return true;
}

namespace {

// A chunk through an index as records: upsert(k, v) for each row present
// after the step (a row of weight w, w times), remove(k) for a key whose rows
// all went.
template <typename Upsert, typename Remove>
void for_each_keyed_record(const Batch& batch, Upsert&& upsert, Remove&& remove) {
  for (size_t k = 0; k < batch.key_count(); ++k) {
    bool any_insert = false;
    for (size_t v = batch.values_begin(k); v < batch.values_end(k); ++v) {
      if (batch.weight(v) <= 0) continue;
      any_insert = true;
      for (Weight w = 0; w < batch.weight(v); ++w) upsert(k, v);
    }
    if (!any_insert) remove(k);
  }
}

}  // namespace

std::string OutputEndpoint::encode(const OutputChunk& chunk) const {
  std::string json = "[";
  const Batch& batch = *chunk.batch;
  if (!index_) {
    format::append_insert_delete(batch, *view_->view().schema, &json);
    return json + "]";
  }
  bool first = true;
  auto separator = [&] {
    if (!first) json += ',';
    first = false;
  };
  for_each_keyed_record(
      batch,
      [&](size_t k, size_t v) {
        separator();
        json += "{\"upsert\":{\"key\":";
        key_encoder_->append_row(batch.key(k), &json);
        json += ",\"row\":";
        row_encoder_.append_row(batch.value(v), &json);
        json += "}}";
      },
      [&](size_t k) {
        separator();
        json += "{\"delete\":{\"key\":";
        key_encoder_->append_row(batch.key(k), &json);
        json += "}}";
      });
  return json + "]";
}

void OutputEndpoint::encode_split(const OutputChunk& chunk, std::string* additions, std::string* removals) const {
  const Batch& batch = *chunk.batch;
  if (!index_) {
    format::append_rows_by_sign(batch, row_encoder_, additions, removals);
    return;
  }
  for_each_keyed_record(
      batch,
      [&](size_t k, size_t v) {
        if (!additions->empty()) additions->push_back(',');
        additions->append("{\"key\":");
        key_encoder_->append_row(batch.key(k), additions);
        additions->append(",\"row\":");
        row_encoder_.append_row(batch.value(v), additions);
        additions->push_back('}');
      },
      [&](size_t k) {
        if (!removals->empty()) removals->push_back(',');
        removals->append("{\"key\":");
        key_encoder_->append_row(batch.key(k), removals);
        removals->push_back('}');
      });
}

size_t OutputEndpoint::queued_records() const {
  size_t records = 0;
  for (const OutputChunk& chunk : queue_) records += chunk.records;
  return records;
}

bool OutputEndpoint::blocking() const {
  bool blocks = is_connector() || config_.on_lag == LagPolicy::kBlock;
  return blocks && queue_.size() >= config_.max_queued_chunks;
}

std::optional<uint64_t> OutputEndpoint::oldest_unaccepted_step() const {
  if (!is_connector() || queue_.empty()) return std::nullopt;  // egress: queued is accepted
  return queue_.front().step;
}

}  // namespace freshet
