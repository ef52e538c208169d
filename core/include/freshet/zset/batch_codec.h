// Batches and traces in checkpoints.
//
//   batch   key_count, entry_count, then per key: key bytes, value count,
//           per value: value bytes, weight (zig-zag varint)
//   trace   batch count, then each batch of its spine, largest levels first
//
// A trace is saved batch by batch, not consolidated: every batch a reader
// sees, the inputs of merges in progress among them (not their partial
// outputs). Restoring gives back the very same batches (same memory), their
// merges start over, and saving costs no merge.
// Reading checks everything a batch promises (strictly sorted, consolidated,
// no zero weight) and each row against its schema, so a decoded batch is as
// safe to use as one built in memory.
#pragma once

#include <functional>

#include "freshet/common/byte_io.h"
#include "freshet/types/schema.h"
#include "freshet/zset/trace.h"

namespace freshet {

//! Says whether a row read from a checkpoint is well formed.
using RowCheck = std::function<bool(RowRef)>;
//! A row of `schema` (row_fits_schema).
RowCheck rows_of(SchemaPtr schema);
//! An encode_sorted_row entry holding a row of `schema` (sorted_row_fits).
RowCheck sorted_rows_of(SchemaPtr schema);
//! Any bytes (rows that readers treat as opaque).
RowCheck any_row();

void write_batch(ByteWriter& out, const Batch& batch);
//! Reads a batch written by write_batch; kCheckpointCorrupt (via the reader) when malformed.
BatchPtr read_batch(ByteReader& in, const RowCheck& key_check, const RowCheck& value_check);

void write_trace(ByteWriter& out, const Trace& trace);
//! Replaces `trace` with the one read.
void read_trace(ByteReader& in, const RowCheck& key_check, const RowCheck& value_check, Trace* trace);

}  // namespace freshet
