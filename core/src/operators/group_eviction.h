// GroupEviction: the bounded state that LATENESS allows an aggregate. When a
// group key column is tied to a table's watermark (the LATENESS column
// itself, or TUMBLE/HOP window bounds over it), a group whose key value v
// has v + span <= watermark can get no more input: every later update of
// the table is at or above the watermark or dropped as late. Such groups
// are forgotten after the step; their output rows stay in the view (they
// are not retracted).
//
//   key column               span      closed when
//   the LATENESS column t    1         t < watermark
//   window_start s           size      s + size <= watermark (the window ended)
//   window_end e             0         e <= watermark
//
// Only linear aggregates (COUNT, SUM, AVG) are evicted: their whole state is
// the group's accumulators. Keys are kept ordered by their time so a step
// evicts by popping the front: O(evicted × log groups).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "aggregation.h"
#include "freshet/operators/aggregate.h"

namespace freshet::aggregate_detail {

class GroupEviction {
 public:
  GroupEviction(SchemaPtr key_schema, GroupEvictionSpec spec) : key_schema_(std::move(key_schema)), spec_(spec) {}

  //! Notes a group key touched this step (a no-op when already known).
  void touched(RowRef key);
  //! Forgets the groups closed by the table's current watermark.
  void evict(Aggregation& aggregation);
  //! Rebuilds the index from the aggregation's groups (after a restore).
  void rebuild(const Aggregation& aggregation);
  size_t memory_bytes() const;

 private:
  SchemaPtr key_schema_;
  GroupEvictionSpec spec_;
  // Orders (time, key bytes) entries, and finds one from a string_view key
  // without building a string (most touched groups are already known).
  struct ByTime {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      if (a.first != b.first) return a.first < b.first;
      return std::string_view(a.second) < std::string_view(b.second);
    }
  };
  std::set<std::pair<int64_t, std::string>, ByTime> by_time_;  // (key column value, group key bytes)
  size_t key_bytes_ = 0;
};

}  // namespace freshet::aggregate_detail
