// A runtime error fails one view and the views that depend on it, not the
// pipeline (view_failures.cpp): the other views step on, each equal at
// every step to a from-scratch run over the same rows.
#include <gtest/gtest.h>

#include "freshet/pipeline/pipeline.h"
#include "pipeline_support.h"

namespace freshet {
namespace {

using testing::ReceivedState;

// ratio divides by t's row count, 0 while t is empty; doubled reads ratio;
// u_big and t_sum do not depend on it.
constexpr const char* kProgram = R"(
CREATE TABLE t (x INT);
CREATE TABLE u (y INT);
CREATE MATERIALIZED VIEW ratio AS SELECT 36 / COUNT(*) AS r FROM t;
CREATE MATERIALIZED VIEW doubled AS SELECT r * 2 AS d FROM ratio;
CREATE MATERIALIZED VIEW u_big AS SELECT y FROM u WHERE y > 1;
CREATE MATERIALIZED VIEW t_sum AS SELECT SUM(x) AS s, COUNT(*) AS n FROM t;
)";

std::unique_ptr<Pipeline> make() {
  Result<std::unique_ptr<Pipeline>> p = Pipeline::create(kProgram);
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return std::move(*p);
}

std::vector<std::string> failed_names(const Pipeline& p) {
  std::vector<std::string> names;
  for (const ViewFailure& failure : p.failed_views()) names.push_back(failure.view);
  return names;
}

// Feeds the steps' rows, one step each, into `p`; after each step the views
// that are not failed equal a fresh pipeline given every row so far in one step.
struct ViewRun {
  std::unique_ptr<Pipeline> p = make();
  std::vector<std::pair<std::string, std::string>> so_far;  // (table, JSON) ingested

