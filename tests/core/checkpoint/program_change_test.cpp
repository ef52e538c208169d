// Stable operator ids and program changes: a checkpoint (format 7) restores
// by id into a changed program; what did not change keeps its state, what is
// new or failed is bootstrapped from the integrals of its inputs, and the
// views come out as a fresh pipeline fed all the input would have them.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "checkpoint/checkpoint_support.h"

namespace freshet {
namespace {

using testing::must_checkpoint;
using testing::must_create;
using testing::must_ingest;
using testing::rows_of;

std::string row(int id, int v) {
  return "[{\"insert\":{\"id\":" + std::to_string(id) + ",\"v\":" + std::to_string(v) + "}}]";
}

std::set<std::string> ids_of(const Pipeline& p) {
  std::set<std::string> ids;
  const Circuit& circuit = *p.program().circuit;
  for (size_t i = 0; i < circuit.operator_count(); ++i) ids.insert(circuit.operator_id(i));
  return ids;
}

std::string view_id(const Pipeline& p, const std::string& view) {
  const Circuit& circuit = *p.program().circuit;
  return circuit.operator_id(circuit.producer_of(p.program().find_view(view)->stream));
}

const char* kBase =
    "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);"
    "CREATE MATERIALIZED VIEW total AS SELECT SUM(v) AS s, COUNT(*) AS n FROM t;";

TEST(OperatorIdsTest, TheSameViewHasTheSameIdsWhateverElseTheProgramHas) {
  auto alone = must_create(kBase);
  std::string with_others = std::string(
      "CREATE TABLE u (k INT);"
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);"
      "CREATE MATERIALIZED VIEW first AS SELECT k, COUNT(*) AS c FROM u GROUP BY k;"
      "CREATE MATERIALIZED VIEW total AS SELECT SUM(v) AS s, COUNT(*) AS n FROM t;");
  auto other = must_create(with_others.c_str());
  EXPECT_EQ(view_id(*alone, "total"), view_id(*other, "total"));
  std::set<std::string> a = ids_of(*alone), b = ids_of(*other);
  for (const std::string& id : a) EXPECT_TRUE(b.count(id)) << "operator " << id << " of 'total' has another id";
  // Ids are unique in a program with every stateful operator.
  auto fuzz = must_create(testing::kCheckpointProgram);
  EXPECT_EQ(ids_of(*fuzz).size(), fuzz->program().circuit->operator_count());
  // Another view text gets other ids.
  auto changed = must_create(
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);"
      "CREATE MATERIALIZED VIEW total AS SELECT SUM(v) AS s, COUNT(*) AS n FROM t WHERE v > 0;");
  EXPECT_NE(view_id(*alone, "total"), view_id(*changed, "total"));
}

TEST(ProgramChangeTest, ANewViewIsBootstrappedAndTheOthersKeepTheirState) {
  MemoryCheckpointStorage storage;
  auto p = must_create(kBase);
  must_ingest(*p, "t", row(1, 10));
  must_ingest(*p, "t", row(2, 5));
  ASSERT_TRUE(p->step().ok());
  must_checkpoint(*p, storage);

  std::string next = std::string(kBase) + "CREATE MATERIALIZED VIEW big AS SELECT id FROM t WHERE v > 7;";
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(next, storage);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  Pipeline& r = **resumed;
  EXPECT_EQ(r.step_count(), 1u);
  EXPECT_EQ(r.rebuilt_views(), (std::set<std::string, std::less<>>{"big"}));
  EXPECT_GT(r.restored_operators(), 0u);
  EXPECT_GT(r.rebuilt_operators(), 0u);
  EXPECT_EQ(rows_of(*r.snapshot("big")).size(), 1u);
  EXPECT_EQ(rows_of(*r.snapshot("total")).size(), 1u);
  // Steps go on from there, the new view with the others.
  must_ingest(r, "t", row(3, 8));
  ASSERT_TRUE(r.step().ok());
  EXPECT_EQ(rows_of(*r.snapshot("big")).size(), 2u);
  auto fresh = must_create(next.c_str());
  for (int i : {1, 2, 3}) must_ingest(*fresh, "t", row(i, i == 1 ? 10 : i == 2 ? 5 : 8));
  ASSERT_TRUE(fresh->step().ok());
  EXPECT_EQ(rows_of(*r.snapshot("total")), rows_of(*fresh->snapshot("total")));
  EXPECT_EQ(rows_of(*r.snapshot("big")), rows_of(*fresh->snapshot("big")));
}

