// The equivalence oracle of checkpoints: one random run straight through, and
// the same run checkpointed, torn down and resumed at random points (with
// input buffered, with chunks a failing sink has not yet taken) delivers
// exactly the same chunks to every connector, and no snapshot twice.
#include <gtest/gtest.h>

#include "checkpoint/checkpoint_support.h"
#include "support/oracle.h"

namespace freshet {
namespace {

using testing::RecordingSink;

struct Connector {
  std::string name;
  EndpointConfig config;
};

const std::vector<Connector>& connectors() {
  static const std::vector<Connector> all = {
      {"regions", {"by_region", "", true}},
      {"top", {"top3", "", true}},
      {"reach_by_region", {"reach", "reach_by_region", true}},
      {"reach_deltas", {"reach", "", false}},
      {"kinds", {"kinds", "", true}},
      {"counts", {"counts", "", false}},
      {"quiet", {"quiet", "", true}},
  };
  return all;
}

struct RunResult {
  std::map<std::string, std::shared_ptr<RecordingSink>> sinks;
  std::map<std::string, BatchPtr> views;
  std::string stats;
  int restores = 0;
};

void add_connectors(Pipeline& pipeline, RunResult& run) {
  for (const Connector& c : connectors()) {
    if (!run.sinks.count(c.name)) run.sinks[c.name] = std::make_shared<RecordingSink>();
    ASSERT_TRUE(pipeline.add_connector(c.name, c.config, run.sinks[c.name]).ok()) << c.name;
  }
}

// Plays the workload of `seed` for `actions` ingests or steps; with
// `checkpoint_every` > 0, checkpoints and resumes at random points.
RunResult play(uint64_t seed, int actions, int checkpoint_every) {
  RunResult run;
  testing::CheckpointWorkload workload(seed);
  MemoryCheckpointStorage storage;
  std::unique_ptr<Pipeline> p = testing::must_create(testing::kCheckpointProgram);
  add_connectors(*p, run);
  std::mt19937_64 restarts(seed ^ 0x5eed);
  for (int a = 0; a < actions; ++a) {
    // The same decisions in both runs: the workload's random numbers are
    // drawn the same way whether or not we restart.
    bool ingest = workload.roll(3) != 0;
    bool sink_down = (a / 25) % 4 == 3;  // the 'counts' sink fails now and then
    run.sinks["counts"]->fail_writes = sink_down;
    if (ingest) {
      auto [table, json] = workload.next();
      EXPECT_TRUE(p->ingest(table, json).ok()) << table << " " << json;
    } else {
      EXPECT_TRUE(p->step().ok());
    }
    if (checkpoint_every > 0 && restarts() % checkpoint_every == 0) {
      testing::must_checkpoint(*p, storage, /*part_bytes=*/1 + restarts() % 4096);
      p.reset();
      p = testing::must_open(testing::kCheckpointProgram, storage);
      if (!p) return run;
      add_connectors(*p, run);
      ++run.restores;
    }
  }
  run.sinks["counts"]->fail_writes = false;
  EXPECT_TRUE(p->step().ok());
  for (const char* view : {"by_region", "top3", "reach", "kinds", "quiet"}) run.views[view] = *p->snapshot(view);
  return run;
}

TEST(CheckpointOracleTest, ResumingAnywhereChangesNothingAnyConnectorReceives) {
  uint64_t seed = testing::test_seed(5);
  RunResult straight = play(seed, 600, 0);
  RunResult resumed = play(seed, 600, 40);
  EXPECT_GE(resumed.restores, 5);
  for (const auto& [name, sink] : straight.sinks) {
    const RecordingSink& other = *resumed.sinks[name];
    ASSERT_EQ(sink->chunks.size(), other.chunks.size()) << name;
    int snapshots = 0;
    for (size_t i = 0; i < sink->chunks.size(); ++i) {
      EXPECT_EQ(sink->chunks[i].sequence_number, other.chunks[i].sequence_number) << name << " chunk " << i;
      EXPECT_EQ(sink->chunks[i].step, other.chunks[i].step) << name << " chunk " << i;
      EXPECT_EQ(sink->chunks[i].snapshot, other.chunks[i].snapshot) << name << " chunk " << i;
      EXPECT_EQ(sink->json[i], other.json[i]) << name << " chunk " << i;
      snapshots += other.chunks[i].snapshot_complete;
    }
    EXPECT_LE(snapshots, 1) << name << ": a snapshot was sent twice";
  }
  EXPECT_GT(straight.sinks["counts"]->chunks.size(), 10u);
  for (const auto& [view, batch] : straight.views) {
    EXPECT_EQ(testing::rows_of(batch), testing::rows_of(resumed.views[view])) << view;
  }
}

}  // namespace
}  // namespace freshet
