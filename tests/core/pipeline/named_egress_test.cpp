// Named egress streams: retention, resume after a lost connection (also
// across a checkpoint and a new pipeline), the error past the retention,
// and random drops reconstructing the view exactly (the view is the oracle).
#include <gtest/gtest.h>

#include <random>

#include "freshet/pipeline/pipeline.h"
#include "pipeline/pipeline_support.h"

namespace freshet {
namespace {

using testing::ReceivedState;

const char* kProgram = R"(
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DOUBLE);
CREATE MATERIALIZED VIEW by_customer AS
  SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
)";

std::unique_ptr<Pipeline> make_pipeline() {
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(kProgram);
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().to_string();
  pipeline.value()->set_snapshot_chunk_records(3);  // snapshots span several chunks
  return std::move(*pipeline);
}

std::string order(int64_t id, int64_t customer) {
  return "{\"insert\":{\"id\":" + std::to_string(id) + ",\"customer\":" + std::to_string(customer) + ",\"amount\":1}}";
}

EndpointConfig by_customer(bool send_snapshot = true) { return {"by_customer", "", send_snapshot}; }

//! Takes up to `count` chunks; returns them.
std::vector<OutputChunk> take(Pipeline& p, uint64_t id, size_t count) {
  std::vector<OutputChunk> chunks;
  while (chunks.size() < count) {
    Result<std::optional<OutputChunk>> chunk = p.next_chunk(id);
    EXPECT_TRUE(chunk.ok()) << chunk.status().to_string();
    if (!chunk.ok() || !*chunk) break;
    chunks.push_back(**chunk);
  }
  return chunks;
}

TEST(NamedEgressTest, ResumesWithTheChunkAfterTheLastOneReceived) {
  auto p = make_pipeline();
  Result<uint64_t> first = p->open_named_egress("dash", by_customer(), {}, std::nullopt);
  ASSERT_TRUE(first.ok());
  for (int i = 0; i < 5; ++i) {
    testing::must_ingest(*p, "orders", "[" + order(i, i) + "]");
    ASSERT_TRUE(p->step().ok());
  }
  std::vector<OutputChunk> taken = take(*p, *first, 4);
  ASSERT_EQ(taken.size(), 4u);
  ASSERT_TRUE(p->close_egress(*first).ok());  // disconnected: it lives on
  testing::must_ingest(*p, "orders", "[" + order(9, 9) + "]");
  ASSERT_TRUE(p->step().ok());

  // The consumer got chunks 0 and 1; 2 and 3 were lost in flight.
  Result<uint64_t> second = p->open_named_egress("dash", by_customer(), {}, 1);
  ASSERT_TRUE(second.ok()) << second.status().to_string();
  EXPECT_NE(*second, *first);
  EXPECT_FALSE(p->next_chunk(*first).ok());  // the old connection is gone
  std::vector<OutputChunk> rest = take(*p, *second, 100);
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.front().sequence_number, 2u);
  for (size_t i = 1; i < rest.size(); ++i) EXPECT_EQ(rest[i].sequence_number, rest[i - 1].sequence_number + 1);
  ReceivedState state;
  for (const OutputChunk& chunk : {taken[0], taken[1]}) state.apply(chunk);
  for (const OutputChunk& chunk : rest) state.apply(chunk);
  EXPECT_EQ(state.state(), testing::rows_of(*p->snapshot("by_customer")));
  EXPECT_EQ(state.snapshots(), 1);
}

TEST(NamedEgressTest, PastTheRetentionOrAheadOfItIsResumeUnavailable) {
  auto p = make_pipeline();
  Result<uint64_t> id = p->open_named_egress("dash", by_customer(false), {2, size_t{1} << 20}, std::nullopt);
  ASSERT_TRUE(id.ok());
  for (int i = 0; i < 5; ++i) {
    testing::must_ingest(*p, "orders", "[" + order(i, i) + "]");
    ASSERT_TRUE(p->step().ok());
  }
  ASSERT_EQ(take(*p, *id, 5).size(), 5u);  // chunks 0..4; 3 and 4 retained
  Result<uint64_t> too_old = p->open_named_egress("dash", by_customer(false), {2, size_t{1} << 20}, 1);
  ASSERT_FALSE(too_old.ok());
  EXPECT_EQ(too_old.status().code(), ErrorCode::kResumeUnavailable);
  EXPECT_NE(too_old.status().message().find("retains chunks from 3"), std::string::npos) << too_old.status().message();
  Result<uint64_t> ahead = p->open_named_egress("dash", by_customer(false), {}, 7);
  EXPECT_EQ(ahead.status().code(), ErrorCode::kResumeUnavailable);
  Result<uint64_t> unknown = p->open_named_egress("other", by_customer(false), {}, 0);
  EXPECT_EQ(unknown.status().code(), ErrorCode::kResumeUnavailable);
  Result<uint64_t> fine = p->open_named_egress("dash", by_customer(false), {}, 2);
  ASSERT_TRUE(fine.ok());
  EXPECT_EQ(take(*p, *fine, 10).size(), 2u);

  // Starting over with a snapshot goes on counting.
  Result<uint64_t> fresh = p->open_named_egress("dash", by_customer(true), {}, std::nullopt);
  ASSERT_TRUE(fresh.ok());
  ASSERT_TRUE(p->step().ok());
  std::vector<OutputChunk> snapshot = take(*p, *fresh, 10);
  ASSERT_FALSE(snapshot.empty());
  EXPECT_TRUE(snapshot.front().snapshot);
  EXPECT_EQ(snapshot.front().sequence_number, 5u);
  ASSERT_TRUE(p->close_named_egress("dash").ok());
  EXPECT_EQ(p->open_named_egress("dash", by_customer(), {}, 6).status().code(), ErrorCode::kResumeUnavailable);
}

