// Connectors across restarts, as Feldera keeps them: a snapshot is delivered
// once however often the pipeline restarts; a connector whose configuration
// changed is a new one; statistics carry over; one not configured again goes.
#include <gtest/gtest.h>

#include "checkpoint/checkpoint_support.h"

namespace freshet {
namespace {

using testing::RecordingSink;

const char* kProgram = R"(
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);
CREATE MATERIALIZED VIEW all_rows AS SELECT id, v FROM t;
CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 5;
CREATE INDEX all_by_id ON all_rows(id);
)";

std::string row(int id, int v) {
  return "[{\"insert\":{\"id\":" + std::to_string(id) + ",\"v\":" + std::to_string(v) + "}}]";
}

// A sink whose description (part of the connector's fingerprint) can change.
class DescribedSink : public RecordingSink {
 public:
  std::string description = "{\"table\":\"mirror\"}";
  std::string describe() const override { return description; }
};

int snapshots_in(const RecordingSink& sink) {
  int n = 0;
  for (const OutputChunk& chunk : sink.chunks) n += chunk.snapshot_complete;
  return n;
}

// Restarts `p` from `storage` and re-adds one connector.
std::unique_ptr<Pipeline> restart(std::unique_ptr<Pipeline> p, MemoryCheckpointStorage& storage,
                                  const std::string& name, EndpointConfig config, std::shared_ptr<Sink> sink) {
  testing::must_checkpoint(*p, storage);
  p.reset();
  std::unique_ptr<Pipeline> resumed = testing::must_open(kProgram, storage);
  Status added = resumed->add_connector(name, std::move(config), std::move(sink));
  EXPECT_TRUE(added.ok()) << added.to_string();
  return resumed;
}

TEST(ConnectorResumeTest, ASnapshotIsDeliveredOnceAcrossThreeRestarts) {
  MemoryCheckpointStorage storage;
  auto sink = std::make_shared<RecordingSink>();
  auto p = testing::must_create(kProgram);
  testing::must_ingest(*p, "t", row(1, 10));
  ASSERT_TRUE(p->step().ok());
  ASSERT_TRUE(p->add_connector("mirror", {"all_rows", "", true}, sink).ok());
  ASSERT_TRUE(p->step().ok());
  ASSERT_EQ(snapshots_in(*sink), 1);
  for (int restart_no = 0; restart_no < 3; ++restart_no) {
    p = restart(std::move(p), storage, "mirror", {"all_rows", "", true}, sink);
    EXPECT_EQ(p->connector("mirror")->snapshot_state(), SnapshotState::kSent);
    EXPECT_FALSE(p->needs_step()) << "a resumed connector does not wait for a snapshot";
    testing::must_ingest(*p, "t", row(2 + restart_no, restart_no));
    ASSERT_TRUE(p->step().ok());
  }
  EXPECT_EQ(snapshots_in(*sink), 1);
  EXPECT_EQ(sink->chunks.size(), 4u);  // the snapshot and one delta after each restart
  EXPECT_EQ(sink->chunks.back().sequence_number, 3u);
  EXPECT_EQ(p->connector("mirror")->stats().transmitted_batches, 4u);
}

TEST(ConnectorResumeTest, FlippingSendSnapshotOnGivesOneSnapshotThenNone) {
  MemoryCheckpointStorage storage;
  auto sink = std::make_shared<RecordingSink>();
  auto p = testing::must_create(kProgram);
  ASSERT_TRUE(p->add_connector("mirror", {"all_rows", "", false}, sink).ok());
  testing::must_ingest(*p, "t", row(1, 10));
  ASSERT_TRUE(p->step().ok());
  ASSERT_EQ(snapshots_in(*sink), 0);

  p = restart(std::move(p), storage, "mirror", {"all_rows", "", true}, sink);
  EXPECT_EQ(sink->resets, 1) << "a changed connector's destination is wiped first";
  EXPECT_TRUE(p->needs_step());
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(snapshots_in(*sink), 1);

  p = restart(std::move(p), storage, "mirror", {"all_rows", "", true}, sink);
  testing::must_ingest(*p, "t", row(2, 20));
  ASSERT_TRUE(p->step().ok());
  p = restart(std::move(p), storage, "mirror", {"all_rows", "", true}, sink);
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(snapshots_in(*sink), 1);
  EXPECT_EQ(sink->resets, 1);
}

