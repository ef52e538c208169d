#include "freshet/zset/fueled_merge.h"

#include <algorithm>

namespace freshet {

namespace {

// The end of the run of keys of `x` from `from` that sort before `bound`
// (x.key(from) does), no further than `limit` (> from): galloping — 1, 2,
// 4, ... keys ahead, then a binary search — so an interleaved merge pays one
// extra comparison per key and a run of n keys (new ids after old ones)
// about 2 log n.
size_t end_of_run(const Batch& x, size_t from, RowRef bound, size_t limit) {
  size_t below = from;  // x.key(below) < bound
  size_t step = 1;
  size_t probe = from + 1;
  while (probe < limit && compare_rows(x.key(probe), bound) < 0) {
    below = probe;
    step *= 2;
    probe = below + step;
  }
  size_t low = below + 1, high = std::min(probe, limit);
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
  out_.reserve(a_->size() + b_->size(), a_->key_bytes() + b_->key_bytes(), a_->value_bytes() + b_->value_bytes());
}

size_t FueledMerge::memory_bytes() const {
  const uint64_t total = a_->size() + b_->size();
  if (total == 0 || written_ >= total) return out_.memory_bytes();
  return static_cast<size_t>(static_cast<double>(out_.memory_bytes()) * static_cast<double>(written_) / static_cast<double>(total));
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
    const size_t limit = fuel >= x.key_count() - k ? x.key_count() : k + static_cast<size_t>(fuel);
    size_t end = ky < y.key_count() ? end_of_run(x, k, y.key(ky), limit) : limit;
    end = whole_keys_within(x, k, end, fuel);
    if (end > k) {
      const uint64_t entries = x.values_begin(end) - x.values_begin(k);
      out_.append_keys(x, k, end);
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
  const RowRef key = side_ == Side::kB ? b.key(kb_) : a.key(ka_);
  auto emit = [&](RowRef value, Weight weight) {
    if (!key_written_) out_.append_key(key);
    key_written_ = true;
    out_.append_value(value, weight);
  };
  uint64_t spent = 0;
  for (; spent < fuel && (va_ < va_end || vb_ < vb_end); ++spent) {
    int c = va_ == va_end ? 1 : vb_ == vb_end ? -1 : compare_rows(a.value(va_), b.value(vb_));
    if (c < 0) {
      emit(a.value(va_), a.weight(va_));
      ++va_;
    } else if (c > 0) {
      emit(b.value(vb_), b.weight(vb_));
      ++vb_;
    } else {
      if (Weight sum = a.weight(va_) + b.weight(vb_); sum != 0) emit(a.value(va_), sum);
      ++va_;
      ++vb_;
    }
  }
  if (va_ == va_end && vb_ == vb_end) {
    if (side_ != Side::kB) ++ka_;
    if (side_ != Side::kA) ++kb_;
    side_ = Side::kNone;
  }
  return spent;
}

}  // namespace freshet
