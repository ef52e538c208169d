#include "freshet/zset/batch.h"

#include <algorithm>

namespace freshet {

const BatchPtr& Batch::empty_batch() {
  static const BatchPtr kEmpty = std::make_shared<const Batch>();
  return kEmpty;
}

size_t Batch::lower_bound(RowRef key, size_t from) const { return lower_bound_in(key, from, keys_.size()); }

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
         value_starts_.capacity() * sizeof(uint32_t) + weights_.memory_bytes();
}

}  // namespace freshet