TEST(ConnectorResumeTest, AChangedViewIndexOrSinkDescriptionResends) {
  struct Change {
    EndpointConfig config;
    std::string description;
  };
  for (const Change& change : {Change{{"big", "", true}, "{\"table\":\"mirror\"}"},
                               Change{{"all_rows", "all_by_id", true}, "{\"table\":\"mirror\"}"},
                               Change{{"all_rows", "", true}, "{\"table\":\"elsewhere\"}"}}) {
    MemoryCheckpointStorage storage;
    auto sink = std::make_shared<DescribedSink>();
    auto p = testing::must_create(kProgram);
    testing::must_ingest(*p, "t", row(1, 10));
    ASSERT_TRUE(p->add_connector("mirror", {"all_rows", "", true}, sink).ok());
    ASSERT_TRUE(p->step().ok());
    ASSERT_EQ(snapshots_in(*sink), 1);
    sink->description = change.description;
    p = restart(std::move(p), storage, "mirror", change.config, sink);
    EXPECT_EQ(p->connector("mirror")->snapshot_state(), SnapshotState::kPending) << change.config.view;
    ASSERT_TRUE(p->step().ok());
    EXPECT_EQ(sink->resets, 1);
    EXPECT_EQ(snapshots_in(*sink), 1) << "the wiped destination got a fresh snapshot";
    EXPECT_EQ(p->connector("mirror")->stats().transmitted_batches, 2u) << "statistics carry over";
  }
}

TEST(ConnectorResumeTest, StatisticsAndInputCountersCarryOver) {
  MemoryCheckpointStorage storage;
  auto sink = std::make_shared<RecordingSink>();
  auto p = testing::must_create(kProgram);
  ASSERT_TRUE(p->add_connector("mirror", {"all_rows", "", true}, sink).ok());
  for (int i = 0; i < 5; ++i) {
    testing::must_ingest(*p, "t", row(i, i));
    ASSERT_TRUE(p->step().ok());
  }
  EXPECT_FALSE(p->ingest("t", "[{\"insert\":{\"id\":\"x\"}}]").ok());
  std::string before = p->stats_json();
  p = restart(std::move(p), storage, "mirror", {"all_rows", "", true}, sink);
  std::string after = p->stats_json();
  // Same figures, except where the checkpoint itself shows (and memory:
  // restored batches are allocated to size).
  auto without_checkpoint = [](std::string stats) {
    size_t begin = stats.find("\"memory_bytes\":");
    return stats.erase(begin, stats.find('}', begin) + 2 - begin);
  };
  EXPECT_EQ(without_checkpoint(before), without_checkpoint(after));
  EXPECT_NE(after.find("\"total_records\":5"), std::string::npos) << after;
  EXPECT_NE(after.find("\"parse_errors\":1"), std::string::npos) << after;
  EXPECT_NE(after.find("\"restored_from\":0"), std::string::npos) << after;
  EXPECT_EQ(p->step_count(), 5u);
}

TEST(ConnectorResumeTest, AConnectorNotConfiguredAgainIsDropped) {
  MemoryCheckpointStorage storage;
  auto kept = std::make_shared<RecordingSink>();
  auto gone = std::make_shared<RecordingSink>();
  auto p = testing::must_create(kProgram);
  ASSERT_TRUE(p->add_connector("kept", {"all_rows", "", true}, kept).ok());
  ASSERT_TRUE(p->add_connector("gone", {"all_rows", "", true}, gone).ok());
  ASSERT_TRUE(p->step().ok());
  p = restart(std::move(p), storage, "kept", {"all_rows", "", true}, kept);
  testing::must_checkpoint(*p, storage);
  p = testing::must_open(kProgram, storage);
  // "gone" was not in the last checkpoint: added now, it is new (snapshot again).
  ASSERT_TRUE(p->add_connector("gone", {"all_rows", "", true}, gone).ok());
  EXPECT_EQ(p->connector("gone")->snapshot_state(), SnapshotState::kPending);
  EXPECT_EQ(p->connector("gone")->stats().transmitted_batches, 0u);
}

TEST(ConnectorResumeTest, ChunksASinkHadNotAcceptedAreDeliveredAfterResume) {
  MemoryCheckpointStorage storage;
  auto sink = std::make_shared<RecordingSink>();
  auto p = testing::must_create(kProgram);
  ASSERT_TRUE(p->add_connector("mirror", {"all_rows", "", false}, sink).ok());
  sink->fail_writes = true;
  uint64_t token = testing::must_ingest(*p, "t", row(1, 1));
  ASSERT_TRUE(p->step().ok());
  testing::must_ingest(*p, "t", row(2, 2));
  ASSERT_TRUE(p->step().ok());
  EXPECT_FALSE(*p->completion_status(token));
  sink->fail_writes = false;
  p = restart(std::move(p), storage, "mirror", {"all_rows", "", false}, sink);
  ASSERT_EQ(sink->chunks.size(), 2u);  // written as soon as the connector is back
  EXPECT_EQ(sink->chunks[0].sequence_number, 0u);
  EXPECT_EQ(sink->chunks[1].sequence_number, 1u);
  EXPECT_TRUE(*p->completion_status(token));
}

