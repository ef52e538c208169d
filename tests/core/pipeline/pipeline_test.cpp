// The pipeline: ingest, steps, materialized views, snapshot-then-deltas
// output endpoints, resets, lag policies, completion tokens and stats.
#include "freshet/pipeline/pipeline.h"

#include <cmath>
#include <cstring>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "pipeline/pipeline_support.h"
#include "support/oracle.h"

namespace freshet {
namespace {

using testing::ReceivedState;
using testing::RecordingSink;

const char* kProgram = R"(
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DOUBLE);
CREATE TABLE notes (body VARCHAR);
CREATE MATERIALIZED VIEW by_customer AS
  SELECT customer, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer;
CREATE MATERIALIZED VIEW big AS SELECT id, customer, amount FROM orders WHERE amount > 10;
CREATE VIEW plain AS SELECT id FROM orders;
CREATE INDEX big_by_id ON big(id);
CREATE INDEX big_by_customer ON big(customer);
)";

std::unique_ptr<Pipeline> make_pipeline(const char* program = kProgram) {
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(program);
  EXPECT_TRUE(pipeline.ok()) << pipeline.status().to_string();
  return std::move(*pipeline);
}

std::string order(int64_t id, int64_t customer, double amount) {
  return "{\"insert\":{\"id\":" + std::to_string(id) + ",\"customer\":" + std::to_string(customer) +
         ",\"amount\":" + std::to_string(amount) + "}}";
}

TEST(PipelineSnapshotTest, DeliveredOnceThenDeltas) {
  auto p = make_pipeline();
  testing::must_ingest(*p, "orders", "[" + order(1, 7, 20) + "," + order(2, 7, 5) + "]");
  ASSERT_TRUE(p->step().ok());
  Result<uint64_t> egress = p->open_egress({"by_customer", "", true});
  ASSERT_TRUE(egress.ok());
  EXPECT_TRUE(p->needs_step());  // the snapshot forces a step
  ASSERT_TRUE(p->step().ok());
  std::vector<OutputChunk> seen;
  ReceivedState state;
  testing::drain(*p, *egress, state, &seen);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].snapshot);
  EXPECT_TRUE(seen[0].snapshot_complete);
  EXPECT_EQ(seen[0].sequence_number, 0u);
  EXPECT_EQ(seen[0].step, 1u);
  EXPECT_EQ(state.state(), testing::rows_of(*p->snapshot("by_customer")));

  testing::must_ingest(*p, "orders", "[" + order(3, 8, 1) + "]");
  ASSERT_TRUE(p->step().ok());
  ASSERT_TRUE(p->step().ok());  // nothing changes: no chunk
  seen.clear();
  testing::drain(*p, *egress, state, &seen);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(seen[0].snapshot);
  EXPECT_EQ(seen[0].sequence_number, 1u);
  EXPECT_EQ(seen[0].step, 2u);
  EXPECT_EQ(state.state(), testing::rows_of(*p->snapshot("by_customer")));
  EXPECT_EQ(state.snapshots(), 1);
  EXPECT_FALSE(p->needs_step());
}

TEST(PipelineSnapshotTest, ASecondStreamOnABusyViewGetsTheFullState) {
  auto p = make_pipeline();
  uint64_t first = *p->open_egress({"big", "", true});
  ReceivedState first_state, second_state;
  uint64_t second = 0;
  for (int i = 0; i < 50; ++i) {
    testing::must_ingest(*p, "orders", "[" + order(i, i % 5, 5.0 + i) + "]");
    if (i == 25) second = *p->open_egress({"big", "", true});
    ASSERT_TRUE(p->step().ok());
    testing::drain(*p, first, first_state);
    if (i >= 25) testing::drain(*p, second, second_state);
  }
  BatchPtr view = *p->snapshot("big");
  EXPECT_EQ(first_state.state(), testing::rows_of(view));
  EXPECT_EQ(second_state.state(), testing::rows_of(view));
  EXPECT_EQ(second_state.snapshots(), 1);
}

TEST(PipelineSnapshotTest, AnEmptyViewSendsOneEmptySnapshotChunk) {
  auto p = make_pipeline();
  uint64_t egress = *p->open_egress({"big", "", true});
  ASSERT_TRUE(p->step().ok());
  std::vector<OutputChunk> seen;
  ReceivedState state;
  testing::drain(*p, egress, state, &seen);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].snapshot && seen[0].snapshot_complete);
  EXPECT_TRUE(seen[0].batch->empty());
  EXPECT_EQ(p->egress(egress)->encode(seen[0]), "[]");
}

