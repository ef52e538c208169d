#include "freshet/zset/batch.h"

#include <algorithm>
#include <cstring>

#include "freshet/common/prefix_sort.h"

namespace freshet {

const BatchPtr& Batch::empty_batch() {
  static const BatchPtr kEmpty = std::make_shared<const Batch>();
  return kEmpty;
}

namespace {

// Narrows [low, high) for the key of `word` (keys before `low` are smaller,
// the one at `high`, if any, not) by galloping a few steps out of key
// `guess`; whether that brought its position between them. word_at(k) is
// key k's word.
template <typename WordAt>
bool gallop_from(WordAt word_at, uint64_t word, size_t guess, size_t& low, size_t& high) {
  constexpr size_t kMaxStep = 8;
  if (word_at(guess) < word) {
    size_t below = guess;  // a key < word
    for (size_t step = 1; step <= kMaxStep; step *= 2) {
      const size_t probe = below + step;
      if (probe >= high || word_at(probe) >= word) {
        low = below + 1;
        high = std::min(probe, high);
        return true;
      }
      below = probe;
    }
    low = below + 1;
    return false;
  }
  size_t not_below = guess;  // a key >= word
  for (size_t step = 1; step <= kMaxStep; step *= 2) {
    if (not_below < low + step) {
      high = not_below;
      return true;
    }
    const size_t probe = not_below - step;
    if (word_at(probe) < word) {
      low = probe + 1;
      high = not_below;
      return true;
    }
    not_below = probe;
  }
  high = not_below;
  return false;
}

}  // namespace

bool Batch::word_keys(RowRef key) const {
  // Keys of 8 to 16 bytes (a BIGINT primary key is 9: a null flag and the
  // integer) whose bytes before their last 8 are the same in the first key,
  // the last (so in every key between) and `key`.
  const uint32_t width = keys_.width();
  if (!keys_.fixed_width() || key.size != width || width < 8 || width > 16) return false;
  const uint8_t* first = keys_.data();
  const uint8_t* last = first + (keys_.size() - 1) * width;
  for (uint32_t i = 0; i + 8 < width; ++i) {
    if (key.data[i] != first[i] || key.data[i] != last[i]) return false;
  }
  return true;
}

size_t Batch::lower_bound(RowRef key, size_t from) const {
  const size_t count = keys_.size();
  if (from >= count) return from;
  if (word_keys(key)) {
    const uint64_t word = big_endian_word(key.data + key.size - 8);
    // Past the last key: a new key (a growing id) looked up in every batch of a trace.
    const uint64_t last = key_word(count - 1);
    if (word > last) return count;
    size_t low = from, high = count;
    if (from == 0) {
      const uint64_t first = key_word(0);
      if (word <= first) return 0;
      // Keys about as many as the integers between the first and the last
      // (ids counted up, a table's bulk of rows): the key is within a few
      // keys of where it would be were they evenly spread. Probing there
      // touches a cache line or two, where a search touches one per probe.
      if (last - first < 2 * count) {
        const size_t guess = static_cast<size_t>((word - first) * (count - 1) / (last - first));
        if (gallop_from([this](size_t k) { return key_word(k); }, word, guess, low, high)) {
          return lower_bound_word(word, low, high);
        }
      }
      if (!fence_.empty()) {
        // Between the first key and the last, `key` shares their first
        // fence_skip_ bytes (>= width - 8): its fence prefix is the rest of its word.
        size_t fence_low = 0, fence_high = count;
        fence_range_of(word << (8 * (fence_skip_ + 8 - key.size)), fence_low, fence_high);
        low = std::max(low, fence_low);
        high = std::min(high, fence_high);
      }
    }
    return lower_bound_word(word, low, high);
  }
  // Past the last key, as above.
  if (compare_rows(key, keys_.back()) > 0) return count;
  if (from != 0 || fence_.empty()) return lower_bound_in(key, from, count);
  size_t low = 0, high = count;
  fence_range(key, low, high);
  return lower_bound_in(key, low, high);
}

size_t Batch::lower_bound_word(uint64_t word, size_t low, size_t high) const {
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (key_word(middle) < word) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

void Batch::build_fence() {
  const RowRef first = keys_[0], last = keys_.back();
  uint32_t skip = 0;
  while (skip < first.size && skip < last.size && first.data[skip] == last.data[skip]) ++skip;
  fence_skip_ = skip;  // sorted: every key between starts with these bytes too
  fence_.reserve((keys_.size() + kFenceStride - 1) / kFenceStride);
  for (size_t k = 0; k < keys_.size(); k += kFenceStride) {
    const RowRef key = keys_[k];
    fence_.push_back(big_endian_prefix(key.data + skip, key.size - skip));
  }
}

// A key's 8 bytes after the common prefix, padded with zeros, order rows as
// the rows do where they differ: a smaller prefix is a smaller row (a row
// that ends inside the 8 bytes is a prefix of the other, so smaller), and
// only equal prefixes leave the order open.
void Batch::fence_range(RowRef key, size_t& low, size_t& high) const {
  const RowRef first = keys_[0];
  const uint32_t skip = fence_skip_;
  if (key.size < skip || std::memcmp(key.data, first.data, skip) != 0) {
    // Outside the common prefix: before every key or after every key.
    const int c = compare_rows(key, first);
    if (c <= 0) {
      high = 0;
    } else {
      low = keys_.size();
    }
    return;
  }
  fence_range_of(big_endian_prefix(key.data + skip, key.size - skip), low, high);
}

void Batch::fence_range_of(uint64_t prefix, size_t& low, size_t& high) const {
  // Fence entries below `prefix` are keys below `key`; those above it, keys above it.
  const size_t below = static_cast<size_t>(std::lower_bound(fence_.begin(), fence_.end(), prefix) - fence_.begin());
  // Entries equal to `prefix` are few (keys that share 8 bytes past the
  // common prefix), and most often none: gallop on from `below` rather than
  // search the whole rest of the fence again (a point lookup in every big
  // batch of a trace, for every key an upsert or a join looks up).
  size_t after_equal = below, probe = below, step = 1;  // entries [below, after_equal) are <= prefix
  while (probe < fence_.size() && fence_[probe] <= prefix) {
    after_equal = probe + 1;
    probe += step;
    step *= 2;
  }
  const auto equal_end = fence_.begin() + static_cast<std::ptrdiff_t>(after_equal);
  const auto search_end = fence_.begin() + static_cast<std::ptrdiff_t>(std::min(probe, fence_.size()));
  const size_t not_above = static_cast<size_t>(std::upper_bound(equal_end, search_end, prefix) - fence_.begin());
  if (below > 0) low = (below - 1) * kFenceStride + 1;
  if (not_above < fence_.size()) high = not_above * kFenceStride;
}

size_t Batch::lower_bound_in(RowRef key, size_t low, size_t high) const {
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (compare_rows(keys_[middle], key) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

size_t Batch::seek_forward(RowRef key, size_t from) const {
  size_t step = 1, low = from;
  if (from < keys_.size() && word_keys(key)) {
    const uint64_t word = big_endian_word(key.data + key.size - 8);
    while (low + step - 1 < keys_.size() && key_word(low + step - 1) < word) {
      low += step;
      step *= 2;
    }
    return lower_bound_word(word, low, std::min(low + step - 1, keys_.size()));
  }
  while (low + step - 1 < keys_.size() && compare_rows(keys_[low + step - 1], key) < 0) {
    low += step;
    step *= 2;
  }
  // Keys before `low` are < key; the one at low + step - 1 (if any) is not.
  return lower_bound_in(key, low, std::min(low + step - 1, keys_.size()));
}

std::optional<size_t> Batch::find(RowRef key) const {
  size_t k = lower_bound(key);
  if (k < keys_.size() && keys_[k] == key) return k;
  return std::nullopt;
}

Weight Batch::weight_of(RowRef key, RowRef value) const {
  std::optional<size_t> k = find(key);
  if (!k) return 0;
  size_t low = values_begin(*k), high = values_end(*k);
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (compare_rows(values_[middle], value) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < values_end(*k) && values_[low] == value ? weights_[low] : 0;
}

size_t Batch::memory_bytes() const {
  return sizeof(Batch) + keys_.memory_bytes() + values_.memory_bytes() +
         value_starts_.capacity() * sizeof(uint32_t) + weights_.memory_bytes() +
         fence_.capacity() * sizeof(uint64_t);
}

}  // namespace freshet
