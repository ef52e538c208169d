#include "aggregate_state.h"

namespace freshet::aggregate_detail {

size_t group_footprint(const GroupMap::value_type& group) {
  // A node holds the pair and a next pointer (and, in libstdc++, a cached hash).
  constexpr size_t kNodeOverhead = 2 * sizeof(void*);
  const GroupState& state = group.second;
  size_t bytes = sizeof(GroupMap::value_type) + kNodeOverhead + state.accumulators.capacity() * sizeof(Accumulator);
  // Short strings live inside the std::string object itself.
  if (group.first.capacity() > sizeof(std::string)) bytes += group.first.capacity();
  if (state.output.capacity() > sizeof(std::string)) bytes += state.output.capacity();
  return bytes;
}

GroupMap::value_type& AggregateState::find_or_add(RowRef key, size_t aggregate_count) {
  auto [it, inserted] = groups.try_emplace(key.to_bytes());
  if (inserted) {
    it->second.accumulators.resize(aggregate_count);
    group_bytes += group_footprint(*it);
  }
  return *it;
}

void AggregateState::mark_pending(GroupMap::value_type& group) {
  if (group.second.pending) return;
  group.second.pending = true;
  pending.push_back(&group);
}

void AggregateState::erase(GroupMap::value_type& group) {
  group_bytes -= group_footprint(group);
  groups.erase(groups.find(group.first));
}

size_t AggregateState::memory_bytes() const {
  size_t bytes = group_bytes + groups.bucket_count() * sizeof(void*) + pending.capacity() * sizeof(void*);
  for (const Trace& trace : value_traces) bytes += trace.memory_bytes();
  return bytes;
}

}  // namespace freshet::aggregate_detail
