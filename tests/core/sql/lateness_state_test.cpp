// LATENESS bounds an aggregate's state: grouped by the LATENESS column (or,
// see tumble tests, a TUMBLE window over it), closed groups are forgotten
// while the stream advances, so the circuit's state stays flat; the view
// keeps every group's row (nothing is retracted), and its contents equal a
// recomputation from all the rows that were not late. The eviction's index
// is rebuilt after a checkpoint restore.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "freshet/common/byte_io.h"
#include "freshet/sql/compiler.h"
#include "support/oracle.h"

namespace freshet::sql {
namespace {

using Totals = std::map<int64_t, std::pair<int64_t, int64_t>>;  // time -> (sum, count)

constexpr const char* kProgram = R"(
CREATE TABLE ev (ts BIGINT NOT NULL LATENESS 20, amount BIGINT);
CREATE VIEW per_ts AS SELECT ts, SUM(amount) AS total, COUNT(*) AS n FROM ev GROUP BY ts;
)";

struct StreamRun {
  std::unique_ptr<CompiledProgram> program;
  std::map<std::tuple<int64_t, int64_t, int64_t>, Weight> rows;  // the integrated view
  Totals expected;
  int64_t now = 0;

  explicit StreamRun(const std::string& sql) {
    auto compiled = compile_program(sql);
    EXPECT_TRUE(compiled.ok()) << compiled.status().to_string();
    program = std::move(*compiled);
  }

  // One step of rows around `now` (a few within the lateness behind it, a few
  // beyond it, which are dropped), advancing `now`.
  void step(std::mt19937_64& random) {
    const CompiledTable& table = *program->find_table("ev");
    RowBuilder row(*table.schema);
    std::optional<int64_t> cutoff = table.watermark ? table.watermark->watermark() : std::nullopt;
    for (int i = 0; i < 4; ++i) {
      int64_t ts = now - std::uniform_int_distribution<int64_t>(0, 30)(random);
      int64_t amount = std::uniform_int_distribution<int64_t>(1, 9)(random);
      row.set_int(0, ts);
      row.set_int(1, amount);
      table.input->push_row(row.finish(), 1);
      if (!cutoff || ts >= *cutoff) {
        expected[ts].first += amount;
        expected[ts].second += 1;
      }
    }
    now += std::uniform_int_distribution<int64_t>(0, 3)(random);
    ASSERT_TRUE(program->circuit->step().ok());
    const CompiledView& per_ts = *program->find_view("per_ts");
    for (BatchCursor c(*per_ts.stream.current()); c.valid(); c.next()) {
      RowReader out(*per_ts.schema, c.key());
      Weight& weight = rows[{out.get_int(0), out.get_int(1), out.get_int(2)}];
      weight += c.weight();
      if (weight == 0) rows.erase({out.get_int(0), out.get_int(1), out.get_int(2)});
    }
  }

