#include "freshet/zset/fueled_merge.h"

#include <algorithm>

#include "freshet/common/copy_row_bytes.h"
#include "freshet/common/fixed_row_bytes.h"

namespace freshet {

namespace {

// The end of the run of rows of `x` from `from` (row_of(x, i): a key, or
// a value) that sort before `bound` (row_of(x, from) does), no further than
// `limit` (> from): galloping — 1, 2, 4, ... rows ahead, then a binary
// search — so an interleaved merge pays one extra comparison per row and a
// run of n rows (new ids after old ones) about 2 log n.
template <typename RowOf>
size_t end_of_run(const Batch& x, size_t from, RowRef bound, size_t limit, RowOf row_of) {
  size_t below = from;  // row_of(x, below) < bound
  size_t step = 1;
  size_t probe = from + 1;
  while (probe < limit && compare_rows(row_of(x, probe), bound) < 0) {
    below = probe;
    step *= 2;
    probe = below + step;
  }
  size_t low = below + 1, high = std::min(probe, limit);
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (compare_rows(row_of(x, middle), bound) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

RowRef key_of(const Batch& x, size_t k) { return x.key(k); }
RowRef value_of(const Batch& x, size_t v) { return x.value(v); }

// from + fuel, no further than end.
size_t within_fuel(size_t from, size_t end, uint64_t fuel) {
  return fuel >= end - from ? end : from + static_cast<size_t>(fuel);
}

// The last end in [from, end] such that keys [from, end) of `x` hold at
// most `fuel` entries.
size_t whole_keys_within(const Batch& x, size_t from, size_t end, uint64_t fuel) {
  const size_t first = x.values_begin(from);
  if (x.values_begin(end) - first <= fuel) return end;
  size_t low = from, high = end;  // keys [from, low) fit, [from, high) do not
  while (high - low > 1) {
    size_t middle = low + (high - low) / 2;
    if (x.values_begin(middle) - first <= fuel) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

}  // namespace

FueledMerge::FueledMerge(const Batch& a, const Batch& b) : a_(&a), b_(&b) {}

// The whole output is reserved at the first slice: growing it by doubling
// copied everything written so far inside one slice (several ms for a merge
// of a few 100k entries, the largest single steps after a big load). Room
// that is reserved but not reached is not touched, so it costs address
// space, not memory (memory_bytes() counts the share reached), and what
// cancelled entries leave unused is given back in place by finish().
void FueledMerge::make_room(uint64_t) {
  if (reserved_) return;
  reserved_ = true;
  const Batch& a = *a_;
  const Batch& b = *b_;
  if (Batch::merge_in_place(a, b)) {
    // Rows of fixed widths: the output's rows written in place. As in
    // merge_fixed_width_many(), value starts are written from the start when a
    // side has them, else from the first key with two values.
    fixed_ = std::make_shared<Batch>();
    key_width_ = a.keys_.width();
    value_width_ = a.values_.width();
    key_bytes_ = fixed_->keys_.extend_fixed(key_width_, a.key_count() + b.key_count());
    value_bytes_ = fixed_->values_.extend_fixed(value_width_, a.size() + b.size());
    fixed_->weights_.reserve(a.size() + b.size());
    explicit_starts_ = !a.value_starts_.empty() || !b.value_starts_.empty();
    if (explicit_starts_) fixed_->value_starts_.reserve(a.key_count() + b.key_count() + 1);
    return;
  }
  out_.reserve(a.size() + b.size(), a.key_bytes() + b.key_bytes(), a.value_bytes() + b.value_bytes());
}

size_t FueledMerge::memory_bytes() const {
  const size_t bytes = fixed_ ? fixed_->memory_bytes() : out_.memory_bytes();
  const uint64_t total = a_->size() + b_->size();
  if (total == 0 || written_ >= total) return bytes;
  return static_cast<size_t>(static_cast<double>(bytes) * static_cast<double>(written_) / static_cast<double>(total));
}

BatchPtr FueledMerge::finish() {
  if (!fixed_) {
    out_.shrink_to_fit();
    return out_.finish();
  }
  if (out_keys_ == 0) {
    fixed_.reset();
    return Batch::empty_batch();
  }
  Batch& out = *fixed_;
  if (explicit_starts_) out.value_starts_.push_back(static_cast<uint32_t>(out_values_));
  // Keys both sides held, or entries that cancelled: the room they left is given back.
  if (out_keys_ < a_->key_count() + b_->key_count()) {
    out.keys_.truncate_fixed(out_keys_);
    out.keys_.shrink_bytes_to_fit();
  }
  if (out_values_ < a_->size() + b_->size()) {
    out.values_.truncate_fixed(out_values_);
    out.values_.shrink_bytes_to_fit();
  }
  if (out_keys_ >= Batch::kFenceMinKeys) out.build_fence();
  return std::move(fixed_);
}

void FueledMerge::emit_keys(const Batch& x, size_t begin, size_t end) {
  if (!fixed_) {
    out_.append_keys(x, begin, end);
    return;
  }
  const size_t first = x.values_begin(begin), last = x.values_begin(end);
  copy_fixed_row_bytes(key_bytes_ + out_keys_ * key_width_, x.keys_.data() + begin * key_width_,
                       (end - begin) * key_width_);
  copy_fixed_row_bytes(value_bytes_ + out_values_ * value_width_, x.values_.data() + first * value_width_,
                       (last - first) * value_width_);
  if (explicit_starts_) {
    std::vector<uint32_t>& starts = fixed_->value_starts_;
    for (size_t k = begin; k < end; ++k)
      starts.push_back(static_cast<uint32_t>(out_values_ + x.values_begin(k) - first));
  }
  fixed_->weights_.append(x.weights_, first, last);
  out_keys_ += end - begin;
  out_values_ += last - first;
}

void FueledMerge::emit_open_key() {
  const RowRef key = side_ == Side::kB ? b_->key(kb_) : a_->key(ka_);
  key_written_ = true;
  values_of_key_ = 0;
  if (!fixed_) {
    out_.append_key(key);
    return;
  }
  if (explicit_starts_) fixed_->value_starts_.push_back(static_cast<uint32_t>(out_values_));
  copy_fixed_row_bytes(key_bytes_ + out_keys_ * key_width_, key.data, key_width_);
  ++out_keys_;
}

void FueledMerge::make_starts_explicit() {
  // Every key before the open one had one value, and the open one starts
  // right after them.
  std::vector<uint32_t>& starts = fixed_->value_starts_;
  starts.reserve(a_->key_count() + b_->key_count() + 1);
  for (uint32_t k = 0; k < out_keys_; ++k) starts.push_back(k);
  explicit_starts_ = true;
}

void FueledMerge::emit_values(const Batch& x, size_t begin, size_t end) {
  if (!key_written_) emit_open_key();
  if (!fixed_) {
    out_.append_values(x, begin, end);
    return;
  }
  values_of_key_ += end - begin;
  if (values_of_key_ > 1 && !explicit_starts_) make_starts_explicit();
  copy_fixed_row_bytes(value_bytes_ + out_values_ * value_width_, x.values_.data() + begin * value_width_,
                       (end - begin) * value_width_);
  fixed_->weights_.append(x.weights_, begin, end);
  out_values_ += end - begin;
}

void FueledMerge::emit_value(const uint8_t* value, uint32_t size, Weight weight) {
  if (!key_written_) emit_open_key();
  if (!fixed_) {
    out_.append_value(RowRef(value, size), weight);
    return;
  }
  if (++values_of_key_ > 1 && !explicit_starts_) make_starts_explicit();
  copy_fixed_row_bytes(value_bytes_ + out_values_ * value_width_, value, value_width_);
  fixed_->weights_.push_back(weight);
  ++out_values_;
}

uint64_t FueledMerge::remaining() const {
  auto left = [](const Batch& x, size_t k, size_t v, bool open) {
    return static_cast<uint64_t>(x.size() - (open ? v : x.values_begin(k)));
  };
  const bool open_a = side_ == Side::kA || side_ == Side::kBoth;
  const bool open_b = side_ == Side::kB || side_ == Side::kBoth;
  return left(*a_, ka_, va_, open_a) + left(*b_, kb_, vb_, open_b);
}

uint64_t FueledMerge::work(uint64_t fuel) {
  make_room(fuel);
  uint64_t spent = 0;
  while (spent < fuel && !done()) {
    spent += side_ == Side::kNone ? start_key(fuel - spent) : merge_values(fuel - spent);
  }
  written_ += spent;
  return spent;
}

uint64_t FueledMerge::start_key(uint64_t fuel) {
  // Rows of fixed widths: keys one at a time while the sides alternate
  // (small batches of random keys interleave, and the run search and bulk
  // copies below cost more than the key), and a key both hold with one
  // value each. Stops at a run of one side's keys (copied below, whole), a
  // key with several values on both sides, or the fuel's end.
  auto alternate_fixed = [&]() -> uint64_t {
    const Batch& a = *a_;
    const Batch& b = *b_;
    const uint32_t key_width = key_width_, value_width = value_width_;
    const uint8_t* const a_keys = a.keys_.data();
    const uint8_t* const b_keys = b.keys_.data();
    const size_t a_count = a.key_count(), b_count = b.key_count();
    WeightColumn& weights = fixed_->weights_;
    // The output: a key, then the values [first, first + count) of `x`.
    auto write_key = [&](const uint8_t* key) {
      if (explicit_starts_) fixed_->value_starts_.push_back(static_cast<uint32_t>(out_values_));
      copy_fixed_row_bytes(key_bytes_ + out_keys_ * key_width, key, key_width);
      ++out_keys_;
    };
    auto write_value = [&](const uint8_t* value, Weight weight) {
      copy_fixed_row_bytes(value_bytes_ + out_values_ * value_width, value, value_width);
      weights.push_back(weight);
      ++out_values_;
    };
    uint64_t spent = 0;
    while (ka_ < a_count && kb_ < b_count && fuel - spent >= 2) {
      const uint8_t* const key_a = a_keys + ka_ * key_width;
      const uint8_t* const key_b = b_keys + kb_ * key_width;
      const int c = compare_row_bytes(key_a, key_b, key_width);
      if (c == 0) {
        // A key both hold, with one value each (else merge_values() takes it).
        const size_t va = a.values_begin(ka_), vb = b.values_begin(kb_);
        if (a.values_end(ka_) != va + 1 || b.values_end(kb_) != vb + 1) break;
        const uint8_t* const value_a = a.values_.data() + va * value_width;
        const uint8_t* const value_b = b.values_.data() + vb * value_width;
        const int d = compare_row_bytes(value_a, value_b, value_width);
        if (d == 0) {
          if (const Weight sum = a.weight(va) + b.weight(vb); sum != 0) {
            write_key(key_a);
            write_value(value_a, sum);
          }
          spent += 1;
        } else {
          write_key(key_a);
          if (!explicit_starts_) make_starts_explicit();
          const bool a_first = d < 0;
          write_value(a_first ? value_a : value_b, a_first ? a.weight(va) : b.weight(vb));
          write_value(a_first ? value_b : value_a, a_first ? b.weight(vb) : a.weight(va));
          spent += 2;
        }
        ++ka_;
        ++kb_;
        continue;
      }
      // One key of one side before the other's next: copied here when the
      // side's next key is not also before it (a run: start_key() copies it
      // whole, galloping) and its values fit the fuel.
      const Batch& x = c < 0 ? a : b;
      size_t& k = c < 0 ? ka_ : kb_;
      const uint8_t* const x_keys = c < 0 ? a_keys : b_keys;
      const uint8_t* const bound = c < 0 ? key_b : key_a;
      if (k + 1 < x.key_count() && compare_row_bytes(x_keys + (k + 1) * key_width, bound, key_width) < 0) break;
      const size_t first = x.values_begin(k), last = x.values_end(k);
      if (last - first > fuel - spent) break;
      write_key(x_keys + k * key_width);
      if (last - first == 1) {
        write_value(x.values_.data() + first * value_width, x.weight(first));
      } else {
        if (!explicit_starts_) make_starts_explicit();  // (a side with such keys has made them explicit)
        copy_fixed_row_bytes(value_bytes_ + out_values_ * value_width, x.values_.data() + first * value_width,
                             (last - first) * value_width);
        weights.append(x.weights_, first, last);
        out_values_ += last - first;
      }
      spent += last - first;
      ++k;
    }
    return spent;
  };
  if (fixed_) {
    if (const uint64_t spent = alternate_fixed(); spent > 0 || done()) return spent;
  }
  const Batch& a = *a_;
  const Batch& b = *b_;
  int c = ka_ == a.key_count() ? 1 : kb_ == b.key_count() ? -1 : compare_rows(a.key(ka_), b.key(kb_));
  if (c == 0) {
    side_ = Side::kBoth;
  } else {
    // Keys of one side before the other's next key: whole keys in bulk.
    const Batch& x = c < 0 ? a : b;
    const Batch& y = c < 0 ? b : a;
    size_t& k = c < 0 ? ka_ : kb_;
    const size_t ky = c < 0 ? kb_ : ka_;
    // Every key has a value, so no more than `fuel` keys can fit.
    const size_t limit = within_fuel(k, x.key_count(), fuel);
    size_t end = ky < y.key_count() ? end_of_run(x, k, y.key(ky), limit, key_of) : limit;
    end = whole_keys_within(x, k, end, fuel);
    if (end > k) {
      const uint64_t entries = x.values_begin(end) - x.values_begin(k);
      emit_keys(x, k, end);
      k = end;
      return entries;
    }
    side_ = c < 0 ? Side::kA : Side::kB;  // one key with more values than the fuel left
  }
  if (side_ != Side::kB) va_ = a.values_begin(ka_);
  if (side_ != Side::kA) vb_ = b.values_begin(kb_);
  key_written_ = false;
  return 0;
}

uint64_t FueledMerge::merge_values(uint64_t fuel) {
  const Batch& a = *a_;
  const Batch& b = *b_;
  // A side that does not hold the open key contributes an empty range.
  const size_t va_end = side_ == Side::kB ? va_ : a.values_end(ka_);
  const size_t vb_end = side_ == Side::kA ? vb_ : b.values_end(kb_);
  uint64_t spent = 0;
  while (spent < fuel && (va_ < va_end || vb_ < vb_end)) {
    const int c = va_ == va_end ? 1 : vb_ == vb_end ? -1 : compare_rows(a.value(va_), b.value(vb_));
    if (c == 0) {
      if (Weight sum = a.weight(va_) + b.weight(vb_); sum != 0) {
        const RowRef value = a.value(va_);
        emit_value(value.data, value.size, sum);
      }
      ++va_;
      ++vb_;
      ++spent;
      continue;
    }
    // The run of one side's values before the other's next value, in bulk.
    const Batch& x = c < 0 ? a : b;
    const Batch& y = c < 0 ? b : a;
    size_t& v = c < 0 ? va_ : vb_;
    const size_t vy = c < 0 ? vb_ : va_;
    const size_t x_end = c < 0 ? va_end : vb_end, y_end = c < 0 ? vb_end : va_end;
    const size_t limit = within_fuel(v, x_end, fuel - spent);
    const size_t end = vy < y_end ? end_of_run(x, v, y.value(vy), limit, value_of) : limit;
    emit_values(x, v, end);
    spent += end - v;
    v = end;
  }
  if (va_ == va_end && vb_ == vb_end) {
    if (side_ != Side::kB) ++ka_;
    if (side_ != Side::kA) ++kb_;
    side_ = Side::kNone;
  }
  return spent;
}

}  // namespace freshet
