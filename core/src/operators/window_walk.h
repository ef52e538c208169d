// PartitionWalk: one partition of a window operator's trace, walked from any
// of its entries forward or backward (Trace::KeyCursor only walks a key from
// its start). Entries are summed over the spine's batches; those whose
// weights cancel are skipped. Private to the window operator.
#pragma once

#include <vector>

#include "freshet/zset/trace.h"

namespace freshet::window_detail {

class PartitionWalk {
 public:
  PartitionWalk(const Trace& trace, RowRef partition) {
    for (const BatchPtr& batch : trace.batches()) {
      if (std::optional<size_t> k = batch->find(partition)) {
        runs_.push_back({batch.get(), batch->values_begin(*k), batch->values_end(*k), 0});
      }
    }
  }

  //! Calls visit(entry, weight) for the live entries (weight > 0) before
  //! `from`, nearest first, until it returns false.
  template <typename Visit>
  size_t backward(RowRef from, Visit visit) {
    for (Run& run : runs_) run.at = lower_bound(run, from);
    size_t read = 0;
    while (true) {
      const Run* largest = nullptr;
      for (const Run& run : runs_) {
        if (run.at > run.begin &&
            (!largest || compare_rows(run.batch->value(run.at - 1), largest->batch->value(largest->at - 1)) > 0)) {
          largest = &run;
        }
      }
      if (!largest) return read;
      RowRef value = largest->batch->value(largest->at - 1);
      Weight weight = 0;
      for (Run& run : runs_) {
        if (run.at > run.begin && run.batch->value(run.at - 1) == value) weight += run.batch->weight(--run.at);
      }
      ++read;
      if (weight > 0 && !visit(value, weight)) return read;
    }
  }

  //! Calls visit(entry, weight) for the live entries from `from` (inclusive)
  //! on, in order, until it returns false.
  template <typename Visit>
  size_t forward(RowRef from, Visit visit) {
    for (Run& run : runs_) run.at = lower_bound(run, from);
    size_t read = 0;
    while (true) {
      const Run* smallest = nullptr;
      for (const Run& run : runs_) {
        if (run.at < run.end &&
            (!smallest || compare_rows(run.batch->value(run.at), smallest->batch->value(smallest->at)) < 0)) {
          smallest = &run;
        }
      }
      if (!smallest) return read;
      RowRef value = smallest->batch->value(smallest->at);
      Weight weight = 0;
      for (Run& run : runs_) {
        if (run.at < run.end && run.batch->value(run.at) == value) weight += run.batch->weight(run.at++);
      }
      ++read;
      if (weight > 0 && !visit(value, weight)) return read;
    }
  }

 private:
  struct Run {
    const Batch* batch;
    size_t begin, end;  //!< the partition's values in this batch
    size_t at;          //!< the walk's position
  };

  static size_t lower_bound(const Run& run, RowRef value) {
    size_t low = run.begin, high = run.end;
    while (low < high) {
      size_t mid = low + (high - low) / 2;
      if (compare_rows(run.batch->value(mid), value) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  std::vector<Run> runs_;
};

}  // namespace freshet::window_detail
