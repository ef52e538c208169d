// Trace: the integral of a stream of batches, kept as a spine of immutable
// batches that merge geometrically (LSM style), a slice at a time.
//
// ## Design
// The batches live in a Spine (spine.h): levels of sizes doubling, where a
// merge in progress advances by fuel proportional to what each insert adds.
// Every entry is still copied O(log n) times over its life (amortised
// O(log n) per inserted entry), but no insert pays for a merge of the whole
// trace: the merge work of one insert is bounded by its fuel (see
// last_merge_work()). Merging consolidates, so cancelled updates disappear
// once their merge completes.
//
// Readers see the sum of batches(): a (key, value) may appear in several
// batches with weights that sum to its true weight (possibly zero). The
// inputs of a merge in progress are among them, its partial output is not.
// KeyCursor does that summing for one key.
#pragma once

#include <vector>

#include "freshet/zset/batch.h"
#include "freshet/zset/spine.h"

namespace freshet {

class Trace {
 public:
  //! Adds a batch (the trace becomes old + batch).
  void insert(BatchPtr batch);
  void clear();
  //! Replaces the spine with saved batches (a checkpoint's): the same
  //! batches come back, and merges between them start over, fueled as usual.
  void restore(std::vector<BatchPtr> batches);

  //! Every batch, largest levels first: their sum is the trace. Valid
  //! until the next insert(), clear() or restore().
  const std::vector<BatchPtr>& batches() const {
    if (batches_stale_) collect();
    return batches_;
  }
  bool empty() const { return batches().empty(); }
  //! Entries over all batches (an upper bound on the consolidated size).
  size_t entry_count() const;
  //! Bytes held: the batches and merges in progress. Counted once per
  //! change of the spine, when first asked (or at once under a memory
  //! budget, which reads every trace's on every step).
  size_t memory_bytes() const {
    if (!bytes_counted_) count_bytes();
    return bytes_;
  }

  //! The merge work of the last insert() (entries merged) and its budget:
  //! what its fuel allows. For tests and benchmarks.
  struct MergeWork {
    uint64_t done = 0, budget = 0;
  };
  MergeWork last_merge_work() const { return {spine_.last_work(), spine_.last_budget()}; }

  //! Total weight of one (key, value).
  Weight weight_of(RowRef key, RowRef value) const;
  //! The whole trace as one consolidated batch.
  BatchPtr consolidated() const;

  //! Walks the values of one key in byte order (or, from seek_last(), in
  //! descending byte order) with their total weights, skipping values whose
  //! weights cancel out.
  class KeyCursor {
   public:
    bool valid() const { return valid_; }
    RowRef value() const { return value_; }
    Weight weight() const { return weight_; }
    void next();

   private:
    friend class Trace;
    // The values not yet walked: [position, end). Ascending walks take them
    // from position, descending ones from end - 1.
    struct Run {
      const Batch* batch;
      size_t position, end;
    };
    // A key lives in one to a few of a trace's batches: their runs stay
    // inline, and a seek allocates nothing (it runs for every row of a join
    // and every key of an upsert).
    static constexpr size_t kInlineRuns = 4;
    void add_run(Run run);
    //! The value a run offers next, and taking it.
    RowRef front(const Run& run) const { return run.batch->value(descending_ ? run.end - 1 : run.position); }
    Weight front_weight(const Run& run) const { return run.batch->weight(descending_ ? run.end - 1 : run.position); }
    void pop(Run& run) const {
      if (descending_) {
        --run.end;
      } else {
        ++run.position;
      }
    }
    Run* runs_begin() { return more_runs_.empty() ? inline_runs_ : more_runs_.data(); }
    Run* runs_end() { return runs_begin() + run_count_; }
    Run inline_runs_[kInlineRuns];
    std::vector<Run> more_runs_;  // all the runs, once there are more than kInlineRuns
    size_t run_count_ = 0;
    bool valid_ = false;
    bool descending_ = false;
    RowRef value_;
    Weight weight_ = 0;
  };
  KeyCursor seek(RowRef key) const;
  //! seek() walking the key's values from the last: its first value is
  //! the key's largest live one (MAX read from a trace in MIN's order).
  KeyCursor seek_last(RowRef key) const;
  //! seek() for a caller seeking keys in ascending order (the keys of a
  //! sorted batch): `finger` holds where each batch's search ended for the
  //! previous key, and the next one gallops on from there
  //! (Batch::seek_forward). Start with an empty finger; the trace must not
  //! change between the seeks that share one.
  KeyCursor seek(RowRef key, std::vector<size_t>& finger) const;

 private:
  void count_bytes() const;
  void mark_stale(uint64_t departures_before);
  void collect() const;

  Spine spine_;
  // spine_'s batches, collected when first read after a change: most
  // traces a step inserts into are not read in that step (a join's
  // arrangement of the side that changed, a view's), and collecting after
  // every insert, read or not, cost a one-row change of the orders
  // workload ~600 of its ~27,000 instructions (bench/js/README.md).
  mutable std::vector<BatchPtr> batches_;
  mutable bool batches_stale_ = false;
  // memory_bytes(): the spine keeps its batches' bytes (Spine::batch_bytes),
  // so a count walks only the levels' merges in progress; an insert without
  // a budget still only marks it stale.
  mutable size_t bytes_ = 0;
  mutable bool bytes_counted_ = true;
};

}  // namespace freshet