TEST(ProgramChangeTest, ADistinctIsRebuiltWithTheArrangementItReads) {
  // d's DISTINCT reads the arrangement of t's v column (distinct.h) and
  // holds its output there. The new view both reads that arrangement too:
  // the arrangement is rebuilt from t's rows, and the DISTINCT with it, so
  // that n_values, new and reading d's integral, counts d's rows.
  const std::string base =
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);"
      "CREATE MATERIALIZED VIEW d AS SELECT DISTINCT v FROM t;";
  MemoryCheckpointStorage storage;
  auto p = must_create(base.c_str());
  for (int i = 1; i <= 6; ++i) must_ingest(*p, "t", row(i, i % 4));
  ASSERT_TRUE(p->step().ok());
  must_checkpoint(*p, storage);

  const std::string next = base +
                           "CREATE MATERIALIZED VIEW both AS SELECT v FROM t INTERSECT ALL SELECT v FROM t WHERE v > 1;"
                           "CREATE MATERIALIZED VIEW n_values AS SELECT COUNT(*) AS n FROM d;";
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(next, storage);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  auto fresh = must_create(next.c_str());
  for (int i = 1; i <= 6; ++i) must_ingest(*fresh, "t", row(i, i % 4));
  ASSERT_TRUE(fresh->step().ok());
  for (const char* view : {"d", "both", "n_values"}) {
    EXPECT_EQ(rows_of(*(*resumed)->snapshot(view)), rows_of(*fresh->snapshot(view))) << view << " as resumed";
  }
  for (Pipeline* q : {resumed->get(), fresh.get()}) {
    must_ingest(*q, "t", row(7, 9));
    must_ingest(*q, "t", "[{\"delete\":{\"id\":4}}]");
    ASSERT_TRUE(q->step().ok());
  }
  for (const char* view : {"d", "both", "n_values"}) {
    EXPECT_EQ(rows_of(*(*resumed)->snapshot(view)), rows_of(*fresh->snapshot(view))) << view << " a step later";
  }
}

TEST(ProgramChangeTest, AViewOverATableThatKeepsNoRowsCannotBeBootstrapped) {
  const char* base = "CREATE TABLE e (k INT); CREATE MATERIALIZED VIEW c AS SELECT COUNT(*) AS n FROM e;";
  MemoryCheckpointStorage storage;
  auto p = must_create(base);
  must_ingest(*p, "e", "[{\"insert\":{\"k\":1}}]");
  ASSERT_TRUE(p->step().ok());
  must_checkpoint(*p, storage);
  std::string next = std::string(base) + "CREATE MATERIALIZED VIEW ks AS SELECT DISTINCT k FROM e;";
  Result<std::unique_ptr<Pipeline>> refused = open_pipeline(next, storage);
  ASSERT_EQ(refused.status().code(), ErrorCode::kProgramMismatch) << refused.status().to_string();
  const std::string& message = refused.status().message();
  EXPECT_NE(message.find("view 'ks'"), std::string::npos) << message;
  EXPECT_NE(message.find("table 'e'"), std::string::npos) << message;
  EXPECT_NE(message.find("PRIMARY KEY"), std::string::npos) << message;
  EXPECT_NE(message.find("'materialized' = 'true'"), std::string::npos) << message;
  Result<std::unique_ptr<Pipeline>> fresh = open_pipeline(next, storage, {OnProgramChange::kRestart});
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((*fresh)->step_count(), 0u);

  // A materialized table holds its rows: the same change is bootstrapped.
  const char* kept = "CREATE TABLE e (k INT) WITH ('materialized' = 'true');"
                     "CREATE MATERIALIZED VIEW c AS SELECT COUNT(*) AS n FROM e;";
  MemoryCheckpointStorage storage2;
  auto q = must_create(kept);
  must_ingest(*q, "e", "[{\"insert\":{\"k\":1}},{\"insert\":{\"k\":1}},{\"insert\":{\"k\":2}}]");
  ASSERT_TRUE(q->step().ok());
  must_checkpoint(*q, storage2);
  std::string next2 = std::string(kept) + "CREATE MATERIALIZED VIEW ks AS SELECT DISTINCT k FROM e;";
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(next2, storage2);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  EXPECT_EQ(rows_of(*(*resumed)->snapshot("ks")).size(), 2u);
}

