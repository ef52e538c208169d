// Test support for pipelines: sinks that record what they get, and the
// folding of received chunks into the state a consumer would hold.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "freshet/pipeline/pipeline.h"
#include "freshet/zset/cursor.h"
#include "support/zset_map.h"

namespace freshet::testing {

//! A sink that records every chunk; can hold writes pending, fail, or refuse reset.
class RecordingSink : public Sink {
 public:
  std::vector<OutputChunk> chunks;
  std::vector<std::string> json;
  bool hold_writes = false;   // answer kPending
  bool fail_writes = false;   // answer an error
  bool can_reset = true;
  int resets = 0;

  Result<SinkWrite> write(const OutputChunk& chunk, const OutputEndpoint& from) override {
    if (fail_writes) return Status(ErrorCode::kStorageError, "sink is down");
    chunks.push_back(chunk);
    json.push_back(from.encode(chunk));
    return hold_writes ? SinkWrite::kPending : SinkWrite::kAccepted;
  }
  bool resettable() const override { return can_reset; }
  Status reset() override {
    ++resets;
    chunks.clear();
    json.clear();
    return Status::OK();
  }
};

//! What a consumer holds after applying chunks in order: a snapshot
//! replaces nothing (it arrives first), deltas add up.
class ReceivedState {
 public:
  void apply(const OutputChunk& chunk) {
    if (chunk.snapshot && !in_snapshot_) {
      state_.clear();  // a fresh snapshot starts from nothing
      ++snapshots_;
    }
    in_snapshot_ = chunk.snapshot && !chunk.snapshot_complete;
    add_batch(state_, *chunk.batch);
  }
  const ZSetMap& state() const { return state_; }
  int snapshots() const { return snapshots_; }

 private:
  ZSetMap state_;
  bool in_snapshot_ = false;
  int snapshots_ = 0;
};

//! Drains an egress stream into a state.
inline void drain(Pipeline& pipeline, uint64_t egress, ReceivedState& state, std::vector<OutputChunk>* seen = nullptr) {
  while (true) {
    Result<std::optional<OutputChunk>> chunk = pipeline.next_chunk(egress);
    ASSERT_TRUE(chunk.ok()) << chunk.status().to_string();
    if (!*chunk) return;
    state.apply(**chunk);
    if (seen) seen->push_back(**chunk);
  }
}

//! The rows of a Z-set batch as a map (the form ReceivedState holds).
inline ZSetMap rows_of(const BatchPtr& batch) { return to_map(*batch); }

//! Ingests JSON and fails the test on error.
inline uint64_t must_ingest(Pipeline& pipeline, const std::string& table, const std::string& json) {
  Result<uint64_t> token = pipeline.ingest(table, json);
  EXPECT_TRUE(token.ok()) << token.status().to_string();
  return token.ok() ? *token : 0;
}

}  // namespace freshet::testing
