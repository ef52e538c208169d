#include "freshet/zset/merge.h"

#include <algorithm>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {

namespace {
constexpr size_t kReservedMergeEntries = 256;
}  // namespace

namespace {

void copy_key(const Batch& from, size_t k, SortedBatchBuilder& out) {
  out.append_key(from.key(k));
  for (size_t v = from.values_begin(k); v < from.values_end(k); ++v) out.append_value(from.value(v), from.weight(v));
}

// The values of a key both batches hold: summed where they meet, the key
// written only if some value keeps a non-zero weight.
void merge_key(const Batch& a, size_t ka, const Batch& b, size_t kb, SortedBatchBuilder& out) {
  bool key_written = false;
  auto emit = [&](RowRef value, Weight weight) {
    if (!key_written) out.append_key(a.key(ka));
    key_written = true;
    out.append_value(value, weight);
  };
  size_t va = a.values_begin(ka), va_end = a.values_end(ka);
  size_t vb = b.values_begin(kb), vb_end = b.values_end(kb);
  while (va < va_end && vb < vb_end) {
    int c = compare_rows(a.value(va), b.value(vb));
    if (c < 0) {
      emit(a.value(va), a.weight(va));
      ++va;
    } else if (c > 0) {
      emit(b.value(vb), b.weight(vb));
      ++vb;
    } else {
      if (Weight sum = a.weight(va) + b.weight(vb); sum != 0) emit(a.value(va), sum);
      ++va;
      ++vb;
    }
  }
  for (; va < va_end; ++va) emit(a.value(va), a.weight(va));
  for (; vb < vb_end; ++vb) emit(b.value(vb), b.weight(vb));
}

}  // namespace

// Both inputs are sorted and consolidated, so the output is built key by key
// with one comparison per step (a generic builder compares each entry with
// the one before it, several row comparisons per entry).
BatchPtr merge_batches(const Batch& a, const Batch& b) {
  SortedBatchBuilder builder;
  // The small merges of every step, sized up front; large ones grow as they
  // go (a reservation for all entries would outlive entries that cancel).
  if (a.size() + b.size() <= kReservedMergeEntries) {
    builder.reserve(a.size() + b.size(), a.key_bytes() + b.key_bytes(), a.value_bytes() + b.value_bytes());
  }
  size_t ka = 0, kb = 0;
  while (ka < a.key_count() && kb < b.key_count()) {
    int c = compare_rows(a.key(ka), b.key(kb));
    if (c < 0) {
      copy_key(a, ka++, builder);
    } else if (c > 0) {
      copy_key(b, kb++, builder);
    } else {
      merge_key(a, ka++, b, kb++, builder);
    }
  }
  for (; ka < a.key_count(); ++ka) copy_key(a, ka, builder);
  for (; kb < b.key_count(); ++kb) copy_key(b, kb, builder);
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
