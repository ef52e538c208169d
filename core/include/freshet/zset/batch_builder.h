// Builders of batches.
//
// SortedBatchBuilder takes entries already in (key, value) order, sums
// adjacent duplicates and drops zero weights: the tail of every merge.
// BatchBuilder takes entries in any order and consolidates them: sort, then
// the sorted builder.
#pragma once

#include <string>
#include <vector>

#include "freshet/zset/batch.h"
#include "freshet/common/assert.h"
#include "freshet/common/byte_buffer.h"

namespace freshet {

//! A value with its weight, as SortedBatchBuilder::append_sorted_values takes them.
struct WeightedValue {
  RowRef value;
  Weight weight;
};

class SortedBatchBuilder {
 public:
  //! Entries must come in non-decreasing (key, value) order; equal ones are summed.
  //! The bytes `key` and `value` point to must stay valid until the next push or finish.
  void push(RowRef key, RowRef value, Weight weight);
  //! Room for `entries` entries of `key_bytes` and `value_bytes` in all, when
  //! known up front: a batch of a few rows then costs a few allocations
  //! instead of one per growth of each of its arrays.
  void reserve(size_t entries, size_t key_bytes, size_t value_bytes);
  //! For a caller whose entries are already in strictly increasing order and
  //! summed, with no zero weight (a merge of two batches): a new key, then
  //! its values. No comparisons (push() ends in them once it has summed).
  void append_key(RowRef key);
  void append_value(RowRef value, Weight weight);
  //! append_value() of each of `count` values, which the caller's sort
  //! leaves strictly increasing and summed, none of weight 0: only the
  //! first is compared with the values before it, and values of the
  //! column's width are copied into room made once (a big step's sort
  //! and merge write each of its values so).
  void append_sorted_values(const WeightedValue* values, size_t count);
  //! Values [begin, end) of `from` with their weights, after the current
  //! key's values so far (the first of them sorting after those): a bulk
  //! copy, as append_keys.
  void append_values(const Batch& from, size_t begin, size_t end);
  //! Keys [begin, end) of `from` with all their values, after every key so
  //! far: a few bulk copies when every key has one value (Z-sets).
  void append_keys(const Batch& from, size_t begin, size_t end);
  //! Every value of `from`, strictly increasing across the batch, as a key
  //! with an empty value and its weight, after every key so far: the Z-set
  //! of a keyed batch's rows in one copy.
  void append_values_as_keys(const Batch& from);
  //! `count` keys of `key_width` bytes back to back at `keys`, strictly
  //! increasing and after every key so far, each with one value: the
  //! `value_width` bytes at the same place among `values`, weight +1. (A
  //! bulk load's index in two copies.)
  void append_fixed_entries(const uint8_t* keys, uint32_t key_width, const uint8_t* values, uint32_t value_width,
                            size_t count);
  //! While nothing is built: `count` entries whose keys are the
  //! `key_width`-byte rows back to back in `keys` and whose values are the
  //! `value_width`-byte rows in `values`, each weight +1, keys strictly
  //! increasing. The buffers become the batch's, with no copy (a bulk
  //! load's index takes the rows its ingest buffered).
  void adopt_fixed_entries(ByteBuffer&& keys, uint32_t key_width, ByteBuffer&& values, uint32_t value_width,
                           size_t count);
  //! While nothing is built: append_values_as_keys(*from), sharing the
  //! bytes of from's values instead of copying them (row_column.h); the
  //! batch built keeps `from` alive.
  void share_values_as_keys(const BatchPtr& from);
  BatchPtr finish();
  //! Bytes of the batch built so far.
  size_t memory_bytes() const { return batch_ ? batch_->memory_bytes() : 0; }
  //! Gives back the room reserve() left unused in the keys' and values' bytes (in place, no copy).
  void shrink_to_fit();

 private:
  void flush_pending();
  Batch& batch();
  //! append_keys() of one key.
  void append_one_key(const Batch& from, size_t k);