TEST(ProgramChangeTest, ATableChangedOrRemovedIsAMismatchAndARemovedViewIsDropped) {
  MemoryCheckpointStorage storage;
  auto p = must_create(kBase);
  must_ingest(*p, "t", row(1, 10));
  ASSERT_TRUE(p->step().ok());
  must_checkpoint(*p, storage);
  Result<std::unique_ptr<Pipeline>> changed = open_pipeline(
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT, w INT);"
      "CREATE MATERIALIZED VIEW total AS SELECT SUM(v) AS s, COUNT(*) AS n FROM t;",
      storage);
  EXPECT_EQ(changed.status().code(), ErrorCode::kProgramMismatch);
  EXPECT_NE(changed.status().message().find("table 't'"), std::string::npos) << changed.status().message();
  Result<std::unique_ptr<Pipeline>> removed = open_pipeline("CREATE TABLE u (id INT);", storage);
  EXPECT_EQ(removed.status().code(), ErrorCode::kProgramMismatch);
  // The view removed: its state goes, the table's stays.
  Result<std::unique_ptr<Pipeline>> fewer =
      open_pipeline("CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);"
                    "CREATE MATERIALIZED VIEW ids AS SELECT id FROM t;",
                    storage);
  ASSERT_TRUE(fewer.ok()) << fewer.status().to_string();
  EXPECT_EQ(rows_of(*(*fewer)->snapshot("ids")).size(), 1u);
  EXPECT_EQ((*fewer)->snapshot("total").status().code(), ErrorCode::kUnknownView);
}

// Issue 22: a view failed on a transient state recovers when the program is
// replaced (the same SQL), and the view that did not fail keeps its state.
TEST(ProgramChangeTest, ReplacingTheProgramRecoversAFailedViewAndKeepsTheOthers) {
  const char* sql =
      "CREATE TABLE t(x INT); CREATE MATERIALIZED VIEW q AS SELECT 36 / COUNT(*) AS r FROM t;"
      "CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) c FROM t;";
  auto p = must_create(sql);
  ASSERT_TRUE(p->step().ok());  // t empty: 36 / 0 fails q
  ASSERT_FALSE(p->view_failure("q").ok());
  must_ingest(*p, "t", "[{\"insert\":{\"x\":1}},{\"insert\":{\"x\":2}},{\"insert\":{\"x\":3}}]");
  ASSERT_TRUE(p->step().ok());
  ASSERT_TRUE(p->view_failure("w").ok());

  Result<SavedState> state = p->save_state();
  ASSERT_TRUE(state.ok());
  auto replaced = must_create(sql);
  Status done = replaced->replace_from(*state);
  ASSERT_TRUE(done.ok()) << done.to_string();
  EXPECT_TRUE(replaced->view_failure("q").ok()) << replaced->view_failure("q").to_string();
  EXPECT_EQ(replaced->rebuilt_views(), (std::set<std::string, std::less<>>{"q"})) << "w keeps its state";
  EXPECT_EQ(replaced->step_count(), 2u);
  // Right: as a fresh pipeline fed the same rows in one step (36 / count, count).
  auto check = [sql](Pipeline& pipeline, int count) {
    auto fresh = must_create(sql);
    for (int x = 1; x <= count; ++x) must_ingest(*fresh, "t", "[{\"insert\":{\"x\":" + std::to_string(x) + "}}]");
    ASSERT_TRUE(fresh->step().ok());
    ASSERT_TRUE(fresh->view_failure("q").ok());
    EXPECT_EQ(rows_of(*pipeline.snapshot("q")), rows_of(*fresh->snapshot("q"))) << count;
    EXPECT_EQ(rows_of(*pipeline.snapshot("w")), rows_of(*fresh->snapshot("w"))) << count;
  };
  check(*replaced, 3);
  must_ingest(*replaced, "t", "[{\"insert\":{\"x\":4}}]");
  ASSERT_TRUE(replaced->step().ok());
  check(*replaced, 4);
  // Checkpoint and resume after it: the recovered view is not failed.
  MemoryCheckpointStorage storage;
  must_checkpoint(*replaced, storage);
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(sql, storage);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  EXPECT_TRUE((*resumed)->rebuilt_views().empty());
  check(**resumed, 4);
}