  //! The view as time -> (sum, count), checking each row is there once and
  //! each time has one row.
  Totals view() const {
    Totals out;
    for (const auto& [row, weight] : rows) {
      auto [time, total, count] = row;
      EXPECT_EQ(weight, 1) << "time " << time;
      EXPECT_TRUE(out.emplace(time, std::make_pair(total, count)).second) << "two rows for time " << time;
    }
    return out;
  }
};

TEST(LatenessStateTest, ClosedGroupsAreForgottenAndTheViewKeepsThem) {
  std::mt19937_64 random(testing::test_seed(161));
  StreamRun run(kProgram);
  size_t state_early = 0;
  for (int step = 0; step < 20000; ++step) {
    run.step(random);
    if (step == 2000) state_early = run.program->circuit->state_bytes();
    if (step % 1000 == 0) {
      ASSERT_EQ(run.view(), run.expected) << "step " << step;
    }
  }
  EXPECT_EQ(run.view(), run.expected);
  size_t state_late = run.program->circuit->state_bytes();
  // Ten times the rows, the same open groups: the state does not grow.
  EXPECT_LT(state_late, state_early * 3 / 2) << state_early << " -> " << state_late;
  EXPECT_GT(run.program->find_table("ev")->watermark->late_records(), 1000u);

  // Without LATENESS the same aggregate keeps every group.
  std::mt19937_64 again(testing::test_seed(161));
  StreamRun unbounded(
      "CREATE TABLE ev (ts BIGINT NOT NULL, amount BIGINT);"
      "CREATE VIEW per_ts AS SELECT ts, SUM(amount) AS total, COUNT(*) AS n FROM ev GROUP BY ts;");
  for (int step = 0; step < 20000; ++step) unbounded.step(again);
  EXPECT_GT(unbounded.program->circuit->state_bytes(), 5 * state_late);
  std::printf("[ state    ] with LATENESS: %zu bytes at step 2000, %zu at step 20000; without: %zu\n", state_early,
              state_late, unbounded.program->circuit->state_bytes());
}

TEST(LatenessStateTest, EvictionSurvivesACheckpoint) {
  std::mt19937_64 random(testing::test_seed(162));
  StreamRun original(kProgram);
  for (int step = 0; step < 500; ++step) original.step(random);
  ByteWriter saved;
  original.program->circuit->save_state(saved);
  StreamRun restored(kProgram);
  ASSERT_TRUE(restored.program->circuit->restore_state(saved.data()).ok());
  restored.rows = original.rows;
  restored.expected = original.expected;
  restored.now = original.now;
  std::mt19937_64 twin = random;
  for (int step = 0; step < 2000; ++step) {
    original.step(random);
    restored.step(twin);
  }
  EXPECT_EQ(restored.view(), restored.expected);
  EXPECT_EQ(restored.view(), original.view());
  EXPECT_EQ(restored.program->circuit->state_bytes(), original.program->circuit->state_bytes());
}

// The dashboard view: SUM per TUMBLE minute over a table whose TIMESTAMP
// has LATENESS 5 minutes; rows every few seconds, some up to 10 minutes
// behind. The aggregates keep only the open windows, also over views of the
// table and over a view of its windows.
TEST(LatenessStateTest, TumbleWindowsCloseBehindTheWatermark) {
  std::mt19937_64 random(testing::test_seed(163));
  auto compiled = compile_program(R"(
    CREATE TABLE orders (ts TIMESTAMP NOT NULL LATENESS INTERVAL '5' MINUTE, amount BIGINT);
    CREATE VIEW revenue_per_minute AS SELECT window_start, SUM(amount) AS revenue, COUNT(*) AS n
      FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start;
    CREATE VIEW hop_ends AS SELECT window_end, COUNT(*) AS n
      FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE)) GROUP BY window_end;
    CREATE VIEW positive AS SELECT amount, ts FROM orders WHERE amount > 0;
    CREATE VIEW over_a_view AS SELECT window_start, AVG(amount) AS average
      FROM TABLE(TUMBLE(TABLE positive, DESCRIPTOR(ts), INTERVAL '2' MINUTE)) GROUP BY window_start;
    CREATE VIEW windows AS SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' MINUTE));
    CREATE VIEW windowed_view AS SELECT window_start, COUNT(*) AS n FROM windows GROUP BY window_start;
  )");
  ASSERT_TRUE(compiled.ok()) << compiled.status().to_string();
  CompiledProgram& program = **compiled;
  const CompiledTable& orders = *program.find_table("orders");
  const CompiledView& view = *program.find_view("revenue_per_minute");
  constexpr int64_t kSecond = 1'000'000, kMinute = 60 * kSecond;
  std::map<std::tuple<int64_t, int64_t, int64_t>, Weight> rows;
  Totals expected;
  int64_t now = 1'700'000'000 * kSecond;
  size_t state_early = 0;
  RowBuilder row(*orders.schema);
  for (int step = 0; step < 20000; ++step) {
    std::optional<int64_t> cutoff = orders.watermark->watermark();
    for (int i = 0; i < 3; ++i) {
      int64_t ts = now - std::uniform_int_distribution<int64_t>(0, 10 * kMinute)(random);
      row.set_int(0, ts);
      row.set_int(1, 1 + i);
      orders.input->push_row(row.finish(), 1);
      if (!cutoff || ts >= *cutoff) {
        int64_t minute = ts - ts % kMinute;
        expected[minute].first += 1 + i;
        expected[minute].second += 1;
      }
    }
    now += std::uniform_int_distribution<int64_t>(0, 6 * kSecond)(random);
    ASSERT_TRUE(program.circuit->step().ok());
    for (BatchCursor c(*view.stream.current()); c.valid(); c.next()) {
      RowReader out(*view.schema, c.key());
      Weight& weight = rows[{out.get_int(0), out.get_int(1), out.get_int(2)}];
      weight += c.weight();
      if (weight == 0) rows.erase({out.get_int(0), out.get_int(1), out.get_int(2)});
    }
    if (step == 2000) state_early = program.circuit->state_bytes();
  }
  Totals actual;
  for (const auto& [entry, weight] : rows) {
    auto [minute, revenue, n] = entry;
    ASSERT_EQ(weight, 1);
    ASSERT_TRUE(actual.emplace(minute, std::make_pair(revenue, n)).second) << "two rows for minute " << minute;
  }
  EXPECT_EQ(actual, expected);
  size_t state_late = program.circuit->state_bytes();
  EXPECT_LT(state_late, state_early * 3 / 2) << state_early << " -> " << state_late;
  std::printf("[ state    ] TUMBLE + HOP with LATENESS: %zu bytes at step 2000, %zu at step 20000 (%zu minutes)\n",
              state_early, state_late, expected.size());
}

