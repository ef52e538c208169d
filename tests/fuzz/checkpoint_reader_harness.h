// How the checkpoint reader fuzzer reads its bytes, shared with the test that
// replays its findings (tests/core/checkpoint/checkpoint_regression_test.cpp).
//
// Checksums stop random bytes at the door, so the fuzzer goes past them: an
// input is the five state sections themselves, each as [u32 length][bytes]
// (little-endian; missing ones are empty), restored into a pipeline of
// kFuzzProgram with Pipeline::restore_state. A restore must succeed or fail
// with kCheckpointCorrupt; a restored pipeline must then take its connectors
// back, ingest, step, answer snapshots and save its state again.
// An input whose first byte is 'M' is instead a whole checkpoint: a manifest
// and its parts, each [u32 length][bytes], read through open_pipeline.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/checkpoint/checkpoint.h"

namespace freshet::fuzzing {

//! Every stateful operator, a view without index, one with two indexes.
inline const char* kFuzzProgram = R"(
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DECIMAL(10,2), note VARCHAR);
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
CREATE TABLE events (kind VARCHAR, n INT);
CREATE MATERIALIZED VIEW by_region AS
  SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total, MIN(o.amount) AS lo, MAX(o.note) AS hi,
         COUNT(DISTINCT o.customer) AS buyers, AVG(o.amount) AS mean
  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
CREATE MATERIALIZED VIEW top3 AS SELECT id, amount FROM orders ORDER BY amount DESC LIMIT 3;
CREATE MATERIALIZED VIEW reach AS
  SELECT c.id, c.region, o.id AS order_id FROM customers c LEFT JOIN orders o ON o.customer = c.id;
CREATE INDEX reach_by_id ON reach(id);
CREATE INDEX reach_by_region ON reach(region);
CREATE MATERIALIZED VIEW kinds AS SELECT DISTINCT kind FROM events;
CREATE MATERIALIZED VIEW quiet AS SELECT id FROM customers EXCEPT SELECT customer FROM orders;
CREATE VIEW counts AS SELECT kind, SUM(n) AS total FROM events GROUP BY kind;
)";

inline const char* kSectionOrder[] = {"pipeline", "circuit", "views", "outputs", "host"};

//! Splits [u32 length][bytes] records; a short tail ends the list.
inline std::vector<std::string> split_records(std::string_view input) {
  std::vector<std::string> records;
  while (input.size() >= 4) {
    uint32_t length = static_cast<uint8_t>(input[0]) | static_cast<uint8_t>(input[1]) << 8 |
                      static_cast<uint8_t>(input[2]) << 16 | static_cast<uint32_t>(static_cast<uint8_t>(input[3])) << 24;
    input.remove_prefix(4);
    if (length > input.size()) length = static_cast<uint32_t>(input.size());
    records.emplace_back(input.substr(0, length));
    input.remove_prefix(length);
  }
  return records;
}

//! The inverse of split_records (seeds are written with it).
inline std::string join_records(const std::vector<std::string>& records) {
  std::string out;
  for (const std::string& r : records) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((r.size() >> (8 * i)) & 0xff);
    out += r;
  }
  return out;
}

//! A sink that takes everything.
class AcceptingSink : public Sink {
 public:
  Result<SinkWrite> write(const OutputChunk&, const OutputEndpoint&) override { return SinkWrite::kAccepted; }
};

//! What happened to one input; `error` is set when the harness saw something
//! that must never happen (it names what).
struct FuzzOutcome {
  bool restored = false;
  std::string error;
};

//! Uses a restored pipeline the way a host would.
inline std::string exercise(Pipeline& p) {
  for (const char* view : {"by_region", "top3", "reach", "kinds", "quiet"}) {
    Status added = p.add_connector(std::string("c_") + view, {view, "", true}, std::make_shared<AcceptingSink>());
    if (!added.ok()) return "add_connector: " + added.to_string();
  }
  Status added = p.add_connector("c_reach_by_region", {"reach", "reach_by_region", true}, std::make_shared<AcceptingSink>());
  if (!added.ok()) return "add_connector: " + added.to_string();
  Result<uint64_t> token = p.ingest("orders", R"([{"insert":{"id":1,"customer":2,"amount":3.5,"note":"x"}}])");
  if (!token.ok()) return "ingest: " + token.status().to_string();
  if (!p.ingest("customers", R"([{"insert":{"id":2,"region":"r"}}])").ok()) return "ingest customers";
  if (!p.ingest("events", R"([{"insert":{"kind":"k","n":1}}])").ok()) return "ingest events";
  Result<StepResult> step = p.step();
  if (!step.ok() && step.status().code() != ErrorCode::kOverflow) return "step: " + step.status().to_string();
  if (!step.ok()) return "";  // restored sums near the limit may overflow: a runtime error, not a crash
  for (const char* view : {"by_region", "top3", "reach", "kinds", "quiet"}) {
    Result<BatchPtr> snapshot = p.snapshot(view);
    if (!snapshot.ok()) return "snapshot: " + snapshot.status().to_string();
  }
  (void)p.stats_json();
  Result<SavedState> saved = p.save_state();
  if (!saved.ok()) return "save_state: " + saved.status().to_string();
  return "";
}

inline FuzzOutcome run_checkpoint_input(std::string_view input) {
  FuzzOutcome outcome;
  std::unique_ptr<Pipeline> pipeline;
  if (!input.empty() && input[0] == 'M') {
    std::vector<std::string> records = split_records(input.substr(1));
    MemoryCheckpointStorage storage;
    for (size_t i = 0; i < records.size(); ++i) {
      (void)storage.put(i == 0 ? checkpoint_manifest_name(0) : checkpoint_part_name(0, i - 1), records[i]);
    }
    Result<std::unique_ptr<Pipeline>> opened = open_pipeline(kFuzzProgram, storage);
    if (!opened.ok()) {
      if (opened.status().code() != ErrorCode::kCheckpointCorrupt && opened.status().code() != ErrorCode::kProgramMismatch) {
        outcome.error = "open_pipeline: " + opened.status().to_string();
      }
      return outcome;
    }
    pipeline = std::move(*opened);
  } else {
    std::vector<std::string> records = split_records(input);
    SavedState sections;
    for (size_t i = 0; i < 5; ++i) sections.add(kSectionOrder[i], i < records.size() ? records[i] : "");
    Result<std::unique_ptr<Pipeline>> created = Pipeline::create(kFuzzProgram);
    if (!created.ok()) return {false, "the fuzz program does not compile"};
    pipeline = std::move(*created);
    Status restored = pipeline->restore_state(sections);
    if (!restored.ok()) {
      // Sections name operators by id (format 7): ids of another program are PROGRAM_MISMATCH.
      if (restored.code() != ErrorCode::kCheckpointCorrupt && restored.code() != ErrorCode::kProgramMismatch) {
        outcome.error = "restore_state: " + restored.to_string();
      }
      return outcome;
    }
  }
  outcome.restored = true;
  outcome.error = exercise(*pipeline);
  return outcome;
}

}  // namespace freshet::fuzzing
