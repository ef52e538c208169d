// Replays every input the checkpoint reader fuzzer
// (tests/fuzz/checkpoint_reader_fuzzer.cpp) ever crashed on, and checks its
// seed corpus: real checkpoints of the fuzz program that must restore.
// FRESHET_WRITE_CHECKPOINT_SEEDS=<folder> rewrites those seeds.
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "../../fuzz/checkpoint_reader_harness.h"
#include "checkpoint/checkpoint_support.h"
#include "support/fuzz_files.h"

namespace freshet {
namespace {

using freshet::testing::files_in;
using freshet::testing::read_file;

std::string fuzz_folder(const std::string& kind) { return freshet::testing::fuzz_folder(kind, "checkpoint_reader"); }

// Seeds: the sections of the fuzz program after a few random steps, and the
// same as a whole checkpoint (manifest and parts).
std::vector<std::pair<std::string, std::string>> make_seeds() {
  std::vector<std::pair<std::string, std::string>> seeds;
  for (int steps : {0, 3, 12}) {
    auto p = testing::must_create(fuzzing::kFuzzProgram);
    auto sink = std::make_shared<fuzzing::AcceptingSink>();
    EXPECT_TRUE(p->add_connector("c_reach_by_region", {"reach", "reach_by_region", true}, sink).ok());
    testing::CheckpointWorkload workload(steps);
    for (int s = 0; s < steps; ++s) {
      for (int i = 0; i < 3; ++i) {
        auto [table, json] = workload.next();
        EXPECT_TRUE(p->ingest(table, json).ok());
      }
      EXPECT_TRUE(p->step().ok());
    }
    auto [table, json] = workload.next();
    EXPECT_TRUE(p->ingest(table, json).ok());  // buffered input too
    std::vector<std::string> records;
    Result<SavedState> state = p->save_state();
    for (const SavedState::Section& section : state->sections) records.push_back(std::string(state->bytes(section)));
    seeds.push_back({"sections_" + std::to_string(steps), fuzzing::join_records(records)});
    CheckpointImage image = *encode_checkpoint(*p, 0, 512);
    records = {image.manifest.bytes};
    for (const NamedBlob& part : image.parts) records.push_back(part.bytes);
    seeds.push_back({"whole_" + std::to_string(steps), "M" + fuzzing::join_records(records)});
  }
  return seeds;
}

TEST(CheckpointRegressionTest, EverySeedRestores) {
  std::vector<std::pair<std::string, std::string>> seeds = make_seeds();
  if (const char* folder = std::getenv("FRESHET_WRITE_CHECKPOINT_SEEDS")) {
    for (const auto& [name, bytes] : seeds) std::ofstream(std::string(folder) + "/" + name, std::ios::binary) << bytes;
  }
  for (const auto& [name, bytes] : seeds) {
    fuzzing::FuzzOutcome outcome = fuzzing::run_checkpoint_input(bytes);
    EXPECT_TRUE(outcome.restored) << name;
    EXPECT_EQ(outcome.error, "") << name;
  }
  std::vector<std::string> files = files_in(fuzz_folder("corpus"));
  EXPECT_FALSE(files.empty()) << "no seeds in " << fuzz_folder("corpus");
  for (const std::string& path : files) {
    fuzzing::FuzzOutcome outcome = fuzzing::run_checkpoint_input(read_file(path));
    EXPECT_TRUE(outcome.restored) << path;
    EXPECT_EQ(outcome.error, "") << path;
  }
}

TEST(CheckpointRegressionTest, EveryFuzzerFindingRestoresOrIsRefused) {
  for (const std::string& path : files_in(fuzz_folder("regressions"))) {
    fuzzing::FuzzOutcome outcome = fuzzing::run_checkpoint_input(read_file(path));
    EXPECT_EQ(outcome.error, "") << path;
  }
}

}  // namespace
}  // namespace freshet
