// A checkpoint restores in every build of the engine: operator ids must not
// depend on the compiler (core/include/freshet/circuit/operator_ids.h).
//
// tests/core/checkpoint/fixtures/cross_build/ is a checkpoint of kProgram
// written by the native (g++) build. Its views hold every operator the
// planner once built in two arguments of one call, in the order the compiler
// evaluated them (g++ and clang differ): NOW() outside a temporal filter,
// LEFT and FULL joins with a residual condition; and a global aggregate,
// which was one until it emitted its row over an empty input itself. Every
// build (the wasm one, built by clang, among them) must restore it, every
// operator by its id, and go on as a pipeline fed the same input does. An
// operator named otherwise would not be restored: the resume would take it
// for a changed view and rebuild that view from its tables (right here, as
// the tables have keys; PROGRAM_MISMATCH for a table without), which the
// test counts as a failure too.
//
// FRESHET_WRITE_CROSS_BUILD_CHECKPOINT=1 rewrites the fixture: only from the
// native build, and only when the operators of kProgram were meant to
// change (checkpoints written before then no longer restore by id).
#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "checkpoint/checkpoint_support.h"
#include "support/fuzz_files.h"
#include "support/source_tree.h"

namespace freshet {
namespace {

using testing::must_create;
using testing::must_ingest;
using testing::rows_of;

const char* kProgram =
    "CREATE TABLE a (id BIGINT NOT NULL PRIMARY KEY, k INT, v INT);"
    "CREATE TABLE b (id BIGINT NOT NULL PRIMARY KEY, k INT, w INT);"
    "CREATE MATERIALIZED VIEW totals AS SELECT COUNT(*) AS n, SUM(v) AS s FROM a;"
    "CREATE MATERIALIZED VIEW stamped AS SELECT id, NOW() >= TIMESTAMP '2020-01-01 00:00:00' AS recent FROM a;"
    "CREATE MATERIALIZED VIEW left_wide AS SELECT a.id, b.id AS bid FROM a LEFT JOIN b ON a.k = b.k AND b.w > 5;"
    "CREATE MATERIALIZED VIEW full_less AS SELECT a.id, b.id AS bid FROM a FULL JOIN b ON a.k = b.k AND a.v < b.w;";

const char* kViews[] = {"totals", "stamped", "left_wide", "full_less"};

// 2026-01-01, so that NOW() gives the same rows in every run.
constexpr int64_t kClockMicros = 1767225600000000;

std::string rows(const std::string& records) { return "[" + records + "]"; }
std::string insert_a(int id, int k, int v) {
  return "{\"insert\":{\"id\":" + std::to_string(id) + ",\"k\":" + std::to_string(k) + ",\"v\":" + std::to_string(v) + "}}";
}
std::string insert_b(int id, int k, int w) {
  return "{\"insert\":{\"id\":" + std::to_string(id) + ",\"k\":" + std::to_string(k) + ",\"w\":" + std::to_string(w) + "}}";
}
std::string delete_id(int id) { return "{\"delete\":{\"id\":" + std::to_string(id) + "}}"; }

// The input before the checkpoint: two steps, matched and unmatched rows on
// both sides of each join, a delete.
void feed_before(Pipeline& p) {
  p.set_clock(kClockMicros);
  must_ingest(p, "a", rows(insert_a(1, 1, 2) + "," + insert_a(2, 2, 9) + "," + insert_a(3, 3, 4)));
  must_ingest(p, "b", rows(insert_b(10, 1, 7) + "," + insert_b(11, 2, 3) + "," + insert_b(12, 4, 8)));
  ASSERT_TRUE(p.step().ok());
  must_ingest(p, "a", rows(insert_a(4, 1, 8) + "," + delete_id(3)));
  must_ingest(p, "b", rows(insert_b(13, 2, 10)));
  ASSERT_TRUE(p.step().ok());
}

// The input after it: rows that leave matches (only the restored state of
// the joins and the aggregate gives the right retractions), and new ones.
void feed_after(Pipeline& p) {
  p.set_clock(kClockMicros + 1000000);
  must_ingest(p, "a", rows(delete_id(1) + "," + insert_a(5, 4, 1)));
  must_ingest(p, "b", rows(delete_id(10) + "," + delete_id(13) + "," + insert_b(14, 3, 6)));
  ASSERT_TRUE(p.step().ok());
}

std::string fixture_folder() {
  return (testing::source_tree() / "tests" / "core" / "checkpoint" / "fixtures" / "cross_build").string();
}

TEST(CrossBuildCheckpointTest, TheNativeBuildsCheckpointRestoresInThisBuild) {
  const char* rewrite = std::getenv("FRESHET_WRITE_CROSS_BUILD_CHECKPOINT");
  if (rewrite && std::string(rewrite) == "1") {
    std::filesystem::remove_all(fixture_folder());
    auto writer = must_create(kProgram);
    ASSERT_NO_FATAL_FAILURE(feed_before(*writer));
    FileCheckpointStorage files(fixture_folder());
    testing::must_checkpoint(*writer, files);
  }
  // The fixture's blobs, read into memory: opening never touches the folder.
  MemoryCheckpointStorage storage;
  std::vector<std::string> paths = testing::files_in(fixture_folder());
  ASSERT_FALSE(paths.empty()) << "no checkpoint in " << fixture_folder()
                              << ": FRESHET_WRITE_CROSS_BUILD_CHECKPOINT=1 writes it (native build)";
  for (const std::string& path : paths) {
    ASSERT_TRUE(storage.put(std::filesystem::path(path).filename().string(), testing::read_file(path)).ok());
  }
  Result<std::unique_ptr<Pipeline>> opened = open_pipeline(kProgram, storage);
  ASSERT_TRUE(opened.ok()) << opened.status().to_string()
                           << " (an operator is named otherwise than in the native build's checkpoint)";
  Pipeline& restored = **opened;
  EXPECT_EQ(restored.step_count(), 2u);
  // Every operator found by its id: none rebuilt, no view bootstrapped.
  EXPECT_EQ(restored.restored_operators(), restored.program().circuit->operator_count());
  EXPECT_EQ(restored.rebuilt_operators(), 0u);
  EXPECT_TRUE(restored.rebuilt_views().empty()) << *restored.rebuilt_views().begin() << " was rebuilt";

  // What a pipeline of this build fed the same input holds.
  auto fresh = must_create(kProgram);
  ASSERT_NO_FATAL_FAILURE(feed_before(*fresh));
  for (const char* view : kViews) {
    EXPECT_EQ(rows_of(*restored.snapshot(view)), rows_of(*fresh->snapshot(view))) << view;
  }
  ASSERT_NO_FATAL_FAILURE(feed_after(restored));
  ASSERT_NO_FATAL_FAILURE(feed_after(*fresh));
  for (const char* view : kViews) {
    EXPECT_EQ(rows_of(*restored.snapshot(view)), rows_of(*fresh->snapshot(view))) << view << " after a step";
  }
  // The checks above compare something: every view has rows.
  for (const char* view : kViews) EXPECT_FALSE(rows_of(*fresh->snapshot(view)).empty()) << view;
}

}  // namespace
}  // namespace freshet
