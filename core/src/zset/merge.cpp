#include "freshet/zset/merge.h"

#include <algorithm>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"
#include "freshet/zset/fueled_merge.h"

namespace freshet {

// The whole merge in one slice: a FueledMerge given all the fuel it can use.
BatchPtr merge_batches(const Batch& a, const Batch& b) {
  FueledMerge merge(a, b);
  merge.work(UINT64_MAX);
  return merge.finish();
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
