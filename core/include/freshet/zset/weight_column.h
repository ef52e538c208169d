// WeightColumn: the weights of a batch's entries. While every weight is +1
// (inserts: a table being loaded, the rows a join or a map makes from them,
// most traces that only grow) none is stored, only their count; the first
// other weight materialises them. A trace of inserted rows then holds no
// 8 bytes of weight per row, and merges copy none.
//
// Materialised weights take a byte each while every one fits in one (a
// few entries counted twice among a big step's inserts — two orders of one
// customer and one amount — materialised a map's whole output: 8 bytes per
// entry, 1.6 MB over a 200k-row load, fresh memory in wasm); the first that
// does not widens them all to 8 bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace freshet {

using Weight = int64_t;

class WeightColumn {
 public:
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  Weight operator[](size_t i) const {
    if (!wide_.empty()) return wide_[i];
    return narrow_.empty() ? 1 : narrow_[i];
  }

  void push_back(Weight weight) {
    if (wide_.empty()) {
      if (narrow_.empty() && weight == 1) {
        ++count_;
        return;
      }
      if (fits_narrow(weight)) {
        if (narrow_.empty()) materialise_narrow();
        narrow_.push_back(static_cast<int8_t>(weight));
        ++count_;
        return;
      }
      widen();
    }
    wide_.push_back(weight);
    ++count_;
  }
  //! Appends `count` weights of +1.
  void append_ones(size_t count) {
    if (!wide_.empty()) {
      append_repeated(wide_, Weight{1}, count);
    } else if (!narrow_.empty()) {
      append_repeated(narrow_, int8_t{1}, count);
    }
    count_ += count;
  }
  //! Appends weights [begin, end) of `from`.
  void append(const WeightColumn& from, size_t begin, size_t end) {
    if (begin == end) return;
    if (from.wide_.empty() && from.narrow_.empty()) {
      append_ones(end - begin);
      return;
    }
    if (end - begin <= kFewWeights) {
      // A few (a merge of interleaved keys): no range insert's general
      // path, and once this column stores weights, none of push_back()'s
      // checks per weight.
      if (!wide_.empty()) {
        for (size_t i = begin; i < end; ++i) wide_.push_back(from[i]);
      } else if (!narrow_.empty() && from.wide_.empty()) {
        for (size_t i = begin; i < end; ++i) narrow_.push_back(from.narrow_[i]);
      } else {
        for (size_t i = begin; i < end; ++i) push_back(from[i]);
        return;
      }
      count_ += end - begin;
      return;
    }
    const auto first = static_cast<std::ptrdiff_t>(begin), last = static_cast<std::ptrdiff_t>(end);
    if (!from.wide_.empty()) {
      if (wide_.empty()) widen();
      wide_.insert(wide_.end(), from.wide_.begin() + first, from.wide_.begin() + last);
    } else if (!wide_.empty()) {
      wide_.insert(wide_.end(), from.narrow_.begin() + first, from.narrow_.begin() + last);
    } else {
      if (narrow_.empty()) materialise_narrow();
      narrow_.insert(narrow_.end(), from.narrow_.begin() + first, from.narrow_.begin() + last);
    }
    count_ += end - begin;
  }
  //! Weights [begin, end) as Weight values at `out` (a merge's scratch:
  //! the representation is read once per run, not once per weight).
  void copy_to(Weight* out, size_t begin, size_t end) const {
    if (!wide_.empty()) {
      for (size_t i = begin; i < end; ++i) *out++ = wide_[i];
    } else if (!narrow_.empty()) {
      for (size_t i = begin; i < end; ++i) *out++ = narrow_[i];
    } else {
      for (size_t i = begin; i < end; ++i) *out++ = 1;
    }
  }
  //! Replaces the weights with the `count` at `weights`, stored as they
  //! allow: none while all are +1, a byte each while all fit one.
  void assign(const Weight* weights, size_t count) {
    bool ones = true, narrow = true;
    for (size_t i = 0; i < count; ++i) {
      ones = ones && weights[i] == 1;
      narrow = narrow && fits_narrow(weights[i]);
    }
    count_ = count;
    narrow_.clear();
    wide_.clear();
    if (ones) return;
    if (narrow) {
      narrow_.assign(weights, weights + count);
    } else {
      wide_.assign(weights, weights + count);
    }
  }
  //! Room for `count` weights, should they need storing.
  void reserve(size_t count) { reserved_ = std::max(reserved_, count); }
  size_t memory_bytes() const { return narrow_.capacity() + wide_.capacity() * sizeof(Weight); }

 private:
  static constexpr size_t kFewWeights = 4;

  static bool fits_narrow(Weight weight) { return weight >= INT8_MIN && weight <= INT8_MAX; }
  template <typename T>
  static void append_repeated(std::vector<T>& to, T value, size_t count) {
    if (count <= kFewWeights) {
      for (size_t i = 0; i < count; ++i) to.push_back(value);
    } else {
      to.insert(to.end(), count, value);
    }
  }
  // Invariant: narrow_ and wide_ are empty while every weight is 1; else
  // exactly one of them holds all count_, narrow_ while every weight fits a byte.
  void materialise_narrow() {
    narrow_.reserve(std::max(reserved_, count_ + 1));
    narrow_.assign(count_, int8_t{1});
  }
  void widen() {
    std::vector<Weight> wide;
    wide.reserve(std::max(reserved_, count_ + 1));
    if (narrow_.empty()) {
      wide.assign(count_, Weight{1});
    } else {
      wide.assign(narrow_.begin(), narrow_.end());
    }
    wide_ = std::move(wide);
    std::vector<int8_t>().swap(narrow_);
  }

  std::vector<int8_t> narrow_;
  std::vector<Weight> wide_;
  size_t count_ = 0;
  size_t reserved_ = 0;
};

}  // namespace freshet
