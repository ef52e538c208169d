// FirstPositions: what top_k knows of one partition's first offset + k
// positions, kept between steps (partition_cache.h). Private to top_k.cpp.
//
// ## Invariants
// `entries` are every sorted row of the partition with a non-zero total
// weight, in order, up to the row that fills the last position (when
// `full`) or to the partition's end (when not): rows of negative weight are
// kept too, as they occupy no position but their weight decides whether a
// change makes them appear. So any sorted row up to last() that is not
// among them has weight zero, and a change confined to those rows is
// applied to the list alone (merged()), without reading the trace.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "freshet/types/sort_key.h"
#include "freshet/zset/batch.h"
#include "freshet/zset/batch_builder.h"

namespace freshet::top_k_detail {

class FirstPositions {
 public:
  FirstPositions(Weight positions, Weight skipped) : left_(positions), skipped_(skipped) {}

  //! Appends the next sorted row (in order) and its total weight; false once
  //! every position is filled (the row filling the last one is appended).
  bool add(RowRef entry, Weight weight) {
    if (weight == 0) return true;
    entries_.append(reinterpret_cast<const char*>(entry.data), entry.size);
    ends_.push_back({static_cast<uint32_t>(entries_.size()), weight});
    if (weight > 0) {
      taken_by_last_ = std::min(weight, left_);
      left_ -= taken_by_last_;
    }
    full_ = left_ == 0;
    return !full_;
  }

  //! Every position is filled: the rows after last() are not read.
  bool full() const { return full_; }
  //! The row filling the last position (only when full()).
  RowRef last() const { return entry(ends_.size() - 1); }

  //! The list after `delta`'s values [begin, end) (sorted rows of this
  //! partition, in order) are added to the partition, into `*now` (made with
  //! the same positions); false when it cannot tell without reading the
  //! trace: the change empties positions that rows after last() would fill.
  bool merged(const Batch& delta, size_t begin, size_t end, FirstPositions* now) const {
    size_t i = 0, d = begin;
    while (i < ends_.size() || d < end) {
      const int c = i == ends_.size() ? 1 : d == end ? -1 : compare_rows(entry(i), delta.value(d));
      if (full_ && c > 0 && compare_rows(delta.value(d), last()) > 0) break;  // past the rows known
      RowRef row = c <= 0 ? entry(i) : delta.value(d);
      Weight weight = (c <= 0 ? ends_[i].second : 0) + (c >= 0 ? delta.weight(d) : 0);
      if (c <= 0) ++i;
      if (c >= 0) ++d;
      if (!now->add(row, weight)) return true;
    }
    // Every row of the partition is known unless the list was full.
    return !full_;
  }

  //! Adds the rows at positions [offset, offset + k), times `sign`, to `out`.
  void add_to(Weight sign, BatchBuilder& out) const {
    for_each_output([&](RowRef entry, Weight weight) { out.add_row(sorted_row_payload(entry), sign * weight); });
  }

  //! Adds `now`'s output minus `old`'s to `out`: only the rows whose output
  //! weight differs (a change inside the top k moves a row or two).
  static void add_difference(const FirstPositions& old, const FirstPositions& now, BatchBuilder& out) {
    std::vector<std::pair<RowRef, Weight>> before, after;
    old.for_each_output([&](RowRef entry, Weight weight) { before.push_back({entry, weight}); });
    now.for_each_output([&](RowRef entry, Weight weight) { after.push_back({entry, weight}); });
    size_t b = 0, a = 0;
    while (b < before.size() || a < after.size()) {
      const int c = b == before.size() ? 1 : a == after.size() ? -1 : compare_rows(before[b].first, after[a].first);
      RowRef entry = c <= 0 ? before[b].first : after[a].first;
      Weight weight = (c >= 0 ? after[a].second : 0) - (c <= 0 ? before[b].second : 0);
      if (c <= 0) ++b;
      if (c >= 0) ++a;
      if (weight != 0) out.add_row(sorted_row_payload(entry), weight);
    }
  }

  size_t heap_bytes() const { return entries_.capacity() + ends_.capacity() * sizeof(ends_[0]); }

 private:
  RowRef entry(size_t i) const {
    const uint32_t begin = i == 0 ? 0 : ends_[i - 1].first;
    return RowRef(reinterpret_cast<const uint8_t*>(entries_.data()) + begin, ends_[i].first - begin);
  }

  //! Calls visit(sorted row, output weight) for the rows at positions past the offset.
  template <typename Visit>
  void for_each_output(Visit visit) const {
    Weight skip_left = skipped_;
    for (size_t i = 0; i < ends_.size(); ++i) {
      const Weight weight = ends_[i].second;
      if (weight <= 0) continue;
      // The row filling the last position takes only the positions left.
      const Weight taken = full_ && i + 1 == ends_.size() ? taken_by_last_ : weight;
      const Weight skipped = std::min(taken, skip_left);
      skip_left -= skipped;
      if (taken > skipped) visit(entry(i), taken - skipped);
    }
  }

  std::string entries_;                            // the sorted rows, back to back
  std::vector<std::pair<uint32_t, Weight>> ends_;  // per row: where its bytes end, its total weight
  Weight left_;                                    // positions not yet filled
  Weight skipped_;                                 // the offset
  Weight taken_by_last_ = 0;                       // positions taken by the last positive row
  bool full_ = false;
};

}  // namespace freshet::top_k_detail
