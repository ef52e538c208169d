// Trace: the integral of a stream of batches, kept as a spine of immutable
// batches that merge geometrically (LSM style).
//
// ## Design
// Batches are ordered oldest first. After an insert, the newest batch is
// merged into its predecessor while it is at least half that one's size, so
// sizes at least double going back in time: at most log2(n) batches, and
// every entry is copied O(log n) times over its life (amortised O(log n) per
// inserted entry). Merging consolidates, so cancelled updates disappear.
//
// Readers see the sum of all batches: a (key, value) may appear in several
// batches with weights that sum to its true weight (possibly zero).
// KeyCursor does that summing for one key.
#pragma once

#include <vector>

#include "freshet/zset/batch.h"

namespace freshet {

class Trace {
 public:
  //! Adds a batch (the trace becomes old + batch).
  void insert(BatchPtr batch);
  void clear() { batches_.clear(); }
  //! Replaces the spine with saved batches, oldest first (a checkpoint's).
  void restore(std::vector<BatchPtr> batches) { batches_ = std::move(batches); }

  const std::vector<BatchPtr>& batches() const { return batches_; }
  bool empty() const { return batches_.empty(); }
  //! Entries over all batches (an upper bound on the consolidated size).
  size_t entry_count() const;
  size_t memory_bytes() const;

  //! Total weight of one (key, value).
  Weight weight_of(RowRef key, RowRef value) const;
  //! The whole trace as one consolidated batch.
  BatchPtr consolidated() const;

  //! Walks the values of one key in byte order with their total weights,
  //! skipping values whose weights cancel out.
  class KeyCursor {
   public:
    bool valid() const { return valid_; }
    RowRef value() const { return value_; }
    Weight weight() const { return weight_; }
    void next();

   private:
    friend class Trace;
    struct Run {
      const Batch* batch;
      size_t position, end;
    };
    // A key lives in one to a few of a trace's batches: their runs stay
    // inline, and a seek allocates nothing (it runs for every row of a join
    // and every key of an upsert).
    static constexpr size_t kInlineRuns = 4;
    void add_run(Run run);
    Run* runs_begin() { return more_runs_.empty() ? inline_runs_ : more_runs_.data(); }
    Run* runs_end() { return runs_begin() + run_count_; }
    Run inline_runs_[kInlineRuns];
    std::vector<Run> more_runs_;  // all the runs, once there are more than kInlineRuns
    size_t run_count_ = 0;
    bool valid_ = false;
    RowRef value_;
    Weight weight_ = 0;
  };
  KeyCursor seek(RowRef key) const;
  //! seek() for a caller seeking keys in ascending order (the keys of a
  //! sorted batch): `finger` holds where each batch's search ended for the
  //! previous key, and the next one gallops on from there
  //! (Batch::seek_forward). Start with an empty finger; the trace must not
  //! change between the seeks that share one.
  KeyCursor seek(RowRef key, std::vector<size_t>& finger) const;

 private:
  std::vector<BatchPtr> batches_;
};

}  // namespace freshet
