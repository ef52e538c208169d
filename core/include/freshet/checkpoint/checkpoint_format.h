// The checkpoint format: a pipeline's state sections, split into parts, named
// by a small manifest written last.
//
//   checkpoint-00000000000000000007.part-0000   payload bytes [0, 16 MiB)
//   checkpoint-00000000000000000007.part-0001   payload bytes [16 MiB, ...)
//   checkpoint-00000000000000000007.manifest    written after every part
//
// The payload is the sections back to back. The manifest holds:
//   magic "FRSHCKPT", format version (u32), program hash, sequence number,
//   step, payload size, the sections (name, offset, size, checksum), the parts
//   (name, size, checksum), and a checksum of all of it.
// Names carry the sequence number, so writing checkpoint n never touches the
// blobs of n-1: a crash at any point leaves n-1 whole, and n without its
// manifest does not exist. Reading checks every checksum before decoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/pipeline/pipeline.h"

namespace freshet {

//! 2: an aggregate over an inner join groups the joined rows in the join
//! itself (sql/planner.h), one operator fewer: version 1's operator states
//! no longer line up with the circuit of the same SQL.
//! 3: such an aggregate and its join are one operator (join_aggregate.h),
//! whose state is the join's then the aggregate's.
//! 4: rows store integers big-endian with the sign bit flipped
//! (types/ordered_int.h), so every row of an older checkpoint reads wrong.
//! 5: an optional section 'named_egress' (named egress streams: their
//! queues and retained chunks, pipeline_state.cpp). A version-4 checkpoint
//! is a version-5 one without it, so both are read.
//! 6: an optional section 'failures' (the circuit's failed operators, so
//! failed views stay failed: pipeline_state.cpp). Versions 4 and 5 read as
//! having none; a reader of 5 must not read 6 (it would un-fail the views).
//! 7: operators by id (Circuit::operator_id: from the plan, not their
//! position), with their kinds; views by name with the id of the operator
//! writing them, and length-prefixed; failed operators by id. A checkpoint
//! restores into a changed program (what is new is bootstrapped:
//! program_change.cpp). Versions 4 to 6 are read by position into a program
//! that builds the same operators, else refused with CHECKPOINT_VERSION.
constexpr uint32_t kCheckpointFormatVersion = 7;
//! The oldest format version this build reads.
constexpr uint32_t kOldestReadableCheckpointFormatVersion = 4;
//! A part never exceeds this (a Workers KV value holds at most 25 MiB).
constexpr size_t kMaxCheckpointPartBytes = size_t{16} << 20;

struct NamedBlob {
  std::string name;
  std::string bytes;
};

//! One checkpoint ready to store: the parts, then the manifest.
struct CheckpointImage {
  uint64_t sequence_number = 0;
  uint64_t step = 0;
  std::vector<NamedBlob> parts;
  NamedBlob manifest;
  //! Bytes of all parts and the manifest.
  size_t total_bytes() const;
};

struct Manifest {
  uint32_t version = 0;
  uint64_t program_hash = 0;
  uint64_t sequence_number = 0;
  uint64_t step = 0;
  uint64_t payload_bytes = 0;
  struct Section {
    std::string name;
    uint64_t offset = 0, size = 0, checksum = 0;
  };
  struct Part {
    std::string name;
    uint64_t size = 0, checksum = 0;
  };
  std::vector<Section> sections;
  std::vector<Part> parts;
};

std::string checkpoint_manifest_name(uint64_t sequence_number);
std::string checkpoint_part_name(uint64_t sequence_number, size_t part);
//! The sequence number of a checkpoint blob's name (manifest or part).
std::optional<uint64_t> checkpoint_sequence_of(std::string_view name);
bool is_checkpoint_manifest(std::string_view name);

//! The pipeline's state at this step boundary as checkpoint `sequence_number`.
Result<CheckpointImage> encode_checkpoint(const Pipeline& pipeline, uint64_t sequence_number,
                                          size_t max_part_bytes = kMaxCheckpointPartBytes);
//! The checksum of parts, sections and manifests.
uint64_t checkpoint_checksum(std::string_view bytes);
//! A manifest's bytes, its checksum last.
std::string encode_manifest(const Manifest& manifest);
//! Decodes and verifies a manifest (kCheckpointCorrupt when damaged).
Result<Manifest> decode_manifest(std::string_view bytes);
//! Verifies the parts (in the manifest's order) and every section, and puts
//! them back together as the saved state (a single part is taken as is).
Result<SavedState> decode_payload(const Manifest& manifest, std::vector<std::string> parts);

}  // namespace freshet