// The pipeline's settings carry over a program replacement: the error
// view's retention as the memory budget (set on the pipeline, not in SQL).
TEST(ProgramChangeTest, ReplacingTheProgramKeepsThePipelinesSettings) {
  const char* sql = "CREATE TABLE t(x INT); CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) c FROM t;";
  auto p = must_create(sql);
  p->set_error_view_retention(7);
  p->set_memory_budget(64u << 20);
  ASSERT_TRUE(p->step().ok());
  Result<std::unique_ptr<Pipeline>> next = p->replace_program(sql, sql::CompileOptions());
  ASSERT_TRUE(next.ok()) << next.status().to_string();
  EXPECT_EQ((*next)->error_view().retention(), 7u);
  EXPECT_EQ((*next)->memory_budget(), 64u << 20);
}

// replace_program carries every egress stream over: a kept view's goes on
// with no gap and no duplicate, a changed materialized view's gets the
// difference, a removed view's ends with UNKNOWN_VIEW.
TEST(ProgramChangeTest, ReplacingTheProgramCarriesTheStreamsOver) {
  const char* before =
      "CREATE TABLE t(x INT) WITH ('materialized' = 'true'); CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) c FROM t;"
      "CREATE MATERIALIZED VIEW v AS SELECT x FROM t WHERE x > 1;"
      "CREATE MATERIALIZED VIEW z AS SELECT x FROM t;";
  const char* after =
      "CREATE TABLE t(x INT) WITH ('materialized' = 'true'); CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) c FROM t;"
      "CREATE MATERIALIZED VIEW v AS SELECT x FROM t WHERE x > 2;";
  auto p = must_create(before);
  Result<uint64_t> ew = p->open_egress({"w", "", true});
  Result<uint64_t> ev = p->open_egress({"v", "", true});
  Result<uint64_t> ez = p->open_egress({"z", "", false});
  ASSERT_TRUE(ew.ok() && ev.ok() && ez.ok());
  must_ingest(*p, "t", "[{\"insert\":{\"x\":1}},{\"insert\":{\"x\":2}},{\"insert\":{\"x\":3}}]");
  ASSERT_TRUE(p->step().ok());
  testing::ReceivedState w, v;
  testing::drain(*p, *ew, w);
  testing::drain(*p, *ev, v);
  ASSERT_EQ(v.state().size(), 2u);

  Result<std::unique_ptr<Pipeline>> replaced = p->replace_program(after, sql::CompileOptions());
  ASSERT_TRUE(replaced.ok()) << replaced.status().to_string();
  Pipeline& r = **replaced;
  EXPECT_EQ(r.rebuilt_views(), (std::set<std::string, std::less<>>{"v"}));
  std::vector<OutputChunk> seen;
  testing::drain(r, *ew, w, &seen);
  EXPECT_TRUE(seen.empty()) << "a kept view's stream gets nothing from the replacement";
  testing::drain(r, *ev, v, &seen);
  EXPECT_EQ(seen.size(), 1u) << "the changed view's stream gets the difference";
  EXPECT_EQ(v.state(), rows_of(*r.snapshot("v")));
  EXPECT_EQ(v.snapshots(), 1) << "no second snapshot";
  EXPECT_EQ(r.next_chunk(*ez).status().code(), ErrorCode::kUnknownView);

  must_ingest(r, "t", "[{\"insert\":{\"x\":4}}]");
  ASSERT_TRUE(r.step().ok());
  testing::drain(r, *ew, w);
  testing::drain(r, *ev, v);
  EXPECT_EQ(w.state(), rows_of(*r.snapshot("w")));
  EXPECT_EQ(v.state(), rows_of(*r.snapshot("v")));
  EXPECT_EQ(v.state().size(), 2u);
}

