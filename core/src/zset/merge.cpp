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

BatchPtr merge_many(const std::vector<BatchPtr>& batches) {
  size_t entries = 0, key_bytes = 0, value_bytes = 0;
  std::vector<BatchCursor> heap;
  for (const BatchPtr& batch : batches) {
    if (batch->size() == 0) continue;
    entries += batch->size();
    key_bytes += batch->key_bytes();
    value_bytes += batch->value_bytes();
    heap.emplace_back(*batch);
  }
  if (heap.size() == 1) {
    for (const BatchPtr& batch : batches) {
      if (batch->size() != 0) return batch;
    }
  }
  // A min-heap of the cursors by their current (key, value).
  auto after = [](const BatchCursor& a, const BatchCursor& b) {
    const int c = compare_rows(a.key(), b.key());
    return c != 0 ? c > 0 : compare_rows(a.value(), b.value()) > 0;
  };
  std::make_heap(heap.begin(), heap.end(), after);
  SortedBatchBuilder out;
  out.reserve(entries, key_bytes, value_bytes);
  while (!heap.empty()) {
    BatchCursor& least = heap.front();
    out.push(least.key(), least.value(), least.weight());  // sums an entry equal to the last
    least.next();
    if (least.valid()) {
      // Sift the advanced cursor down (std::pop_heap + push_heap would move it twice).
      size_t at = 0;
      for (;;) {
        size_t child = 2 * at + 1;
        if (child >= heap.size()) break;
        if (child + 1 < heap.size() && after(heap[child], heap[child + 1])) ++child;
        if (!after(heap[at], heap[child])) break;
        std::swap(heap[at], heap[child]);
        at = child;
      }
    } else {
      std::pop_heap(heap.begin(), heap.end(), after);
      heap.pop_back();
    }
  }
  return out.finish();
}

BatchPtr negate_batch(const Batch& a) {
  SortedBatchBuilder builder;
  for (BatchCursor c(a); c.valid(); c.next()) builder.push(c.key(), c.value(), -c.weight());
  return builder.finish();
}

}  // namespace freshet