TEST(PipelineSnapshotTest, ALargeSnapshotIsSplitAndTheLastChunkIsMarkedComplete) {
  auto p = make_pipeline();
  p->set_snapshot_chunk_records(7);
  std::string batch = "[";
  for (int i = 0; i < 30; ++i) batch += (i ? "," : "") + order(i, i, 100 + i);
  testing::must_ingest(*p, "orders", batch + "]");
  ASSERT_TRUE(p->step().ok());
  uint64_t egress = *p->open_egress({"big", "", true});
  ASSERT_TRUE(p->step().ok());
  std::vector<OutputChunk> seen;
  ReceivedState state;
  testing::drain(*p, egress, state, &seen);
  ASSERT_EQ(seen.size(), 5u);  // 7 + 7 + 7 + 7 + 2
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_TRUE(seen[i].snapshot);
    EXPECT_EQ(seen[i].snapshot_complete, i + 1 == seen.size());
    EXPECT_EQ(seen[i].sequence_number, i);
  }
  EXPECT_EQ(state.state(), testing::rows_of(*p->snapshot("big")));
}

TEST(PipelineSnapshotTest, ASnapshotRequestedWhilePausedIsDeliveredWithPendingInput) {
  auto p = make_pipeline();
  p->pause();
  testing::must_ingest(*p, "orders", "[" + order(1, 1, 50) + "]");
  uint64_t egress = *p->open_egress({"big", "", true});
  EXPECT_TRUE(p->paused());
  EXPECT_TRUE(p->needs_step());  // the host runs a forced step even though paused
  ASSERT_TRUE(p->step().ok());
  std::vector<OutputChunk> seen;
  ReceivedState state;
  testing::drain(*p, egress, state, &seen);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].records, 1u);  // the pending input was applied by the forced step
  EXPECT_EQ(p->egress(egress)->encode(seen[0]), "[{\"insert\":{\"id\":1,\"customer\":1,\"amount\":50}}]");
}

TEST(PipelineSnapshotTest, NotMaterializedViewsRefuseSnapshots) {
  auto p = make_pipeline();
  EXPECT_EQ(p->snapshot("plain").status().code(), ErrorCode::kNotMaterialized);
  EXPECT_EQ(p->open_egress({"plain", "", true}).status().code(), ErrorCode::kNotMaterialized);
  EXPECT_TRUE(p->open_egress({"plain", "", false}).ok());  // deltas alone are fine
  EXPECT_EQ(p->snapshot("nope").status().code(), ErrorCode::kUnknownView);
  EXPECT_EQ(p->open_egress({"big", "nope", false}).status().code(), ErrorCode::kUnknownIndex);
}

// After every step of a random run, what each endpoint received (snapshot +
// deltas) equals the view computed from scratch by a fresh pipeline fed the
// current tables in one step.
TEST(PipelineOracleTest, SnapshotPlusDeltasEqualAFromScratchEvaluation) {
  std::mt19937_64 random(testing::test_seed(601));
  auto p = make_pipeline();
  std::map<int64_t, std::pair<int64_t, double>> orders;  // the table, as the oracle sees it
  struct Follower {
    std::string view, index;
    uint64_t egress;
    ReceivedState state;
  };
  std::vector<Follower> followers;
  for (int step = 0; step < 300; ++step) {
    if (step == 3) followers.push_back({"by_customer", "", *p->open_egress({"by_customer", "", true}), {}});
    if (step == 40) followers.push_back({"big", "", *p->open_egress({"big", "", true}), {}});
    if (step == 80) followers.push_back({"big", "big_by_id", *p->open_egress({"big", "big_by_id", true}), {}});
    if (step == 120) {
      followers.push_back({"big", "big_by_customer", *p->open_egress({"big", "big_by_customer", true}), {}});
    }
    std::string batch = "[";
    int changes = static_cast<int>(random() % 5);
    std::set<int64_t> touched;
    for (int c = 0; c < changes; ++c) {
      int64_t id = static_cast<int64_t>(random() % 40);
      if (!touched.insert(id).second) continue;  // one change per key per call
      if (batch.size() > 1) batch += ",";
      if (orders.count(id) && random() % 3 == 0) {
        batch += "{\"delete\":{\"id\":" + std::to_string(id) + "}}";
        orders.erase(id);
      } else {
        int64_t customer = static_cast<int64_t>(random() % 6);
        double amount = static_cast<double>(random() % 30);
        batch += order(id, customer, amount);
        orders[id] = {customer, amount};
      }
    }
    testing::must_ingest(*p, "orders", batch + "]");
    ASSERT_TRUE(p->step().ok());

    auto scratch = make_pipeline();
    std::string all = "[";
    for (const auto& [id, row] : orders) all += (all.size() > 1 ? "," : "") + order(id, row.first, row.second);
    testing::must_ingest(*scratch, "orders", all + "]");
    ASSERT_TRUE(scratch->step().ok());
    for (Follower& f : followers) {
      testing::drain(*p, f.egress, f.state);
      BatchPtr expected = *scratch->snapshot(f.view);
      if (!f.index.empty()) {
        // Compare an index's upserts with the view's rows by their values.
        testing::ZSetMap rows;
        for (const auto& [entry, weight] : f.state.state()) testing::add_entry(rows, entry.second, "", weight);
        ASSERT_EQ(rows, testing::rows_of(expected)) << f.view << " via " << f.index << " at step " << step;
      } else {
        ASSERT_EQ(f.state.state(), testing::rows_of(expected)) << f.view << " at step " << step;
      }
      ASSERT_EQ(f.state.snapshots(), 1);
    }
  }
}

