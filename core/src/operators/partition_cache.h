// PartitionCache: what a rank-limited operator (top_k, a window with a rank
// limit) last read of a partition's first positions, kept across steps so
// that a change landing past them is recognised without reading the trace.
// Private to those operators.
//
// ## Invariants
// An entry is exactly what a walk of the partition's trace would read now:
// the operator replaces it whenever a step may have moved those positions,
// and drops everything when its trace is replaced (restore) or rolled back.
// Nothing of it is saved in a checkpoint: a missing entry is read again
// from the trace on the partition's next change.
//
// Bytes are bounded: past max_bytes, arbitrary entries are dropped (they
// are only re-read later), and a value larger than an eighth of the bound is
// not kept at all.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>

#include "freshet/types/row.h"

namespace freshet::rank_limit_detail {

template <typename Value>
class PartitionCache {
 public:
  explicit PartitionCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  //! The partition's value, or null; valid until the next put, erase or clear.
  const Value* find(RowRef partition) {
    key_.assign(reinterpret_cast<const char*>(partition.data), partition.size);
    auto it = entries_.find(key_);
    return it == entries_.end() ? nullptr : &it->second.value;
  }

  //! Keeps `value` for the partition (replacing what was kept), when it fits;
  //! `value_bytes`: what it holds on the heap beyond sizeof(Value).
  void put(RowRef partition, Value value, size_t value_bytes) {
    key_.assign(reinterpret_cast<const char*>(partition.data), partition.size);
    const size_t bytes = kNodeBytes + sizeof(Value) + key_.size() + value_bytes;
    auto it = entries_.find(key_);
    if (it != entries_.end()) {
      bytes_ -= it->second.bytes;
      entries_.erase(it);
    }
    if (bytes > max_bytes_ / 8) return;
    while (bytes_ + bytes > max_bytes_ && !entries_.empty()) {
      bytes_ -= entries_.begin()->second.bytes;
      entries_.erase(entries_.begin());
    }
    bytes_ += bytes;
    entries_.emplace(key_, Entry{std::move(value), bytes});
  }

  void clear() {
    entries_.clear();
    bytes_ = 0;
  }
  size_t bytes() const { return bytes_; }
  size_t size() const { return entries_.size(); }

 private:
  // A hash node's own overhead (links, hash, the key string's header).
  static constexpr size_t kNodeBytes = 64;
  struct Entry {
    Value value;
    size_t bytes;
  };
  const size_t max_bytes_;
  std::unordered_map<std::string, Entry> entries_;
  size_t bytes_ = 0;
  std::string key_;  // the partition looked up, reused so lookups do not allocate
};

}  // namespace freshet::rank_limit_detail
