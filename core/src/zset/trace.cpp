#include "freshet/zset/trace.h"

#include <algorithm>

#include "freshet/circuit/work_meter.h"
#include "freshet/zset/merge.h"

namespace freshet {

void Trace::insert(BatchPtr batch) {
  if (batch->empty()) return;
  const uint64_t departures = spine_.level_departures();
  // Under a memory budget (step_memory.h) the state's growth by merges is
  // charged to the step: a merge in progress holds its inputs and its
  // output so far, and the budget must see what its slices add. The batch
  // itself was charged when it was built.
  WorkMeter* meter = active_work_meter();
  if (!meter) {
    spine_.insert(std::move(batch));
    mark_stale(departures);
    bytes_counted_ = false;
    return;
  }
  const size_t before = memory_bytes() + batch->memory_bytes();
  const size_t merging_before = spine_.merging_bytes();
  spine_.insert(std::move(batch));
  mark_stale(departures);
  count_bytes();
  // What merges in progress wrote is charged even where small batches the
  // insert merged away gave back as much (a slice of fuel comes with an
  // eager cascade every few inserts: Spine::kFuelSlice).
  const size_t merging_after = spine_.merging_bytes();
  size_t grown = bytes_ > before ? bytes_ - before : 0;
  if (merging_after > merging_before) grown = std::max(grown, merging_after - merging_before);
  if (grown > 0) meter->charge_bytes(grown);
}

void Trace::mark_stale(uint64_t departures_before) {
  batches_stale_ = true;
  // The list, until read again, must not keep alive the large batches the
  // insert's merges have replaced (their memory would stay held, and
  // uncounted, for as long as nothing reads this trace). The small tiers'
  // batches it may keep are a few hundred entries at most.
  if (spine_.level_departures() != departures_before) batches_.clear();
}

void Trace::collect() const {
  spine_.collect(batches_);
  batches_stale_ = false;
}

void Trace::count_bytes() const {
  // The list of batches as last collected (it is at most a few dozen pointers).
  bytes_ = batches_.capacity() * sizeof(BatchPtr) + spine_.merging_bytes() + spine_.batch_bytes();
  bytes_counted_ = true;
}

void Trace::clear() {
  spine_.clear();
  batches_.clear();
  batches_stale_ = false;
  count_bytes();
}

void Trace::restore(std::vector<BatchPtr> batches) {
  clear();
  for (BatchPtr& batch : batches) {
    if (!batch->empty()) spine_.place(std::move(batch));
  }
  collect();
  count_bytes();
}

size_t Trace::entry_count() const {
  size_t total = 0;
  for (const BatchPtr& b : batches()) total += b->size();
  return total;
}

Weight Trace::weight_of(RowRef key, RowRef value) const {
  Weight total = 0;
  for (const BatchPtr& b : batches()) total += b->weight_of(key, value);
  return total;
}

BatchPtr Trace::consolidated() const {
  const std::vector<BatchPtr>& all = batches();
  if (all.size() == 1) return all.front();
  return merge_all(all);
}

Trace::KeyCursor Trace::seek(RowRef key) const {
  KeyCursor cursor;
  for (const BatchPtr& b : batches()) {
    if (std::optional<size_t> k = b->find(key)) {
      cursor.add_run({b.get(), b->values_begin(*k), b->values_end(*k)});
    }
  }
  cursor.next();
  return cursor;
}

Trace::KeyCursor Trace::seek_last(RowRef key) const {
  KeyCursor cursor;
  cursor.descending_ = true;
  for (const BatchPtr& b : batches()) {
    if (std::optional<size_t> k = b->find(key)) {
      cursor.add_run({b.get(), b->values_begin(*k), b->values_end(*k)});
    }
  }
  cursor.next();
  return cursor;
}

Trace::KeyCursor Trace::seek(RowRef key, std::vector<size_t>& finger) const {
  const std::vector<BatchPtr>& all = batches();
  const bool first = finger.empty();
  if (first) finger.assign(all.size(), 0);
  KeyCursor cursor;
  for (size_t i = 0; i < all.size(); ++i) {
    const Batch& b = *all[i];
    // The first key searches the whole batch: galloping from its start
    // would take twice the comparisons.
    size_t k = first ? b.lower_bound(key) : b.seek_forward(key, finger[i]);
    finger[i] = k;
    if (k < b.key_count() && b.key(k) == key) cursor.add_run({&b, b.values_begin(k), b.values_end(k)});
  }
  cursor.next();
  return cursor;
}

void Trace::KeyCursor::add_run(Run run) {
  if (run_count_ < kInlineRuns) {
    inline_runs_[run_count_++] = run;
    return;
  }
  if (more_runs_.empty()) more_runs_.assign(inline_runs_, inline_runs_ + kInlineRuns);
  more_runs_.push_back(run);
  ++run_count_;
}

void Trace::KeyCursor::next() {
  if (run_count_ == 1) {
    // The key in one batch (an upsert's row, most keys of a big trace): its
    // values come as they are, consolidated, none of weight zero.
    Run& run = inline_runs_[0];
    if (valid_) pop(run);
    valid_ = run.position < run.end;
    if (valid_) {
      value_ = front(run);
      weight_ = front_weight(run);
    }
    return;
  }
  // Take the value last returned off every run offering it, then find the
  // next value (the smallest offered; descending: the largest) whose
  // weights over all runs do not cancel.
  const int direction = descending_ ? -1 : 1;
  if (valid_) {
    for (Run* run = runs_begin(); run != runs_end(); ++run) {
      if (run->position < run->end && front(*run) == value_) pop(*run);
    }
  }
  while (true) {
    const Run* next = nullptr;
    for (const Run* run = runs_begin(); run != runs_end(); ++run) {
      if (run->position < run->end && (!next || direction * compare_rows(front(*run), front(*next)) < 0)) next = run;
    }
    if (!next) {
      valid_ = false;
      return;
    }
    value_ = front(*next);
    weight_ = 0;
    for (const Run* run = runs_begin(); run != runs_end(); ++run) {
      if (run->position < run->end && front(*run) == value_) weight_ += front_weight(*run);
    }
    valid_ = true;
    if (weight_ != 0) return;
    for (Run* run = runs_begin(); run != runs_end(); ++run) {
      if (run->position < run->end && front(*run) == value_) pop(*run);
    }
  }
}

}  // namespace freshet