TEST(PipelineResetTest, ReplaysTheCurrentStateThenContinuesWithDeltas) {
  auto p = make_pipeline();
  auto sink = std::make_shared<RecordingSink>();
  ASSERT_TRUE(p->add_connector("mirror", {"big", "", false}, sink).ok());
  testing::must_ingest(*p, "orders", "[" + order(1, 1, 20) + "," + order(2, 1, 30) + "]");
  ASSERT_TRUE(p->step().ok());
  ASSERT_EQ(sink->chunks.size(), 1u);
  EXPECT_FALSE(sink->chunks[0].snapshot);

  ASSERT_TRUE(p->reset_output("mirror").ok());
  EXPECT_EQ(sink->resets, 1);
  EXPECT_TRUE(p->connector("mirror")->reset_in_progress());
  EXPECT_TRUE(p->needs_step());
  ASSERT_TRUE(p->step().ok());
  ASSERT_EQ(sink->chunks.size(), 1u);
  EXPECT_TRUE(sink->chunks[0].snapshot_complete);
  EXPECT_EQ(sink->chunks[0].records, 2u);
  EXPECT_FALSE(p->connector("mirror")->reset_in_progress());
  EXPECT_EQ(p->connector("mirror")->stats().resets, 1u);
  EXPECT_EQ(p->connector("mirror")->stats().snapshot_records, 2u);

  testing::must_ingest(*p, "orders", "[{\"delete\":{\"id\":1}}]");
  ASSERT_TRUE(p->step().ok());
  ASSERT_EQ(sink->chunks.size(), 2u);
  EXPECT_EQ(sink->json[1], "[{\"delete\":{\"id\":1,\"customer\":1,\"amount\":20}}]");
  // Statistics carry over the reset.
  EXPECT_EQ(p->connector("mirror")->stats().transmitted_batches, 3u);
}

TEST(PipelineResetTest, ResetFailsClearlyWhereItCannotWork) {
  auto p = make_pipeline();
  auto stubborn = std::make_shared<RecordingSink>();
  stubborn->can_reset = false;
  ASSERT_TRUE(p->add_connector("stubborn", {"big", "", false}, stubborn).ok());
  ASSERT_TRUE(p->add_connector("plain", {"plain", "", false}, std::make_shared<RecordingSink>()).ok());
  EXPECT_EQ(p->reset_output("stubborn").code(), ErrorCode::kNotResettable);
  EXPECT_EQ(p->reset_output("plain").code(), ErrorCode::kNotMaterialized);
  EXPECT_EQ(p->reset_output("ghost").code(), ErrorCode::kUnknownOutput);
  EXPECT_EQ(p->add_connector("stubborn", {"big", "", false}, stubborn).code(), ErrorCode::kDuplicateOutput);
}

