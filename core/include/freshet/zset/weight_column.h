// WeightColumn: the weights of a batch's entries. While every weight is +1
// (inserts: a table being loaded, the rows a join or a map makes from them,
// most traces that only grow) none is stored, only their count; the first
// other weight materialises them. A trace of inserted rows then holds no
// 8 bytes of weight per row, and merges copy none.
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
  Weight operator[](size_t i) const { return stored_.empty() ? 1 : stored_[i]; }

  void push_back(Weight weight) {
    if (stored_.empty()) {
      if (weight == 1) {
        ++count_;
        return;
      }
      materialise();
    }
    stored_.push_back(weight);
    ++count_;
  }
  //! Appends `count` weights of +1.
  void append_ones(size_t count) {
    if (!stored_.empty()) stored_.insert(stored_.end(), count, Weight{1});
    count_ += count;
  }
  //! Appends weights [begin, end) of `from`.
  void append(const WeightColumn& from, size_t begin, size_t end) {
    if (stored_.empty() && from.stored_.empty()) {
      count_ += end - begin;
      return;
    }
    if (end - begin <= kFewWeights) {
      // A few (a merge of interleaved keys): no range insert's general path.
      for (size_t i = begin; i < end; ++i) push_back(from[i]);
      return;
    }
    if (stored_.empty()) materialise();
    if (from.stored_.empty()) {
      stored_.insert(stored_.end(), end - begin, Weight{1});
    } else {
      stored_.insert(stored_.end(), from.stored_.begin() + static_cast<std::ptrdiff_t>(begin),
                     from.stored_.begin() + static_cast<std::ptrdiff_t>(end));
    }
    count_ += end - begin;
  }
  //! Room for `count` weights, should they need storing.
  void reserve(size_t count) { reserved_ = std::max(reserved_, count); }
  size_t memory_bytes() const { return stored_.capacity() * sizeof(Weight); }

 private:
  static constexpr size_t kFewWeights = 4;

  // Invariant: stored_ is empty while every weight is 1, else it holds all count_.
  void materialise() {
    stored_.reserve(std::max(reserved_, count_ + 1));
    stored_.assign(count_, Weight{1});
  }

  std::vector<Weight> stored_;
  size_t count_ = 0;
  size_t reserved_ = 0;
};

}  // namespace freshet