  void step(const std::string& table, const std::string& json) {
    testing::must_ingest(*p, table, json);
    so_far.emplace_back(table, json);
    ASSERT_TRUE(p->step().ok());  // a failed view never fails the step
    std::unique_ptr<Pipeline> fresh = make();
    for (const auto& [name, rows] : so_far) testing::must_ingest(*fresh, name, rows);
    ASSERT_TRUE(fresh->step().ok());
    for (const char* view : {"ratio", "doubled", "u_big", "t_sum"}) {
      if (!p->view_failure(view).ok()) continue;
      Result<BatchPtr> got = p->snapshot(view), want = fresh->snapshot(view);
      ASSERT_TRUE(got.ok() && want.ok()) << view;
      EXPECT_EQ(testing::rows_of(*got), testing::rows_of(*want)) << view << " at step " << p->step_count() - 1;
    }
  }
};

TEST(ViewFailureTest, ADivisionByZeroFailsItsViewAndItsDependentsOnly) {
  ViewRun run;
  run.step("u", R"([{"insert": {"y": 1}}, {"insert": {"y": 5}}])");
  EXPECT_EQ(failed_names(*run.p), (std::vector<std::string>{"ratio", "doubled"}));
  Status error = run.p->view_failure("ratio");
  EXPECT_EQ(error.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.message(), "view 'ratio' failed at step 0: map: division by zero in (36 / COUNT(*))");
  // doubled reads ratio: its message says where the division is.
  EXPECT_EQ(run.p->view_failure("doubled").message(),
            "view 'doubled' failed at step 0: map: division by zero in (36 / COUNT(*)) (in view 'ratio', which it reads)");
  EXPECT_TRUE(run.p->failure().ok());

  // Rows of t make the division fine, but a failed view stays failed.
  run.step("t", R"([{"insert": {"x": 2}}, {"insert": {"x": 3}}])");
  run.step("u", R"([{"insert": {"y": 7}}])");
  run.step("t", R"([{"insert": {"x": 4}}])");
  EXPECT_EQ(failed_names(*run.p), (std::vector<std::string>{"ratio", "doubled"}));
  EXPECT_EQ(run.p->failed_views()[0].step, 0u);
  EXPECT_EQ(testing::rows_of(*run.p->snapshot("t_sum")).size(), 1u);
}

TEST(ViewFailureTest, WhichViewFailsDoesNotDependOnWhichTableCameFirst) {
  ViewRun t_first;
  t_first.step("t", R"([{"insert": {"x": 2}}])");
  t_first.step("u", R"([{"insert": {"y": 5}}])");
  EXPECT_TRUE(t_first.p->failed_views().empty());  // never divided by zero

  // Removing t's row divides by zero later: the same two views fail, at that step.
  t_first.step("t", R"([{"delete": {"x": 2}}])");
  EXPECT_EQ(failed_names(*t_first.p), (std::vector<std::string>{"ratio", "doubled"}));
  EXPECT_EQ(t_first.p->failed_views()[0].step, 2u);
  t_first.step("u", R"([{"insert": {"y": 9}}])");
}

TEST(ViewFailureTest, QueriesEndpointsAndStatsAnswerTheError) {
  std::unique_ptr<Pipeline> p = make();
  uint64_t on_doubled = *p->open_egress({"doubled", "", true});
  uint64_t on_u_big = *p->open_egress({"u_big", "", true});
  auto sink = std::make_shared<testing::RecordingSink>();
  ASSERT_TRUE(p->add_connector("out", {"ratio", "", true}, sink).ok());
  testing::must_ingest(*p, "u", R"([{"insert": {"y": 5}}])");
  ASSERT_TRUE(p->step().ok());

  Status error = p->view_failure("doubled");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(p->snapshot("doubled").status().message(), error.message());
  EXPECT_EQ(p->query("SELECT * FROM doubled").status().message(), error.message());
  EXPECT_TRUE(p->query("SELECT * FROM u_big").ok());
  Result<std::optional<OutputChunk>> chunk = p->next_chunk(on_doubled);
  EXPECT_EQ(chunk.status().message(), error.message());  // the stream ends with the error
  ReceivedState u_big;
  testing::drain(*p, on_u_big, u_big);
  EXPECT_EQ(u_big.state(), testing::rows_of(*p->snapshot("u_big")));
  EXPECT_TRUE(sink->chunks.empty());
  // Their snapshots never come, and no step is due for them.
  EXPECT_FALSE(p->needs_step());
  std::string stats = p->stats_json();
  EXPECT_NE(stats.find("\"views\":{\"ratio\":{\"failed\":{\"code\":\"INVALID_ARGUMENT\",\"message\":\"view 'ratio' "
                       "failed at step 0: map: division by zero in (36 / COUNT(*))\",\"step\":0},\"nulled_errors\":0}"),
            std::string::npos)
      << stats;
  EXPECT_NE(stats.find("\"u_big\":{\"failed\":null,\"nulled_errors\":0}"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"failed\":{\"code\":\"INVALID_ARGUMENT\",\"message\":\"view 'ratio'"), std::string::npos);
}

TEST(ViewFailureTest, ACheckpointKeepsViewsFailed) {
  ViewRun run;
  run.step("u", R"([{"insert": {"y": 5}}])");
  Result<SavedState> saved = run.p->save_state();
  ASSERT_TRUE(saved.ok()) << saved.status().to_string();
  std::unique_ptr<Pipeline> restored = make();
  ASSERT_TRUE(restored->restore_state(*saved).ok());
  EXPECT_EQ(failed_names(*restored), (std::vector<std::string>{"ratio", "doubled"}));
  EXPECT_EQ(restored->view_failure("ratio").message(), run.p->view_failure("ratio").message());
  // It goes on as the original: same failures, same healthy views.
  run.p = std::move(restored);
  run.step("t", R"([{"insert": {"x": 1}}])");
  EXPECT_EQ(failed_names(*run.p), (std::vector<std::string>{"ratio", "doubled"}));

  // A checkpoint without the section (formats 4 and 5) has no failed views.
  SavedState old;
  for (const SavedState::Section& section : saved->sections) {
    if (section.name != "failures") old.add(section.name, saved->bytes(section));
  }
  std::unique_ptr<Pipeline> from_old = make();
  ASSERT_TRUE(from_old->restore_state(old).ok());
  EXPECT_TRUE(from_old->failed_views().empty());
}

}  // namespace
}  // namespace freshet
