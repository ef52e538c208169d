// Spine: the batches of a trace in levels, merged in slices of bounded work
// (differential dataflow's fueled spine).
//
// ## Design
// Level i holds batches of at most about 2^i entries: nothing, one batch,
// or two batches whose merge is in progress. A batch of n entries enters at
// level ceil(log2 n); a second batch at a level starts a merge of the two,
// and a merge that completes enters the next level up. So, as in an eager
// LSM, there are O(log n) levels and each entry is merged O(log n) times over
// its life: the amortised cost is the eager spine's.
//
// What changes is when the work is done. Merges of small levels (below
// kEagerLevels) still run at once; each insert of a batch at level k
// gives every merge in progress `kFuelPerEntry << k` units of work (about
// kFuelPerEntry per inserted entry), before the batch enters: banked until
// they make a slice of kFuelSlice units, then handed out at once. A merge at
// level i needs at most 2^(i+1) units, and another batch reaches level i
// only after enough inserts to have paid for it, so merges finish before
// they are needed and a step's merge work is bounded by its fuel times the
// number of levels (plus the roll-up below, bounded by the batch's size).
// A batch of level k first merges every level below k into one batch (the
// roll-up: less than the batch itself holds, about) so that it enters a
// level with no smaller batches arriving right behind it.
//
// Readers see every batch of every level, including both inputs of a merge
// in progress (never its partial output): their sum is the trace.
//
//   the levels from kEagerLevels up, one insert after another:
//     level k    A      | A B: merge starts | (advances by each insert's fuel)
//     level k+1  C      | C                 | C (AB): merge starts ...
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "freshet/zset/batch.h"
#include "freshet/zset/fueled_merge.h"

namespace freshet {

class Spine {
 public:
  //! Units of merge work each inserted entry buys every merge in progress.
  static constexpr uint64_t kFuelPerEntry = 8;
  //! Merges at levels below this one (of at most 2^kEagerLevels entries a
  //! side) run at once: a few µs each, where slicing them would add its
  //! overhead to every step for nothing. At 10, a cascade of them every
  //! 1,024 one-row steps (~1,000 entries merged in one step) made the p99 of
  //! a change; at 8 the orders workload's p99 in wasm is ~25% lower and its
  //! p50 the same (bench/js/ab.mjs, run.mjs; at 6 the p50 rose ~5%).
  static constexpr size_t kEagerLevels = 8;
  //! Fuel is handed out in slices of at least this many units: a one-row
  //! insert's 8 units are banked until they reach it, so that each merge in
  //! progress resumes once every few inserts instead of at every one (a
  //! resumption cost about what 8 units of work do: callgrind of the orders
  //! workload's changes, 25,400 -> 24,600 instructions per step at 64, 24,470
  //! at 256). Merges still finish in time: a level's merge gets 4x the fuel
  //! it needs before the next batch reaches its level, and a slice holds
  //! back less than 64 units of it.
  static constexpr uint64_t kFuelSlice = 64;

  //! Adds a non-empty batch, advancing merges by its fuel.
  void insert(BatchPtr batch);
  //! Adds a non-empty batch without doing any merge work (restoring a
  //! checkpoint): it starts a merge at its level, or waits one level up.
  void place(BatchPtr batch);
  void clear() {
    levels_.clear();
    batch_bytes_ = 0;
    banked_fuel_ = 0;
  }

  //! Sets `out` to every batch a reader must see, largest levels first.
  void collect(std::vector<BatchPtr>& out) const;
  //! Bytes of merges' partial outputs (the batches themselves are collected).
  size_t merging_bytes() const;
  //! Bytes of every batch collect() sets: Batch::memory_bytes() summed, kept
  //! as batches enter and leave levels (a batch never changes), so that a
  //! trace under a memory budget, which counts its bytes after every insert,
  //! does not walk its batches.
  size_t batch_bytes() const { return batch_bytes_; }
  //! Levels in use.
  size_t level_count() const { return levels_.size(); }

  //! The merge work the last insert() did, and the most it was allowed.
  uint64_t last_work() const { return work_; }
  uint64_t last_budget() const { return budget_; }

  //! The level a batch of `entries` entries enters at: ceil(log2 entries).
  static size_t level_of(size_t entries);

 private:
  struct Level {
    BatchPtr older, newer;               // none, older only, or both (merging)
    std::unique_ptr<FueledMerge> merge;  // of older + newer
    bool vacant() const { return !older; }
    bool merging() const { return newer != nullptr; }
  };

  void apply_fuel(uint64_t fuel);
  //! Merges every level below `index` into one batch and puts it at `index`.
  void roll_up(size_t index);
  //! Puts a batch at a level: a single, or the second that starts a merge.
  //! A level still merging first completes (work beyond the fuel: counted).
  //! With `eager_small`, a merge it starts below kEagerLevels runs at once.
  void insert_at(BatchPtr batch, size_t index, bool eager_small = true);
  //! Empties a level, returning its contents as one batch (null if none).
  BatchPtr complete_at(size_t index);
  Level& level(size_t index);

  //! A level's batches leave it: their bytes leave batch_bytes_.
  void vacate(size_t index);

  std::vector<Level> levels_;
  uint64_t work_ = 0, budget_ = 0;
  uint64_t banked_fuel_ = 0;  // fuel inserts gave that no merge has had yet (below kFuelSlice)
  size_t batch_bytes_ = 0;  // batch_bytes()
};

}  // namespace freshet
