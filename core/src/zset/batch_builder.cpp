#include "freshet/zset/batch_builder.h"

#include <algorithm>
#include <cstring>

#include "freshet/circuit/work_meter.h"
#include "freshet/common/assert.h"
#include "freshet/common/fixed_row_bytes.h"
#include "freshet/common/prefix_sort.h"
#include "freshet/zset/merge.h"

namespace freshet {

void SortedBatchBuilder::push(RowRef key, RowRef value, Weight weight) {
  if (has_pending_ && key == pending_key_ && value == pending_value_) {
    pending_weight_ += weight;
    return;
  }
  flush_pending();
  has_pending_ = true;
  pending_key_ = key;
  pending_value_ = value;
  pending_weight_ = weight;
}

Batch& SortedBatchBuilder::batch() {
  if (!batch_) batch_ = std::make_shared<Batch>();
  return *batch_;
}

void SortedBatchBuilder::reserve(size_t entries, size_t key_bytes, size_t value_bytes) {
  Batch& b = batch();
  b.keys_.reserve(entries, key_bytes);
  b.values_.reserve(entries, value_bytes);
  b.weights_.reserve(entries);
}

void SortedBatchBuilder::append_key(RowRef key) {
  Batch& b = batch();
  FRESHET_ASSERT(b.keys_.empty() || compare_rows(b.keys_.back(), key) < 0);
  if (!b.value_starts_.empty()) b.value_starts_.push_back(static_cast<uint32_t>(b.weights_.size()));
  b.keys_.push_back(key);
  values_of_key_ = 0;
}

void SortedBatchBuilder::append_value(RowRef value, Weight weight) {
  Batch& b = *batch_;
  FRESHET_ASSERT(weight != 0 && (values_of_key_ == 0 || compare_rows(b.values_.back(), value) < 0));
  // Value ranges become explicit the first time a key gets a second value.
  if (values_of_key_++ > 0 && b.value_starts_.empty()) {
    for (uint32_t k = 0; k < b.keys_.size(); ++k) b.value_starts_.push_back(k);
  }
  b.values_.push_back(value);
  b.weights_.push_back(weight);
}

void SortedBatchBuilder::append_sorted_values(const WeightedValue* values, size_t count) {
  if (count == 0) return;
  Batch& b = *batch_;
  FRESHET_ASSERT(values_of_key_ == 0 || compare_rows(b.values_.back(), values[0].value) < 0);
  // As append_value: value ranges become explicit once a key has two values.
  values_of_key_ += count;
  if (values_of_key_ > 1 && b.value_starts_.empty()) {
    for (uint32_t k = 0; k < b.keys_.size(); ++k) b.value_starts_.push_back(k);
  }
  const uint32_t width = values[0].value.size;
  bool one_width = b.values_.fixed_width() && (b.values_.empty() || b.values_.width() == width);
  for (size_t i = 1; i < count && one_width; ++i) one_width = values[i].value.size == width;
  if (one_width) {
    uint8_t* to = b.values_.extend_fixed(width, count);
    for (size_t i = 0; i < count; ++i, to += width) copy_fixed_row_bytes(to, values[i].value.data, width);
  } else {
    for (size_t i = 0; i < count; ++i) b.values_.push_back(values[i].value);
  }
  for (size_t i = 0; i < count; ++i) {
    FRESHET_ASSERT(values[i].weight != 0);
    b.weights_.push_back(values[i].weight);
  }
}

void SortedBatchBuilder::append_values(const Batch& from, size_t begin, size_t end) {
  if (begin == end) return;
  Batch& b = *batch_;
  FRESHET_ASSERT(values_of_key_ == 0 || compare_rows(b.values_.back(), from.value(begin)) < 0);
  // As append_value: value ranges become explicit once a key has two values.
  values_of_key_ += end - begin;
  if (values_of_key_ > 1 && b.value_starts_.empty()) {
    for (uint32_t k = 0; k < b.keys_.size(); ++k) b.value_starts_.push_back(k);
  }
  b.values_.append(from.values_, begin, end);
  b.weights_.append(from.weights_, begin, end);
}

void SortedBatchBuilder::append_values_as_keys(const Batch& from) {
  if (from.empty()) return;
  Batch& b = batch();
  FRESHET_ASSERT(b.value_starts_.empty() && (b.keys_.empty() || compare_rows(b.keys_.back(), from.value(0)) < 0));
  b.keys_.append(from.values_, 0, from.size());
  b.values_.append_empty(from.size());
  b.weights_.append(from.weights_, 0, from.size());
  values_of_key_ = 1;
}

void SortedBatchBuilder::append_fixed_entries(const uint8_t* keys, uint32_t key_width, const uint8_t* values,
                                              uint32_t value_width, size_t count) {
  if (count == 0) return;
  Batch& b = batch();
  FRESHET_ASSERT(b.keys_.empty() || compare_rows(b.keys_.back(), RowRef(keys, key_width)) < 0);
  if (!b.value_starts_.empty()) {
    for (size_t i = 0; i < count; ++i) {
      append_key(RowRef(keys + i * key_width, key_width));
      append_value(RowRef(values + i * value_width, value_width), 1);
    }
    return;
  }
  b.keys_.append_fixed(keys, key_width, count);
  b.values_.append_fixed(values, value_width, count);
  b.weights_.append_ones(count);
  values_of_key_ = 1;
}

void SortedBatchBuilder::adopt_fixed_entries(ByteBuffer&& keys, uint32_t key_width, ByteBuffer&& values,
                                             uint32_t value_width, size_t count) {
  Batch& b = batch();
  FRESHET_ASSERT(b.weights_.empty() && !has_pending_);
  if (count == 0) return;
  b.keys_.adopt_fixed(std::move(keys), key_width, count);
  b.values_.adopt_fixed(std::move(values), value_width, count);
  b.weights_.append_ones(count);
  values_of_key_ = 1;
}

void SortedBatchBuilder::share_values_as_keys(const BatchPtr& from) {
  Batch& b = batch();
  FRESHET_ASSERT(b.weights_.empty() && !has_pending_);
  if (from->empty()) return;
  b.keys_.share_of(from->values_, from);
  b.values_.append_empty(from->size());
  b.weights_.append(from->weights_, 0, from->size());
  values_of_key_ = 1;
}

void SortedBatchBuilder::append_keys(const Batch& from, size_t begin, size_t end) {
  if (begin == end) return;
  Batch& b = batch();
  FRESHET_ASSERT(b.keys_.empty() || compare_rows(b.keys_.back(), from.key(begin)) < 0);
  if (end - begin == 1) {
    append_one_key(from, begin);
    return;
  }
  if (from.value_starts_.empty() && b.value_starts_.empty()) {
    b.keys_.append(from.keys_, begin, end);
    b.values_.append(from.values_, begin, end);
    b.weights_.append(from.weights_, begin, end);
    values_of_key_ = 1;
    return;
  }
  // Keys with several values: the same copies, and each key's start.
  if (b.value_starts_.empty()) {
    for (uint32_t k = 0; k < b.keys_.size(); ++k) b.value_starts_.push_back(k);
  }
  const size_t first = from.values_begin(begin), base = b.weights_.size();
  for (size_t k = begin; k < end; ++k) b.value_starts_.push_back(static_cast<uint32_t>(base + from.values_begin(k) - first));
  b.keys_.append(from.keys_, begin, end);
  b.values_.append(from.values_, first, from.values_begin(end));
  b.weights_.append(from.weights_, first, from.values_begin(end));
  values_of_key_ = from.values_end(end - 1) - from.values_begin(end - 1);
}

void SortedBatchBuilder::append_one_key(const Batch& from, size_t k) {
  // A merge of interleaved keys (small batches of random ids, a key's new
  // rows beside old ones) copies one key at a time: each column's row by
  // the inline single-row paths, not the range copies' general ones.
  Batch& b = *batch_;
  const size_t first = from.values_begin(k), last = from.values_end(k);
  if (from.value_starts_.empty() && b.value_starts_.empty()) {
    b.keys_.append_one(from.keys_, k);
    b.values_.append_one(from.values_, first);
    b.weights_.push_back(from.weights_[first]);
    values_of_key_ = 1;
    return;
  }
  if (b.value_starts_.empty()) {
    b.value_starts_.reserve(b.keys_.size() + 2);
    for (uint32_t key = 0; key < b.keys_.size(); ++key) b.value_starts_.push_back(key);
  }
  b.value_starts_.push_back(static_cast<uint32_t>(b.weights_.size()));
  b.keys_.append_one(from.keys_, k);
  if (last - first == 1) {
    b.values_.append_one(from.values_, first);
  } else {
    b.values_.append(from.values_, first, last);
  }
  b.weights_.append(from.weights_, first, last);
  values_of_key_ = last - first;
}

void SortedBatchBuilder::flush_pending() {
  if (!has_pending_) return;
  has_pending_ = false;
  if (pending_weight_ == 0) return;
  Batch& b = batch();
  if (b.keys_.empty() || b.keys_.back() != pending_key_) append_key(pending_key_);
  append_value(pending_value_, pending_weight_);
}

void SortedBatchBuilder::shrink_to_fit() {
  flush_pending();
  if (!batch_) return;
  batch_->keys_.shrink_bytes_to_fit();
  batch_->values_.shrink_bytes_to_fit();
}

BatchPtr SortedBatchBuilder::finish() {
  flush_pending();
  if (!batch_ || batch_->weights_.empty()) {
    batch_.reset();
    return Batch::empty_batch();
  }
  Batch& b = *batch_;
  if (!b.value_starts_.empty()) b.value_starts_.push_back(static_cast<uint32_t>(b.weights_.size()));
  if (b.keys_.size() >= Batch::kFenceMinKeys) b.build_fence();
  return std::move(batch_);
}

namespace {

constexpr size_t kKeptBytes = 64 * 1024;

}  // namespace

template <typename RowOf>
size_t BatchBuilder::common_prefix(RowOf row_of) const {
  RowRef first = row_of(entries_.front());
  size_t common = first.size;
  // From the second entry: the first shares all its bytes with itself.
  for (auto e = entries_.begin() + 1; e != entries_.end(); ++e) {
    RowRef row = row_of(*e);
    common = shared_prefix_bytes(row.data, row.size, first.data, first.size, std::min<size_t>(common, row.size));
    if (common == 0) break;
  }
  return common;
}

void BatchBuilder::add(RowRef key, RowRef value, Weight weight) {
  if (weight == 0) return;
  // Under a work meter (an ad-hoc query), past its limit nothing more is kept.
  if (WorkMeter* meter = active_work_meter(); meter && !meter->charge_entry(uint64_t{key.size} + value.size)) return;
  Entry e;
  e.key_offset = static_cast<uint32_t>(arena_.size());
  e.key_size = key.size;
  arena_.append(key.data, key.size);
  e.value_offset = static_cast<uint32_t>(arena_.size());
  e.value_size = value.size;
  arena_.append(value.data, value.size);
  e.weight = weight;
  entries_.push_back(e);
  key_bytes_ += key.size;
  value_bytes_ += value.size;
  if (run_size_ != 0 && entries_.size() >= run_size_) {
    runs_.push_back(sort_entries());
    run_entries_ += runs_.back()->size();
  }
}

BatchPtr BatchBuilder::finish() {
  if (!runs_.empty()) {
    if (!entries_.empty()) runs_.push_back(sort_entries());
    // The runs' buffers are freed before the merge, whose output can then
    // take their memory (in wasm the heap's high-water mark is what gets
    // touched, and paid for, once); a big step comes again rarely.
    arena_.release();
    std::vector<Entry>().swap(entries_);
    std::vector<Entry>().swap(sort_scratch_);
    std::vector<WeightedValue>().swap(key_values_);
    BatchPtr merged = merge_many(runs_);
    runs_.clear();
    run_entries_ = 0;
    return merged;
  }
  if (entries_.empty()) return Batch::empty_batch();
  BatchPtr batch = sort_entries();
  // A builder kept for its capacity (reused every step) keeps a large one
  // only while steps fill it: the steps of a bulk load then reuse it rather
  // than grow a new one by doubling each step (copies, and fresh memory
  // between the traces' batches), and the first small step after the load
  // frees it.
  if (memory_bytes() > kKeptBytes && last_sorted_ < std::max(entries_.capacity(), sort_scratch_.capacity()) / 4) {
    arena_.release();
    std::vector<Entry>().swap(entries_);  // `entries_ = {}` would keep the capacity
    std::vector<Entry>().swap(sort_scratch_);
    std::vector<WeightedValue>().swap(key_values_);
  }
  return batch;
}

BatchPtr BatchBuilder::sort_entries() {
  // Prefixes of the first bytes where rows can differ: bytes every key (or
  // value) shares — a null bitmap, the slot of a string of one length, a
  // group's key columns — would end no comparison. Past those bytes the
  // suffixes order as the whole rows do.
  const size_t key_skip = common_prefix([this](const Entry& e) { return key_of(e); });
  const size_t value_skip = common_prefix([this](const Entry& e) { return value_of(e); });
  const uint32_t key_size = entries_.front().key_size;
  bool one_key_size = true;
  for (Entry& e : entries_) {
    e.key_prefix = big_endian_prefix(arena_.data() + e.key_offset + key_skip, e.key_size - key_skip);
    e.value_prefix = big_endian_prefix(arena_.data() + e.value_offset + value_skip, e.value_size - value_skip);
    one_key_size &= e.key_size == key_size;
  }
  auto suffix = [](RowRef row, size_t skip) { return RowRef(row.data + skip, static_cast<uint32_t>(row.size - skip)); };
  // Rows of equal prefixes and one size that fits in its prefix are equal:
  // no need to compare their bytes (a group key of a few bytes, shared by
  // many entries, compares once per pair otherwise).
  const size_t key_whole = key_skip + 8, value_whole = value_skip + 8;
  auto before = [&](const Entry& a, const Entry& b) {
    if (a.key_prefix != b.key_prefix) return a.key_prefix < b.key_prefix;
    if (a.key_size != b.key_size || a.key_size > key_whole) {
      int c = compare_rows(suffix(key_of(a), key_skip), suffix(key_of(b), key_skip));
      if (c != 0) return c < 0;
    }
    if (a.value_prefix != b.value_prefix) return a.value_prefix < b.value_prefix;
    if (a.value_size == b.value_size && a.value_size <= value_whole) return false;
    return compare_rows(suffix(value_of(a), value_skip), suffix(value_of(b), value_skip)) < 0;
  };
  // Callers often add in key order already (an upsert input walks its keys
  // in order): a pass that stops at the first pair out of order is cheap
  // beside a sort's n log n comparisons.
  if (!std::is_sorted(entries_.begin(), entries_.end(), before)) {
    // Keys of one size that end within their prefixes (an integer or two,
    // past the bytes all keys share) order as those prefixes do, which
    // leave their last bytes zero: the values' first bytes go there, so
    // that the radix passes order the values as well as the keys and leave
    // few ties to `before` (a map keying a bulk load by a column of few
    // values: ~16 values of a key in each run, otherwise sorted by
    // comparisons of 40-byte entries).
    const size_t key_rest = key_size - key_skip;
    if (one_key_size && key_rest < 8) {
      const unsigned value_shift = static_cast<unsigned>(8 * key_rest);
      sort_by_prefix(
          entries_, sort_scratch_,
          [value_shift](const Entry& e) { return e.key_prefix | (e.value_prefix >> value_shift); }, before);
    } else {
      sort_by_prefix(
          entries_, sort_scratch_, [](const Entry& e) { return e.key_prefix; }, before);
    }
  }
  // Equal entries are adjacent now: `before` tells them apart, mostly by
  // their prefixes, so each entry's bytes are read once, to be copied. (A
  // SortedBatchBuilder::push compares keys and values byte by byte: in a big
  // step's arena, far larger than a cache and read in sorted order, that
  // was a cache miss per entry and field.)
  auto same_key = [&](const Entry& a, const Entry& b) {
    if (a.key_prefix != b.key_prefix || a.key_size != b.key_size) return false;
    return a.key_size <= key_whole || suffix(key_of(a), key_skip) == suffix(key_of(b), key_skip);
  };
  SortedBatchBuilder sorted;
  sorted.reserve(entries_.size(), key_bytes_, value_bytes_);
  const Entry* last_key = nullptr;  // the entry whose key was appended last
  std::vector<WeightedValue>& key_values = key_values_;  // of last_key's key, to append together
  key_values.clear();
  for (size_t i = 0; i < entries_.size();) {
    const Entry& e = entries_[i];
    Weight weight = e.weight;
    for (++i; i < entries_.size() && !before(e, entries_[i]); ++i) weight += entries_[i].weight;
    if (weight == 0) continue;
    if (!last_key || !same_key(*last_key, e)) {
      sorted.append_sorted_values(key_values.data(), key_values.size());
      key_values.clear();
      sorted.append_key(key_of(e));
      last_key = &e;
    }
    key_values.push_back({value_of(e), weight});
  }
  sorted.append_sorted_values(key_values.data(), key_values.size());
  // A run's keys were reserved for as many as its entries: many entries
  // of one key leave most of that room, given back in place.
  if (run_size_ != 0 && entries_.size() >= run_size_) sorted.shrink_to_fit();
  last_sorted_ = entries_.size();
  entries_.clear();
  arena_.clear();
  key_bytes_ = value_bytes_ = 0;
  return sorted.finish();
}

}  // namespace freshet