  // Made on first use and handed out as is: one allocation for the batch and
  // its shared_ptr's count, and none for a builder that stays empty.
  std::shared_ptr<Batch> batch_;
  bool has_pending_ = false;
  size_t values_of_key_ = 0;  // append_value() calls since the last append_key()
  RowRef pending_key_, pending_value_;
  Weight pending_weight_ = 0;
};

class BatchBuilder {
 public:
  //! Adds an update; the bytes are copied.
  void add(RowRef key, RowRef value, Weight weight);
  //! A Z-set update: the row is the key, the value empty.
  void add_row(RowRef row, Weight weight) { add(row, RowRef(), weight); }
  size_t pending() const { return entries_.size() + run_entries_; }
  //! Room for `entries` more updates of `bytes` bytes of rows in all, when a
  //! caller knows about how many come (a map: its input's size): a big step
  //! then fills its buffers once instead of growing them by doubling.
  void reserve(size_t entries, size_t bytes) {
    if (run_size_ != 0 && entries > run_size_) {  // the buffers hold one run at most
      bytes = bytes / entries * run_size_;
      entries = run_size_;
    }
    entries_.reserve(entries_.size() + entries);
    arena_.reserve(arena_.size() + bytes);
  }
  //! From now on, sorts every `entries` entries added as they come, into a
  //! run, and finish() merges the runs in one pass (merge_many). For an
  //! operator whose big steps add many entries (a map over a bulk load): a
  //! run is sorted while its bytes are in cache, in buffers every run
  //! reuses, where one sort of everything reads an arena far larger than a
  //! cache in random order and needs that arena, the entries and the sort's
  //! scratch in fresh memory, several times the batch it builds (fresh
  //! memory is paid for in page faults). The merge reads each run in order.
  //! A builder with runs has no for_each_pending.
  void sort_in_runs(size_t entries = kRunSize) { run_size_ = entries; }
  static constexpr size_t kRunSize = 16384;
  //! Bytes held for entries, added or not (its capacity, kept between finishes).
  size_t memory_bytes() const {
    size_t runs = 0;
    for (const BatchPtr& run : runs_) runs += run->memory_bytes();
    return runs + arena_.capacity() + (entries_.capacity() + sort_scratch_.capacity()) * sizeof(Entry) +
           key_values_.capacity() * sizeof(WeightedValue);
  }
  bool empty() const { return entries_.empty() && runs_.empty(); }
  //! Consolidates everything added into a batch and starts over.
  BatchPtr finish();
  //! Calls fn(key, value, weight) for each update added since the last
  //! finish(), in the order added (a checkpoint saves buffered input so).
  //! Not for a builder that sorts in runs.
  template <typename Fn>
  void for_each_pending(Fn&& fn) const {
    FRESHET_ASSERT(run_size_ == 0);
    for (const Entry& e : entries_) fn(key_of(e), value_of(e), e.weight);
  }

 private:
  struct Entry {
    // 8 bytes of the key and of the value, big-endian, from where keys (values)
    // start to differ (set by finish()): most comparisons of a sort end there.
    uint64_t key_prefix, value_prefix;
    uint32_t key_offset, key_size, value_offset, value_size;
    Weight weight;
  };
  //! Sorts and consolidates the entries added into a batch, and empties
  //! the entries and arena (keeping their memory).
  BatchPtr sort_entries();
  //! How many leading bytes every entry's row_of(entry) shares.
  template <typename RowOf>
  size_t common_prefix(RowOf row_of) const;
  size_t key_bytes_ = 0, value_bytes_ = 0;  // of the entries added, for SortedBatchBuilder::reserve

  RowRef key_of(const Entry& e) const { return RowRef(arena_.data() + e.key_offset, e.key_size); }
  RowRef value_of(const Entry& e) const { return RowRef(arena_.data() + e.value_offset, e.value_size); }

  ByteBuffer arena_;
  std::vector<Entry> entries_;
  std::vector<Entry> sort_scratch_;  // sort_by_prefix's room; may trade buffers with entries_
  std::vector<WeightedValue> key_values_;  // sort_entries()'s values of one key, kept for the capacity
  size_t run_size_ = 0;               // 0: no runs (sort_in_runs)
  std::vector<BatchPtr> runs_;        // the runs sorted since the last finish()
  size_t run_entries_ = 0;            // entries in runs_
  size_t last_sorted_ = 0;            // entries the last sort_entries() sorted
};

}  // namespace freshet
