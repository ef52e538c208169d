#include "freshet/zset/fixed_width_merge.h"

#include "freshet/common/copy_row_bytes.h"

namespace freshet {

BatchPtr merge_fixed_width(const Batch& a, const Batch& b, uint64_t& work) {
  if (!Batch::merge_in_place(a, b)) return nullptr;
  const uint32_t key_width = a.keys_.width(), value_width = a.values_.width();
  auto merged = std::make_shared<Batch>();
  Batch& out = *merged;
  uint8_t* const keys = out.keys_.extend_fixed(key_width, a.key_count() + b.key_count());
  uint8_t* const values = out.values_.extend_fixed(value_width, a.size() + b.size());
  out.weights_.reserve(a.size() + b.size());
  std::vector<uint32_t>& starts = out.value_starts_;
  // Value starts are written from the start when a side has them, else
  // from the first key with two values (every key before it has one).
  const size_t starts_room = a.key_count() + b.key_count() + 1;
  bool explicit_starts = !a.value_starts_.empty() || !b.value_starts_.empty();
  if (explicit_starts) starts.reserve(starts_room);
  size_t key_count = 0, value_count = 0;

  // Keys [from, to) of `x` with all their values, after every key so far.
  auto copy_keys = [&](const Batch& x, size_t from, size_t to) {
    const size_t first = x.values_begin(from), end = x.values_begin(to);
    copy_row_bytes(keys + key_count * key_width, x.keys_.data() + from * key_width, (to - from) * key_width);
    copy_row_bytes(values + value_count * value_width, x.values_.data() + first * value_width,
                   (end - first) * value_width);
    if (explicit_starts) {
      for (size_t k = from; k < to; ++k)
        starts.push_back(static_cast<uint32_t>(value_count + x.values_begin(k) - first));
    }
    out.weights_.append(x.weights_, first, end);
    key_count += to - from;
    value_count += end - first;
    work += end - first;
  };
  // The values of a key both sides hold, summed; the key once one survives.
  auto merge_key = [&](size_t ka, size_t kb) {
    size_t va = a.values_begin(ka), vb = b.values_begin(kb);
    const size_t va_end = a.values_end(ka), vb_end = b.values_end(kb);
    bool key_written = false;
    auto emit = [&](const uint8_t* value, Weight weight) {
      if (!key_written) {
        if (explicit_starts) starts.push_back(static_cast<uint32_t>(value_count));
        copy_row_bytes(keys + key_count * key_width, a.keys_.data() + ka * key_width, key_width);
        ++key_count;
        key_written = true;
      } else if (!explicit_starts) {
        // The first key with two values: the keys before it had one each.
        starts.reserve(starts_room);
        for (uint32_t k = 0; k < key_count; ++k) starts.push_back(k);
        explicit_starts = true;
      }
      copy_row_bytes(values + value_count * value_width, value, value_width);
      out.weights_.push_back(weight);
      ++value_count;
    };
    while (va < va_end || vb < vb_end) {
      const uint8_t* value_a = a.values_.data() + va * value_width;
      const uint8_t* value_b = b.values_.data() + vb * value_width;
      const int c = va == va_end   ? 1
                    : vb == vb_end ? -1
                                   : compare_rows(RowRef(value_a, value_width), RowRef(value_b, value_width));
      ++work;
      if (c < 0) {
        emit(value_a, a.weight(va++));
      } else if (c > 0) {
        emit(value_b, b.weight(vb++));
      } else {
        if (const Weight sum = a.weight(va) + b.weight(vb); sum != 0) emit(value_a, sum);
        ++va;
        ++vb;
      }
    }
  };

  // Each round copies the run of one side's keys before the other's next
  // key (one comparison per key), or merges a key both hold.
  const uint8_t* const a_keys = a.keys_.data();
  const uint8_t* const b_keys = b.keys_.data();
  auto key_a = [&](size_t k) { return RowRef(a_keys + k * key_width, key_width); };
  auto key_b = [&](size_t k) { return RowRef(b_keys + k * key_width, key_width); };
  size_t ka = 0, kb = 0;
  while (ka < a.key_count() && kb < b.key_count()) {
    int c = compare_rows(key_a(ka), key_b(kb));
    if (c < 0) {
      size_t end = ka + 1;
      while (end < a.key_count() && compare_rows(key_a(end), key_b(kb)) < 0) ++end;
      copy_keys(a, ka, end);
      ka = end;
    } else if (c > 0) {
      size_t end = kb + 1;
      while (end < b.key_count() && compare_rows(key_b(end), key_a(ka)) < 0) ++end;
      copy_keys(b, kb, end);
      kb = end;
    } else {
      merge_key(ka++, kb++);
    }
  }
  if (ka < a.key_count()) copy_keys(a, ka, a.key_count());
  if (kb < b.key_count()) copy_keys(b, kb, b.key_count());

  if (key_count == 0) return Batch::empty_batch();
  if (explicit_starts) starts.push_back(static_cast<uint32_t>(value_count));
  if (key_count < a.key_count() + b.key_count()) {
    // Keys both sides held, or entries that cancelled: the room they left is given back.
    out.keys_.truncate_fixed(key_count);
    out.keys_.shrink_bytes_to_fit();
  }
  if (value_count < a.size() + b.size()) {
    out.values_.truncate_fixed(value_count);
    out.values_.shrink_bytes_to_fit();
  }
  if (key_count >= Batch::kFenceMinKeys) out.build_fence();
  return merged;
}

}  // namespace freshet