TEST(PipelineCompletionTest, TokensCompleteOnceEveryConnectorAcceptedTheirStep) {
  auto p = make_pipeline();
  auto slow = std::make_shared<RecordingSink>();
  slow->hold_writes = true;
  auto fast = std::make_shared<RecordingSink>();
  ASSERT_TRUE(p->add_connector("slow", {"big", "", false}, slow).ok());
  ASSERT_TRUE(p->add_connector("fast", {"by_customer", "", false}, fast).ok());
  uint64_t egress = *p->open_egress({"big", "", false});
  std::vector<uint64_t> tokens;
  for (int i = 0; i < 20; ++i) tokens.push_back(testing::must_ingest(*p, "orders", "[" + order(i, i % 3, 50) + "]"));
  EXPECT_FALSE(*p->completion_status(tokens[0]));  // not stepped yet
  ASSERT_TRUE(p->step().ok());
  uint64_t later = testing::must_ingest(*p, "orders", "[" + order(100, 1, 60) + "]");
  ASSERT_TRUE(p->step().ok());
  for (uint64_t token : tokens) EXPECT_FALSE(*p->completion_status(token));  // the slow sink holds them
  ASSERT_EQ(slow->chunks.size(), 1u);
  ASSERT_TRUE(p->acknowledge("slow", slow->chunks[0].sequence_number).ok());
  for (uint64_t token : tokens) EXPECT_TRUE(*p->completion_status(token));
  EXPECT_FALSE(*p->completion_status(later));
  ASSERT_EQ(slow->chunks.size(), 2u);  // the next chunk went out after the acknowledgement
  ASSERT_TRUE(p->acknowledge("slow", slow->chunks[1].sequence_number).ok());
  EXPECT_TRUE(*p->completion_status(later));
  EXPECT_EQ(p->completion_status(9999).status().code(), ErrorCode::kUnknownToken);
  EXPECT_EQ(p->acknowledge("slow", 77).code(), ErrorCode::kInvalidArgument);
  (void)egress;
}

TEST(PipelineCompletionTest, AFailingSinkKeepsItsChunksAndCountsErrors) {
  auto p = make_pipeline();
  auto sink = std::make_shared<RecordingSink>();
  sink->fail_writes = true;
  ASSERT_TRUE(p->add_connector("flaky", {"big", "", false}, sink).ok());
  uint64_t token = testing::must_ingest(*p, "orders", "[" + order(1, 1, 50) + "]");
  ASSERT_TRUE(p->step().ok());
  EXPECT_FALSE(*p->completion_status(token));
  EXPECT_EQ(p->connector("flaky")->stats().errors, 1u);
  EXPECT_NE(p->connector("flaky")->stats().last_error.find("sink is down"), std::string::npos);
  sink->fail_writes = false;
  ASSERT_TRUE(p->step().ok());  // retried: nothing lost
  ASSERT_EQ(sink->chunks.size(), 1u);
  EXPECT_TRUE(*p->completion_status(token));
}

TEST(PipelineLagTest, CoalescingKeepsASlowConsumersQueueBoundedAndItsStateRight) {
  auto p = make_pipeline();
  EndpointConfig config{"big", "", true, 4, LagPolicy::kCoalesce};
  uint64_t egress = *p->open_egress(config);
  for (int i = 0; i < 500; ++i) {
    testing::must_ingest(*p, "orders", "[" + order(i % 30, i % 7, 11 + i % 13) + "]");
    ASSERT_TRUE(p->step().ok());
    EXPECT_LE(p->egress(egress)->queued_chunks(), 4u);
    EXPECT_LE(p->egress(egress)->queued_records(), 2 * 30u + 30u);  // bounded by the view, not the lag
  }
  ReceivedState state;
  std::vector<OutputChunk> seen;
  testing::drain(*p, egress, state, &seen);
  EXPECT_EQ(state.state(), testing::rows_of(*p->snapshot("big")));
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_EQ(seen[i].sequence_number, seen[i - 1].sequence_number + 1);
}

TEST(PipelineLagTest, DropShowsTheGapAndBlockHoldsAutomaticSteps) {
  auto p = make_pipeline();
  uint64_t dropping = *p->open_egress({"big", "", false, 3, LagPolicy::kDrop});
  uint64_t blocking = *p->open_egress({"big", "", false, 3, LagPolicy::kBlock});
  for (int i = 0; i < 5; ++i) {
    testing::must_ingest(*p, "orders", "[" + order(i, 1, 20) + "]");
    ASSERT_TRUE(p->step().ok());  // explicit steps run even when blocked
  }
  EXPECT_FALSE(p->can_auto_step());
  EXPECT_EQ(p->egress(dropping)->queued_chunks(), 3u);
  EXPECT_EQ(p->egress(dropping)->stats().dropped_chunks, 2u);
  Result<std::optional<OutputChunk>> first = p->next_chunk(dropping);
  EXPECT_EQ((*first)->sequence_number, 2u);  // 0 and 1 were dropped
  EXPECT_EQ(p->egress(blocking)->queued_chunks(), 5u);
  ReceivedState state;
  testing::drain(*p, blocking, state);
  EXPECT_TRUE(p->can_auto_step());
  ASSERT_TRUE(p->close_egress(blocking).ok());
  EXPECT_EQ(p->next_chunk(blocking).status().code(), ErrorCode::kUnknownOutput);
}

