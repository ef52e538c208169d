// FueledMerge: a + b for two batches (consolidated: equal entries summed,
// zeros dropped), done in slices of bounded work.
//
// A trace merges its batches geometrically; merged eagerly, one insert now
// and then pays for a merge of the whole trace. A FueledMerge instead does
// at most `fuel` units of work per call (differential dataflow's fueled
// merge), so the trace spreads a big merge over the steps that follow, and
// merge_batches() is the same merge given unlimited fuel.
//
// One unit of work is one output entry written, or one pair of equal entries
// summed (written or cancelled): a whole merge costs at most a.size() +
// b.size() units. A slice may stop in the middle of a key's values.
//
// ## Design
// Runs of keys one side holds and the other does not are copied in bulk,
// found by galloping (1, 2, 4, ... keys ahead), capped at the fuel left;
// keys both sides hold, and a key with more values than the fuel left, go
// value by value. The state between slices is where each side stands (key,
// and value within the key) and whether the current key was written yet.
#pragma once

#include <cstdint>

#include "freshet/zset/batch.h"
#include "freshet/zset/batch_builder.h"

namespace freshet {

class FueledMerge {
 public:
  //! Both batches must stay alive (and unchanged) until finish().
  FueledMerge(const Batch& a, const Batch& b);

  //! Does up to `fuel` units of work; returns how many it did (less only when done()).
  uint64_t work(uint64_t fuel);
  bool done() const { return ka_ == a_->key_count() && kb_ == b_->key_count(); }
  //! Units of work left, at most: entries neither side has reached yet.
  uint64_t remaining() const;
  //! The merged batch; only once done(). The room cancelled entries left is given back.
  BatchPtr finish() {
    out_.shrink_to_fit();
    return out_.finish();
  }
  //! Bytes of the merged batch built so far: the share of the output's room
  //! that work has reached (the rest is reserved, not yet touched).
  size_t memory_bytes() const;

 private:
  // Which side's current key is being merged value by value.
  enum class Side { kNone, kA, kB, kBoth };
  //! Between keys: copies a run of whole keys of one side in bulk, or opens
  //! the next key for merge_values(). Returns the work done.
  uint64_t start_key(uint64_t fuel);
  //! Merges values of the open key; closes it once both sides' values are through.
  uint64_t merge_values(uint64_t fuel);
  //! Room in the output for `more` entries beyond what work has written.
  void make_room(uint64_t more);

  const Batch* a_;
  const Batch* b_;
  size_t ka_ = 0, kb_ = 0;  // current keys
  size_t va_ = 0, vb_ = 0;  // current values, while a key is open
  Side side_ = Side::kNone;
  bool key_written_ = false;  // the open key is in out_ (not until a value survives)
  SortedBatchBuilder out_;
  uint64_t written_ = 0;   // work done so far: at least the entries in out_
  bool reserved_ = false;  // out_ has room for the whole merge
};

}  // namespace freshet
