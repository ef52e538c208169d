// Damaged checkpoints are detected and never loaded; the previous one is used.
#include <filesystem>

#include <gtest/gtest.h>

#include "checkpoint/checkpoint_support.h"

namespace freshet {
namespace {

// Two checkpoints of a pipeline with some state: 0 after `kFirstSteps`
// steps, 1 after more. Small parts, so sections span several of them.
constexpr size_t kPartBytes = 200;
constexpr uint64_t kFirstSteps = 30;

struct Fixture {
  MemoryCheckpointStorage storage;
  testing::ZSetMap view_at_first;  // by_region at checkpoint 0
};

std::unique_ptr<Fixture> make_fixture() {
  auto f = std::make_unique<Fixture>();
  testing::CheckpointWorkload workload(77);
  auto p = testing::must_create(testing::kCheckpointProgram);
  for (uint64_t step = 0; step < 2 * kFirstSteps; ++step) {
    for (int i = 0; i < 3; ++i) {
      auto [table, json] = workload.next();
      EXPECT_TRUE(p->ingest(table, json).ok());
    }
    EXPECT_TRUE(p->step().ok());
    if (step + 1 == kFirstSteps) {
      EXPECT_EQ(testing::must_checkpoint(*p, f->storage, kPartBytes).sequence_number, 0u);
      f->view_at_first = testing::rows_of(*p->snapshot("by_region"));
    }
  }
  EXPECT_EQ(testing::must_checkpoint(*p, f->storage, kPartBytes).sequence_number, 1u);
  return f;
}

Manifest manifest_of(MemoryCheckpointStorage& storage, uint64_t sequence) {
  Result<Manifest> manifest = decode_manifest(storage.blobs()[checkpoint_manifest_name(sequence)]);
  EXPECT_TRUE(manifest.ok()) << manifest.status().to_string();
  return *manifest;
}

// Opening must skip checkpoint 1 as damaged and resume from 0.
void expect_fell_back(Fixture& f, const std::string& what) {
  Result<std::unique_ptr<Pipeline>> p = open_pipeline(testing::kCheckpointProgram, f.storage);
  ASSERT_TRUE(p.ok()) << what << ": " << p.status().to_string();
  const CheckpointStatus& status = (*p)->checkpoint_status();
  EXPECT_EQ(status.restored_from, std::optional<uint64_t>(0)) << what;
  EXPECT_EQ(status.skipped_damaged, std::vector<uint64_t>{1}) << what;
  EXPECT_NE(status.last_error.find("CHECKPOINT_CORRUPT"), std::string::npos) << what << ": " << status.last_error;
  EXPECT_EQ((*p)->step_count(), kFirstSteps) << what;
  EXPECT_EQ(testing::rows_of(*(*p)->snapshot("by_region")), f.view_at_first) << what;
  EXPECT_NE((*p)->stats_json().find("\"skipped_damaged\":[1]"), std::string::npos) << what;
}

// The part and offset within it that hold payload byte `offset`.
std::pair<std::string, size_t> locate(const Manifest& manifest, uint64_t offset) {
  for (const Manifest::Part& part : manifest.parts) {
    if (offset < part.size) return {part.name, static_cast<size_t>(offset)};
    offset -= part.size;
  }
  ADD_FAILURE() << "offset past the payload";
  return {"", 0};
}

TEST(CheckpointDamageTest, AnUndamagedCheckpointIsTheOneResumed) {
  auto f = make_fixture();
  Manifest manifest = manifest_of(f->storage, 1);
  EXPECT_GT(manifest.parts.size(), 3u);
  auto p = testing::must_open(testing::kCheckpointProgram, f->storage);
  EXPECT_EQ(p->checkpoint_status().restored_from, std::optional<uint64_t>(1));
  EXPECT_EQ(p->step_count(), 2 * kFirstSteps);
  EXPECT_TRUE(p->checkpoint_status().skipped_damaged.empty());
}

TEST(CheckpointDamageTest, AFlippedByteInEverySectionIsDetected) {
  Manifest manifest;
  {
    auto f = make_fixture();
    manifest = manifest_of(f->storage, 1);
  }
  for (const Manifest::Section& section : manifest.sections) {
    if (section.size == 0) continue;
    for (bool forge_part_checksums : {false, true}) {
      auto f = make_fixture();
      auto [part, at] = locate(manifest, section.offset + section.size / 2);
      f->storage.blobs()[part][at] ^= 0x20;
      if (forge_part_checksums) {
        // Past the part checksums, so the section's own checksum must catch it.
        Manifest forged = manifest;
        for (Manifest::Part& p : forged.parts) {
          p.checksum = checkpoint_checksum(f->storage.blobs()[p.name]);
        }
        f->storage.blobs()[checkpoint_manifest_name(1)] = encode_manifest(forged);
      }
      expect_fell_back(*f, "section " + section.name + (forge_part_checksums ? " (part checksums forged)" : ""));
      Result<SavedState> sections = decode_payload(
          manifest_of(f->storage, 1), [&] {
            std::vector<std::string> parts;
            for (const Manifest::Part& p : manifest.parts) parts.push_back(f->storage.blobs()[p.name]);
            return parts;
          }());
      ASSERT_FALSE(sections.ok());
      EXPECT_NE(sections.status().message().find(forge_part_checksums ? "section '" + section.name + "' checksum"
                                                                      : "checksum mismatch"),
                std::string::npos)
          << sections.status().message();
    }
  }
}

TEST(CheckpointDamageTest, AFlippedByteInTheManifestIsDetected) {
  auto f = make_fixture();
  std::string& manifest = f->storage.blobs()[checkpoint_manifest_name(1)];
  manifest[manifest.size() / 2] ^= 1;
  expect_fell_back(*f, "manifest");
}

TEST(CheckpointDamageTest, ATruncatedPartIsDetected) {
  auto f = make_fixture();
  std::string& part = f->storage.blobs()[checkpoint_part_name(1, 2)];
  part.resize(part.size() - 1);
  expect_fell_back(*f, "truncated part");
}

TEST(CheckpointDamageTest, ADeletedPartIsDetected) {
  auto f = make_fixture();
  f->storage.blobs().erase(checkpoint_part_name(1, 1));
  expect_fell_back(*f, "deleted part");
}

TEST(CheckpointDamageTest, AHalfWrittenManifestIsDetected) {
  auto f = make_fixture();
  std::string& manifest = f->storage.blobs()[checkpoint_manifest_name(1)];
  manifest.resize(manifest.size() / 2);
  expect_fell_back(*f, "half a manifest");
}

// A storage that fails when told to: a crash between the parts and the manifest.
class FailingStorage : public MemoryCheckpointStorage {
 public:
  bool fail_manifests = false;
  Status put(const std::string& name, const std::string& bytes) override {
    if (fail_manifests && is_checkpoint_manifest(name)) return Status(ErrorCode::kStorageError, "disk full");
    return MemoryCheckpointStorage::put(name, bytes);
  }
};

TEST(CheckpointDamageTest, ACrashBeforeTheManifestLeavesThePreviousCheckpoint) {
  FailingStorage storage;
  auto p = testing::must_create(testing::kCheckpointProgram);
  testing::CheckpointWorkload workload(3);
  auto advance = [&] {
    auto [table, json] = workload.next();
    ASSERT_TRUE(p->ingest(table, json).ok());
    ASSERT_TRUE(p->step().ok());
  };
  advance();
  testing::must_checkpoint(*p, storage, kPartBytes);
  advance();
  storage.fail_manifests = true;
  Result<CheckpointInfo> torn = write_checkpoint(*p, storage, kPartBytes);
  EXPECT_EQ(torn.status().code(), ErrorCode::kStorageError);
  EXPECT_TRUE(storage.blobs().count(checkpoint_part_name(1, 0))) << "the parts were written";

  auto resumed = testing::must_open(testing::kCheckpointProgram, storage);
  EXPECT_EQ(resumed->checkpoint_status().restored_from, std::optional<uint64_t>(0));
  EXPECT_TRUE(resumed->checkpoint_status().skipped_damaged.empty()) << "a checkpoint without manifest never existed";
  EXPECT_EQ(resumed->step_count(), 1u);

  // The next checkpoint takes a fresh number and clears the torn one's parts.
  storage.fail_manifests = false;
  EXPECT_EQ(testing::must_checkpoint(*resumed, storage, kPartBytes).sequence_number, 2u);
  for (const auto& [name, bytes] : storage.blobs()) EXPECT_NE(checkpoint_sequence_of(name), std::optional<uint64_t>(1)) << name;
}

TEST(CheckpointDamageTest, WhenEveryCheckpointIsDamagedOpeningFails) {
  auto f = make_fixture();
  f->storage.blobs().erase(checkpoint_part_name(0, 0));
  f->storage.blobs()[checkpoint_part_name(1, 0)][0] ^= 1;
  Result<std::unique_ptr<Pipeline>> p = open_pipeline(testing::kCheckpointProgram, f->storage);
  EXPECT_EQ(p.status().code(), ErrorCode::kCheckpointCorrupt);
  EXPECT_NE(p.status().message().find("checkpoint 1: part 'checkpoint-00000000000000000001.part-0000' checksum"),
            std::string::npos)
      << p.status().message();
  EXPECT_NE(p.status().message().find("checkpoint 0: part 'checkpoint-00000000000000000000.part-0000' is missing"),
            std::string::npos)
      << p.status().message();
}

TEST(CheckpointDamageTest, OnlyTheNewestTwoCheckpointsAreKept) {
  MemoryCheckpointStorage storage;
  auto p = testing::must_create(testing::kCheckpointProgram);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(p->step().ok());
    testing::must_checkpoint(*p, storage, kPartBytes);
  }
  std::set<uint64_t> sequences;
  for (const auto& [name, bytes] : storage.blobs()) sequences.insert(*checkpoint_sequence_of(name));
  EXPECT_EQ(sequences, (std::set<uint64_t>{3, 4}));
}

TEST(CheckpointDamageTest, FilesHoldCheckpointsAcrossProcesses) {
  std::string directory = ::testing::TempDir() + "freshet-checkpoint-files";
  std::filesystem::remove_all(directory);
  auto sink = std::make_shared<testing::RecordingSink>();
  {
    FileCheckpointStorage storage(directory);
    auto p = testing::must_open(testing::kCheckpointProgram, storage);
    ASSERT_TRUE(p->add_connector("regions", {"by_region", "", true}, sink).ok());
    testing::CheckpointWorkload workload(9);
    for (int i = 0; i < 20; ++i) {
      auto [table, json] = workload.next();
      ASSERT_TRUE(p->ingest(table, json).ok());
      ASSERT_TRUE(p->step().ok());
    }
    testing::must_checkpoint(*p, storage, 1000);
  }
  FileCheckpointStorage storage(directory);
  auto p = testing::must_open(testing::kCheckpointProgram, storage);
  EXPECT_EQ(p->step_count(), 20u);
  ASSERT_TRUE(p->add_connector("regions", {"by_region", "", true}, sink).ok());
  EXPECT_EQ(p->connector("regions")->snapshot_state(), SnapshotState::kSent);
  Result<std::vector<std::string>> names = storage.list("");
  ASSERT_TRUE(names.ok());
  EXPECT_FALSE(names->empty());
  for (const std::string& name : *names) EXPECT_TRUE(checkpoint_sequence_of(name)) << name;
  EXPECT_EQ(storage.put("../escape", "x").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(storage.get("checkpoint-missing").status().code(), ErrorCode::kStorageError);
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace freshet