TEST(PipelineInputTest, BadInputFailsTheWholeCallAndAppliesNothing) {
  auto p = make_pipeline();
  testing::must_ingest(*p, "orders", "[" + order(1, 1, 20) + "]");
  ASSERT_TRUE(p->step().ok());
  const char* bad[] = {
      "[{\"insert\":{\"id\":2,\"customer\":1,\"amount\":5}}, {\"insert\":",          // malformed
      "[{\"insert\":{\"id\":2,\"customer\":1,\"colour\":5}}]",                       // unknown column
      "[{\"insert\":{\"id\":2,\"customer\":\"x\",\"amount\":5}}]",                    // wrong type
      "[{\"insert\":{\"id\":2,\"customer\":null,\"amount\":5}}]",                     // NULL into NOT NULL
      "[{\"insert\":{\"id\":2,\"customer\":1,\"amount\":5}},{\"insert\":{\"id\":2,\"customer\":3,\"amount\":6}}]",
  };
  for (const char* data : bad) {
    Result<uint64_t> token = p->ingest("orders", data);
    EXPECT_FALSE(token.ok()) << data;
    EXPECT_NE(token.status().message().find("table 'orders': record "), std::string::npos)
        << token.status().message();
  }
  EXPECT_EQ(p->ingest("orders", bad[4]).status().message(),
            "table 'orders': record 1: duplicate key: record 0 has the same key");
  EXPECT_EQ(p->input_stats().at("orders").parse_errors, 6u);
  EXPECT_FALSE(p->needs_step());  // nothing was buffered
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(testing::rows_of(*p->snapshot("big")).size(), 1u);
  EXPECT_EQ(p->ingest("nope", "[]").status().code(), ErrorCode::kUnknownTable);
}

// A refused call drops what it buffered and only that: the operations an
// earlier call of the same step buffered stay, deletes in the refused call too.
TEST(PipelineInputTest, ARefusedDuplicateKeepsEarlierCallsOfTheStep) {
  auto p = make_pipeline();
  testing::must_ingest(*p, "orders", "[" + order(1, 1, 20) + "]");
  ASSERT_TRUE(p->step().ok());
  testing::must_ingest(*p, "orders", "[" + order(3, 1, 300) + "]");
  Result<uint64_t> refused = p->ingest(
      "orders", "[{\"delete\":{\"id\":1}}, " + order(4, 1, 400) + ", " + order(5, 1, 500) + ", " + order(4, 2, 401) + "]");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "table 'orders': record 3: duplicate key: record 1 has the same key");
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(testing::rows_of(*p->snapshot("big")).size(), 2u);  // 1 and 3; not 4 or 5, and 1 not deleted
}

// A bulk ingest into a table whose input buffers nothing hands its parsed
// rows to the input, which walks keys that come in order without sorting
// them: one big step of new, replacing and deleting operations (keys
// shuffled, then in order) ends where the same operations in ingests of 100
// rows, each stepped, do. A refused bulk ingest leaves nothing behind.
TEST(PipelineInputTest, BulkIngestsInOneStepEqualSmallSteps) {
  std::mt19937_64 random(21);
  auto record = [&](int64_t id, int kind) {  // 0: insert or replace, 1: delete by key
    if (kind == 1) return "{\"delete\":{\"id\":" + std::to_string(id) + "}}";
    return order(id, static_cast<int64_t>(random() % 50), static_cast<double>(random() % 40));
  };
  std::vector<std::string> seed, shuffled, ordered;
  for (int64_t id = 0; id < 3000; ++id) seed.push_back(record(id, 0));
  std::vector<int64_t> ids(9000);
  for (int64_t id = 0; id < 9000; ++id) ids[static_cast<size_t>(id)] = id;
  std::shuffle(ids.begin(), ids.end(), random);
  for (size_t i = 0; i < 6000; ++i) shuffled.push_back(record(ids[i], ids[i] < 3000 && i % 3 == 0 ? 1 : 0));
  for (int64_t id = 1000; id < 12000; id += 2) ordered.push_back(record(id, id % 10 == 4 ? 1 : 0));
  auto joined = [](const std::vector<std::string>& records, size_t from, size_t to) {
    std::string json = "[";
    for (size_t i = from; i < to; ++i) json += (i > from ? "," : "") + records[i];
    return json + "]";
  };
  auto big = make_pipeline(), small = make_pipeline();
  for (const std::vector<std::string>* records : {&seed, &shuffled, &ordered}) {
    testing::must_ingest(*big, "orders", joined(*records, 0, records->size()));
    ASSERT_TRUE(big->step().ok());
    for (size_t from = 0; from < records->size(); from += 100) {
      testing::must_ingest(*small, "orders", joined(*records, from, std::min(records->size(), from + 100)));
      ASSERT_TRUE(small->step().ok());
    }
    for (const char* view : {"big", "by_customer"}) {
      ASSERT_EQ(testing::rows_of(*big->snapshot(view)), testing::rows_of(*small->snapshot(view))) << view;
    }
  }
  EXPECT_GT(testing::rows_of(*big->snapshot("big")).size(), 4000u);

  // A bulk ingest refused for a key given twice changes nothing.
  std::vector<std::string> repeated;
  for (int64_t id = 20000; id < 22000; ++id) repeated.push_back(record(id, 0));
  repeated.push_back(record(20500, 0));
  const testing::ZSetMap before = testing::rows_of(*big->snapshot("big"));
  EXPECT_FALSE(big->ingest("orders", joined(repeated, 0, repeated.size())).ok());
  ASSERT_TRUE(big->step().ok());
  EXPECT_EQ(testing::rows_of(*big->snapshot("big")), before);
  testing::must_ingest(*big, "orders", joined(repeated, 0, 2000));
  ASSERT_TRUE(big->step().ok());
  EXPECT_GT(testing::rows_of(*big->snapshot("big")).size(), before.size());
}

