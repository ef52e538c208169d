// Batch: an immutable indexed Z-set, the unit of data on every stream.
//
// A batch holds (key, value, weight) entries. Invariants:
//   - sorted by key, then value, in row byte order (compare_rows);
//   - consolidated: each (key, value) pair appears once;
//   - no zero weights.
// A plain Z-set is a batch whose values are empty rows (the row is the key).
//
// Layout (flat arrays, as DBSP's OrdIndexedZSet / differential's ord_neu):
//   keys          k0 k1 k2 ...            (RowColumn)
//   value_starts  where each key's values begin (omitted while every key has one value)
//   values        v  v  v  v ...          (RowColumn)
//   weights       w  w  w  w ...          (WeightColumn: none stored while all are +1)
//   fence         a sparse index of a big batch's keys (below)
//
// ## The fence
// A point lookup in a batch of n keys is a binary search that touches
// log2(n) keys spread over the whole key array: at 200k keys, 18 cache
// misses, the larger part of looking up one key of a big trace (an upsert's
// old row, a join's matches). A batch of at least kFenceMinKeys keys also
// keeps, for every kFenceStride-th key, its 8 bytes after the prefix every
// key shares, as a big-endian integer: 0.25 bytes per key in one small
// array. lower_bound() searches the fence first (integer comparisons over
// memory that stays in cache) and then at most kFenceStride keys next to
// each other. Keys that share their first 8 bytes after the common prefix
// leave the range wider (long strings with a common start); never wrong.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "freshet/common/prefix_sort.h"
#include "freshet/zset/row_column.h"
#include "freshet/zset/weight_column.h"

namespace freshet {


class Batch {
 public:
  //! The shared empty batch.
  static const std::shared_ptr<const Batch>& empty_batch();

  bool empty() const { return weights_.empty(); }
  size_t key_count() const { return keys_.size(); }
  //! Number of (key, value) entries.
  size_t size() const { return weights_.size(); }
  //! Bytes of all keys / all values, back to back.
  size_t key_bytes() const { return keys_.byte_size(); }
  size_t value_bytes() const { return values_.byte_size(); }

  RowRef key(size_t k) const { return keys_[k]; }
  size_t values_begin(size_t k) const { return value_starts_.empty() ? k : value_starts_[k]; }
  size_t values_end(size_t k) const { return value_starts_.empty() ? k + 1 : value_starts_[k + 1]; }
  RowRef value(size_t v) const { return values_[v]; }
  Weight weight(size_t v) const { return weights_[v]; }

  //! Index of the first key >= `key` among keys [from, key_count()).
  size_t lower_bound(RowRef key, size_t from = 0) const;
  //! lower_bound() for a caller walking forward through sorted keys:
  //! gallops from `from` (1, 2, 4, ... keys ahead) before searching, so a
  //! key d keys further costs O(log d) comparisons, not O(log key_count()).
  size_t seek_forward(RowRef key, size_t from) const;
  //! Index of `key`, if present.
  std::optional<size_t> find(RowRef key) const;
  //! Weight of one (key, value) entry; 0 when absent.
  Weight weight_of(RowRef key, RowRef value) const;

  //! Bytes allocated for this batch.
  size_t memory_bytes() const;

  static constexpr size_t kFenceStride = 32;
  static constexpr size_t kFenceMinKeys = 4 * kFenceStride;

 private:
  friend class SortedBatchBuilder;
  friend class FueledMerge;
  friend std::shared_ptr<const Batch> merge_fixed_width_many(const std::shared_ptr<const Batch>* batches, size_t count,
                                                             uint64_t& work);
  //! Whether both batches hold entries, and all keys of both have one
  //! width and all values one width: their merge writes rows in place.
  static bool merge_in_place(const Batch& a, const Batch& b) {
    return !a.empty() && !b.empty() && a.keys_.fixed_width() && b.keys_.fixed_width() && a.values_.fixed_width() &&
           b.values_.fixed_width() && a.keys_.width() == b.keys_.width() && a.values_.width() == b.values_.width();
  }
  //! Builds the fence of a finished batch of at least kFenceMinKeys keys.
  void build_fence();
  //! Narrows [low, high) for `key` over the whole batch with the fence.
  void fence_range(RowRef key, size_t& low, size_t& high) const;
  //! fence_range() for a key whose bytes after the common prefix start with `prefix`.
  void fence_range_of(uint64_t prefix, size_t& low, size_t& high) const;
  //! Whether keys compare as their last 8 bytes, read as a big-endian
  //! integer (key_word), here and against `key`: no byte comparisons.
  bool word_keys(RowRef key) const;
  uint64_t key_word(size_t k) const { return big_endian_word(keys_.data() + (k + 1) * keys_.width() - 8); }
  //! lower_bound_in() for word_keys(): `word` is the key's.
  size_t lower_bound_word(uint64_t word, size_t low, size_t high) const;
  //! Index of the first key >= `key` among keys [low, high), all keys
  //! before `low` being smaller and the one at `high` (if any) not.
  size_t lower_bound_in(RowRef key, size_t low, size_t high) const;

  RowColumn keys_;
  std::vector<uint32_t> value_starts_;  // key_count()+1 entries, or empty when one value per key
  RowColumn values_;
  WeightColumn weights_;
  std::vector<uint64_t> fence_;  // prefixes of keys 0, kFenceStride, 2 kFenceStride, ...; empty for small batches
  uint32_t fence_skip_ = 0;      // bytes every key starts with alike (the first key's and the last's)
};

using BatchPtr = std::shared_ptr<const Batch>;

}  // namespace freshet
