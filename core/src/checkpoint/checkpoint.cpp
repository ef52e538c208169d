#include "freshet/checkpoint/checkpoint.h"

#include <algorithm>
#include <set>

namespace freshet {
namespace {

constexpr const char* kPrefix = "checkpoint-";

std::vector<uint64_t> manifests_newest_first(const std::vector<std::string>& names) {
  std::vector<uint64_t> sequences;
  for (const std::string& name : names) {
    if (is_checkpoint_manifest(name)) sequences.push_back(*checkpoint_sequence_of(name));
  }
  std::sort(sequences.rbegin(), sequences.rend());
  return sequences;
}

// Reads, verifies and restores one checkpoint into a pipeline created from
// `sql`. kProgramMismatch is told apart from damage by the caller.
Result<std::unique_ptr<Pipeline>> restore_one(std::string_view sql, CheckpointStorage& storage, uint64_t sequence,
                                              uint64_t program_hash) {
  Result<std::string> manifest_bytes = storage.get(checkpoint_manifest_name(sequence));
  if (!manifest_bytes.ok()) return Status(ErrorCode::kCheckpointCorrupt, manifest_bytes.status().message());
  Result<Manifest> manifest = decode_manifest(*manifest_bytes);
  if (!manifest.ok()) return manifest.status();
  if (manifest->sequence_number != sequence) {
    return Status(ErrorCode::kCheckpointCorrupt, "the manifest names checkpoint " +
                                                     std::to_string(manifest->sequence_number));
  }
  // Format 7 restores into a changed program (what changed is bootstrapped),
  // or says PROGRAM_MISMATCH when it cannot (program_change.cpp).
  if (manifest->program_hash != program_hash && manifest->version < 7) {
    return Status(ErrorCode::kProgramMismatch,
                  "checkpoint " + std::to_string(sequence) + " was written by a different program; resume with the "
                  "program that wrote it, or start afresh (on program change: restart)");
  }
  std::vector<std::string> parts;
  for (const Manifest::Part& part : manifest->parts) {
    Result<std::string> bytes = storage.get(part.name);
    if (!bytes.ok()) {
      return Status(ErrorCode::kCheckpointCorrupt,
                    "checkpoint " + std::to_string(sequence) + ": part '" + part.name + "' is missing");
    }
    parts.push_back(std::move(*bytes));
  }
  Result<SavedState> state = decode_payload(*manifest, std::move(parts));
  if (!state.ok()) return state.status();
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(sql);
  if (!pipeline.ok()) return pipeline.status();
  Status restored = (*pipeline)->restore_state(*state);
  if (restored.code() == ErrorCode::kProgramMismatch && manifest->program_hash == program_hash) {
    // The same program, planned with other operators by this engine than
    // by the one that wrote the checkpoint (a DISTINCT that kept its own
    // trace reads a shared arrangement now), whose new ones cannot be
    // rebuilt from what the checkpoint holds: a version this engine cannot
    // resume, not a program change.
    return Status(ErrorCode::kCheckpointVersion,
                  "checkpoint " + std::to_string(sequence) + " was written by an engine that planned this program "
                  "with other operators, and this one cannot rebuild its own from it (" + restored.message() +
                  "); start afresh (onIncompatibleCheckpoint: 'restart')");
  }
  if (!restored.ok()) {
    // A program it cannot fit, or operators changed since an older format: not damage.
    ErrorCode code = restored.code() == ErrorCode::kProgramMismatch || restored.code() == ErrorCode::kCheckpointVersion
                         ? restored.code()
                         : ErrorCode::kCheckpointCorrupt;
    return Status(code, "checkpoint " + std::to_string(sequence) + ": " + restored.message());
  }
  CheckpointStatus& status = (*pipeline)->checkpoint_status();
  status.sequence_number = sequence;
  status.step = manifest->step;
  status.restored_from = sequence;
  return pipeline;
}

}  // namespace

uint64_t next_checkpoint_sequence(const std::vector<std::string>& names) {
  uint64_t next = 0;
  for (const std::string& name : names) {
    std::optional<uint64_t> sequence = checkpoint_sequence_of(name);
    if (sequence) next = std::max(next, *sequence + 1);
  }
  return next;
}

std::vector<std::string> blobs_to_prune(const std::vector<std::string>& names, uint64_t newest) {
  std::vector<uint64_t> manifests = manifests_newest_first(names);
  std::set<uint64_t> kept;
  for (uint64_t sequence : manifests) {
    if (sequence > newest) continue;
    kept.insert(sequence);
    if (kept.size() == 2) break;
  }
  std::vector<std::string> removed;
  for (const std::string& name : names) {
    std::optional<uint64_t> sequence = checkpoint_sequence_of(name);
    if (sequence && *sequence < newest && !kept.count(*sequence)) removed.push_back(name);
  }
  return removed;
}

Result<CheckpointInfo> write_checkpoint(Pipeline& pipeline, CheckpointStorage& storage, size_t max_part_bytes) {
  Result<std::vector<std::string>> names = storage.list(kPrefix);
  if (!names.ok()) return names.status();
  uint64_t sequence = next_checkpoint_sequence(*names);
  const CheckpointStatus& status = pipeline.checkpoint_status();
  if (status.sequence_number) sequence = std::max(sequence, *status.sequence_number + 1);
  Result<CheckpointImage> image = encode_checkpoint(pipeline, sequence, max_part_bytes);
  if (!image.ok()) return image.status();
  // Parts first, the manifest last: until the manifest is stored, this
  // checkpoint does not exist and the previous one is the newest.
  for (const NamedBlob& part : image->parts) {
    Status put = storage.put(part.name, part.bytes);
    if (!put.ok()) return Status(ErrorCode::kStorageError, "checkpoint " + std::to_string(sequence) + ": " + put.message());
  }
  Status put = storage.put(image->manifest.name, image->manifest.bytes);
  if (!put.ok()) return Status(ErrorCode::kStorageError, "checkpoint " + std::to_string(sequence) + ": " + put.message());

  pipeline.checkpoint_status().sequence_number = sequence;
  pipeline.checkpoint_status().step = image->step;
  std::vector<std::string> all = std::move(*names);
  for (const NamedBlob& part : image->parts) all.push_back(part.name);
  all.push_back(image->manifest.name);
  for (const std::string& name : blobs_to_prune(all, sequence)) {
    Status removed = storage.remove(name);
    // The checkpoint is whole; a leftover blob only costs space.
    if (!removed.ok()) pipeline.checkpoint_status().last_error = removed.to_string();
  }
  return CheckpointInfo{sequence, image->step, image->total_bytes()};
}

Result<std::unique_ptr<Pipeline>> open_pipeline(std::string_view sql, CheckpointStorage& storage,
                                                const OpenOptions& options) {
  Result<std::unique_ptr<Pipeline>> fresh = Pipeline::create(sql);
  if (!fresh.ok()) return fresh.status();
  Result<std::vector<std::string>> names = storage.list(kPrefix);
  if (!names.ok()) return names.status();
  std::vector<uint64_t> manifests = manifests_newest_first(*names);
  CheckpointStatus damage;
  std::string errors;
  for (uint64_t sequence : manifests) {
    Result<std::unique_ptr<Pipeline>> pipeline = restore_one(sql, storage, sequence, (*fresh)->program_hash());
    if (pipeline.ok()) {
      CheckpointStatus& status = (*pipeline)->checkpoint_status();
      status.skipped_damaged = std::move(damage.skipped_damaged);
      status.last_error = std::move(damage.last_error);
      return pipeline;
    }
    if (pipeline.status().code() == ErrorCode::kCheckpointVersion) return pipeline.status();
    if (pipeline.status().code() == ErrorCode::kProgramMismatch) {
      if (options.on_program_change == OnProgramChange::kFail) return pipeline.status();
      break;  // start afresh; newer checkpoints of this program will follow
    }
    damage.skipped_damaged.push_back(sequence);
    damage.last_error = pipeline.status().to_string();
    errors += (errors.empty() ? "" : "; ") + pipeline.status().message();
  }
  if (!manifests.empty() && damage.skipped_damaged.size() == manifests.size()) {
    return Status(ErrorCode::kCheckpointCorrupt, "no valid checkpoint is left: " + errors);
  }
  (*fresh)->checkpoint_status() = std::move(damage);
  return fresh;
}

}  // namespace freshet
