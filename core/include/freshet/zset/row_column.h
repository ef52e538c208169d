// RowColumn: rows stored back to back in one byte array, addressed by index.
// While every row has the same length (the common case: no VARCHAR columns)
// no per-row offsets are kept at all; the first row of another length
// materialises them.
//
// A column can also share another column's bytes (share_of): a batch whose
// rows are another batch's values (an upsert input's changes, the rows of
// its index) then holds no second copy of them, only a reference that keeps
// the other batch alive.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "freshet/common/assert.h"
#include "freshet/common/byte_buffer.h"
#include "freshet/types/row.h"

namespace freshet {

class RowColumn {
 public:
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  RowRef operator[](size_t i) const {
    if (ends_.empty()) return RowRef(bytes_.data() + i * width_, width_);
    uint32_t begin = i == 0 ? 0 : ends_[i - 1];
    return RowRef(bytes_.data() + begin, ends_[i] - begin);
  }
  RowRef back() const { return (*this)[count_ - 1]; }

  void push_back(RowRef row) {
    // Inline while rows keep one width: every builder appends each row it holds.
    if (ends_.empty() && (row.size == width_ || count_ == 0)) {
      width_ = row.size;
      bytes_.append(row.data, row.size);
      ++count_;
      return;
    }
    push_back_with_offsets(row);
  }
  //! Appends rows [begin, end) of `from`: one copy when both hold rows of one width.
  void append(const RowColumn& from, size_t begin, size_t end);
  //! Appends row `i` of `from`: append(from, i, i + 1), inline while both
  //! hold rows of one width (a merge of interleaved keys copies one at a time).
  void append_one(const RowColumn& from, size_t i) {
    if (ends_.empty() && from.ends_.empty() && (count_ == 0 || width_ == from.width_)) {
      width_ = from.width_;
      bytes_.append(from.bytes_.data() + i * width_, width_);
      ++count_;
      return;
    }
    append(from, i, i + 1);
  }
  //! Whether every row is width() bytes long (no per-row offsets kept).
  bool fixed_width() const { return ends_.empty(); }
  uint32_t width() const { return width_; }
  //! The rows' bytes, back to back.
  const uint8_t* data() const { return bytes_.data(); }
  //! Appends room for `rows` rows of `width` bytes, to a column of rows of
  //! that width (or an empty one), and returns where it starts: the caller
  //! writes the rows and gives back those it did not fill (truncate_fixed).
  uint8_t* extend_fixed(uint32_t width, size_t rows) {
    FRESHET_ASSERT(ends_.empty() && (count_ == 0 || width_ == width));
    width_ = width;
    count_ += rows;
    return bytes_.extend(rows * width);
  }
  //! Keeps the first `rows` rows of a column of rows of one width.
  void truncate_fixed(size_t rows) {
    count_ = rows;
    bytes_.truncate(rows * width_);
  }
  //! Appends `count` rows of `width` bytes each, back to back at `rows`.
  void append_fixed(const uint8_t* rows, uint32_t width, size_t count);
  //! While empty: takes `bytes`, `count` rows of `width` bytes back to
  //! back, as its rows (no copy).
  void adopt_fixed(ByteBuffer&& bytes, uint32_t width, size_t count);
  //! While empty: the rows of `from`, reading its bytes in place; `owner`
  //! keeps them alive (the batch `from` belongs to). Any later append copies them.
  void share_of(const RowColumn& from, std::shared_ptr<const void> owner);
  //! Appends `count` empty rows (the values of a Z-set's entries).
  void append_empty(size_t count);
  //! Room for `rows` rows of `bytes` bytes in all.
  void reserve(size_t rows, size_t bytes) {
    bytes_.reserve(bytes);
    if (!ends_.empty()) ends_.reserve(rows);
  }
  size_t memory_bytes() const { return bytes_.capacity() + ends_.capacity() * sizeof(uint32_t); }
  //! Gives back the bytes' unused capacity, in place (ByteBuffer::shrink_to_fit).
  void shrink_bytes_to_fit() { bytes_.shrink_to_fit(); }
  size_t byte_size() const { return bytes_.size(); }

 private:
  //! push_back() of a row of another width, or into a column keeping offsets.
  void push_back_with_offsets(RowRef row);

  ByteBuffer bytes_;  // borrowed from owner_'s when shared (share_of)
  std::shared_ptr<const void> owner_;
  std::vector<uint32_t> ends_;  // empty while all rows are width_ bytes long
  uint32_t width_ = 0;
  size_t count_ = 0;
};

}  // namespace freshet