// A PRIMARY KEY table's watermark and late count are saved with the upsert
// input's state: after a restore, what was late before is late still.
TEST(LatenessStateTest, UpsertWatermarkSurvivesACheckpoint) {
  const char* sql =
      "CREATE TABLE r (id INT PRIMARY KEY, ts BIGINT NOT NULL LATENESS 10);"
      "CREATE VIEW v AS SELECT * FROM r;";
  auto original = compile_program(sql);
  ASSERT_TRUE(original.ok());
  const CompiledTable& table = *(*original)->find_table("r");
  RowBuilder row(*table.schema);
  auto upsert = [&](const CompiledTable& t, int64_t id, int64_t ts) {
    row.set_int(0, id);
    row.set_int(1, ts);
    t.upsert_input->push_upsert(row.finish());
  };
  upsert(table, 1, 100);
  ASSERT_TRUE((*original)->circuit->step().ok());
  upsert(table, 2, 50);  // late: the watermark is 90
  ASSERT_TRUE((*original)->circuit->step().ok());
  ASSERT_EQ(table.watermark->late_records(), 1u);

  ByteWriter saved;
  (*original)->circuit->save_state(saved);
  auto restored = compile_program(sql);
  ASSERT_TRUE(restored.ok());
  ASSERT_TRUE((*restored)->circuit->restore_state(saved.data()).ok());
  const CompiledTable& again = *(*restored)->find_table("r");
  EXPECT_EQ(again.watermark->late_records(), 1u);
  EXPECT_EQ(again.watermark->watermark(), std::optional<int64_t>(90));
  upsert(again, 1, 200);  // an update of a row that is on time
  upsert(again, 3, 89);   // late
  ASSERT_TRUE((*restored)->circuit->step().ok());
  EXPECT_EQ(again.watermark->late_records(), 2u);
  testing::ZSetMap delta;
  testing::add_batch(delta, *(*restored)->find_view("v")->stream.current());
  EXPECT_EQ(delta.size(), 2u);  // -(1, 100), +(1, 200)
}

}  // namespace
}  // namespace freshet::sql
