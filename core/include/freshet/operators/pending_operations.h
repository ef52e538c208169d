// PendingOperations: the operations an upsert input buffers for its next
// step — upserts of whole rows and deletes by key — with every key's bytes
// in one buffer and every row's in another.
//
// Why one buffer: a bulk load buffers its whole ingest (200k rows and more)
// before one step. As a std::string per key and per row, that was an
// allocation per row and ~70 bytes of string headers per operation, all of
// it fresh memory touched once (page faults were the single largest cost of
// a 200k-row step on a VM, more than the step's sort), freed one row at a
// time after the step. Here an operation is 16 bytes beside its bytes, and
// growth is by doubling the arrays.
//
// The rows' buffer can be one a bulk ingest parsed its rows into
// (adopt_rows): its rows are then not copied a second time, which for a
// bulk load in wasm was as much fresh memory as the rows themselves.
//
// While every operation is an upsert of keys of one width back to back and
// rows of one width each at its place in order (a bulk load of rows with no
// strings, ids growing or not), an operation is just its position: no
// 16 bytes per operation (3.2 MB of fresh memory over a 200k-row load, alive
// with the parsed rows' entries at the ingest's peak). The first operation
// that breaks the pattern writes them out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "freshet/common/assert.h"
#include "freshet/common/byte_buffer.h"
#include "freshet/types/row.h"

namespace freshet {

class PendingOperations {
 public:
  //! Buffers an upsert of `row` whose key row is `key`. A row inside the
  //! rows' buffer (adopted) is not copied.
  void push_upsert(RowRef key, RowRef row) {
    const bool adopted =
        rows_.size() != 0 && row.data >= rows_.data() && row.data + row.size <= rows_.data() + rows_.size();
    if (implicit_) {
      const size_t n = count_;
      const uint32_t key_width = n == 0 ? key.size : key_width_, row_width = n == 0 ? row.size : row_width_;
      const bool in_place = adopted ? row.data == rows_.data() + n * row_width : rows_.size() == n * row_width;
      if (key.size == key_width && row.size == row_width && in_place) {
        key_width_ = key_width;
        row_width_ = row_width;
        keys_.append(key.data, key.size);
        if (!adopted) rows_.append(row.data, row.size);
        ++count_;
        return;
      }
      write_out();
    }
    Operation op{static_cast<uint32_t>(keys_.size()), key.size, 0, row.size};
    keys_.append(key.data, key.size);
    if (adopted) {
      op.row_offset = static_cast<uint32_t>(row.data - rows_.data());
    } else {
      op.row_offset = static_cast<uint32_t>(rows_.size());
      rows_.append(row.data, row.size);
    }
    operations_.push_back(op);
    ++count_;
  }
  //! Buffers a delete of the row whose key row is `key`.
  void push_delete(RowRef key) {
    if (implicit_) write_out();
    operations_.push_back({static_cast<uint32_t>(keys_.size()), key.size, kDelete, 0});
    keys_.append(key.data, key.size);
    ++count_;
  }
  //! Takes `rows` as the rows' buffer, while no operation is buffered: the
  //! upserts pushed of rows inside it then point into it. (It must not be
  //! appended to meanwhile: the caller's RowRefs point into it.)
  void adopt_rows(ByteBuffer&& rows) {
    FRESHET_ASSERT(count_ == 0);
    rows_ = std::move(rows);
  }