// A row block of orders (id, customer, amount), every cell a number but
// customer NULL where it is NaN (wasm-bindings/js/row_block.js's layout).
std::string orders_block(int64_t first_id, size_t count, double customer_of_row(int64_t id)) {
  std::string out(format::kRowBlockHeaderBytes + 9 * 3 * count, '\0');
  auto put_u32 = [&](size_t at, uint32_t value) {
    for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>(value >> (8 * i));
  };
  put_u32(0, format::kRowBlockMagic);
  put_u32(4, static_cast<uint32_t>(count));
  put_u32(8, 3);
  const size_t kinds = format::kRowBlockHeaderBytes + 8 * 3 * count;
  for (size_t r = 0; r < count; ++r) {
    const int64_t id = first_id + static_cast<int64_t>(r);
    const double cells[3] = {static_cast<double>(id), customer_of_row(id), static_cast<double>(id % 97)};
    for (size_t c = 0; c < 3; ++c) {
      std::memcpy(&out[format::kRowBlockHeaderBytes + 8 * (3 * r + c)], &cells[c], 8);
      out[kinds + 3 * r + c] =
          static_cast<char>(std::isnan(cells[c]) ? format::RowBlockKind::kNull : format::RowBlockKind::kNumber);
    }
  }
  return out;
}

IngestOptions block_part(IngestPart part, uint64_t total_rows = 0) {
  IngestOptions options;
  options.format = IngestFormat::kRowBlock;
  options.part = part;
  options.total_rows = total_rows;
  return options;
}

