// Writing checkpoints to a storage and resuming from them.
//
//   write_checkpoint   encode at this step boundary, put the parts, then the
//                      manifest, then remove what the newest two no longer need
//   open_pipeline      create the pipeline, resuming from the newest
//                      checkpoint that verifies; damaged ones are skipped
//                      (and listed in checkpoint_status())
//
// The JS layer drives the same steps over its asynchronous storages with the
// pieces below (checkpoint_format.h, blobs_to_prune).
#pragma once

#include <memory>
#include <string_view>

#include "freshet/checkpoint/checkpoint_format.h"
#include "freshet/checkpoint/checkpoint_storage.h"

namespace freshet {

struct CheckpointInfo {
  uint64_t sequence_number = 0;
  uint64_t step = 0;
  uint64_t bytes = 0;  //!< parts and manifest
};

Result<CheckpointInfo> write_checkpoint(Pipeline& pipeline, CheckpointStorage& storage,
                                        size_t max_part_bytes = kMaxCheckpointPartBytes);

enum class OnProgramChange : uint8_t {
  kFail,     //!< a checkpoint of another program fails with kProgramMismatch
  kRestart,  //!< start afresh (old checkpoints go as newer ones are written)
};

struct OpenOptions {
  OnProgramChange on_program_change = OnProgramChange::kFail;
};

//! Creates a pipeline for `sql`, resumed from the newest valid checkpoint in
//! `storage` (fresh when there is none). Fails with kProgramMismatch (see
//! OpenOptions) or, when checkpoints exist but none verifies, with
//! kCheckpointCorrupt naming each. Connectors come back as the host adds them.
Result<std::unique_ptr<Pipeline>> open_pipeline(std::string_view sql, CheckpointStorage& storage,
                                                const OpenOptions& options = {});

//! Blob names to remove once checkpoint `newest` is whole: everything of a
//! checkpoint older than the newest two manifests, and leftovers of writes
//! that never got their manifest.
std::vector<std::string> blobs_to_prune(const std::vector<std::string>& names, uint64_t newest);

//! The next free sequence number among these blob names.
uint64_t next_checkpoint_sequence(const std::vector<std::string>& names);

}  // namespace freshet
