#include "freshet/zset/fixed_width_merge.h"

#include <vector>

#include "freshet/common/copy_row_bytes.h"
#include "freshet/common/fixed_row_bytes.h"

namespace freshet {

namespace {

// The merged weights, written one Weight per entry and stored compactly
// once the merge is through (WeightColumn::assign): no WeightColumn append,
// with its representation checks and growth, per run of an interleaved
// merge. The eager levels' merges are small (a few hundred entries): their
// room is kept for the next (a thread runs one at a time).
constexpr size_t kKeptWeights = 4096;

Weight* weight_room(size_t entries, std::vector<Weight>& own) {
  thread_local std::vector<Weight> kept;
  std::vector<Weight>& room = entries <= kKeptWeights ? kept : own;
  if (room.size() < entries) room.resize(entries);
  return room.data();
}

// Which of `count` rows of `width` bytes (row(i)) are the least: their
// positions, in order, into `at`, and how many they are (count - 1
// comparisons, no heap: the small merges take 2 to 4 batches).
template <typename RowAt>
size_t least_rows(size_t count, uint32_t width, RowAt row, size_t* at) {
  size_t found = 1;
  at[0] = 0;
  for (size_t i = 1; i < count; ++i) {
    const int c = compare_row_bytes(row(i), row(at[0]), width);
    if (c < 0) {
      found = 1;
      at[0] = i;
    } else if (c == 0) {
      at[found++] = i;
    }
  }
  return found;
}

}  // namespace

BatchPtr merge_fixed_width_many(const BatchPtr* batches, size_t count, uint64_t& work) {
  constexpr size_t kMostSources = 16;
  if (count < 2 || count > kMostSources) return nullptr;
  const Batch& first = *batches[0];
  size_t key_room = 0, value_room = 0;
  bool explicit_starts = false;
  for (size_t i = 0; i < count; ++i) {
    const Batch& b = *batches[i];
    if (!Batch::merge_in_place(first, b)) return nullptr;
    key_room += b.key_count();
    value_room += b.size();
    explicit_starts = explicit_starts || !b.value_starts_.empty();
  }
  const uint32_t key_width = first.keys_.width(), value_width = first.values_.width();
  // Each source's current key: the merge goes key by key, so a key only one
  // source holds (most, in small batches of scattered keys) is copied with
  // its values without comparing them.
  struct Source {
    const Batch* batch;
    size_t k;
    const uint8_t* key;
  };
  Source sources[kMostSources];
  for (size_t i = 0; i < count; ++i) sources[i] = {batches[i].get(), 0, batches[i]->keys_.data()};
  size_t live = count;

  auto merged = std::make_shared<Batch>();
  Batch& out = *merged;
  uint8_t* const keys = out.keys_.extend_fixed(key_width, key_room);
  uint8_t* const values = out.values_.extend_fixed(value_width, value_room);
  std::vector<Weight> own_weights;
  Weight* const weights = weight_room(value_room, own_weights);
  std::vector<uint32_t>& starts = out.value_starts_;
  if (explicit_starts) starts.reserve(key_room + 1);
  size_t key_count = 0, value_count = 0;
  work += value_room;

  // The values of one key several sources hold: [v, end) of each.
  struct Values {
    const Batch* batch;
    size_t v, end;
  };
  Values runs[kMostSources];
  size_t equal[kMostSources];
  while (live > 0) {
    // The least current key, and every source holding it.
    const size_t equals = least_rows(
        live, key_width, [&](size_t i) { return sources[i].key; }, equal);
    const size_t least = equal[0];
    const uint8_t* const key = sources[least].key;
    if (equals == 1) {
      // (A key with several values means the batch keeps value starts, so
      // explicit_starts is already set.)
      const Batch& b = *sources[least].batch;
      const size_t k = sources[least].k, from = b.values_begin(k), to = b.values_end(k);
      if (explicit_starts) starts.push_back(static_cast<uint32_t>(value_count));
      copy_fixed_row_bytes(keys + key_count * key_width, key, key_width);
      ++key_count;
      copy_fixed_row_bytes(values + value_count * value_width, b.values_.data() + from * value_width,
                           (to - from) * value_width);
      b.weights_.copy_to(weights + value_count, from, to);
      value_count += to - from;
    } else {
      size_t runs_live = equals;
      for (size_t e = 0; e < equals; ++e) {
        const Source& s = sources[equal[e]];
        runs[e] = {s.batch, s.batch->values_begin(s.k), s.batch->values_end(s.k)};
      }
      bool key_written = false;
      size_t same[kMostSources];
      while (runs_live > 0) {
        const size_t sames = least_rows(
            runs_live, value_width, [&](size_t r) { return runs[r].batch->values_.data() + runs[r].v * value_width; },
            same);
        const size_t low = same[0];
        const uint8_t* const value = runs[low].batch->values_.data() + runs[low].v * value_width;
        Weight sum = 0;
        for (size_t e = 0; e < sames; ++e) sum += runs[same[e]].batch->weight(runs[same[e]].v);
        if (sum != 0) {
          if (!key_written) {
            if (explicit_starts) starts.push_back(static_cast<uint32_t>(value_count));
            copy_fixed_row_bytes(keys + key_count * key_width, key, key_width);
            ++key_count;
            key_written = true;
          } else if (!explicit_starts) {
            // The first key with two values: the keys before it had one each.
            starts.reserve(key_room + 1);
            for (uint32_t k = 0; k < key_count; ++k) starts.push_back(k);
            explicit_starts = true;
          }
          copy_fixed_row_bytes(values + value_count * value_width, value, value_width);
          weights[value_count++] = sum;
        }
        // From the last, so that a run taken out (the last live one moved
        // into its place) leaves the others' places.
        for (size_t e = sames; e-- > 0;) {
          Values& run = runs[same[e]];
          if (++run.v == run.end) runs[same[e]] = runs[--runs_live];
        }
      }
    }
    for (size_t e = equals; e-- > 0;) {
      Source& s = sources[equal[e]];
      ++s.k;
      s.key += key_width;
      if (s.k == s.batch->key_count()) sources[equal[e]] = sources[--live];
    }
  }

  if (key_count == 0) return Batch::empty_batch();
  if (explicit_starts) starts.push_back(static_cast<uint32_t>(value_count));
  out.weights_.assign(weights, value_count);
  if (key_count < key_room) {
    out.keys_.truncate_fixed(key_count);
    out.keys_.shrink_bytes_to_fit();
  }
  if (value_count < value_room) {
    out.values_.truncate_fixed(value_count);
    out.values_.shrink_bytes_to_fit();
  }
  if (key_count >= Batch::kFenceMinKeys) out.build_fence();
  return merged;
}

}  // namespace freshet