// A row block ingest in parts (a bulk load from JS) is one ingest: applied
// with its last part, equal to the same rows in one block; a part refused,
// or any ingest that does not continue them, drops the parts before it.
TEST(PipelineInputTest, ARowBlockIngestInPartsIsOneIngest) {
  auto customer = [](int64_t id) { return static_cast<double>(id % 7); };
  auto parts = make_pipeline(), whole = make_pipeline();
  ASSERT_TRUE(whole->ingest("orders", orders_block(0, 4500, customer), block_part(IngestPart::kWhole)).ok());
  ASSERT_TRUE(parts->ingest("orders", orders_block(0, 1500, customer), block_part(IngestPart::kFirst, 4500)).ok());
  ASSERT_TRUE(parts->ingest("orders", orders_block(1500, 1500, customer), block_part(IngestPart::kMiddle)).ok());
  EXPECT_FALSE(parts->needs_step());  // nothing applied before the last part
  ASSERT_TRUE(parts->ingest("orders", orders_block(3000, 1500, customer), block_part(IngestPart::kLast)).ok());
  EXPECT_EQ(parts->step()->input_records, 4500u);
  ASSERT_TRUE(whole->step().ok());
  for (const char* view : {"big", "by_customer"}) {
    EXPECT_EQ(testing::rows_of(*parts->snapshot(view)), testing::rows_of(*whole->snapshot(view))) << view;
  }
  EXPECT_EQ(parts->input_stats().at("orders").total_records, 4500u);
  EXPECT_EQ(parts->input_stats().at("orders").total_bytes, whole->input_stats().at("orders").total_bytes + 32);
  const testing::ZSetMap loaded = testing::rows_of(*parts->snapshot("big"));

  // A bad row in a later part is named by its record in the whole ingest.
  auto null_at_5200 = [](int64_t id) { return id == 5200 ? std::nan("") : 1.0; };
  ASSERT_TRUE(parts->ingest("orders", orders_block(5000, 100, null_at_5200), block_part(IngestPart::kFirst, 300)).ok());
  Result<uint64_t> bad =
      parts->ingest("orders", orders_block(5100, 200, null_at_5200), block_part(IngestPart::kMiddle));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("record 200, column 'customer'"), std::string::npos) << bad.status().message();
  // ... and the parts are dropped: a last part has nothing to continue.
  Result<uint64_t> orphan = parts->ingest("orders", orders_block(5300, 10, customer), block_part(IngestPart::kLast));
  ASSERT_FALSE(orphan.ok());
  EXPECT_EQ(orphan.status().code(), ErrorCode::kInvalidArgument);

  // Any other ingest drops them too (JS sends JSON after a refused part).
  ASSERT_TRUE(parts->ingest("orders", orders_block(6000, 100, customer), block_part(IngestPart::kFirst, 200)).ok());
  testing::must_ingest(*parts, "orders", "[" + order(7000, 1, 50) + "]");
  EXPECT_FALSE(parts->ingest("orders", orders_block(6100, 100, customer), block_part(IngestPart::kLast)).ok());

  // A key given in two parts refuses the whole ingest.
  ASSERT_TRUE(parts->ingest("orders", orders_block(8000, 100, customer), block_part(IngestPart::kFirst, 200)).ok());
  Result<uint64_t> twice = parts->ingest("orders", orders_block(8050, 100, customer), block_part(IngestPart::kLast));
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("duplicate key"), std::string::npos) << twice.status().message();
  EXPECT_EQ(parts->step()->input_records, 1u);  // the JSON order only
  EXPECT_EQ(testing::rows_of(*parts->snapshot("big")).size(), loaded.size() + 1);
}

TEST(PipelineInputTest, CsvAndRawJsonAndKeylessTables) {
  auto p = make_pipeline();
  IngestOptions csv;
  csv.format = IngestFormat::kCsv;
  ASSERT_TRUE(p->ingest("orders", "1,2,30.5\n2,2,40\n", csv).ok());
  IngestOptions raw;
  raw.json.update_format = format::UpdateFormat::kRaw;
  raw.json.array = false;
  ASSERT_TRUE(p->ingest("orders", "{\"id\":3,\"customer\":3,\"amount\":12}\n{\"id\":4,\"customer\":3,\"amount\":1}\n", raw).ok());
  ASSERT_TRUE(p->ingest("notes", "[{\"insert\":{\"body\":\"a\"}},{\"insert\":{\"body\":\"a\"}}]").ok());
  StepResult result = *p->step();
  EXPECT_EQ(result.input_records, 6u);
  EXPECT_EQ(testing::rows_of(*p->snapshot("big")).size(), 3u);
  const InputStats& stats = p->input_stats().at("orders");
  EXPECT_EQ(stats.total_records, 4u);
  EXPECT_GT(stats.total_bytes, 20u);
}

TEST(PipelineIndexTest, LookupsAndTheSharedTrace) {
  auto p = make_pipeline();
  std::string batch = "[";
  for (int i = 0; i < 1000; ++i) batch += (i ? "," : "") + order(i, i % 10, 20 + i);
  testing::must_ingest(*p, "orders", batch + "]");
  ASSERT_TRUE(p->step().ok());
  SchemaPtr key_schema = *p->index_key_schema("big_by_customer");
  std::string key = encode_row(*key_schema, {Value::bigint(3)});
  Result<std::vector<std::string>> rows = p->lookup("big_by_customer", RowRef(key));
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->size(), 100u);
  std::string id_key = encode_row(**p->index_key_schema("big_by_id"), {Value::bigint(42)});
  ASSERT_EQ(p->lookup("big_by_id", RowRef(id_key))->size(), 1u);
  EXPECT_EQ(p->lookup("nope", RowRef(key)).status().code(), ErrorCode::kUnknownIndex);
}

