#include "group_eviction.h"

#include "freshet/operators/lateness_filter.h"

namespace freshet::aggregate_detail {

void GroupEviction::touched(RowRef key) {
  RowReader row(*key_schema_, key);
  if (row.is_null(spec_.key_column)) return;  // a NULL time never closes
  const int64_t time = row.get_int(spec_.key_column);
  const std::pair<int64_t, std::string_view> probe(time,
                                                   std::string_view(reinterpret_cast<const char*>(key.data), key.size));
  if (by_time_.find(probe) != by_time_.end()) return;
  auto it = by_time_.emplace(time, key.to_bytes()).first;
  key_bytes_ += it->second.capacity();
}

void GroupEviction::evict(Aggregation& aggregation) {
  std::optional<int64_t> watermark = spec_.watermark->watermark();
  if (!watermark) return;
  while (!by_time_.empty()) {
    auto first = by_time_.begin();
    if (static_cast<__int128>(first->first) + spec_.span > *watermark) break;  // still open

    aggregation.forget(first->second);
    key_bytes_ -= first->second.capacity();
    by_time_.erase(first);
  }
}

void GroupEviction::rebuild(const Aggregation& aggregation) {
  by_time_.clear();
  key_bytes_ = 0;
  aggregation.for_each_group([this](const std::string& key) { touched(RowRef(key)); });
}

size_t GroupEviction::memory_bytes() const {
  // A red-black tree node: three pointers and a colour, then the pair.
  constexpr size_t kNodeBytes = 4 * sizeof(void*) + sizeof(std::pair<int64_t, std::string>);
  return by_time_.size() * kNodeBytes + key_bytes_;
}

}  // namespace freshet::aggregate_detail
