// Test support for checkpoints: a program that exercises every stateful
// operator, random input for it, and sinks that outlive pipelines (as real
// destinations do across restarts).
#pragma once

#include <memory>
#include <random>
#include <set>
#include <string>

#include "../../fuzz/checkpoint_reader_harness.h"
#include "freshet/checkpoint/checkpoint.h"
#include "pipeline/pipeline_support.h"

namespace freshet::testing {

// The checkpoint fuzzer's program: every stateful operator (upsert and plain
// inputs, join, left join, aggregates with accumulators and value traces,
// DISTINCT, top-k, EXCEPT), a view with two indexes, one not materialized.
inline const char* kCheckpointProgram = fuzzing::kFuzzProgram;

//! A random ingest for one of the program's tables, keeping `events` (a
//! table without key) free of deletes of absent rows.
class CheckpointWorkload {
 public:
  explicit CheckpointWorkload(uint64_t seed) : random_(seed) {}

  //! (table, JSON) for the next ingest call.
  std::pair<std::string, std::string> next() {
    int which = static_cast<int>(random_() % 3);
    std::string batch = "[";
    std::set<int64_t> touched;
    int changes = 1 + static_cast<int>(random_() % 4);
    for (int c = 0; c < changes; ++c) {
      std::string record;
      if (which == 0) {
        int64_t id = static_cast<int64_t>(random_() % 30);
        if (!touched.insert(id).second) continue;
        if (random_() % 4 == 0) {
          record = "{\"delete\":{\"id\":" + std::to_string(id) + "}}";
        } else {
          record = "{\"insert\":{\"id\":" + std::to_string(id) + ",\"customer\":" + std::to_string(random_() % 8) +
                   ",\"amount\":" + cents(random_() % 10000) + ",\"note\":\"n" +
                   std::to_string(random_() % 5) + "\"}}";
        }
      } else if (which == 1) {
        int64_t id = static_cast<int64_t>(random_() % 10);
        if (!touched.insert(id).second) continue;
        std::string region = random_() % 5 == 0 ? "null" : "\"r" + std::to_string(random_() % 3) + "\"";
        record = random_() % 5 == 0 ? "{\"delete\":{\"id\":" + std::to_string(id) + "}}"
                                    : "{\"insert\":{\"id\":" + std::to_string(id) + ",\"region\":" + region + "}}";
      } else {
        if (!events_.empty() && random_() % 3 == 0) {
          auto it = events_.begin();
          std::advance(it, static_cast<long>(random_() % events_.size()));
          record = "{\"delete\":" + *it + "}";
          events_.erase(it);
        } else {
          std::string row = "{\"kind\":\"k" + std::to_string(random_() % 4) + "\",\"n\":" + std::to_string(random_() % 9) + "}";
          events_.insert(row);
          record = "{\"insert\":" + row + "}";
        }
      }
      batch += (batch.size() > 1 ? "," : "") + record;
    }
    static const char* kTables[] = {"orders", "customers", "events"};
    return {kTables[which], batch + "]"};
  }

  uint64_t roll(uint64_t n) { return random_() % n; }

 private:
  static std::string cents(uint64_t n) {
    std::string fraction = std::to_string(n % 100);
    return std::to_string(n / 100) + "." + (fraction.size() < 2 ? "0" : "") + fraction;
  }

  std::mt19937_64 random_;
  std::multiset<std::string> events_;  // rows present, as JSON
};

//! Creates a pipeline or fails the test.
inline std::unique_ptr<Pipeline> must_create(const char* program) {
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(program);
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().to_string();
  return pipeline.ok() ? std::move(*pipeline) : nullptr;
}

//! Opens a pipeline from storage or fails the test.
inline std::unique_ptr<Pipeline> must_open(const char* program, CheckpointStorage& storage) {
  Result<std::unique_ptr<Pipeline>> pipeline = open_pipeline(program, storage);
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().to_string();
  return pipeline.ok() ? std::move(*pipeline) : nullptr;
}

//! Writes a checkpoint or fails the test.
inline CheckpointInfo must_checkpoint(Pipeline& pipeline, CheckpointStorage& storage, size_t part_bytes = kMaxCheckpointPartBytes) {
  Result<CheckpointInfo> info = write_checkpoint(pipeline, storage, part_bytes);
  EXPECT_TRUE(info.ok()) << info.status().to_string();
  return info.ok() ? *info : CheckpointInfo{};
}

}  // namespace freshet::testing