// A view and its first index share one trace: memory of the view with one
// index stays within 1.1x of the view alone; a second index has its own.
TEST(PipelineIndexTest, AViewAndItsFirstIndexShareOneTrace) {
  const char* header = R"(
CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DOUBLE);
CREATE MATERIALIZED VIEW big AS SELECT id, customer, amount FROM orders WHERE amount > 10;
)";
  std::string batch = "[";
  for (int i = 0; i < 20000; ++i) batch += (i ? "," : "") + order(i, i % 100, 20 + i % 7);
  batch += "]";
  auto view_bytes = [&](const std::string& indexes) {
    auto p = make_pipeline((std::string(header) + indexes).c_str());
    testing::must_ingest(*p, "orders", batch);
    EXPECT_TRUE(p->step().ok());
    return static_cast<double>(p->memory_bytes());
  };
  double none = view_bytes("");
  double one = view_bytes("CREATE INDEX by_id ON big(id);");
  double two = view_bytes("CREATE INDEX by_id ON big(id); CREATE INDEX by_customer ON big(customer);");
  std::printf("[ memory   ] view alone %.0f B, with one index %.0f B (%.2fx), with two %.0f B (%.2fx)\n", none, one,
              one / none, two, two / none);
  EXPECT_LE(one, 1.1 * none);
  EXPECT_GT(two - one, 0.3 * none);  // the second index's own trace
}

// A runtime error fails the view, not the pipeline (view_failure_test.cpp has more).
TEST(PipelineFailureTest, ARuntimeErrorFailsItsViewNotThePipeline) {
  auto p = make_pipeline(R"(
CREATE TABLE t (a BIGINT NOT NULL, b BIGINT NOT NULL);
CREATE MATERIALIZED VIEW q AS SELECT a / b AS ratio FROM t;
)");
  testing::must_ingest(*p, "t", "[{\"insert\":{\"a\":6,\"b\":3}}]");
  ASSERT_TRUE(p->step().ok());
  testing::must_ingest(*p, "t", "[{\"insert\":{\"a\":1,\"b\":0}}]");
  ASSERT_TRUE(p->step().ok());
  EXPECT_TRUE(p->failure().ok());
  EXPECT_EQ(p->view_failure("q").message(), "view 'q' failed at step 1: map: division by zero in (a / b)");
  EXPECT_EQ(p->snapshot("q").status().message(), p->view_failure("q").message());
  EXPECT_TRUE(p->ingest("t", "[]").ok());
  EXPECT_TRUE(p->step().ok());
}

TEST(PipelineStatsTest, ReportsInputsOutputsAndState) {
  auto p = make_pipeline();
  ASSERT_TRUE(p->add_connector("mirror", {"big", "", true}, std::make_shared<RecordingSink>()).ok());
  testing::must_ingest(*p, "orders", "[" + order(1, 1, 20) + "]");
  ASSERT_TRUE(p->step().ok());
  p->pause();
  std::string stats = p->stats_json();
  for (const char* part : {"\"step\":1", "\"state\":\"paused\"", "\"orders\":{\"total_records\":1",
                           "\"mirror\":{\"view\":\"big\",\"transmitted_records\":1", "\"snapshot_sent\":true",
                           "\"parse_errors\":0", "\"memory_bytes\":"}) {
    EXPECT_NE(stats.find(part), std::string::npos) << part << " in " << stats;
  }
  ASSERT_TRUE(p->remove_connector("mirror").ok());
  EXPECT_EQ(p->remove_connector("mirror").code(), ErrorCode::kUnknownOutput);
}

// A table with LATENESS reports the updates it dropped as late_records
// (JS: stats().inputs[table].lateRecords); a table without one reports none.
TEST(PipelineStatsTest, ReportsLateRecords) {
  auto created = Pipeline::create(
      "CREATE TABLE ev (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' MINUTE, n INT);"
      "CREATE TABLE plain (n INT);"
      "CREATE MATERIALIZED VIEW v AS SELECT * FROM ev;");
  ASSERT_TRUE(created.ok()) << created.status().to_string();
  Pipeline& p = **created;
  testing::must_ingest(p, "ev", "[{\"insert\":{\"ts\":\"2024-01-01 10:00:00\",\"n\":1}}]");
  ASSERT_TRUE(p.step().ok());
  testing::must_ingest(p, "ev",
                       "[{\"insert\":{\"ts\":\"2024-01-01 09:58:59\",\"n\":2}},"
                       "{\"insert\":{\"ts\":\"2024-01-01 09:59:00\",\"n\":3}}]");
  ASSERT_TRUE(p.step().ok());
  std::string stats = p.stats_json();
  EXPECT_NE(stats.find("\"ev\":{\"total_records\":3,\"total_bytes\":"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"parse_errors\":0,\"late_records\":1}"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"plain\":{\"total_records\":0,\"total_bytes\":0,\"parse_errors\":0}"), std::string::npos)
      << stats;
  EXPECT_EQ(testing::rows_of(*p.snapshot("v")).size(), 2u);
}

}  // namespace
}  // namespace freshet