TEST(ConnectorResumeTest, BufferedInputAndItsTokensSurvive) {
  MemoryCheckpointStorage storage;
  auto sink = std::make_shared<RecordingSink>();
  auto p = testing::must_create(kProgram);
  ASSERT_TRUE(p->add_connector("mirror", {"all_rows", "", false}, sink).ok());
  uint64_t token = testing::must_ingest(*p, "t", row(7, 70));  // not stepped yet
  p = restart(std::move(p), storage, "mirror", {"all_rows", "", false}, sink);
  EXPECT_FALSE(*p->completion_status(token));
  EXPECT_TRUE(p->needs_step());
  ASSERT_TRUE(p->step().ok());
  EXPECT_TRUE(*p->completion_status(token));
  ASSERT_EQ(sink->json.size(), 1u);
  EXPECT_EQ(sink->json[0], "[{\"insert\":{\"id\":7,\"v\":70}}]");
  EXPECT_EQ(p->completion_status(token + 1).status().code(), ErrorCode::kUnknownToken);
}

TEST(ConnectorResumeTest, AnotherProgramIsRefusedUnlessARestartIsAsked) {
  MemoryCheckpointStorage storage;
  auto p = testing::must_create(kProgram);
  testing::must_ingest(*p, "t", row(1, 1));
  ASSERT_TRUE(p->step().ok());
  testing::must_checkpoint(*p, storage);
  // Whitespace and comments do not make another program.
  std::string reformatted = std::string("-- the same program\n") + kProgram + "\n\n";
  Result<std::unique_ptr<Pipeline>> same = open_pipeline(reformatted, storage);
  ASSERT_TRUE(same.ok()) << same.status().to_string();
  EXPECT_EQ((*same)->step_count(), 1u);

  // A view added resumes (bootstrapped: program_change_test.cpp); a table changed does not.
  std::string added = std::string(kProgram) + "CREATE MATERIALIZED VIEW more AS SELECT id FROM t;";
  Result<std::unique_ptr<Pipeline>> bootstrapped = open_pipeline(added, storage);
  ASSERT_TRUE(bootstrapped.ok()) << bootstrapped.status().to_string();
  EXPECT_EQ((*bootstrapped)->step_count(), 1u);
  std::string other = std::string(kProgram) + "CREATE TABLE more (id INT);";
  Result<std::unique_ptr<Pipeline>> refused = open_pipeline(other, storage);
  EXPECT_EQ(refused.status().code(), ErrorCode::kProgramMismatch);
  EXPECT_NE(refused.status().message().find("table 'more' is new"), std::string::npos) << refused.status().message();
  Result<std::unique_ptr<Pipeline>> fresh = open_pipeline(other, storage, {OnProgramChange::kRestart});
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((*fresh)->step_count(), 0u);
  EXPECT_EQ(testing::must_checkpoint(**fresh, storage).sequence_number, 1u);
  EXPECT_TRUE(open_pipeline(other, storage).ok()) << "the new program's checkpoint is the newest now";
}

// A runtime error fails the view, not the pipeline: the checkpoint keeps it
// failed (format 6's section 'failures'), and the other view goes on.
TEST(ConnectorResumeTest, APipelineWithAFailedViewIsCheckpointedWithIt) {
  const char* sql =
      "CREATE TABLE t (a INT, b INT); CREATE MATERIALIZED VIEW q AS SELECT a / b AS r FROM t;"
      "CREATE MATERIALIZED VIEW s AS SELECT a FROM t;";
  auto p = testing::must_create(sql);
  testing::must_ingest(*p, "t", "[{\"insert\":{\"a\":1,\"b\":0}}]");
  ASSERT_TRUE(p->step().ok());
  ASSERT_FALSE(p->view_failure("q").ok());
  MemoryCheckpointStorage storage;
  ASSERT_TRUE(write_checkpoint(*p, storage).ok());
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(sql, storage);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  EXPECT_EQ((*resumed)->view_failure("q").message(), "view 'q' failed at step 0: map: division by zero in (a / b)");
  EXPECT_TRUE((*resumed)->view_failure("s").ok());
  EXPECT_EQ(testing::rows_of(*(*resumed)->snapshot("s")).size(), 1u);
}

}  // namespace
}  // namespace freshet
