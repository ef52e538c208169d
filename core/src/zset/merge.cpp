#include "freshet/zset/merge.h"

#include <algorithm>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {

namespace {
constexpr size_t kReservedMergeEntries = 256;
}  // namespace

BatchPtr merge_batches(const Batch& a, const Batch& b) {
  SortedBatchBuilder builder;
  // The small merges of every step, sized up front; large ones grow as they
  // go (a reservation for all entries would outlive entries that cancel).
  if (a.size() + b.size() <= kReservedMergeEntries) {
    builder.reserve(a.size() + b.size(), a.key_bytes() + b.key_bytes(), a.value_bytes() + b.value_bytes());
  }
  BatchCursor left(a), right(b);
  while (left.valid() && right.valid()) {
    int c = compare_entries(left, right);
    if (c <= 0) {
      builder.push(left.key(), left.value(), left.weight());
      left.next();
    } else {
      builder.push(right.key(), right.value(), right.weight());
      right.next();
    }
  }
  for (; left.valid(); left.next()) builder.push(left.key(), left.value(), left.weight());
  for (; right.valid(); right.next()) builder.push(right.key(), right.value(), right.weight());
  return builder.finish();
}

BatchPtr merge_all(std::vector<BatchPtr> batches) {
  if (batches.empty()) return Batch::empty_batch();
  auto larger = [](const BatchPtr& x, const BatchPtr& y) { return x->size() > y->size(); };
  // Always merge the two smallest: total work O(n log k).
  while (batches.size() > 1) {
    std::sort(batches.begin(), batches.end(), larger);
    BatchPtr smallest = batches.back();
    batches.pop_back();
    batches.back() = merge_batches(*batches.back(), *smallest);
  }
  return batches.front();
}

BatchPtr negate_batch(const Batch& a) {
  SortedBatchBuilder builder;
  for (BatchCursor c(a); c.valid(); c.next()) builder.push(c.key(), c.value(), -c.weight());
  return builder.finish();
}

}  // namespace freshet
