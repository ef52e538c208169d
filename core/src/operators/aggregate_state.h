// The mutable state of one aggregate operator, in one struct so that a
// checkpoint can save and restore it whole. Everything else the operator holds
// is either immutable (its plan) or scratch emptied within every step.
//
//   groups          group key bytes -> GroupState (count, accumulators, last output)
//   value_traces    per aggregate: MIN/MAX sort entries or COUNT DISTINCT values, keyed by group
//   pending         groups touched since their output was last emitted
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "aggregate_accumulator.h"
#include "freshet/common/hash.h"
#include "freshet/operators/aggregate.h"
#include "freshet/zset/trace.h"

namespace freshet::aggregate_detail {

struct GroupState {
  Weight count = 0;                       //!< total weight of the group's rows
  std::vector<Accumulator> accumulators;  //!< one per aggregate
  std::string output;                     //!< the row last emitted, when `emitted`
  bool emitted = false;
  bool pending = false;  //!< listed in AggregateState::pending
};

struct RowBytesHash {
  size_t operator()(const std::string& bytes) const {
    return static_cast<size_t>(hash_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  }
};

using GroupMap = std::unordered_map<std::string, GroupState, RowBytesHash>;

struct AggregateState {
  GroupMap groups;
  //! One per aggregate; used by MIN/MAX (group -> sort entry) and COUNT DISTINCT (group -> value row).
  std::vector<Trace> value_traces;
  //! Groups whose output may have changed since it was last emitted. Node
  //! pointers stay valid: groups are only erased once they leave this list.
  std::vector<GroupMap::value_type*> pending;
  //! Bytes held by `groups` (kept up to date so state_bytes() is O(aggregates)).
  size_t group_bytes = 0;
  AggregateWork work;

  //! The group for `key`, created empty (with `aggregate_count` accumulators) if new.
  GroupMap::value_type& find_or_add(RowRef key, size_t aggregate_count);
  //! Lists a group as pending (once).
  void mark_pending(GroupMap::value_type& group);
  //! Removes a group that has no rows left; its accounting goes with it.
  void erase(GroupMap::value_type& group);
  size_t memory_bytes() const;
};

//! Bytes one group takes in the map (node, key, accumulators, output row).
size_t group_footprint(const GroupMap::value_type& group);

}  // namespace freshet::aggregate_detail