// The oracle: a random run, checkpointed at a random step and resumed with
// a changed program (views added, one changed, one removed), gives every
// view the contents a fresh pipeline of the new program fed all the input has.
TEST(ProgramChangeTest, ABootstrapGivesWhatAFreshPipelineComputes) {
  const std::string tables =
      "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT NOT NULL, amount DECIMAL(10,2), note VARCHAR);"
      "CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);"
      "CREATE TABLE events (kind VARCHAR, n INT);";
  const std::string before = tables +
      "CREATE MATERIALIZED VIEW by_region AS SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total "
      "  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;"
      "CREATE MATERIALIZED VIEW top3 AS SELECT id, amount FROM orders ORDER BY amount DESC LIMIT 3;"
      "CREATE MATERIALIZED VIEW kinds AS SELECT DISTINCT kind FROM events;"
      "CREATE MATERIALIZED VIEW gone AS SELECT id FROM customers WHERE region IS NULL;";
  const std::string after = tables +
      "CREATE MATERIALIZED VIEW reach AS SELECT c.id, c.region, o.id AS order_id "
      "  FROM customers c LEFT JOIN orders o ON o.customer = c.id;"
      "CREATE INDEX reach_by_region ON reach(region);"
      "CREATE MATERIALIZED VIEW by_region AS SELECT c.region, COUNT(*) AS n, SUM(o.amount) AS total "
      "  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;"
      "CREATE MATERIALIZED VIEW top3 AS SELECT id, amount FROM orders ORDER BY amount DESC LIMIT 4;"
      "CREATE MATERIALIZED VIEW kinds AS SELECT DISTINCT kind FROM events;"
      "CREATE MATERIALIZED VIEW quiet AS SELECT id FROM customers EXCEPT SELECT customer FROM orders;"
      "CREATE MATERIALIZED VIEW spend AS SELECT customer, SUM(amount) AS s, COUNT(DISTINCT note) AS notes "
      "  FROM orders GROUP BY customer;";
  const char* kViews[] = {"reach", "by_region", "top3", "kinds", "quiet", "spend"};
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    testing::CheckpointWorkload workload(seed);
    std::vector<std::pair<std::string, std::string>> inputs;
    std::vector<size_t> steps_at;  // inputs.size() at each step
    MemoryCheckpointStorage storage;
    auto p = must_create(before.c_str());
    std::mt19937_64 random(seed);
    const int change_at = 5 + static_cast<int>(random() % 20);
    std::unique_ptr<Pipeline> current = std::move(p);
    for (int a = 0; a < 40; ++a) {
      if (a == change_at) {
        must_checkpoint(*current, storage);
        Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(after, storage);
        ASSERT_TRUE(resumed.ok()) << "seed " << seed << ": " << resumed.status().to_string();
        current = std::move(*resumed);
        // kinds did not change and shares nothing with what did: kept. by_region
        // did not change either, but reach joins orders on the same key, so the
        // shared arrangement of orders widens to the columns both need (a new
        // operator id): by_region is rebuilt with it.
        EXPECT_EQ(current->rebuilt_views().count("kinds"), 0u) << "seed " << seed;
        EXPECT_EQ(current->rebuilt_views().count("by_region"), 1u) << "seed " << seed;
        EXPECT_EQ(current->rebuilt_views().count("top3"), 1u) << "seed " << seed;
      }
      std::pair<std::string, std::string> input = workload.next();
      must_ingest(*current, input.first, input.second);
      inputs.push_back(input);
      if (random() % 3 == 0) {
        ASSERT_TRUE(current->step().ok());
      }
    }
    ASSERT_TRUE(current->step().ok());
    auto fresh = must_create(after.c_str());
    for (const auto& [table, json] : inputs) must_ingest(*fresh, table, json);
    ASSERT_TRUE(fresh->step().ok());
    for (const char* view : kViews) {
      EXPECT_EQ(rows_of(*current->snapshot(view)), rows_of(*fresh->snapshot(view))) << "seed " << seed << ", view " << view;
    }
  }
}

}  // namespace
}  // namespace freshet