  //! Whether every operation is an upsert whose key is `key_width` bytes
  //! and whose row is `row_width`, back to back in operation order and
  //! filling their two buffers exactly, so that take_bytes() can hand them
  //! over as they are.
  bool fill_buffers(uint32_t key_width, uint32_t row_width) const {
    return implicit_ && count_ != 0 && key_width_ == key_width && row_width_ == row_width &&
           keys_.size() == count_ * key_width && rows_.size() == count_ * row_width;
  }
  //! Hands the keys' and the rows' buffers over and empties the operations.
  void take_bytes(ByteBuffer& keys, ByteBuffer& rows) {
    keys = std::move(keys_);
    rows = std::move(rows_);
    clear();
  }

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  RowRef key(size_t i) const {
    if (implicit_) return RowRef(keys_.data() + i * key_width_, key_width_);
    return RowRef(keys_.data() + operations_[i].key_offset, operations_[i].key_size);
  }
  bool is_upsert(size_t i) const { return implicit_ || operations_[i].row_offset != kDelete; }
  //! Operation i's row; only for an upsert.
  RowRef row(size_t i) const {
    if (implicit_) return RowRef(rows_.data() + i * row_width_, row_width_);
    return RowRef(rows_.data() + operations_[i].row_offset, operations_[i].row_size);
  }

  //! Room for `operations` more operations of `key_bytes` bytes of keys and
  //! `row_bytes` bytes of rows in all.
  void reserve(size_t operations, size_t key_bytes, size_t row_bytes) {
    const size_t wanted = count_ + operations;
    reserved_ = std::max(reserved_, wanted);
    if (!implicit_ && wanted > operations_.capacity())
      operations_.reserve(std::max(wanted, 2 * operations_.capacity()));
    keys_.reserve(keys_.size() + key_bytes);
    rows_.reserve(rows_.size() + row_bytes);
  }
  //! Keeps the first `count` operations (and their bytes).
  void truncate(size_t count) {
    if (count >= count_) return;
    if (implicit_) {
      keys_.truncate(count * key_width_);
      rows_.truncate(count * row_width_);
      count_ = count;
      return;
    }
    keys_.truncate(operations_[count].key_offset);
    // The kept rows end where the last of them does (an adopted buffer's
    // rows need not be in the operations' order).
    size_t rows_end = 0;
    for (size_t i = 0; i < count; ++i) {
      if (is_upsert(i)) rows_end = std::max<size_t>(rows_end, operations_[i].row_offset + operations_[i].row_size);
    }
    rows_.truncate(rows_end);
    operations_.resize(count);
    count_ = count;
  }
  //! Keeps the operations i for which keep(i) is true, in order. Their bytes
  //! stay where they are (until clear()).
  template <typename Keep>
  void retain(Keep&& keep) {
    if (implicit_) write_out();
    size_t kept = 0;
    for (size_t i = 0; i < operations_.size(); ++i) {
      if (keep(i)) operations_[kept++] = operations_[i];
    }
    operations_.resize(kept);
    count_ = kept;
  }
  void clear() {
    operations_.clear();
    keys_.clear();
    rows_.clear();
    count_ = 0;
    implicit_ = true;
    reserved_ = 0;
  }
  //! clear(), and frees the memory too (after a bulk load's step).
  void release() {
    std::vector<Operation>().swap(operations_);
    keys_.release();
    rows_.release();
    clear();
  }
  //! Bytes held, used or not.
  size_t memory_bytes() const {
    return operations_.capacity() * sizeof(Operation) + keys_.capacity() + rows_.capacity();
  }

 private:
  static constexpr uint32_t kDelete = UINT32_MAX;  // row_offset of a delete
  struct Operation {
    uint32_t key_offset, key_size;
    uint32_t row_offset, row_size;
  };
  //! Writes the implicit operations out, one Operation each.
  void write_out() {
    operations_.reserve(std::max(reserved_, count_ + 1));
    for (size_t i = 0; i < count_; ++i) {
      operations_.push_back(
          {static_cast<uint32_t>(i * key_width_), key_width_, static_cast<uint32_t>(i * row_width_), row_width_});
    }
    implicit_ = false;
  }

  std::vector<Operation> operations_;  // empty while implicit_
  ByteBuffer keys_, rows_;
  size_t count_ = 0;
  size_t reserved_ = 0;   // operations reserve() made room for, written out or not
  bool implicit_ = true;  // operation i: the key at i * key_width_, the row at i * row_width_
  uint32_t key_width_ = 0, row_width_ = 0;
};

}  // namespace freshet
