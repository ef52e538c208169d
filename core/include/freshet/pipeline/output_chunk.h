// What output endpoints produce, and the sinks connectors write to.
#pragma once

#include <cstdint>
#include <string>

#include "freshet/common/status.h"
#include "freshet/types/schema.h"
#include "freshet/zset/batch.h"

namespace freshet {

class OutputEndpoint;

//! One chunk of an endpoint's output: a step's delta, or a part of a snapshot.
//!
//! For an endpoint on a view, `batch` is a Z-set of the view's rows (the row
//! is the key). For one through an index it is indexed: key = the index's
//! columns, value = the row; it reads as upserts (positive weights) and
//! deletes by key (keys with only negative weights).
struct OutputChunk {
  uint64_t sequence_number = 0;  //!< counts the endpoint's chunks from 0
  uint64_t step = 0;             //!< the step that produced it
  bool snapshot = false;         //!< part of a snapshot
  bool snapshot_complete = false;  //!< the last part of a snapshot
  BatchPtr batch = Batch::empty_batch();
  size_t records = 0;            //!< rows it carries (a weight w counts |w| times)
};

//! How a sink took a chunk.
enum class SinkWrite : uint8_t {
  kAccepted,  //!< done: the chunk is delivered
  kPending,   //!< the host calls Pipeline::acknowledge() once it is
};

//! A connector's destination, supplied from outside the core (a map, a
//! database, a KV store). Writes happen in sequence-number order; a failed
//! write is retried (the chunk stays queued) and counted as an error.
class Sink {
 public:
  virtual ~Sink() = default;
  //! Takes one chunk of the endpoint `from`, which encodes it as the sink
  //! needs: from.encode(chunk) as Feldera insert_delete (or upsert) records,
  //! from.encode_split() as two arrays.
  virtual Result<SinkWrite> write(const OutputChunk& chunk, const OutputEndpoint& from) = 0;
  //! Whether reset() can wipe the destination.
  virtual bool resettable() const { return false; }
  //! Wipes the destination, before a fresh snapshot is replayed into it.
  virtual Status reset() { return Status(ErrorCode::kNotResettable, "this sink cannot be reset"); }
  //! Identifies the destination (JSON text); part of the connector's fingerprint.
  virtual std::string describe() const { return "{}"; }
};

}  // namespace freshet