namespace freshet {
namespace {

// A connector or named egress on a view the new program removed or changed
// is dropped on resume (its rows are the old view's), not read as damage.
TEST(ProgramChangeTest, OutputsOnARemovedOrChangedViewAreDropped) {
  const std::string base = std::string(kBase) + "CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 1;";
  auto p = must_create(base.c_str());
  auto sink = std::make_shared<testing::RecordingSink>();
  ASSERT_TRUE(p->add_connector("mirror", {"big", "", true}, sink).ok());
  ASSERT_TRUE(p->open_named_egress("dash", {"total", "", true}, {}, std::nullopt).ok());
  must_ingest(*p, "t", row(1, 5));
  ASSERT_TRUE(p->step().ok());
  MemoryCheckpointStorage storage;
  must_checkpoint(*p, storage);
  // 'big' removed, 'total' changed (another column).
  const char* next =
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT);"
      "CREATE MATERIALIZED VIEW total AS SELECT SUM(v) AS s FROM t;";
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(next, storage);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  EXPECT_EQ(rows_of(*(*resumed)->snapshot("total")).size(), 1u);
  // The dropped named egress starts over under its name.
  EXPECT_TRUE((*resumed)->open_named_egress("dash", {"total", "", true}, {}, std::nullopt).ok());
}

}  // namespace
}  // namespace freshet

namespace freshet {
namespace {

// A view whose text did not change but that reads a changed view is changed
// too (Feldera's rule): its operators kept their ids, yet their state was
// built from the old view's rows. It is rebuilt, and comes out as a fresh
// pipeline computes it.
TEST(ProgramChangeTest, AViewOverAChangedViewIsRebuilt) {
  auto program = [](int over) {
    return std::string(kBase) + "CREATE VIEW big AS SELECT id, v FROM t WHERE v > " + std::to_string(over) + ";" +
           "CREATE MATERIALIZED VIEW big_count AS SELECT COUNT(*) AS n, SUM(v) AS s FROM big;";
  };
  MemoryCheckpointStorage storage;
  auto p = must_create(program(7).c_str());
  for (int i : {1, 2, 3}) must_ingest(*p, "t", row(i, i * 4));  // v = 4, 8, 12
  ASSERT_TRUE(p->step().ok());
  must_checkpoint(*p, storage);

  const std::string next = program(10);
  Result<std::unique_ptr<Pipeline>> resumed = open_pipeline(next, storage);
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  Pipeline& r = **resumed;
  EXPECT_EQ(r.rebuilt_views(), (std::set<std::string, std::less<>>{"big", "big_count"}));
  auto fresh = must_create(next.c_str());
  for (int i : {1, 2, 3}) must_ingest(*fresh, "t", row(i, i * 4));
  ASSERT_TRUE(fresh->step().ok());
  EXPECT_EQ(rows_of(*r.snapshot("big_count")), rows_of(*fresh->snapshot("big_count")));
  EXPECT_EQ(rows_of(*r.snapshot("total")), rows_of(*fresh->snapshot("total")));
  // And from there on, step by step.
  must_ingest(r, "t", row(4, 20));
  must_ingest(*fresh, "t", row(4, 20));
  ASSERT_TRUE(r.step().ok());
  ASSERT_TRUE(fresh->step().ok());
  EXPECT_EQ(rows_of(*r.snapshot("big_count")), rows_of(*fresh->snapshot("big_count")));
}

}  // namespace
}  // namespace freshet
