#include "freshet/zset/merge.h"

#include <algorithm>

#include "freshet/zset/batch_builder.h"
#include "freshet/zset/cursor.h"

namespace freshet {

namespace {

// The end of the run of keys of `x` from `from` that sort before `bound`
// (x.key(from) does): galloping — 1, 2, 4, ... keys ahead, then a binary
// search — so an interleaved merge pays one extra comparison per key and a
// run of n keys (new ids after old ones) about 2 log n.
size_t end_of_run(const Batch& x, size_t from, RowRef bound) {
  size_t below = from;  // x.key(below) < bound
  size_t step = 1;
  size_t probe = from + 1;
  while (probe < x.key_count() && compare_rows(x.key(probe), bound) < 0) {
    below = probe;
    step *= 2;
    probe = below + step;
  }
  size_t low = below + 1, high = probe < x.key_count() ? probe : x.key_count();
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (compare_rows(x.key(middle), bound) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
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

// Both inputs are sorted and consolidated, so the output is built run by
// run: keys of one side up to the other's next key are copied in bulk, keys
// both sides hold are summed (a generic builder compares each entry with the
// one before it, several row comparisons per entry).
BatchPtr merge_batches(const Batch& a, const Batch& b) {
  SortedBatchBuilder builder;
  // Sized up front: a merge's output is at most its inputs together, and a
  // reservation wastes only what cancels, where growing by doubling can
  // leave up to half the capacity unused in every trace.
  builder.reserve(a.size() + b.size(), a.key_bytes() + b.key_bytes(), a.value_bytes() + b.value_bytes());
  size_t ka = 0, kb = 0;
  while (ka < a.key_count() && kb < b.key_count()) {
    int c = compare_rows(a.key(ka), b.key(kb));
    if (c < 0) {
      size_t end = end_of_run(a, ka, b.key(kb));
      builder.append_keys(a, ka, end);
      ka = end;
    } else if (c > 0) {
      size_t end = end_of_run(b, kb, a.key(ka));
      builder.append_keys(b, kb, end);
      kb = end;
    } else {
      merge_key(a, ka++, b, kb++, builder);
    }
  }
  builder.append_keys(a, ka, a.key_count());
  builder.append_keys(b, kb, b.key_count());
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
