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
  BatchPtr finish();
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
  //! The output: keys [begin, end) of `x` with all their values.
  void emit_keys(const Batch& x, size_t begin, size_t end);
  //! The output: values [begin, end) of `x` (or one value and its summed
  //! weight) for the open key, writing the key first if it is not yet.
  void emit_values(const Batch& x, size_t begin, size_t end);
  void emit_value(const uint8_t* value, uint32_t size, Weight weight);
  void emit_open_key();
  //! Fixed-width output: the first key with two values makes every key's value start explicit.
  void make_starts_explicit();

  const Batch* a_;
  const Batch* b_;
  size_t ka_ = 0, kb_ = 0;  // current keys
  size_t va_ = 0, vb_ = 0;  // current values, while a key is open
  Side side_ = Side::kNone;
  bool key_written_ = false;  // the open key is in out_ (not until a value survives)
  SortedBatchBuilder out_;    // the output, unless fixed_ is
  // The output of a merge of rows of fixed widths (make_room), written in
  // place: out_keys_ keys and out_values_ values so far.
  std::shared_ptr<Batch> fixed_;
  uint8_t* key_bytes_ = nullptr;
  uint8_t* value_bytes_ = nullptr;
  uint32_t key_width_ = 0, value_width_ = 0;
  size_t out_keys_ = 0, out_values_ = 0;
  size_t values_of_key_ = 0;      // values written for the open key
  bool explicit_starts_ = false;  // fixed_->value_starts_ is being written
  uint64_t written_ = 0;   // work done so far: at least the entries in out_
  bool reserved_ = false;  // out_ has room for the whole merge
};

}  // namespace freshet
