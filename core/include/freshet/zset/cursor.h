// BatchCursor walks a batch's entries in (key, value) order and seeks by key.
#pragma once

#include "freshet/zset/batch.h"

namespace freshet {

class BatchCursor {
 public:
  explicit BatchCursor(const Batch& batch) : batch_(&batch) { enter_key(); }

  bool valid() const { return key_ < batch_->key_count(); }
  RowRef key() const { return batch_->key(key_); }
  RowRef value() const { return batch_->value(value_); }
  Weight weight() const { return batch_->weight(value_); }
  size_t key_index() const { return key_; }

  //! Next entry, moving to the next key after the last value.
  void next() {
    if (++value_ == batch_->values_end(key_)) {
      ++key_;
      enter_key();
    }
  }
  //! First value of the next key.
  void next_key() {
    ++key_;
    enter_key();
  }
  //! Moves forward to the first key >= `key` (never backwards).
  void seek_key(RowRef key) {
    key_ = batch_->lower_bound(key, key_);
    enter_key();
  }

 private:
  void enter_key() {
    if (valid()) value_ = batch_->values_begin(key_);
  }

  const Batch* batch_;
  size_t key_ = 0;
  size_t value_ = 0;
};

//! Compares two cursors' current entries by (key, value).
inline int compare_entries(const BatchCursor& a, const BatchCursor& b) {
  int c = compare_rows(a.key(), b.key());
  return c != 0 ? c : compare_rows(a.value(), b.value());
}

}  // namespace freshet
