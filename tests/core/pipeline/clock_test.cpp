// The pipeline's clock: NOW() from set_clock (or the system clock), the
// next change a temporal filter reports, and a checkpoint keeping the clock
// (a host clock behind the checkpoint's is held at it).
#include <gtest/gtest.h>

#include <chrono>

#include "freshet/checkpoint/checkpoint.h"
#include "freshet/pipeline/pipeline.h"
#include "freshet/types/temporal.h"

namespace freshet {
namespace {

const char* kProgram =
    "CREATE TABLE e (id INT NOT NULL, ts TIMESTAMP);\n"
    "CREATE MATERIALIZED VIEW live AS SELECT id FROM e WHERE ts > NOW();\n"
    "CREATE MATERIALIZED VIEW due AS SELECT id FROM e WHERE ts <= NOW();\n";

int64_t at(const char* text) { return *parse_timestamp(text); }

size_t rows_in(const Pipeline& p, const char* view) { return (*p.snapshot(view))->size(); }

TEST(PipelineClockTest, StepsTakeTheClockAndReportTheNextChange) {
  std::unique_ptr<Pipeline> p = std::move(*Pipeline::create(kProgram));
  EXPECT_TRUE(p->uses_clock());
  EXPECT_EQ(p->clock(), std::nullopt);
  ASSERT_TRUE(p->ingest("e", R"([{"insert":{"id":1,"ts":"2024-01-01 10:00:00"}},)"
                             R"({"insert":{"id":2,"ts":"2024-01-01 11:00:00"}}])")
                  .ok());
  p->set_clock(at("2024-01-01 09:00:00"));
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(p->clock(), at("2024-01-01 09:00:00"));
  EXPECT_EQ(rows_in(*p, "live"), 2u);
  EXPECT_EQ(rows_in(*p, "due"), 0u);
  // Row 1 leaves `live` (ts > NOW() fails once NOW() reaches ts) and enters `due`.
  EXPECT_EQ(p->next_clock_change(), at("2024-01-01 10:00:00"));
  p->set_clock(at("2024-01-01 10:00:00"));
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(rows_in(*p, "live"), 1u);
  EXPECT_EQ(rows_in(*p, "due"), 1u);
  EXPECT_EQ(p->next_clock_change(), at("2024-01-01 11:00:00"));

  MemoryCheckpointStorage storage;
  ASSERT_TRUE(write_checkpoint(*p, storage).ok());
  std::unique_ptr<Pipeline> resumed = std::move(*open_pipeline(kProgram, storage));
  EXPECT_EQ(resumed->clock(), at("2024-01-01 10:00:00"));
  EXPECT_EQ(resumed->next_clock_change(), at("2024-01-01 11:00:00"));
  resumed->set_clock(at("2023-06-01 00:00:00"));  // behind the checkpoint: held
  ASSERT_TRUE(resumed->step().ok());
  EXPECT_EQ(resumed->clock(), at("2024-01-01 10:00:00"));
  EXPECT_EQ(rows_in(*resumed, "live"), 1u);
  resumed->set_clock(at("2024-01-02 00:00:00"));
  ASSERT_TRUE(resumed->step().ok());
  EXPECT_EQ(rows_in(*resumed, "live"), 0u);
  EXPECT_EQ(rows_in(*resumed, "due"), 2u);
  EXPECT_EQ(resumed->next_clock_change(), std::nullopt);
}

TEST(PipelineClockTest, WithoutSetClockAStepTakesTheSystemClock) {
  std::unique_ptr<Pipeline> p = std::move(*Pipeline::create(kProgram));
  int64_t before =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  ASSERT_TRUE(p->step().ok());
  ASSERT_TRUE(p->clock().has_value());
  EXPECT_GE(*p->clock(), before);
  EXPECT_LT(*p->clock(), before + 60'000'000);
}

// Each of these WHERE clauses is planned as temporal filters only (no join
// with the clock, which would make the clock continuous), and reports when
// row 1 (ts 10:00) next crosses it, the clock being at 09:00.
TEST(PipelineClockTest, TemporalConjunctsArePlannedAsTemporalFilters) {
  const std::pair<const char*, const char*> cases[] = {
      {"ts > NOW() - INTERVAL '1' HOUR", "2024-01-01 11:00:00"},
      {"ts + INTERVAL '5' MINUTE >= NOW()", "2024-01-01 10:05:00.000001"},
      {"ts BETWEEN NOW() - INTERVAL '1' DAY AND NOW()", "2024-01-01 10:00:00"},
      {"NOW() >= ts AND id > 0", "2024-01-01 10:00:00"},
      {"ts > NOW() - INTERVAL '1' MONTH", "2024-02-01 10:00:00"},
      {"CAST(ts AS DATE) >= CAST(NOW() AS DATE)", "2024-01-02 00:00:00"},
      {"ts = NOW()", "2024-01-01 10:00:00"},
  };
  for (const auto& [where, next] : cases) {
    SCOPED_TRACE(where);
    std::string sql = std::string(
                          "CREATE TABLE e (id INT NOT NULL, ts TIMESTAMP);\n"
                          "CREATE MATERIALIZED VIEW v AS SELECT id FROM e WHERE ") +
                      where + ";";
    Result<std::unique_ptr<Pipeline>> created = Pipeline::create(sql);
    ASSERT_TRUE(created.ok()) << created.status().to_string();
    Pipeline& p = **created;
    ASSERT_TRUE(p.ingest("e", R"([{"insert":{"id":1,"ts":"2024-01-01 10:00:00"}}])").ok());
    p.set_clock(at("2024-01-01 09:00:00"));
    ASSERT_TRUE(p.step().ok());
    EXPECT_FALSE(p.program().clock->continuous());
    EXPECT_EQ(p.next_clock_change(), at(next));
  }
}

TEST(PipelineClockTest, NowOutsideAFilterChangesAtEveryTick) {
  std::unique_ptr<Pipeline> p =
      std::move(*Pipeline::create("CREATE TABLE e (id INT NOT NULL, ts TIMESTAMP);\n"
                                  "CREATE VIEW v AS SELECT id, (NOW() - ts) SECOND AS age FROM e;"));
  p->set_clock(at("2024-01-01 09:00:00"));
  ASSERT_TRUE(p->step().ok());
  EXPECT_TRUE(p->program().clock->continuous());
  EXPECT_EQ(p->next_clock_change(), at("2024-01-01 09:00:00") + 1);
}

TEST(PipelineClockTest, AProgramWithoutNowHasNoClock) {
  std::unique_ptr<Pipeline> p =
      std::move(*Pipeline::create("CREATE TABLE t (x INT); CREATE VIEW v AS SELECT x FROM t;"));
  EXPECT_FALSE(p->uses_clock());
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(p->clock(), std::nullopt);
  EXPECT_EQ(p->next_clock_change(), std::nullopt);
}

}  // namespace
}  // namespace freshet