TEST(NamedEgressTest, ACheckpointKeepsQueueAndRetentionForANewPipeline) {
  auto p = make_pipeline();
  Result<uint64_t> id = p->open_named_egress("dash", by_customer(), {}, std::nullopt);
  ASSERT_TRUE(id.ok());
  for (int i = 0; i < 8; ++i) {
    testing::must_ingest(*p, "orders", "[" + order(i, i % 5) + "]");
    ASSERT_TRUE(p->step().ok());
  }
  std::vector<OutputChunk> taken = take(*p, *id, 3);  // 0, 1 (the snapshot: 3 records a chunk), 2
  Result<SavedState> saved = p->save_state();
  ASSERT_TRUE(saved.ok());
  std::vector<OutputChunk> after_checkpoint = take(*p, *id, 2);  // taken, then lost with the process

  auto q = make_pipeline();
  ASSERT_TRUE(q->restore_state(*saved).ok());
  Result<uint64_t> resumed = q->open_named_egress("dash", by_customer(), {}, 1);  // it has 0 and 1
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  ReceivedState state;
  state.apply(taken[0]);
  state.apply(taken[1]);
  uint64_t expected = 2;
  for (const OutputChunk& chunk : take(*q, *resumed, 100)) {
    EXPECT_EQ(chunk.sequence_number, expected++);
    state.apply(chunk);
  }
  EXPECT_EQ(state.state(), testing::rows_of(*q->snapshot("by_customer")));
  EXPECT_EQ(state.snapshots(), 1);
}

TEST(NamedEgressTest, AStateWithoutTheSectionRestoresWithNoNamedEgress) {
  // Format-4 checkpoints have no 'named_egress' section.
  auto p = make_pipeline();
  ASSERT_TRUE(p->open_named_egress("dash", by_customer(), {}, std::nullopt).ok());
  testing::must_ingest(*p, "orders", "[" + order(1, 1) + "]");
  ASSERT_TRUE(p->step().ok());
  Result<SavedState> saved = p->save_state();
  ASSERT_TRUE(saved.ok());
  SavedState format4;
  for (const SavedState::Section& section : saved->sections) {
    if (section.name != "named_egress") format4.add(section.name, saved->bytes(section));
  }
  ASSERT_EQ(format4.sections.size(), saved->sections.size() - 1);
  auto q = make_pipeline();
  ASSERT_TRUE(q->restore_state(format4).ok());
  EXPECT_EQ(q->snapshot("by_customer").value()->size(), 1u);
  EXPECT_EQ(q->open_named_egress("dash", by_customer(), {}, 0).status().code(), ErrorCode::kResumeUnavailable);
}

TEST(NamedEgressTest, OneMoreThanTheBoundClosesTheLeastRecentlyConnected) {
  auto p = make_pipeline();
  for (size_t i = 0; i < kMaxNamedEgress; ++i) {
    ASSERT_TRUE(p->open_named_egress("e" + std::to_string(i), by_customer(), {}, std::nullopt).ok());
  }
  ASSERT_TRUE(p->open_named_egress("e0", by_customer(), {}, std::nullopt).ok());  // e0 connects again: e1 is the oldest
  ASSERT_TRUE(p->open_named_egress("new", by_customer(), {}, std::nullopt).ok());
  EXPECT_EQ(p->close_named_egress("e1").code(), ErrorCode::kUnknownOutput);
  EXPECT_TRUE(p->close_named_egress("e0").ok());
  EXPECT_TRUE(p->close_named_egress("new").ok());
}

TEST(NamedEgressTest, RandomDropsAndResumesReconstructTheViewExactly) {
  for (uint32_t seed = 1; seed <= 100; ++seed) {
    std::mt19937 random(seed);
    auto p = make_pipeline();
    Result<uint64_t> id = p->open_named_egress("dash", by_customer(), {}, std::nullopt);
    ASSERT_TRUE(id.ok());
    ReceivedState state;
    std::optional<uint64_t> last_received;
    int64_t next_id = 0;
    for (int round = 0; round < 40; ++round) {
      std::string batch = "[";
      for (int n = 1 + random() % 4; n > 0; --n)
        batch += (batch.size() > 1 ? "," : "") + order(next_id++, random() % 7);
      testing::must_ingest(*p, "orders", batch + "]");
      ASSERT_TRUE(p->step().ok());
      std::vector<OutputChunk> chunks = take(*p, *id, random() % 3);
      size_t received = chunks.empty() ? 0 : random() % (chunks.size() + 1);  // the rest is lost in flight
      for (size_t i = 0; i < received; ++i) {
        state.apply(chunks[i]);
        last_received = chunks[i].sequence_number;
      }
      if (received < chunks.size() || random() % 5 == 0) {
        ASSERT_TRUE(p->close_egress(*id).ok());
        id = p->open_named_egress("dash", by_customer(), {}, last_received);  // none yet: start over
        if (!last_received) state = ReceivedState();
        ASSERT_TRUE(id.ok()) << "seed " << seed << ": " << id.status().to_string();
      }
    }
    for (const OutputChunk& chunk : take(*p, *id, 1000)) state.apply(chunk);
    ASSERT_EQ(state.state(), testing::rows_of(*p->snapshot("by_customer"))) << "seed " << seed;
  }
}

}  // namespace
}  // namespace freshet
