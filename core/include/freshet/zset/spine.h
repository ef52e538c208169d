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
// kEagerLevels) still run at once, and the small levels go kSmallFanIn at a
// time (the small tiers, below); each insert of a batch at level k
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
// ## The small tiers
// A dashboard's change inserts a batch of one or two entries into several
// traces. Levels doubling would copy such an entry once per small level
// (8 times) on its way to kEagerLevels, with about one merge, and one new
// batch, per insert. The small levels are grouped instead into tiers of
// kLevelsPerTier levels: tier t holds up to kSmallFanIn - 1 batches of
// levels [t, t+1) * kLevelsPerTier, and the kSmallFanIn-th batch to arrive
// merges all of them in one pass (merge_fixed_width_many) into a batch of
// the tier above (or of level kEagerLevels, from the top tier). An entry
// is copied log_kSmallFanIn(2^kEagerLevels) times (4), and an insert
// builds about 1/(kSmallFanIn - 1) batches. Readers see at most
// (kSmallFanIn - 1) * kSmallTiers small batches (12; a level's two of the
// levels doubling: 16), about 6 on average where the binary levels held 4:
// a point lookup in a batch of a few keys costs a few comparisons.
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
  //! The small levels' tiers (see "The small tiers"): each merges this many
  //! batches at once, and covers log2(kSmallFanIn) levels. At 4, a change
  //! of the orders workload costs 8% fewer instructions in Circuit::step
  //! than with the small levels merging two at a time (callgrind of
  //! step_size_bench 200000: 24,680 -> 22,660 per change; the merges save
  //! ~2,400, readers' lookups and collect() over more batches give back
  //! ~450); at 16, readers see up to 30 small batches and the step costs
  //! what it did at 2 (24,770, with an entry-by-entry k-way merge).
  static constexpr size_t kSmallFanIn = 4;
  static constexpr size_t kLevelsPerTier = 2;
  static constexpr size_t kSmallTiers = kEagerLevels / kLevelsPerTier;
  static_assert(size_t{1} << kLevelsPerTier == kSmallFanIn && kSmallTiers * kLevelsPerTier == kEagerLevels);
  //! The most entries an insert's cascade of small-tier merges reads: tier
  //! t's batches hold at most 2^((t+1) kLevelsPerTier - 1) entries (that of
  //! its largest level, which kSmallFanIn of the tier below also make), so
  //! its merge reads at most kSmallFanIn times that.
  static constexpr uint64_t eager_cascade_work() {
    uint64_t total = 0;
    for (size_t t = 0; t < kSmallTiers; ++t) total += kSmallFanIn << ((t + 1) * kLevelsPerTier - 1);
    return total;
  }

  //! Adds a non-empty batch, advancing merges by its fuel.
  void insert(BatchPtr batch);
  //! Adds a non-empty batch without doing any merge work (restoring a
  //! checkpoint): it starts a merge at its level, or waits one level up.
  void place(BatchPtr batch);
  void clear() {
    levels_.clear();
    for (Tier& tier : tiers_) tier = Tier();
    batch_bytes_ = 0;
    banked_fuel_ = 0;
    merging_bytes_stale_ = true;
  }

  //! Sets `out` to every batch a reader must see, largest levels first.
  void collect(std::vector<BatchPtr>& out) const;
  //! Bytes of merges' partial outputs (the batches themselves are
  //! collected). Counted at the first call after a change of the levels'
  //! merges (one started, advanced or ended: most one-row inserts only
  //! reach the small tiers and bank their fuel) and kept until the next: a
  //! trace under a memory budget asks before and after every insert and
  //! once more for its own bytes, and walking the levels each time was ~3%
  //! of a one-row change's instructions.
  size_t merging_bytes() const {
    if (merging_bytes_stale_) count_merging_bytes();
    return merging_bytes_;
  }
  //! merging_bytes() counted afresh from the levels (what the kept count
  //! must equal; tests compare them).
  size_t recount_merging_bytes() const;
  //! Bytes of every batch collect() sets: Batch::memory_bytes() summed, kept
  //! as batches enter and leave levels (a batch never changes), so that a
  //! trace under a memory budget, which counts its bytes after every insert,
  //! does not walk its batches.
  size_t batch_bytes() const { return batch_bytes_; }
  //! How many times a level (from kEagerLevels up) has given up its
  //! batches: a list of the batches collected before a change holds large
  //! batches the spine has dropped when this count moved.
  uint64_t level_departures() const { return level_departures_; }
  //! Levels in use (from kEagerLevels up; the small tiers are below).
  size_t level_count() const { return levels_.size(); }
  //! Batches in the small tiers (at most (kSmallFanIn - 1) * kSmallTiers).
  size_t small_batch_count() const;

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

  //! A small tier's batches, oldest first; the kSmallFanIn-th is there only
  //! while they merge.
  struct Tier {
    BatchPtr batches[kSmallFanIn];
    size_t count = 0;
  };

  void apply_fuel(uint64_t fuel);
  //! Merges every level below `index` into one batch and puts it at `index`
  //! (below kEagerLevels: every tier below its tier, into its tier).
  void roll_up(size_t index);
  //! Puts a batch at a level: below kEagerLevels into its tier, else a
  //! single, or the second that starts a merge. A level still merging first
  //! completes (work beyond the fuel: counted).
  void insert_at(BatchPtr batch, size_t index);
  //! Adds a batch to a tier; the kSmallFanIn-th merges them all, up a tier.
  void add_to_tier(BatchPtr batch, size_t tier);
  //! Empties the tiers below `tier`, returning their batches merged into one
  //! (null if none).
  BatchPtr take_tiers(size_t tier);
  //! The sum of small batches (count >= 1), its work counted.
  BatchPtr merge_small(const BatchPtr* batches, size_t count);
  //! Empties a level, returning its contents as one batch (null if none).
  BatchPtr complete_at(size_t index);
  Level& level(size_t index);

  //! A level's batches leave it: their bytes leave batch_bytes_.
  void vacate(size_t index);
  //! Sets merging_bytes_ from the levels (their merges' partial outputs).
  void count_merging_bytes() const;

  std::vector<Level> levels_;  // those below kEagerLevels stay vacant: tiers_ hold their batches
  Tier tiers_[kSmallTiers];
  uint64_t work_ = 0, budget_ = 0;
  uint64_t banked_fuel_ = 0;  // fuel inserts gave that no merge has had yet (below kFuelSlice)
  size_t batch_bytes_ = 0;  // batch_bytes()
  uint64_t level_departures_ = 0;  // level_departures()
  mutable size_t merging_bytes_ = 0;  // merging_bytes(), when not stale
  mutable bool merging_bytes_stale_ = true;
};

}  // namespace freshet
