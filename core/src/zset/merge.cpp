#include "freshet/zset/merge.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "freshet/common/prefix_sort.h"
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

namespace {

// How many leading bytes `a` and `b` share.
size_t shared_bytes(RowRef a, RowRef b) {
  return shared_prefix_bytes(a.data, a.size, b.data, b.size, std::min(a.size, b.size));
}

// Row order for rows that all start with the same `skip` bytes: 8 bytes
// from there, big-endian (as a sort's prefixes), decide most comparisons
// with one integer comparison; only rows equal in them are compared byte by
// byte (and not even those when both end within them).
struct PrefixOrder {
  size_t skip = 0;
  uint64_t prefix_of(RowRef row) const { return big_endian_prefix(row.data + skip, row.size - skip); }
  int compare(RowRef a, uint64_t a_prefix, RowRef b, uint64_t b_prefix) const {
    if (a_prefix != b_prefix) return a_prefix < b_prefix ? -1 : 1;
    if (a.size == b.size && a.size <= skip + 8) return 0;
    return compare_rows(RowRef(a.data + skip, static_cast<uint32_t>(a.size - skip)),
                        RowRef(b.data + skip, static_cast<uint32_t>(b.size - skip)));
  }
};

// The end of the run of items from `from` that sort before a bound, no
// further than `limit` (> from); below(i) tells whether item i does, and
// below(from) holds. Galloping (1, 2, 4, ... items ahead, then a binary
// search): an interleaved merge pays one comparison per item, a run of n
// items about 2 log n.
template <typename Below>
size_t end_of_run(size_t from, size_t limit, Below below) {
  size_t below_at = from, step = 1, probe = from + 1;
  while (probe < limit && below(probe)) {
    below_at = probe;
    step *= 2;
    probe = below_at + step;
  }
  size_t low = below_at + 1, high = std::min(probe, limit);
  while (low < high) {
    const size_t middle = low + (high - low) / 2;
    if (below(middle)) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

// Restores a min-heap (by `after`, as std::make_heap's comparator) whose
// entry `at` may have grown.
template <typename Source, typename After>
void sift_down(std::vector<Source>& heap, size_t at, After after) {
  for (;;) {
    size_t child = 2 * at + 1;
    if (child >= heap.size()) return;
    if (child + 1 < heap.size() && after(heap[child], heap[child + 1])) ++child;
    if (!after(heap[at], heap[child])) return;
    std::swap(heap[at], heap[child]);
    at = child;
  }
}

// A k-way merge of sorted sources that moves whole runs. Each round looks at
// the least current item: when it sorts before every other source's,
// run(source, runner_up) takes that source's items before the runner-up's
// current one (all of them with no runner-up) and moves the source on;
// when other sources hold the same item, equal(group) takes the equal items
// of all of them and moves each on. Sources have valid() and are compared
// by compare(a, b) on their current items.
// Stops early, with the sources left in `heap`, once stop() holds at the
// start of a round: everything written sorts before what they still hold.
template <typename Source, typename Compare, typename Run, typename Equal, typename Stop>
void merge_runs(std::vector<Source>& heap, Compare compare, Run run, Equal equal, Stop stop) {
  auto after = [&](const Source& a, const Source& b) { return compare(a, b) > 0; };
  std::make_heap(heap.begin(), heap.end(), after);
  std::vector<size_t> pending;
  std::vector<Source*> group;
  while (!heap.empty() && !stop()) {
    size_t runner_up = heap.size() > 1 ? 1 : 0;  // the least child of the root: the second least of all
    if (heap.size() > 2 && after(heap[1], heap[2])) runner_up = 2;
    if (runner_up == 0 || compare(heap[0], heap[runner_up]) < 0) {
      run(heap[0], runner_up == 0 ? nullptr : &heap[runner_up]);
      if (!heap[0].valid()) {
        std::swap(heap[0], heap.back());
        heap.pop_back();
      }
      sift_down(heap, 0, after);
      continue;
    }
    // The entries equal to the root are a subtree around it (a heap's
    // parent is never greater than its children).
    group.clear();
    pending.assign(1, 0);
    while (!pending.empty()) {
      const size_t at = pending.back();
      pending.pop_back();
      group.push_back(&heap[at]);
      for (size_t child = 2 * at + 1; child <= 2 * at + 2 && child < heap.size(); ++child) {
        if (compare(heap[child], heap[0]) == 0) pending.push_back(child);
      }
    }
    equal(group);
    heap.erase(std::remove_if(heap.begin(), heap.end(), [](const Source& s) { return !s.valid(); }), heap.end());
    std::make_heap(heap.begin(), heap.end(), after);
  }
}

// A batch's place in merge_many: its current key.
struct KeySource {
  const Batch* batch;
  size_t k;
  RowRef key;
  uint64_t prefix;
  bool valid() const { return k < batch->key_count(); }
};

// A batch's values of the key being merged: [v, end).
struct ValueSource {
  const Batch* batch;
  size_t v, end;
  RowRef value;
  uint64_t prefix;
  bool valid() const { return v < end; }
};

// One value of a key, gathered from its batch to be sorted with the others.
struct GatheredValue {
  uint64_t prefix;
  const uint8_t* data;
  uint32_t size;
  Weight weight;
};

// What merge_values keeps between keys for its capacity.
struct ValueMergeRoom {
  std::vector<ValueSource> sources;
  std::vector<GatheredValue> gathered, scratch;
  std::vector<size_t> ends;
  std::vector<WeightedValue> summed;
};

// Below this many values of a key per batch on average, a heap merge can
// gain little by moving runs: its values are gathered and sorted at once.
constexpr size_t kGatherPerSource = 32;
// A heap merge that has moved fewer than kShortRun values a round over its
// first kProbeRounds rounds meets values interleaved one by one (the runs
// of a big step whose rows came in random order): it gathers the rest.
constexpr size_t kProbeRounds = 8, kShortRun = 4;
// Writes the values [v, end) of every source, which all sort after what
// `out` holds, sorted and summed, with the key before the first unless
// `key_written`. An interleaved merge through a heap moves one value per
// round (a run search, an append of one, a sift); here each source's
// values are gathered with their prefixes as a sorted stretch, and
// neighbouring stretches are merged pairwise (log2(sources) passes of a
// tight loop), then one pass sums equal neighbours.
void write_gathered_values(RowRef key, bool key_written, const std::vector<ValueSource>& sources,
                           const PrefixOrder& order, SortedBatchBuilder& out, ValueMergeRoom& room) {
  std::vector<GatheredValue>& values = room.gathered;
  std::vector<size_t>& ends = room.ends;  // of the sorted stretches
  values.clear();
  ends.clear();
  for (const ValueSource& s : sources) {
    for (size_t v = s.v; v < s.end; ++v) {
      const RowRef value = s.batch->value(v);
      values.push_back({order.prefix_of(value), value.data, value.size, s.batch->weight(v)});
    }
    ends.push_back(values.size());
  }
  auto row = [](const GatheredValue& g) { return RowRef(g.data, g.size); };
  auto compare = [&](const GatheredValue& a, const GatheredValue& b) {
    return order.compare(row(a), a.prefix, row(b), b.prefix);
  };
  auto before = [&](const GatheredValue& a, const GatheredValue& b) {
    return a.prefix != b.prefix ? a.prefix < b.prefix : compare(a, b) < 0;
  };
  room.scratch.resize(values.size());
  while (ends.size() > 1) {
    GatheredValue* to = room.scratch.data();
    size_t begin = 0, merged = 0;
    for (size_t i = 0; i < ends.size(); i += 2) {
      const size_t middle = ends[i], end = i + 1 < ends.size() ? ends[i + 1] : middle;
      to = std::merge(values.begin() + static_cast<std::ptrdiff_t>(begin),
                      values.begin() + static_cast<std::ptrdiff_t>(middle),
                      values.begin() + static_cast<std::ptrdiff_t>(middle),
                      values.begin() + static_cast<std::ptrdiff_t>(end), to, before);
      ends[merged++] = end;
      begin = end;
    }
    ends.resize(merged);
    values.swap(room.scratch);
  }
  std::vector<WeightedValue>& summed = room.summed;
  summed.clear();
  for (size_t i = 0; i < values.size();) {
    const GatheredValue& first = values[i];
    Weight sum = first.weight;
    for (++i; i < values.size() && compare(first, values[i]) == 0; ++i) sum += values[i].weight;
    if (sum != 0) summed.push_back({row(first), sum});
  }
  if (summed.empty()) return;
  if (!key_written) out.append_key(key);
  out.append_sorted_values(summed.data(), summed.size());
}

// Writes the values of `key` that the batches in `group` hold (their current
// key), summed, and the key before them unless they all cancel.
void merge_values(RowRef key, const std::vector<KeySource*>& group, SortedBatchBuilder& out, ValueMergeRoom& room) {
  std::vector<ValueSource>& sources = room.sources;
  sources.clear();
  size_t total = 0;
  for (const KeySource* s : group) {
    const Batch& b = *s->batch;
    sources.push_back({&b, b.values_begin(s->k), b.values_end(s->k), RowRef(), 0});
    total += sources.back().end - sources.back().v;
  }
  // The batches' values of a key lie apart, one batch's after another's,
  // when the batches hold consecutive parts of their input (the runs of a
  // big step whose rows came in order: ids): then each batch's values are
  // copied whole.
  auto first = [](const ValueSource& s) { return s.batch->value(s.v); };
  auto last = [](const ValueSource& s) { return s.batch->value(s.end - 1); };
  std::sort(sources.begin(), sources.end(),
            [&](const ValueSource& a, const ValueSource& b) { return compare_rows(first(a), first(b)) < 0; });
  bool apart = true;
  for (size_t i = 0; i + 1 < sources.size() && apart; ++i) apart = compare_rows(last(sources[i]), first(sources[i + 1])) < 0;
  if (apart) {
    out.append_key(key);
    for (const ValueSource& s : sources) out.append_values(*s.batch, s.v, s.end);
    return;
  }
  PrefixOrder order{SIZE_MAX};
  for (const ValueSource& s : sources) {
    order.skip = std::min({order.skip, shared_bytes(first(sources[0]), first(s)), shared_bytes(first(s), last(s))});
  }
  if (total <= kGatherPerSource * sources.size()) return write_gathered_values(key, false, sources, order, out, room);
  for (ValueSource& s : sources) {
    s.value = first(s);
    s.prefix = order.prefix_of(s.value);
  }
  size_t rounds = 0, moved = 0;
  auto move_to = [&](ValueSource& s, size_t v) {
    s.v = v;
    if (v == s.end) return;
    s.value = s.batch->value(v);
    s.prefix = order.prefix_of(s.value);
  };
  bool key_written = false;
  auto write_key = [&] {
    if (!key_written) out.append_key(key);
    key_written = true;
  };
  merge_runs(
      sources,
      [&](const ValueSource& a, const ValueSource& b) { return order.compare(a.value, a.prefix, b.value, b.prefix); },
      [&](ValueSource& s, const ValueSource* runner_up) {
        size_t end = s.end;
        if (runner_up) {
          end = end_of_run(s.v, s.end, [&](size_t v) {
            const RowRef value = s.batch->value(v);
            return order.compare(value, order.prefix_of(value), runner_up->value, runner_up->prefix) < 0;
          });
        }
        write_key();
        out.append_values(*s.batch, s.v, end);
        ++rounds;
        moved += end - s.v;
        move_to(s, end);
      },
      [&](const std::vector<ValueSource*>& equal) {
        Weight sum = 0;
        for (const ValueSource* s : equal) sum += s->batch->weight(s->v);
        if (sum != 0) {
          write_key();
          out.append_value(equal[0]->value, sum);
        }
        ++rounds;
        moved += equal.size();
        for (ValueSource* s : equal) move_to(*s, s->v + 1);
      },
      [&] { return rounds >= kProbeRounds && moved < kShortRun * rounds; });
  if (!sources.empty()) write_gathered_values(key, key_written, sources, order, out, room);
}

}  // namespace

// Batches are merged key by key: a key only one batch holds (before every
// other batch's next key) is copied with the keys after it up to that next
// key, in bulk; a key several hold has their values merged the same way.
// Comparisons go by 8-byte prefixes past the bytes all keys share (as the
// runs' sorts do). The merge of a big step's runs (BatchBuilder::sort_in_runs)
// then costs a few comparisons per key and run, not two full comparisons of
// keys and of values per entry and heap level.
BatchPtr merge_many(const std::vector<BatchPtr>& batches) {
  size_t entries = 0, key_bytes = 0, value_bytes = 0;
  std::vector<KeySource> sources;
  for (const BatchPtr& batch : batches) {
    if (batch->size() == 0) continue;
    entries += batch->size();
    key_bytes += batch->key_bytes();
    value_bytes += batch->value_bytes();
    sources.push_back({batch.get(), 0, batch->key(0), 0});
  }
  if (sources.empty()) return Batch::empty_batch();
  if (sources.size() == 1) {
    for (const BatchPtr& batch : batches) {
      if (batch->size() != 0) return batch;
    }
  }
  // Keys between a batch's first and last share the bytes those two share.
  PrefixOrder order{SIZE_MAX};
  for (const KeySource& s : sources) {
    const RowRef last = s.batch->key(s.batch->key_count() - 1);
    order.skip = std::min({order.skip, shared_bytes(sources[0].key, s.key), shared_bytes(s.key, last)});
  }
  for (KeySource& s : sources) s.prefix = order.prefix_of(s.key);
  auto move_to = [&](KeySource& s, size_t k) {
    s.k = k;
    if (!s.valid()) return;
    s.key = s.batch->key(k);
    s.prefix = order.prefix_of(s.key);
  };
  SortedBatchBuilder out;
  out.reserve(entries, key_bytes, value_bytes);
  ValueMergeRoom values;
  merge_runs(
      sources, [&](const KeySource& a, const KeySource& b) { return order.compare(a.key, a.prefix, b.key, b.prefix); },
      [&](KeySource& s, const KeySource* runner_up) {
        const Batch& b = *s.batch;
        size_t end = b.key_count();
        if (runner_up) {
          end = end_of_run(s.k, end, [&](size_t k) {
            const RowRef key = b.key(k);
            return order.compare(key, order.prefix_of(key), runner_up->key, runner_up->prefix) < 0;
          });
        }
        out.append_keys(b, s.k, end);
        move_to(s, end);
      },
      [&](const std::vector<KeySource*>& group) {
        merge_values(group[0]->key, group, out, values);
        for (KeySource* s : group) move_to(*s, s->k + 1);
      },
      [] { return false; });
  // Keys many batches share, or entries that cancel, leave room unused.
  out.shrink_to_fit();
  return out.finish();
}

BatchPtr negate_batch(const Batch& a) {
  SortedBatchBuilder builder;
  for (BatchCursor c(a); c.valid(); c.next()) builder.push(c.key(), c.value(), -c.weight());
  return builder.finish();
}

}  // namespace freshet
